#include "services/gateway/analysis.h"

namespace metropolis::gateway {
namespace {

bool Fail(ApiError* error, ApiError e) {
  *error = std::move(e);
  return false;
}

// The service answered, but with something the API cannot pass on: not the
// client's doing.
ApiError BadAnswer(const std::string& message) {
  ApiError e = MakeError(502, "INTERNAL", "replays: " + message);
  e.backend = "replays";
  return e;
}

}  // namespace

std::string AnalysisStateName(v1::AnalysisState state) {
  switch (state) {
    case v1::ANALYSIS_READY:
      return "ready";
    case v1::ANALYSIS_QUEUED:
      return "queued";
    case v1::ANALYSIS_NOT_ANALYSED:
      return "not_analysed";
    default:
      return "";
  }
}

bool AnalysisToJson(const v1::GameAnalysis& a, Json* out, ApiError* error) {
  const std::string state = AnalysisStateName(a.state());
  if (state.empty())
    return Fail(error, BadAnswer("game " + a.game_id() + ": an analysis without a state (" +
                                 std::to_string(int(a.state())) + ")"));
  *out = {{"game_id", a.game_id()},    {"state", state},         {"analysis", nullptr},
          {"method_version", nullptr}, {"cpu_seconds", nullptr}, {"analysed_unix_ms", nullptr}};
  if (a.state() != v1::ANALYSIS_READY) return true;
  Json analysis = Json::parse(a.analysis_json(), nullptr, /*allow_exceptions=*/false);
  if (!analysis.is_object())
    return Fail(error, BadAnswer("game " + a.game_id() + ": the analysis is not a JSON object"));
  (*out)["analysis"] = std::move(analysis);
  (*out)["method_version"] = a.method_version();
  (*out)["cpu_seconds"] = a.cpu_seconds();
  (*out)["analysed_unix_ms"] = a.analysed_unix_ms();
  return true;
}

bool AnalysisCall(Backends* backends, const std::string& game_id, bool request, Json* out, ApiError* error) {
  if (!ValidGameId(game_id))
    return Fail(error, BadParameter("game_id", "'" + game_id.substr(0, 80) +
                                                   "' is not a game id (1 to 64 letters, digits, '-' or '_')"));
  v1::GameAnalysis analysis;
  auto context = backends->Context();
  grpc::Status s;
  if (request) {
    v1::RequestAnalysisRequest r;
    r.set_game_id(game_id);
    s = backends->replays().RequestAnalysis(context.get(), r, &analysis);
  } else {
    v1::GetAnalysisRequest r;
    r.set_game_id(game_id);
    s = backends->replays().GetAnalysis(context.get(), r, &analysis);
  }
  if (!s.ok()) {
    *error = BackendError(s, "replays");
    // Nothing was queued: the service's worker is behind, which the client
    // can only wait out (the answer's Retry-After says how long to wait first).
    if (request && s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED)
      error->message = "replays: the analysis queue is full; try again later";
    return false;
  }
  // The id asked for, whatever the service filled in.
  analysis.set_game_id(game_id);
  return AnalysisToJson(analysis, out, error);
}

Json LuckSummaryToJson(const v1::LuckSummary& s) {
  return {{"games", s.games()},
          {"luck_cards", s.luck_cards()},
          {"dice_surplus", s.dice_surplus()},
          {"draw_surplus", s.draw_surplus()},
          {"place", s.place()},
          {"adjusted_place", s.adjusted_place()}};
}

bool RecordToJson(const std::string& game_id, const v1::ExportGameResponse& exported, Json* out, ApiError* error) {
  *out = Json::parse(exported.record_json(), nullptr, /*allow_exceptions=*/false);
  if (!out->is_object()) return Fail(error, BadAnswer("game " + game_id + ": the record is not JSON"));
  if (exported.analysis_json().empty()) return true;
  Json analysis = Json::parse(exported.analysis_json(), nullptr, /*allow_exceptions=*/false);
  if (!analysis.is_object())
    return Fail(error, BadAnswer("game " + game_id + ": the record's analysis is not a JSON object"));
  (*out)["analysis"] = std::move(analysis);
  return true;
}

}  // namespace metropolis::gateway
