// Many games per call on threads, for training and measuring:
//
//   RunSelfPlay  plays games between players (built-in bots or the policy) and
//                returns the trajectories of the recorded seats: observation,
//                chosen action index and legal indices of each decision, and
//                each game's result.
//   RunArena     the arena of `metropolis-engine arena` (docs/BOTS.md), with a
//                policy allowed as the candidate: sets of one game per seat
//                sharing a board and the chance streams, the candidate rotating
//                through the seats, the same seeds as the command line.
//
// Game g of a self-play run depends only on the seed and g, never on the
// thread that plays it: results and trajectories come back in game order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/config.h"
#include "python/src/policy.h"

namespace metropolis::python {

// A seat's player: a bots::MakeBot spec, or the policy when `policy` is set.
struct PlayerSpec {
  std::string bot;
  std::shared_ptr<const PolicyNet> policy;
  PolicyBotOptions policy_options;
  std::string Name() const { return policy ? std::string("policy") : bot; }
};
// Checks a spec: an error for an unknown bot or a policy of another ruleset.
std::string CheckPlayer(const PlayerSpec& player, Ruleset ruleset);

struct SelfPlayOptions {
  GameConfig config;                // seats and options; its board unless random_board
  bool random_board = true;         // game g plays on RandomBoard(BoardSeed(GameSeed(seed, g)))
  std::vector<PlayerSpec> players;  // one per seat
  int64_t games = 1;
  uint64_t seed = 1;
  int threads = 1;
  std::vector<bool> record_seats;   // empty: every seat
  double record_probability = 1.0;  // of each recorded seat's decision
  bool record_forced = false;       // also decisions with a single legal action
  bool keep_records = false;        // each game's record as a JSON line
};

struct Trajectories {
  int observation_size = 0;
  // One entry per recorded decision, in game order then step order.
  std::vector<float> observations;  // decisions x observation_size
  std::vector<int32_t> actions, seats, games, steps;
  std::vector<int64_t> legal_offsets{0};  // decisions + 1: decision k's legal indices are
  std::vector<int32_t> legal;             // legal[legal_offsets[k] .. legal_offsets[k+1])
  // One entry per game.
  std::vector<int32_t> winners, lengths, turns;
  std::vector<int32_t> vp;  // games x kMaxSeats
  std::vector<uint64_t> game_seeds;
  std::vector<std::string> records;  // when keep_records
  std::vector<std::string> errors;   // a player's illegal action, per game ("" if none)
};

uint64_t GameSeed(uint64_t seed, int64_t game);
bool RunSelfPlay(const SelfPlayOptions& options, Trajectories* out, std::string* error);

struct ArenaOptions {
  GameConfig config;  // seats and options
  PlayerSpec candidate;
  std::vector<PlayerSpec> opponents;  // seats - 1, or one for every opponent seat
  int64_t games = 100;                // rounded up to whole sets
  uint64_t seed = 1;
  int threads = 1;
  bool default_board = false;
};

struct ArenaResult {
  int64_t games = 0, wins = 0, capped = 0, errors = 0;
  double candidate_vp = 0, opponent_vp = 0;  // means
  double mean_actions = 0, mean_turns = 0;
  double wilson_low = 0, wilson_high = 0, z = 0;
  std::vector<int64_t> seat_games, seat_wins;
  std::vector<int32_t> winners, candidate_seats;  // per game
  std::string first_error;
};

bool RunArena(const ArenaOptions& options, ArenaResult* out, std::string* error);

}  // namespace metropolis::python
