// A game as the environments run it: one State, chance drawn from the chance
// streams (lib/chance), a KnowledgeTracker per seat for its views, and the
// seats that built-in bots play. Outside players (Python) choose the other
// seats' actions; everything else is advanced automatically, so after Reset()
// and after every Apply() the game waits for an outside seat or is over.
//
// Everything random comes from the episode seed: the board (when it is
// random), the chance streams and the bots' decision streams, so the same seed
// and the same outside actions give the same game.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "engine/config.h"
#include "engine/game.h"
#include "engine/state.h"
#include "engine/view.h"
#include "lib/chance/chance.h"

namespace metropolis::python {

// What every episode of an environment is: the configuration (its board is
// used unless random_board), and who plays each seat.
struct SessionOptions {
  GameConfig config;
  bool random_board = false;  // RandomBoard(seed-derived) at every reset
  // One entry per seat: "" for an outside player, else a bots::MakeBot spec.
  std::vector<std::string> bots;
  // Keep a KnowledgeTracker per seat (views with what the seat observed).
  // Bots always get one; without observations the trackers may be skipped.
  bool knowledge = true;
};

// The seeds one episode seed gives: independent sub-streams (splitmix64).
uint64_t BoardSeed(uint64_t episode_seed);
uint64_t ChanceSeed(uint64_t episode_seed);
uint64_t BotSeed(uint64_t episode_seed, int seat);

class GameSession {
 public:
  // Checks the options (configuration, bot specs); nullptr and *error if bad.
  static std::unique_ptr<GameSession> Make(const SessionOptions& options, std::string* error);

  // A new episode from `seed`, advanced to the first outside decision.
  void Reset(uint64_t seed);
  // Checks and applies an outside seat's action, then advances. Returns the
  // engine's error (naming the rule) and changes nothing when it is refused;
  // an action of a seat that is not to act is refused the same way.
  std::string Apply(const Action& action);
  // Applies an action known to be legal (from the legal list), then advances.
  void ApplyLegal(const Action& action);

  const State& state() const { return state_; }
  const GameConfig& config() const { return config_; }
  const SessionOptions& options() const { return options_; }
  // The seat whose decision is awaited, or kTerminalPlayer.
  int to_act() const { return state_.IsTerminal() || !bug_.empty() ? kTerminalPlayer : state_.CurrentPlayer(); }
  bool over() const { return state_.IsTerminal(); }
  // Over at the length cap (max_actions) without a winner: a truncation.
  bool truncated() const { return state_.IsTerminal() && state_.Winner() == kNoSeat; }
  uint64_t seed() const { return seed_; }

  // What `seat` may see now (with its knowledge when tracked).
  View ViewOf(int seat) const;
  // The game so far as a record (configuration, every action, the seed).
  GameRecord Record() const;
  const std::vector<Action>& actions() const { return actions_; }
  uint64_t outside_decisions() const { return outside_decisions_; }
  // Not empty when a bot chose an illegal action: the game stopped there.
  const std::string& bug() const { return bug_; }

 private:
  explicit GameSession(const SessionOptions& options);
  void Step(const Action& action);  // applies a legal action, feeds the trackers
  void Advance();                   // chance and bot seats until an outside seat or the end

  SessionOptions options_;
  GameConfig config_;  // this episode's (its board)
  State state_;
  std::unique_ptr<chance::ChanceStreams> chance_;
  std::vector<std::unique_ptr<bots::Bot>> bots_;  // nullptr: outside
  std::vector<uint64_t> bot_streams_;
  std::vector<KnowledgeTracker> knowledge_;
  bool track_ = false;
  std::vector<Event> events_;
  std::vector<Action> actions_;
  uint64_t seed_ = 0;
  uint64_t outside_decisions_ = 0;
  std::string bug_;
};

}  // namespace metropolis::python
