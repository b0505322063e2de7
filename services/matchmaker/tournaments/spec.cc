#include "services/matchmaker/tournaments/spec.h"

#include <algorithm>
#include <random>
#include <regex>

#include "lib/common/grpc_util.h"

namespace metropolis::matchmaker {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

}  // namespace

grpc::Status CheckTournamentSpec(const TournamentSpec& spec, int64_t now_ms) {
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
  if (spec.format == TournamentFormat::kArena) {
    if (spec.arena_ms < 60'000 || spec.arena_ms > 7 * 86'400'000LL)
      return Invalid("arena_ms: an arena lasts 1 minute to 7 days");
  } else if (spec.arena_ms != 0) {
    return Invalid("arena_ms: only an arena has a duration");
  }
  if (spec.sequential_stop) {
    if (spec.format != TournamentFormat::kDuplicate && spec.format != TournamentFormat::kRoundRobin)
      return Invalid("sequential_stop: only a duplicate or round-robin tournament stops early");
    if (std::max(int(spec.entrants.size()), spec.max_entrants) > kMaxEntrantsCompared)
      return Invalid("sequential_stop: pairs are tested for at most 64 entrants");
  }
  if (spec.registration()) {
    if (spec.starts_ms <= now_ms) return Invalid("starts_unix_ms: " + std::to_string(spec.starts_ms) + " has passed");
    if (spec.starts_ms - now_ms > kMaxStartAheadMs) return Invalid("starts_unix_ms: more than 90 days ahead");
    if (spec.max_entrants < spec.seats || spec.max_entrants > 1000)
      return Invalid("max_entrants: must be " + std::to_string(spec.seats) + " (the seats of a table) to 1000");
    const int64_t size = ScheduleSize(spec.format, spec.max_entrants, spec.seats, spec.rounds);
    if (size > kMaxScheduledGames)
      return Invalid("max_entrants: " + std::to_string(spec.max_entrants) + " entrants would make a schedule of " +
                     (size == INT64_MAX ? std::string("too many") : std::to_string(size)) + " games, more than " +
                     std::to_string(kMaxScheduledGames));
    if (int(spec.entrants.size()) > spec.max_entrants)
      return Invalid("entrants: " + std::to_string(spec.entrants.size()) + " are more than max_entrants");
  } else if (spec.repeat_every_ms != 0) {
    return Invalid("repeat_every_ms: a recurring tournament needs a start (starts_unix_ms)");
  }
  if (spec.repeat_every_ms != 0) {
    if (spec.repeat_every_ms < kMinRepeatMs || spec.repeat_every_ms > kMaxStartAheadMs)
      return Invalid("repeat_every_ms: must be 10 minutes to 90 days");
    if (spec.series.empty() && spec.id.size() > kMaxSeriesIdLength)
      return Invalid("id: a recurring tournament's id has at most 32 characters (its occurrences add '-<n>')");
  }
  if (!spec.registration() && int(spec.entrants.size()) < spec.seats)
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

uint64_t DrawTournamentSeed() {
  uint64_t seed = 0;
  while (seed == 0) seed = uint64_t(std::random_device{}()) << 32 ^ std::random_device{}();
  return seed;
}

TournamentSpec NextOccurrence(const TournamentSpec& spec, int64_t now_ms, uint64_t seed) {
  TournamentSpec next = spec;
  next.series = spec.series.empty() ? spec.id : spec.series;
  next.starts_ms = spec.starts_ms + spec.repeat_every_ms;
  next.occurrence = spec.occurrence + 1;
  // A scheduler that was down past several starts opens the next that is
  // still ahead, numbered as if the ones missed had been held.
  while (spec.repeat_every_ms > 0 && next.starts_ms <= now_ms) {
    next.starts_ms += spec.repeat_every_ms;
    ++next.occurrence;
  }
  next.id = next.series + "-" + std::to_string(next.occurrence);
  next.seed = seed;
  return next;
}

}  // namespace metropolis::matchmaker
