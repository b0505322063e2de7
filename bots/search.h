// The search bot: information-set Monte Carlo tree search from one seat's
// view (single-observer ISMCTS with truncated playouts).
//
// Each iteration samples a full state consistent with the view (SampleState:
// hidden hands drawn from the cards the seat cannot place, respecting what
// its KnowledgeTracker knows), then walks a tree of the seat's own decisions
// in that sample: a child is available in an iteration only when its action
// is legal in the sample, and selection is UCB1 over the available children
// with the availability count in place of the parent's visits. Opponents and
// chance move by the fast default policy between the seat's decisions. After
// one new node the iteration plays `plies` more actions with the default
// policy, scores the position with NormalizedValue (the evaluation shared
// with the heuristic, in [0, 1], 1 and 0 for a won or lost game) and backs it
// up along the path.
//
// The root's children are the heuristic's best `top` actions (plus ending
// the turn), so the budget goes to plausible moves, each with `prior`
// virtual visits valued at its heuristic score relative to the best one (a
// score gap of one VP-equivalent is worth 0.1); the most visited one is
// played. Each sampled state serves `reuse` iterations. A forced move (one
// legal action) takes no search. With threads > 1 each thread grows its own
// tree from its own samples (root parallelism) and the root visit counts are
// summed.
//
// With an iteration budget a seeded search is reproducible, whatever the
// number of threads; with a time budget it stops on the clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "bots/trading.h"

namespace metropolis::bots {

struct SearchOptions {
  int64_t iterations = 0;  // per decision, over all threads; 0: use ms
  double ms = 50;          // per decision when iterations is 0
  int threads = 1;
  int plies = 30;  // default-policy actions after the tree, chance included
  int top = 8;     // root candidates kept from the heuristic's ranking
  double c = 0.6;  // UCB exploration constant (values are in [0, 1])
  // Virtual visits of a root candidate at the value its heuristic score
  // implies: with few playouts the search stays near the heuristic's choice.
  double prior = 10;
  int reuse = 4;  // iterations per sampled state (sampling runs a Validate())
  // Player trades (trading.h): decided by the heuristic's trade evaluation,
  // without search, so that an answer takes a few milliseconds whatever the
  // budget.
  TradeMode trade = TradeMode::kOn;
  // A bound on each decision's wall time whatever the budget (Bot::LimitThinking,
  // set by a host, not by the spec); 0: none. An iteration budget that hits it
  // is no longer reproducible.
  double max_ms = 0;
};

// Parses "ms=50,threads=2,trade=0,..." into *options; false with *error set.
bool ParseSearchOptions(std::string_view settings, SearchOptions* options, std::string* error);

struct SearchStats {
  int64_t decisions = 0;   // searched (not forced) decisions
  int64_t iterations = 0;  // playouts, over all threads
  double seconds = 0;      // wall time spent searching
  double cpu_seconds = 0;  // CPU time of the searching threads (what a loaded machine cannot take away)
};

// A root candidate of the last search: how often it was tried and the mean
// value of its playouts (NormalizedValue, in [0, 1]). The analysis reads it
// to tell a costly difference from a matter of taste.
struct RootChoice {
  Action action;
  int64_t visits = 0;
  double mean = 0;  // 0 when never visited
};

class SearchBot : public Bot {
 public:
  explicit SearchBot(const SearchOptions& options) : options_(options) {}
  Action Choose(const View& view, uint64_t* rng) override;
  std::string name() const override;
  double think_ms() const override { return options_.iterations > 0 ? 0 : options_.ms; }
  void LimitThinking(double ms) override { options_.max_ms = ms; }
  const SearchOptions& options() const { return options_; }
  SearchStats stats() const { return stats_; }
  // The candidates of the last decision that was searched; empty when it was
  // forced, a trade, or not searched at all.
  const std::vector<RootChoice>& last_root() const { return last_root_; }

 private:
  SearchOptions options_;
  SearchStats stats_;
  std::vector<RootChoice> last_root_;
};

// The fast default policy of playouts: builds first (city, settlement,
// improvement), knights when the barbarians draw near, otherwise ending the
// turn; uniform among equals and in every other decision. Also used by tests.
Action DefaultPolicy(const State& state, const ActionList& legal, uint64_t* rng);

}  // namespace metropolis::bots
