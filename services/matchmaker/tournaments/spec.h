// What a tournament is asked to be (its id, format, rules, seats, limits and
// entrants), and the check of it before anything is written: pure, so that the
// service and the tests use one rule.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "services/matchmaker/tournaments/schedule.h"

namespace metropolis::matchmaker {

struct TournamentSpec {
  std::string id, title;
  TournamentFormat format = TournamentFormat::kRoundRobin;
  std::string ruleset = "cities_and_knights", options;
  int seats = 4, rounds = 1;
  uint64_t seed = 0;
  int max_games_per_entrant = 1;
  uint32_t decision_ms = 10'000, time_bank_ms = 60'000;
  std::vector<int64_t> entrants;  // identities; their index is the entrant number
  // Registration (docs/TOURNAMENTS.md): a start in the future makes the
  // tournament take entrants until then, up to max_entrants; 0 starts it now.
  int64_t starts_ms = 0;
  int max_entrants = 0;
  // Recurrence: the next occurrence, `<series>-<occurrence + 1>`, opens as this
  // one starts, repeat_every_ms later. series is empty for a tournament that
  // does not recur.
  int64_t repeat_every_ms = 0;
  std::string series;
  int occurrence = 1;
  // Arena: how long entrants are paired from the start.
  int64_t arena_ms = 0;
  // Stop once the sequential test has decided every pair (duplicate, round robin).
  bool sequential_stop = false;

  bool registration() const { return starts_ms > 0; }
};

// The most entrants a registering tournament takes unless told.
inline constexpr int kDefaultMaxEntrants = 16;
inline constexpr int64_t kMinRepeatMs = 10 * 60'000;            // recurring: at least every 10 minutes
inline constexpr int64_t kMaxStartAheadMs = 90 * 86'400'000LL;  // a start at most 90 days ahead
inline constexpr size_t kMaxSeriesIdLength = 32;                // room for "-<occurrence>"
inline constexpr int kMaxEntrantsCompared = 64;  // pairs are compared (and tested) up to this many entrants

// The next occurrence of a recurring tournament that starts (or was due) at
// `spec.starts_ms`: the same settings and entrants, the next id, a start
// `repeat_every_ms` later (skipping occurrences whose start passed before
// `now_ms`, so a scheduler that was down opens one, not a backlog), and the
// given seed.
TournamentSpec NextOccurrence(const TournamentSpec& spec, int64_t now_ms, uint64_t seed);

// A tournament seed drawn from the system's entropy, never 0 (0 asks for one).
uint64_t DrawTournamentSeed();

// A check of the spec before anything is written: INVALID_ARGUMENT naming the
// field, or OK. `now_ms` is the caller's clock, for the start: a start that is
// in the past is refused.
grpc::Status CheckTournamentSpec(const TournamentSpec& spec, int64_t now_ms);

}  // namespace metropolis::matchmaker
