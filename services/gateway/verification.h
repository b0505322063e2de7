// A stored game's chance, as the API shows it (docs/CHANCE.md): for a
// version 2 game, the revealed seed, the commitment the game announced, and
// the gateway's own check of both and of every chance outcome; and the game as
// the engine's record file, which `metropolis-engine verify --file` checks on
// the reader's machine.
#pragma once

#include <nlohmann/json.hpp>

#include "metropolis/v1/replays.pb.h"

namespace metropolis::gateway {

// {"version": 2, "seed": hex, "commitment": hex, "verified": true,
//  "chance_nodes": N, "rolls": N, "record": URL, "command": "..."}; for a
// version 1 game {"version": 1, "seed": "<decimal>", "verified": false, ...}.
// The record itself is Replays.ExportGame's (GET /api/v1/games/{id}/record).
nlohmann::json ChanceToJson(const v1::CompletedGameRecord& game);

}  // namespace metropolis::gateway
