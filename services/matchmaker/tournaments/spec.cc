#include "services/matchmaker/tournaments/spec.h"

#include <regex>

#include "lib/common/grpc_util.h"

namespace metropolis::matchmaker {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

}  // namespace

grpc::Status CheckTournamentSpec(const TournamentSpec& spec) {
  static const std::regex kId("^[A-Za-z0-9_-]{1,40}$");
  if (!std::regex_match(spec.id, kId))
    return Invalid("id: " + services::Quoted(spec.id) + " must be 1 to 40 letters, digits, '-' or '_'");
  if (spec.title.size() > 200) return Invalid("title: longer than 200 bytes");
  if (spec.ruleset != "cities_and_knights" && spec.ruleset != "base")
    return Invalid("ruleset: '" + spec.ruleset + "' is neither cities_and_knights nor base");
  if (spec.seats != 3 && spec.seats != 4) return Invalid("seats: " + std::to_string(spec.seats) + " is not 3 or 4");
  if (spec.rounds < 1 || spec.rounds > 1000) return Invalid("rounds: must be 1 to 1000");
  if (spec.max_games_per_entrant < 1 || spec.max_games_per_entrant > 64)
    return Invalid("max_games_per_entrant: must be 1 to 64");
  if (spec.decision_ms < 100 || spec.decision_ms > 3'600'000) return Invalid("decision_ms: must be 100 to 3600000");
  if (spec.time_bank_ms > 86'400'000) return Invalid("time_bank_ms: more than a day");
  if (int(spec.entrants.size()) < spec.seats)
    return Invalid("entrants: " + std::to_string(spec.entrants.size()) + " is fewer than the " +
                   std::to_string(spec.seats) + " seats of a table");
  if (spec.entrants.size() > 1000) return Invalid("entrants: more than 1000");
  for (size_t i = 0; i < spec.entrants.size(); ++i) {
    if (spec.entrants[i] <= 0) return Invalid("entrants[" + std::to_string(i) + "]: not an identity id");
    for (size_t j = 0; j < i; ++j)
      if (spec.entrants[j] == spec.entrants[i])
        return Invalid("entrants: identity " + std::to_string(spec.entrants[i]) + " is entered twice");
  }
  return grpc::Status::OK;
}

}  // namespace metropolis::matchmaker
