// Checking and replaying a completed game as the replays service receives it:
// its configuration, seats, every action and the result it claims. A record is
// stored only if the engine replays it to the end it claims, so what is stored
// always replays.
#pragma once

#include <grpcpp/support/status.h>

#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/state.h"
#include "engine/view.h"
#include "metropolis/v1/replays.pb.h"

namespace metropolis::replays {

// The engine's configuration and actions of a record, after checking that the
// record is well formed and that the game replays to its claimed result.
// INVALID_ARGUMENT with the first problem otherwise.
// `final_state`, when given, receives the state after the last action.
grpc::Status CheckRecord(const v1::CompletedGameRecord& record, GameConfig* config, std::vector<Action>* actions,
                         State* final_state = nullptr);

// CheckRecord in parts, for a caller that replays the actions its own way (the
// store encodes them, which is a checked replay): the record's shape and its
// decoded actions, without replaying them; then the result the record claims
// against the state after its last action.
grpc::Status CheckShape(const v1::CompletedGameRecord& record, GameConfig* config, std::vector<Action>* actions);
grpc::Status CheckResult(const v1::CompletedGameRecord& record, const State& final_state);
// A version 2 game's chance (docs/CHANCE.md): the seed is 32 bytes, the
// commitment is the one to it, and every chance outcome of `actions` is what
// the seed draws. OK for a version 1 game (neither field set).
grpc::Status CheckVerifiableChance(const v1::CompletedGameRecord& record, const GameConfig& config,
                                   const std::vector<Action>& actions);

bool ValidGameId(const std::string& id);

// The record's stable action codes as stored (replays.codes): 8 bytes each,
// big-endian, and back (appended to g's actions).
std::string CodesToBytes(const v1::CompletedGameRecord& g);
void BytesToCodes(const std::string& bytes, v1::CompletedGameRecord* g);

// The view of `viewer` (a seat, or -1) after `step` actions, the events of the
// step's action as the viewer saw them, and, for the record's finished game,
// the full position in the engine's notation.
grpc::Status PositionAt(const GameConfig& config, const std::vector<Action>& actions, uint32_t step, int viewer,
                        v1::PositionResponse* out);

}  // namespace metropolis::replays
