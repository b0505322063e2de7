// Batched stepping with Python in charge: N games stepped together, one
// outside action per game per call. After every call each game waits for an
// outside seat's decision; the call leaves in flat buffers (read by numpy
// without copies) who is to act, the legal actions as indices of the action
// space (a dense mask and/or a compact list), the observations of the seats to
// act, and what ended: a finished game's returns, then the game starts again
// from the next episode seed (auto-reset).
//
// Game i's k-th episode is seeded with EpisodeSeed(seed, i, k), so the games
// depend only on the seed and the actions chosen, never on N or the order of
// calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "python/src/action_space.h"
#include "python/src/session.h"

namespace metropolis::python {

struct BatchOptions {
  SessionOptions session;
  int num_games = 1;
  bool masks = true;          // the dense N x A mask (else only the compact lists)
  bool observations = false;  // the N x D observations of the seats to act
};

uint64_t EpisodeSeed(uint64_t seed, int game, uint64_t episode);

class BatchGames {
 public:
  // Room for the legal actions of one decision (the engine's ActionList).
  static constexpr int kMaxLegal = ActionList::kCapacity;

  static std::unique_ptr<BatchGames> Make(const BatchOptions& options, std::string* error);

  // Every game starts its first episode of `seed`. Returns an error when a
  // legal action has no index in the action space (a ruleset the table does
  // not cover yet); Step returns it too until the next Reset.
  std::string Reset(uint64_t seed);
  // One action index per game, for the seat to act. All are checked before
  // any is applied: on an error (an index out of range or not legal now)
  // nothing changes and the error names the game, the action and the rule.
  std::string Step(const int64_t* actions);

  int num_games() const { return n_; }
  int action_size() const { return space_->size(); }
  int observation_size() const { return obs_size_; }
  const ActionSpace& space() const { return *space_; }
  const GameSession& game(int i) const { return *games_[size_t(i)]; }

  // Buffers, valid until the next Step or Reset.
  const int32_t* to_act() const { return to_act_.data(); }                  // N
  const uint8_t* masks() const { return masks_.data(); }                    // N x A (when options.masks)
  const int32_t* legal() const { return legal_.data(); }                    // N x kMaxLegal, first count used
  const int32_t* legal_count() const { return legal_count_.data(); }        // N
  const float* observations() const { return observations_.data(); }        // N x D (when options.observations)
  const float* rewards() const { return rewards_.data(); }                  // N x kMaxSeats: returns of ended games
  const uint8_t* terminated() const { return terminated_.data(); }          // N: ended with a winner
  const uint8_t* truncated() const { return truncated_.data(); }            // N: ended at the length cap
  const int32_t* winner() const { return winner_.data(); }                  // N: of the ended game, else -1
  const int32_t* episode_length() const { return episode_length_.data(); }  // N: actions of the ended game
  uint64_t episodes_finished() const { return episodes_finished_; }
  uint64_t decisions() const { return decisions_; }  // outside actions applied

 private:
  explicit BatchGames(const BatchOptions& options);
  void StartEpisode(int i);
  void Refresh(int i);  // to_act, legal list, mask and observation of game i

  BatchOptions options_;
  const ActionSpace* space_;
  int n_;
  int obs_size_;
  uint64_t seed_ = 0;
  std::vector<std::unique_ptr<GameSession>> games_;
  std::vector<uint64_t> episode_;  // per game: episodes started
  ActionList scratch_;

  std::vector<int32_t> to_act_, legal_, legal_count_, winner_, episode_length_;
  std::vector<uint8_t> masks_, terminated_, truncated_;
  std::vector<float> observations_, rewards_;
  uint64_t episodes_finished_ = 0, decisions_ = 0;
  std::string error_;
};

}  // namespace metropolis::python
