// The position evaluation shared by the heuristic and the search bots.
//
// It reads only what the evaluated seat may see — the public board and
// pieces, its own hand and the hand sizes of the others — so the same view
// gives the same score whichever hidden cards a sampled state holds. Scores
// are in victory-point equivalents: a settlement is worth about its 1 VP plus
// what it will produce.
#pragma once

#include "engine/state.h"

namespace metropolis::bots {

// Pips of a number token: ways to roll it with two dice (0 for none or 7).
int Pips(int token);

// Expected cards per roll of each type that `seat`'s buildings yield (a
// city adds a commodity on forest, pasture and mountains under C&K rules).
std::array<double, kNumCardTypes> ProductionRates(const State& state, int seat);

// The VP everyone sees: without the seat's hidden VP cards until the game
// ends (RULES.md 22, BG-9).
int PublicVictoryPoints(const State& state, int seat);

// The score of `seat` without its hand: public victory points, production,
// ports, improvements, knights against the barbarians, room to grow; in the
// base game also its development cards by their number and the knights it
// played (Largest Army, BG-6). Everyone's public score, used to compare seats.
double BoardValue(const State& state, int seat);
// The score of `seat`'s hand: cards needed for a build it can make, surplus,
// the risk of a 7 (SEV-2); in the base game its own development cards by
// kind, hidden VP cards included.
double HandValue(const State& state, int seat);
// BoardValue + HandValue; ±1000 once the game is won or lost.
double Evaluate(const State& state, int seat);

// `seat`'s own score against its strongest opponent, squashed into [0, 1]:
// 1 for a win, 0 for a loss, 0.5 for level play. What search backs up.
double NormalizedValue(const State& state, int seat);

}  // namespace metropolis::bots
