// A recorded game: its configuration plus the list of actions, as one line of
// JSON, and the replay that turns it back into states.
//
// The JSON shape (one line; keys in this order when written, any order and
// unknown keys accepted when read):
//
//   {"rules_version":1,"num_seats":4,
//    "board":{"terrain":"HFPG...","tokens":[5,2,...],"harbors":"blwgo3333"},
//    "options":"victory_points=10",
//    "seed":7,"winner":2,"players":["greedy","random","random","random"],
//    "actions":["build_settlement n12","build_road e17",...]}
//
// Terrain letters are TerrainLetter's, one per hex; tokens are 0 on the
// desert; harbors are one letter per slot, CardLetter's for a 2:1 harbor and
// '3' for a generic 3:1 one. Options are OptionsToString's text. Actions are
// in ActionToString's form rather than Encode's numbers so that a record stays
// readable and a person can edit one by hand; both are stable within a rules
// version. "seed", "winner" and "players" are optional, informative only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/event.h"
#include "engine/state.h"

namespace metropolis {

struct GameRecord {
  GameConfig config;
  std::vector<Action> actions;

  // Informative fields, written only when set and never needed to replay.
  std::optional<uint64_t> seed;      // what the host seeded its chance stream with
  std::optional<int> winner;         // a seat, or kNoSeat for a game without winner
  std::vector<std::string> players;  // who sat where, e.g. "greedy"
  // Verifiable chance (docs/CHANCE.md), lower-case hex: the revealed 32-byte
  // seed and the commitment the game announced. Empty for other games; checked
  // by `metropolis-engine verify`, not by the engine.
  std::string verifiable_seed, chance_commitment;
};

std::string GameRecordToJson(const GameRecord& record);

// Reads exactly the shape above. A record of another rules version is refused
// with CheckRulesVersion's message before its actions are read, since their
// text may mean something else there. On failure *error says what and where.
bool GameRecordFromJson(std::string_view json, GameRecord* record, std::string* error);

// Called once for the initial state (step 0, action nullptr, no events) and
// once after each applied action (step k for the k-th action, 1-based).
using ReplayStepFn =
    std::function<void(int step, const State& state, const Action* action, const std::vector<Event>& events)>;

// Starts a new game from the record's configuration and applies every action
// with checking. On an invalid configuration or an illegal action it stops
// and sets *error ("step 57: build_road e99: BLD-1: ..."). `on_step` may be
// empty.
bool ReplayGame(const GameRecord& record, const ReplayStepFn& on_step, std::string* error);

}  // namespace metropolis
