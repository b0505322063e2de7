#include "engine/perft.h"

#include <memory>

#include "engine/splitmix.h"

namespace metropolis {
namespace {

// The engine's own generator. Its actions come from LegalActions() and are
// therefore applied unchecked: that is what makes the count a speed test too.
struct EngineMoves {
  // An ActionList is 16 KB: one per ply on the heap keeps deep counts off the
  // stack's limits.
  std::vector<std::unique_ptr<ActionList>> lists;

  ActionList& ListAt(int depth) {
    while (int(lists.size()) <= depth) lists.push_back(std::make_unique<ActionList>());
    return *lists[depth];
  }
  template <class F>
  void ForEachAction(const State& s, int depth, F&& f) {
    ActionList& list = ListAt(depth);
    s.LegalActions(&list);
    for (const Action& a : list) f(a);
  }
  uint64_t CountActions(const State& s, int depth) {
    ActionList& list = ListAt(depth);
    s.LegalActions(&list);
    return uint64_t(list.size);
  }
  std::vector<ChanceOutcome> Outcomes(const State& s) { return s.ChanceOutcomes(); }
  Action Sample(const State& s, double u) { return s.SampleChance(u); }
  bool Apply(State* s, const Action& a) {
    s->ApplyUnchecked(a);
    return true;
  }
};

struct PluggedMoves {
  const PerftGenerator& g;
  std::vector<Action> scratch;

  template <class F>
  void ForEachAction(const State& s, int /*depth*/, F&& f) {
    std::vector<Action> list;
    g.legal_actions(s, &list);
    for (const Action& a : list) f(a);
  }
  uint64_t CountActions(const State& s, int /*depth*/) {
    g.legal_actions(s, &scratch);
    return uint64_t(scratch.size());
  }
  std::vector<ChanceOutcome> Outcomes(const State& s) {
    std::vector<ChanceOutcome> out;
    g.chance_outcomes(s, &out);
    return out;
  }
  Action Sample(const State& s, double u) { return g.sample_chance(s, u); }
  bool Apply(State* s, const Action& a) { return s->Apply(a).empty(); }
};

template <class Moves>
uint64_t Count(Moves& moves, const State& s, int depth, const PerftOptions& o) {
  if (depth == 0) return 1;
  if (s.IsTerminal()) return 0;
  if (s.IsChanceNode()) {
    if (o.chance == PerftOptions::Chance::kFixed) {
      State next = s;
      if (!moves.Apply(&next, moves.Sample(s, PerftChanceValue(o.seed, s.action_count())))) return 0;
      return Count(moves, next, depth, o);
    }
    uint64_t total = 0;
    for (const ChanceOutcome& c : moves.Outcomes(s)) {
      if (depth == 1) {
        ++total;
        continue;
      }
      State next = s;
      if (moves.Apply(&next, c.action)) total += Count(moves, next, depth - 1, o);
    }
    return total;
  }
  // Every action leads to exactly one leaf at depth 1, terminal or not.
  if (depth == 1) return moves.CountActions(s, depth);
  uint64_t total = 0;
  moves.ForEachAction(s, depth, [&](const Action& a) {
    State next = s;
    if (moves.Apply(&next, a)) total += Count(moves, next, depth - 1, o);
  });
  return total;
}

template <class Moves>
std::vector<std::pair<Action, uint64_t>> Divide(Moves& moves, const State& s, int depth, const PerftOptions& o) {
  std::vector<std::pair<Action, uint64_t>> out;
  if (depth == 0 || s.IsTerminal()) return out;
  auto add = [&](const Action& a, int child_depth) {
    State next = s;
    out.emplace_back(a, moves.Apply(&next, a) ? Count(moves, next, child_depth, o) : 0);
  };
  if (s.IsChanceNode()) {
    if (o.chance == PerftOptions::Chance::kFixed) {
      add(moves.Sample(s, PerftChanceValue(o.seed, s.action_count())), depth);
    } else {
      for (const ChanceOutcome& c : moves.Outcomes(s)) add(c.action, depth - 1);
    }
    return out;
  }
  std::vector<Action> actions;
  moves.ForEachAction(s, depth, [&](const Action& a) { actions.push_back(a); });
  for (const Action& a : actions) add(a, depth - 1);
  return out;
}

}  // namespace

double PerftChanceValue(uint64_t seed, uint64_t actions_applied) {
  // 53 random bits: every double in [0, 1) that this yields is exact.
  return double(SplitMixHash(seed ^ SplitMixHash(actions_applied)) >> 11) * 0x1.0p-53;
}

uint64_t Perft(const State& s, int depth, const PerftOptions& options) {
  EngineMoves moves;
  return Count(moves, s, depth, options);
}

uint64_t Perft(const State& s, int depth, const PerftOptions& options, const PerftGenerator& generator) {
  PluggedMoves moves{generator, {}};
  return Count(moves, s, depth, options);
}

std::vector<std::pair<Action, uint64_t>> PerftDivide(const State& s, int depth, const PerftOptions& options) {
  EngineMoves moves;
  return Divide(moves, s, depth, options);
}

std::vector<std::pair<Action, uint64_t>> PerftDivide(const State& s, int depth, const PerftOptions& options,
                                                     const PerftGenerator& generator) {
  PluggedMoves moves{generator, {}};
  return Divide(moves, s, depth, options);
}

}  // namespace metropolis
