// Games stored before migration 0095 have no turn count: their listings show
// only their steps. A starting server fills it in from each game's own replay
// (prepare.h), in the background, once; the count is derived from the
// actions, outside the digest, so nothing the game's players saw changes.
#pragma once

#include <grpcpp/support/status.h>

#include <atomic>

#include "services/replays/replay_store.h"

namespace metropolis::replays {

struct TurnsBackfilled {
  int filled = 0;  // games whose turns were set
  int failed = 0;  // games that did not load or replay: left unknown, and logged
};

// Sets the turns of every game `store` holds without them, `batch` at a time,
// until none is left or `stop` is set (checked between games). An error of the
// store ends it early and is returned.
grpc::Status BackfillTurns(ReplayStore* store, const std::atomic<bool>& stop, TurnsBackfilled* out, int batch = 100);

}  // namespace metropolis::replays
