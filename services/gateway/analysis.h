// A finished game's analysis (docs/ANALYSIS.md) in the API's terms
// (docs/GATEWAY.md, "A game's analysis"): the replays service's GameAnalysis
// as JSON, with the analysis itself parsed into the answer rather than passed
// on as a string, and the game's record with its analysis beside the actions.
// Both the public GET (api.h) and a person's POST (play_api.h) answer with
// AnalysisCall. A player's luck over their analysed games (GET
// /api/v1/players/{name}/luck) is LuckSummaryToJson.
#pragma once

#include <string>

#include "services/gateway/backends.h"
#include "services/gateway/json.h"

namespace metropolis::gateway {

// "ready", "queued", "not_analysed"; empty for a state the gateway does not know.
std::string AnalysisStateName(v1::AnalysisState state);

// {"game_id", "state", "analysis", "method_version", "cpu_seconds",
// "analysed_unix_ms"}; the last four null unless the analysis is ready. False
// (a 502 blaming replays) when the service's answer is not one the API can pass
// on: no state, or a ready analysis that is not a JSON object.
bool AnalysisToJson(const v1::GameAnalysis& analysis, Json* out, ApiError* error);

// Replays.GetAnalysis (request false) or Replays.RequestAnalysis (true) for
// `game_id`, answered as AnalysisToJson. 400 a bad id (naming game_id), 404 an
// unknown game, 409 a hidden one (as GetReplay), and for a request the queue
// being full is a 503 saying so.
bool AnalysisCall(Backends* backends, const std::string& game_id, bool request, Json* out, ApiError* error);

// The game record of ExportGame, with its analysis under "analysis" when it
// has one (the engine's record reader skips keys it does not know, so
// `metropolis-engine verify` and `replay` read the file as before). False (a
// 502 blaming replays) when the record, or a non-empty analysis, is not a JSON
// object.
bool RecordToJson(const std::string& game_id, const v1::ExportGameResponse& exported, Json* out, ApiError* error);

// {"games", "luck_cards", "dice_surplus", "draw_surplus", "place",
// "adjusted_place"}: Replays.GetLuckSummary's means, a game each, as they are
// (no games: all zero). The service's identity_id is left out: the endpoint
// names the player by name.
Json LuckSummaryToJson(const v1::LuckSummary& summary);

}  // namespace metropolis::gateway
