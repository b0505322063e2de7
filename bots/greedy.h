// The greedy bot: one ply over its own legal actions, scored by a small
// hand-written evaluation (GreedyScore) of its own seat alone: no opponent
// model, no trades offered. A weak, fast reference opponent for the arena and
// the simulations (docs/BOTS.md); the heuristic bot (heuristic.h) is the
// stronger one-ply player.
//
// Like every bot it sees only its seat's view. Applying an action needs a full
// State (a view's masked state must not be played on), so a decision with a
// choice first samples one full state consistent with the view (SampleState,
// seeded from the bot's stream) and applies every legal action to a copy of
// it. The score reads only the seat's own hand and public facts, so the sample
// matters only where an action's result depends on hidden cards (a monopoly
// takes what the sample dealt the opponents).
#pragma once

#include <string>

#include "bots/bot.h"
#include "engine/state.h"

namespace metropolis::bots {

class GreedyBot : public Bot {
 public:
  Action Choose(const View& view, uint64_t* rng) override;
  std::string name() const override { return "greedy"; }
};

// The greedy bot's evaluation of a state for `seat`, exposed for tests and
// for tuning: higher is better. Reads the seat's own hand and public facts
// only (victory points, pieces, production, knights, levels, roads).
double GreedyScore(const State& state, int seat);

}  // namespace metropolis::bots
