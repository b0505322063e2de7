#include "python/src/selfplay.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "bots/match.h"
#include "engine/game.h"
#include "engine/view.h"
#include "lib/chance/chance.h"
#include "lib/chance/splitmix.h"
#include "python/src/observation.h"
#include "python/src/session.h"

namespace metropolis::python {
namespace {

std::unique_ptr<bots::Bot> MakePlayer(const PlayerSpec& p) {
  if (p.policy) return std::make_unique<PolicyBot>(p.policy, p.policy_options);
  std::string error;
  return bots::MakeBot(p.bot, &error);
}

// Runs fn(i) for i in [0, count) on `threads` threads.
template <typename Fn>
void ParallelFor(int64_t count, int threads, Fn fn) {
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t i; (i = next.fetch_add(1)) < count;) fn(i);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int64_t>(threads, count); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

void PlaySelfPlayGame(const SelfPlayOptions& o, int64_t g, Trajectories* out) {
  const uint64_t game_seed = GameSeed(o.seed, g);
  GameConfig config = o.config;
  if (o.random_board) config.board = RandomBoard(BoardSeed(game_seed));
  State state(config);
  std::string error;
  NewGame(config, &state, &error);  // the configuration was checked
  const int n = config.num_seats;
  const ActionSpace& space = ActionSpace::For(config.options.ruleset);
  const int d = ObservationLayout::Get().size();
  std::vector<std::unique_ptr<bots::Bot>> players;
  std::vector<uint64_t> streams;
  std::vector<KnowledgeTracker> knowledge;
  for (int seat = 0; seat < n; ++seat) {
    players.push_back(MakePlayer(o.players[size_t(seat)]));
    streams.push_back(BotSeed(game_seed, seat));
    knowledge.emplace_back(seat);
    knowledge.back().Reset(state);
  }
  chance::ChanceStreams chance(ChanceSeed(game_seed));
  uint64_t record_stream = chance::MixSeed(game_seed, 0x4EC0);
  GameRecord record;
  std::vector<Event> events;
  std::vector<int32_t> legal;
  const uint64_t hard_cap = uint64_t(config.options.max_actions) + 1000;
  std::string game_error;
  while (!state.IsTerminal() && record.actions.size() < hard_cap) {
    const int player = state.CurrentPlayer();
    Action action;
    if (player == kChancePlayer) {
      action = chance.Sample(state);
    } else {
      const View view = MakeView(state, player, &knowledge[size_t(player)]);
      action = players[size_t(player)]->Choose(view, &streams[size_t(player)]);
      const bool seat_recorded = o.record_seats.empty() || o.record_seats[size_t(player)];
      if (seat_recorded && (o.record_forced || view.legal.size() > 1) &&
          (o.record_probability >= 1 || chance::UniformRandom(&record_stream) < o.record_probability)) {
        legal.clear();
        for (const Action& a : view.legal)
          if (const int index = space.Index(a); index >= 0) legal.push_back(index);
        const int chosen = space.Index(action);
        if (chosen >= 0) {
          out->observations.resize(out->observations.size() + size_t(d));
          EncodeObservation(view, out->observations.data() + out->observations.size() - size_t(d));
          out->actions.push_back(chosen);
          out->seats.push_back(player);
          out->games.push_back(int32_t(g));
          out->steps.push_back(int32_t(record.actions.size()));
          out->legal.insert(out->legal.end(), legal.begin(), legal.end());
          out->legal_offsets.push_back(int64_t(out->legal.size()));
        }
      }
    }
    events.clear();
    if (std::string e = state.Apply(action, &events); !e.empty()) {
      game_error = "game " + std::to_string(g) + ", step " + std::to_string(record.actions.size() + 1) + " '" +
                   ActionToString(action) + "' by seat " + std::to_string(player) + ": " + e;
      break;
    }
    record.actions.push_back(action);
    for (const Event& e : events)
      for (KnowledgeTracker& k : knowledge) k.Observe(MaskEvent(e, k.viewer()));
  }
  out->winners.push_back(state.IsTerminal() ? state.Winner() : kNoSeat);
  out->lengths.push_back(int32_t(record.actions.size()));
  out->turns.push_back(state.turn_number());
  for (int seat = 0; seat < kMaxSeats; ++seat) out->vp.push_back(seat < n ? state.player(seat).vp : 0);
  out->game_seeds.push_back(game_seed);
  out->errors.push_back(game_error);
  if (o.keep_records) {
    record.config = config;
    record.seed = game_seed;
    record.winner = out->winners.back();
    for (const PlayerSpec& p : o.players) record.players.push_back(p.Name());
    out->records.push_back(GameRecordToJson(record));
  }
}

void Merge(Trajectories* into, Trajectories&& part) {
  const int64_t base = into->legal_offsets.back();
  into->observations.insert(into->observations.end(), part.observations.begin(), part.observations.end());
  into->actions.insert(into->actions.end(), part.actions.begin(), part.actions.end());
  into->seats.insert(into->seats.end(), part.seats.begin(), part.seats.end());
  into->games.insert(into->games.end(), part.games.begin(), part.games.end());
  into->steps.insert(into->steps.end(), part.steps.begin(), part.steps.end());
  for (size_t k = 1; k < part.legal_offsets.size(); ++k) into->legal_offsets.push_back(base + part.legal_offsets[k]);
  into->legal.insert(into->legal.end(), part.legal.begin(), part.legal.end());
  into->winners.insert(into->winners.end(), part.winners.begin(), part.winners.end());
  into->lengths.insert(into->lengths.end(), part.lengths.begin(), part.lengths.end());
  into->turns.insert(into->turns.end(), part.turns.begin(), part.turns.end());
  into->vp.insert(into->vp.end(), part.vp.begin(), part.vp.end());
  into->game_seeds.insert(into->game_seeds.end(), part.game_seeds.begin(), part.game_seeds.end());
  for (std::string& r : part.records) into->records.push_back(std::move(r));
  for (std::string& e : part.errors) into->errors.push_back(std::move(e));
}

// The command line's seeds (tools/engine/rng.h), so that an arena here plays
// the very games `metropolis-engine arena` plays for the same flags.
uint64_t SplitMix64(uint64_t x) { return chance::NextRandom(&x); }
uint64_t ArenaPlayerSeed(uint64_t seed, uint64_t index, int seat) {
  return SplitMix64(SplitMix64(seed + index) ^ (0xD1B54A32D192ED03ull * uint64_t(seat + 1)));
}

}  // namespace

std::string CheckPlayer(const PlayerSpec& player, Ruleset ruleset) {
  if (player.policy) {
    if (&player.policy->space() != &ActionSpace::For(ruleset))
      return "the policy was made for another ruleset's action space";
    if (!player.policy_options.greedy && player.policy_options.temperature <= 0) return "temperature must be > 0";
    return "";
  }
  std::string error;
  if (!bots::MakeBot(player.bot, &error)) return "player '" + player.bot + "': " + error;
  return "";
}

uint64_t GameSeed(uint64_t seed, int64_t game) { return chance::MixSeed(seed, uint64_t(game)); }

bool RunSelfPlay(const SelfPlayOptions& o, Trajectories* out, std::string* error) {
  GameConfig check = o.config;
  if (o.random_board) check.board = RandomBoard(1);
  if (std::string e = ValidateConfig(check); !e.empty()) {
    *error = "configuration: " + e;
    return false;
  }
  if (int(o.players.size()) != o.config.num_seats) {
    *error = "players: " + std::to_string(o.players.size()) + " for " + std::to_string(o.config.num_seats) + " seats";
    return false;
  }
  for (const PlayerSpec& p : o.players)
    if (std::string e = CheckPlayer(p, o.config.options.ruleset); !e.empty()) {
      *error = e;
      return false;
    }
  if (!o.record_seats.empty() && int(o.record_seats.size()) != o.config.num_seats) {
    *error = "record_seats: one flag per seat";
    return false;
  }
  if (o.games < 0 || o.threads < 1) {
    *error = "games must be >= 0 and threads >= 1";
    return false;
  }
  std::vector<Trajectories> parts(size_t(o.games));
  ParallelFor(o.games, o.threads, [&](int64_t g) { PlaySelfPlayGame(o, g, &parts[size_t(g)]); });
  *out = Trajectories();
  out->observation_size = ObservationLayout::Get().size();
  for (Trajectories& part : parts) Merge(out, std::move(part));
  return true;
}

bool RunArena(const ArenaOptions& o, ArenaResult* out, std::string* error) {
  const int seats = o.config.num_seats;
  GameConfig check = o.config;
  check.board = DefaultBoard();
  if (std::string e = ValidateConfig(check); !e.empty()) {
    *error = "configuration: " + e;
    return false;
  }
  std::vector<PlayerSpec> opponents = o.opponents;
  if (opponents.size() == 1) opponents.assign(size_t(seats - 1), opponents[0]);
  if (int(opponents.size()) != seats - 1) {
    *error =
        "opponents: " + std::to_string(o.opponents.size()) + " for " + std::to_string(seats - 1) + " opponent seats";
    return false;
  }
  const Ruleset ruleset = o.config.options.ruleset;
  if (std::string e = CheckPlayer(o.candidate, ruleset); !e.empty()) {
    *error = "candidate: " + e;
    return false;
  }
  for (const PlayerSpec& p : opponents)
    if (std::string e = CheckPlayer(p, ruleset); !e.empty()) {
      *error = "opponents: " + e;
      return false;
    }
  if (o.games < 1 || o.threads < 1) {
    *error = "games and threads must be >= 1";
    return false;
  }
  const int64_t games = (o.games + seats - 1) / seats * seats;
  std::vector<bots::GameOutcome> outcomes(static_cast<size_t>(games));
  ParallelFor(games, o.threads, [&](int64_t index) {
    const int64_t set = index / seats;
    const int rotation = int(index % seats);
    const uint64_t set_seed = SplitMix64(o.seed + uint64_t(set));
    GameConfig config = o.config;
    config.board = o.default_board ? DefaultBoard() : RandomBoard(set_seed);
    std::vector<std::unique_ptr<bots::Bot>> players;
    std::vector<bots::Seat> seat_list(static_cast<size_t>(seats));
    int next_opponent = 0;
    for (int seat = 0; seat < seats; ++seat) {
      players.push_back(MakePlayer(seat == rotation ? o.candidate : opponents[size_t(next_opponent++)]));
      seat_list[size_t(seat)].bot = players.back().get();
      seat_list[size_t(seat)].seed = ArenaPlayerSeed(o.seed, uint64_t(index), seat);
    }
    outcomes[size_t(index)] = bots::PlayGame(config, seat_list, set_seed ^ 0xC4A2CE5EEDull);
  });

  *out = ArenaResult();
  out->seat_games.assign(size_t(seats), 0);
  out->seat_wins.assign(size_t(seats), 0);
  double candidate_vp = 0, opponent_vp = 0, actions = 0, turns = 0;
  for (int64_t index = 0; index < games; ++index) {
    const bots::GameOutcome& g = outcomes[size_t(index)];
    const int seat = int(index % seats);
    out->winners.push_back(g.winner);
    out->candidate_seats.push_back(seat);
    if (!g.error.empty()) {
      if (out->errors++ == 0) out->first_error = g.error;
      continue;
    }
    ++out->games;
    ++out->seat_games[size_t(seat)];
    if (g.winner == seat) {
      ++out->wins;
      ++out->seat_wins[size_t(seat)];
    }
    if (g.winner == kNoSeat) ++out->capped;
    candidate_vp += g.vp[size_t(seat)];
    for (int other = 0; other < seats; ++other)
      if (other != seat) opponent_vp += g.vp[size_t(other)];
    actions += double(g.actions);
    turns += g.turns;
  }
  const double n = double(std::max<int64_t>(1, out->games));
  out->candidate_vp = candidate_vp / n;
  out->opponent_vp = opponent_vp / (n * (seats - 1));
  out->mean_actions = actions / n;
  out->mean_turns = turns / n;
  const bots::Interval ci = bots::WilsonInterval(out->wins, out->games);
  out->wilson_low = ci.low;
  out->wilson_high = ci.high;
  out->z = bots::ZScore(double(out->wins) / n, out->games, 1.0 / seats);
  return true;
}

}  // namespace metropolis::python
