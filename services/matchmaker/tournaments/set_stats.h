// Statistics of duplicate play, as pure logic (docs/TOURNAMENTS.md, "Sets and
// pairs"). In a duplicate set every entrant at the table plays the same board,
// dice and decks from every seat, so the set, not the game, is the unit of
// evidence: its games share their luck, and an interval that treated them as
// independent would be too wide (the luck the set cancels counted as spread).
//
// An entrant's set score is the mean of its place scores over the set's
// rotations (SeatScore, lib/ranking/places.h). Only complete sets count: a set with a
// rotation missing has not cancelled its luck. Intervals come from the spread
// between sets, with Student's t for the few sets of a small tournament.
//
// A pairwise comparison takes the sets two entrants both sat in and the
// difference of their set scores in each: the pairing removes both the luck and
// whatever the set's table did to both. The sequential test (SequentialPairTest,
// lib/stats/sequential.h) reads those same differences.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/stats/intervals.h"
#include "lib/stats/sequential.h"
#include "services/matchmaker/tournaments/schedule.h"

namespace metropolis::matchmaker {

// A finished game of a set: the entrants by seat and their places (1-based).
struct SetGame {
  int set = -1;
  std::vector<int> entrants;
  std::vector<int> places;
};

// The games of complete sets, by set: a set is complete when it holds
// `rotations` finished games (a duplicate set has one per seat). Incomplete
// sets are left out.
std::vector<std::vector<SetGame>> CompleteSets(const std::vector<SetGame>& games, int rotations);

// entrant -> its set score, for every entrant of a complete set, by entrant
// ascending.
using SetScoreList = std::vector<std::pair<int, double>>;
SetScoreList SetScores(const std::vector<SetGame>& set);
// Each set's scores, in set order: computed once for a tournament and read by
// both SetStandings and PairComparisons.
std::vector<SetScoreList> ScoresBySet(const std::vector<std::vector<SetGame>>& sets);

using stats::MeanInterval;

struct SetStanding {
  int entrant = 0;
  MeanInterval score;  // over complete sets, in [0, 1]
};
// One per entrant (in entrant order), from the complete sets' scores
// (ScoresBySet), those in no complete set with n = 0 and the interval [0, 1].
std::vector<SetStanding> SetStandings(int entrants, const std::vector<SetScoreList>& scores_by_set);

// Duplicate standings: each entrant's score and interval replaced by its set
// standing's (entrants in no complete set score 0 with the interval [0, 1]),
// `sets` filled in, and the standings ranked again. Games and wins stay per game.
void UseSetScores(const std::vector<SetStanding>& sets, std::vector<Standing>* standings);

// Entrant a against entrant b over the sets they both sat in, a being the one
// ahead: the mean of (a's set score - b's), in [0, 1], and its interval.
// `better` is true when the interval lies above 0 (with two sets or more).
struct PairComparison {
  int a = 0, b = 0;
  MeanInterval difference;
  bool better = false;
  std::vector<double> differences;  // per shared set, in set order: what SequentialPairTest reads
};
// Every pair with at least one shared set, from the complete sets' scores
// (ScoresBySet), ordered by the lower entrant index, then the higher; equal
// means put the lower index first.
std::vector<PairComparison> PairComparisons(int entrants, const std::vector<SetScoreList>& scores_by_set);

// The sequential test the pairs report (SequentialPairTest on
// PairComparison::differences) lives in lib/stats, where the engine's arena
// measures its error rates on the sets of built-in bots without the
// matchmaker.
using stats::PairTest;
using stats::SequentialPairTest;
using stats::SprtOptions;
using stats::SprtVerdict;
using stats::SprtVerdictName;

}  // namespace metropolis::matchmaker
