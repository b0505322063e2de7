// Where finished games go. The host hands every completed game to a sink
// before it tells the seats the game is over, so a game whose players saw
// "game over" is stored; the replay and rating services plug in behind the
// same interface later. Storing is idempotent on the game id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/game.h"

namespace metropolis::gamehost {

// Why a game ended, numbered as v1::EndReason (the wire's) is: the outbox's JSON
// keeps the number, and forwarder.cc checks that the two agree.
enum class EndReason : int { kUnspecified = 0, kWon = 1, kLengthCap = 2, kAborted = 3 };

struct CompletedGame {
  std::string game_id;
  std::string request_id;  // the CreateGame call's (request_id.h); not stored with the game
  std::string ladder;
  uint32_t season = 0;
  std::string tournament;
  GameRecord record;  // configuration, every action, players, seed, winner
  EndReason reason = EndReason::kUnspecified;
  std::vector<int> vp;
  std::vector<uint32_t> fallback_decisions;  // per seat
  std::vector<int64_t> identity_ids;         // per seat, 0 for none
  std::vector<bool> forfeited;               // per seat
  int64_t created_unix_ms = 0, finished_unix_ms = 0;
};

// The JSON line a completed game is stored as: the engine's GameRecord (so it
// replays with the engine's tools) plus the host's fields.
std::string CompletedGameToJson(const CompletedGame& game);

class CompletedGameSink {
 public:
  virtual ~CompletedGameSink() = default;
  // True once the game is durably stored (also when it already was); false with
  // *error when it could not be, and the caller retries.
  virtual bool Store(const CompletedGame& game, std::string* error) = 0;
};

// One file per game under `dir`: written to a temporary name, fsynced, renamed
// into place, and the directory fsynced, so a stored game survives a crash or
// a power cut, and a half-written file never looks like a game.
class FileSink final : public CompletedGameSink {
 public:
  explicit FileSink(std::string dir);
  // Creates the directory; false with *error if it cannot.
  bool Open(std::string* error);
  bool Store(const CompletedGame& game, std::string* error) override;
  std::string PathOf(const std::string& game_id) const;

 private:
  std::string dir_;
};

}  // namespace metropolis::gamehost
