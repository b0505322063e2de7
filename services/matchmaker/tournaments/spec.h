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
};

// A check of the spec before anything is written: INVALID_ARGUMENT naming the
// field, or OK.
grpc::Status CheckTournamentSpec(const TournamentSpec& spec);

}  // namespace metropolis::matchmaker
