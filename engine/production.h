// What a roll would give, asked without rolling: the production and progress
// draws of section 6 as functions of the dice, for analysis (the luck account
// weighs them by the dice distribution) and for bots. They run the rules'
// own code on a copy, so they can never disagree with a real roll.
#pragma once

#include <array>

#include "engine/state.h"

namespace metropolis {

// The cards each seat would receive if the production dice showed `sum`
// (PRD-1..PRD-4: the robber, cities and commodities, sabotage, a bank that runs
// short) in state `s`, as the production step would hand them out. The
// Aqueduct (PRD-5) is a choice made afterwards and is not included. A 7, or a
// sum outside 2..12, produces nothing.
std::array<int, kMaxSeats> CardsProducedBy(const State& s, int sum);

// Whether `seat` draws a progress card when the red die shows `red` and the
// event die `event` (EVT-2, PD-1/PD-2): a gate of a track in which the seat has
// an improvement whose level admits the red die. Never in the base game.
bool DrawsProgress(const State& s, int seat, int red, int event);

}  // namespace metropolis
