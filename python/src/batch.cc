#include "python/src/batch.h"

#include <algorithm>
#include <cstring>

#include "lib/chance/splitmix.h"
#include "python/src/observation.h"

namespace metropolis::python {

uint64_t EpisodeSeed(uint64_t seed, int game, uint64_t episode) {
  return chance::MixSeed(chance::MixSeed(seed, uint64_t(game)), episode);
}

std::unique_ptr<BatchGames> BatchGames::Make(const BatchOptions& options, std::string* error) {
  if (options.num_games < 1) {
    *error = "num_games: " + std::to_string(options.num_games) + ", at least 1";
    return nullptr;
  }
  const std::vector<std::string>& bots = options.session.bots;
  if (!bots.empty() && std::all_of(bots.begin(), bots.end(), [](const std::string& b) { return !b.empty(); })) {
    *error = "bots: every seat is a bot; at least one seat must be played from outside";
    return nullptr;
  }
  // One session checks the configuration and the bot specs for all.
  if (!GameSession::Make(options.session, error)) return nullptr;
  std::unique_ptr<BatchGames> batch(new BatchGames(options));
  if (std::string e = batch->Reset(0); !e.empty()) {
    *error = e;
    return nullptr;
  }
  return batch;
}

BatchGames::BatchGames(const BatchOptions& options)
    : options_(options),
      space_(&ActionSpace::For(options.session.config.options.ruleset)),
      n_(options.num_games),
      obs_size_(ObservationLayout::Get().size()) {
  // Knowledge is tracked only when something reads views: observations or bots.
  SessionOptions session = options.session;
  session.knowledge = options.observations;
  std::string error;
  for (int i = 0; i < n_; ++i) games_.push_back(GameSession::Make(session, &error));
  episode_.assign(size_t(n_), 0);
  const size_t n = size_t(n_);
  to_act_.assign(n, kTerminalPlayer);
  legal_.assign(n * kMaxLegal, -1);
  legal_count_.assign(n, 0);
  winner_.assign(n, kNoSeat);
  episode_length_.assign(n, 0);
  terminated_.assign(n, 0);
  truncated_.assign(n, 0);
  rewards_.assign(n * kMaxSeats, 0);
  if (options_.masks) masks_.assign(n * size_t(space_->size()), 0);
  if (options_.observations) observations_.assign(n * size_t(obs_size_), 0);
}

void BatchGames::StartEpisode(int i) { games_[size_t(i)]->Reset(EpisodeSeed(seed_, i, episode_[size_t(i)]++)); }

void BatchGames::Refresh(int i) {
  const GameSession& g = *games_[size_t(i)];
  const int seat = g.to_act();
  to_act_[size_t(i)] = seat;
  int32_t* legal = legal_.data() + size_t(i) * kMaxLegal;
  uint8_t* mask = options_.masks ? masks_.data() + size_t(i) * size_t(space_->size()) : nullptr;
  // Only the previous legal entries of the mask are set: clearing them costs
  // O(legal), not O(action space).
  if (mask)
    for (int k = 0; k < legal_count_[size_t(i)]; ++k) mask[legal[k]] = 0;
  legal_count_[size_t(i)] = 0;
  if (seat < 0) return;  // a bot's bug stopped the game (GameSession::bug)
  g.state().LegalActions(&scratch_);
  int count = 0;
  for (const Action& a : scratch_) {
    const int index = space_->Index(a);
    if (index < 0) {
      // Never for a ruleset the table knows (the tests play every one); a new
      // ruleset's own action types must be added to the table first.
      if (error_.empty())
        error_ = "game " + std::to_string(i) + ": " + OutsideSpaceError(a, g.state().options().ruleset);
      continue;
    }
    legal[count++] = index;
    if (mask) mask[index] = 1;
  }
  legal_count_[size_t(i)] = count;
  if (options_.observations) EncodeObservation(g.ViewOf(seat), observations_.data() + size_t(i) * size_t(obs_size_));
}

std::string BatchGames::Reset(uint64_t seed) {
  seed_ = seed;
  error_.clear();
  std::fill(episode_.begin(), episode_.end(), 0);
  std::fill(terminated_.begin(), terminated_.end(), 0);
  std::fill(truncated_.begin(), truncated_.end(), 0);
  std::fill(rewards_.begin(), rewards_.end(), 0.0f);
  std::fill(winner_.begin(), winner_.end(), kNoSeat);
  std::fill(episode_length_.begin(), episode_length_.end(), 0);
  for (int i = 0; i < n_; ++i) {
    StartEpisode(i);
    Refresh(i);
  }
  return error_;
}

std::string BatchGames::Step(const int64_t* actions) {
  if (!error_.empty()) return error_;
  // Check everything first, so that a bad index changes nothing.
  for (int i = 0; i < n_; ++i) {
    const int64_t index = actions[i];
    if (to_act_[size_t(i)] < 0) return "game " + std::to_string(i) + " stopped: " + games_[size_t(i)]->bug();
    if (index < 0 || index >= space_->size())
      return "game " + std::to_string(i) + ": action index " + std::to_string(index) + " is outside 0.." +
             std::to_string(space_->size() - 1);
    const int32_t* legal = legal_.data() + size_t(i) * kMaxLegal;
    const int32_t* end = legal + legal_count_[size_t(i)];
    if (std::find(legal, end, int32_t(index)) == end) {
      const Action a = space_->ActionAt(int(index));
      std::string why = games_[size_t(i)]->state().CheckAction(a);
      return "game " + std::to_string(i) + ": action " + std::to_string(index) + " '" + ActionToString(a) +
             "' is not legal for seat " + std::to_string(to_act_[size_t(i)]) + (why.empty() ? "" : ": " + why);
    }
  }
  for (int i = 0; i < n_; ++i) {
    GameSession& g = *games_[size_t(i)];
    g.ApplyLegal(space_->ActionAt(int(actions[i])));
    ++decisions_;
    float* rewards = rewards_.data() + size_t(i) * kMaxSeats;
    const bool over = g.over();
    terminated_[size_t(i)] = over && !g.truncated();
    truncated_[size_t(i)] = g.truncated();
    if (over) {
      const auto returns = g.state().Returns();
      for (int s = 0; s < kMaxSeats; ++s) rewards[s] = float(returns[size_t(s)]);
      winner_[size_t(i)] = g.state().Winner();
      episode_length_[size_t(i)] = int32_t(g.actions().size());
      ++episodes_finished_;
      StartEpisode(i);
    } else {
      std::fill(rewards, rewards + kMaxSeats, 0.0f);
      winner_[size_t(i)] = kNoSeat;
      episode_length_[size_t(i)] = 0;
    }
    Refresh(i);
  }
  return error_;
}

}  // namespace metropolis::python
