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

#include <string>
#include <string_view>
#include <vector>

#include "bots/bot.h"
#include "bots/trading.h"

namespace metropolis::bots {

struct HeuristicOptions {
  TradeMode trade = TradeMode::kOn;  // player trades (trading.h)
};

// Parses "trade=1" into *options; false with *error set.
bool ParseHeuristicOptions(std::string_view settings, HeuristicOptions* options, std::string* error);

class HeuristicBot : public Bot {
 public:
  HeuristicBot() = default;
  explicit HeuristicBot(const HeuristicOptions& options) : options_(options) {}
  Action Choose(const View& view, uint64_t* rng) override;
  std::string name() const override;

 private:
  HeuristicOptions options_;
};

// The one-ply score of each action of view.legal (same order) on `sampled`, a
// full state consistent with the view; higher is better. An action that is
// not legal in the sample scores -infinity. Shared with search (its prior).
void ScoreActions(const View& view, const State& sampled, std::vector<double>* scores);

// The heuristic's score of a position for `seat` right after one of its
// actions: its evaluation against the strongest and the mean opponent, a
// chance node that follows averaged over its outcomes, plus the value of a
// card's step still to come. What ScoreActions gives each action.
double ScoreAfterAction(const State& state, int seat);

// The action the heuristic takes given the scores: the best, ending the turn
// when nothing beats it; ties broken by `rng`.
int PickHeuristic(const View& view, const std::vector<double>& scores, uint64_t* rng);

}  // namespace metropolis::bots
