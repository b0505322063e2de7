// The heuristic bot: one ply over its own legal actions, scored by the
// evaluation (evaluation.h).
//
// Applying an action needs a full State (the masked state of a view breaks
// card conservation and must not be played on), so each decision first
// samples one full state consistent with the view (SampleState, seeded from
// the bot's stream) and applies every legal action to a copy of it. The
// evaluation reads only what the seat may see, so the sample matters only
// where an action's result depends on hidden cards (a steal, a monopoly); a
// chance node right after the action (a roll, a steal) is averaged over its
// outcomes.
#pragma once

#include <vector>

#include "bots/bot.h"

namespace metropolis::bots {

class HeuristicBot : public Bot {
 public:
  Action Choose(const View& view, uint64_t* rng) override;
  std::string name() const override { return "heuristic"; }
};

// The one-ply score of each action of view.legal (same order) on `sampled`, a
// full state consistent with the view; higher is better. An action that is
// not legal in the sample scores -infinity. Shared with search (its prior).
void ScoreActions(const View& view, const State& sampled, std::vector<double>* scores);

// The action the heuristic takes given the scores: the best, ending the turn
// when nothing beats it; ties broken by `rng`.
int PickHeuristic(const View& view, const std::vector<double>& scores, uint64_t* rng);

}  // namespace metropolis::bots
