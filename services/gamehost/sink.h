// Where finished games go. The host hands every completed game to a sink and
// tells the seats the game is over only once the sink has kept it, so a game
// whose players saw "game over" is stored. The sink of a running host is the
// outbox (outbox.h), which delivers to the replays and ratings services.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "services/gamehost/debug_log.h"

namespace metropolis::gamehost {

// Why a game ended, numbered as v1::EndReason (the wire's) is: the outbox's JSON
// keeps the number, and forwarder.cc checks that the two agree.
enum class EndReason : int { kUnspecified = 0, kWon = 1, kLengthCap = 2, kAborted = 3, kResigned = 4 };

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
  // Per seat: played by the host's own bot (SeatSpec.built_in) rather than by a
  // client over the network. Kept apart from identity_ids, since a network
  // client need not have an identity.
  std::vector<bool> built_in;
  std::vector<bool> forfeited;  // per seat
  int resigned_seat = -1;       // kResigned: the seat that resigned (it is also forfeited)
  int64_t created_unix_ms = 0, finished_unix_ms = 0;
  std::string verifiable_seed;  // chance version 2 (GameSetup::verifiable_seed); record.seed is then empty
  // Per seat: its debug channel (debug_log.h), recorded from debug_from_step on.
  std::vector<SeatDebugLog> debug;
  uint32_t debug_from_step = 0;
};

// The JSON line a completed game is stored as: the engine's GameRecord (so it
// replays with the engine's tools) plus the host's fields.
std::string CompletedGameToJson(const CompletedGame& game);

class CompletedGameSink {
 public:
  virtual ~CompletedGameSink() = default;
  // Takes a completed game and returns at once; keeps it durably, retrying while
  // it cannot (a game is never dropped), then runs `stored` on the sink's own
  // thread. Keeping is idempotent on the game id.
  virtual void Put(CompletedGame game, std::function<void()> stored) = 0;
  // Blocks until every game Put so far is kept and its `stored` has run.
  virtual void WaitStored() = 0;
};

}  // namespace metropolis::gamehost
