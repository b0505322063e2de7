// What a tournament's finished games say about its entrants, read the same way
// by the service (standings and pairs, service.cc) and the scheduler (whether
// to stop early, runner.cc): the per-set scores, and whether the sequential
// test has decided every pair.
#pragma once

#include <vector>

#include "services/matchmaker/tournaments/set_stats.h"
#include "services/matchmaker/tournaments/spec.h"
#include "services/matchmaker/tournaments/store.h"

namespace metropolis::matchmaker {

// The finished games as sets: a duplicate tournament's complete sets (every
// rotation finished), each other game a set of its own; the scores by set.
std::vector<SetScoreList> TournamentSetScores(const TournamentSpec& spec, const std::vector<TournamentGameRow>& games);

// True when every pair of the `entrants` has shared sets and its sequential
// test (SequentialPairTest, as the service reports it) has stopped: H1 either
// way or H0. False with fewer than two entrants.
bool EveryPairDecided(int entrants, const std::vector<SetScoreList>& scores_by_set, const SprtOptions& options);

}  // namespace metropolis::matchmaker
