// Perft: the number of action sequences of a given length from a position,
// the rules engine's counterpart of chess perft (STYLE.md "verified by
// numbers"). Counts from fixed positions are checked into
// engine/tests/testdata/perft.txt; a change in any count means the set of
// legal actions changed somewhere below that position.
//
// Definition. Perft(s, 0) = 1 for every state, terminal or not. For depth
// d > 0:
//   - a terminal state has no continuation: 0;
//   - a seat's node: the sum over its legal actions a of Perft(s + a, d - 1);
//   - a chance node, Chance::kExpand: the sum over its outcomes o of
//     Perft(s + o, d - 1), whatever their probabilities (every outcome is one
//     branch and one ply);
//   - a chance node, Chance::kFixed: Perft(s + o, d) for the single outcome o
//     drawn by SampleChance(PerftChanceValue(seed, s.action_count())); the
//     chance step is not a ply, so only the seats' decisions are counted and
//     deep counts stay small.
// Parameterised actions (trade offers and counters) are never listed, so
// perft never plays them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/action.h"
#include "engine/state.h"

namespace metropolis {

struct PerftOptions {
  enum class Chance { kExpand, kFixed };
  Chance chance = Chance::kExpand;
  uint64_t seed = 0;
};

// Where perft takes the moves from. The engine's own generator is the
// default; a test plugs in an independent one, so that the counts of the two
// can be compared (counts made by the generator under test prove nothing).
// A plugged-in generator's actions are applied with the checked
// State::Apply(); one the state refuses counts 0, which shows up as a
// difference in the count rather than as a corrupted state.
struct PerftGenerator {
  // The acting seat's legal actions, sorted by Encode().
  void (*legal_actions)(const State& s, std::vector<Action>* out) = nullptr;
  void (*chance_outcomes)(const State& s, std::vector<ChanceOutcome>* out) = nullptr;
  Action (*sample_chance)(const State& s, double u) = nullptr;
};

uint64_t Perft(const State& s, int depth, const PerftOptions& options);
uint64_t Perft(const State& s, int depth, const PerftOptions& options, const PerftGenerator& generator);

// The first ply of the count: every action of the root with the count below
// it, in the order of the legal actions (chance outcomes at a chance root);
// the counts sum to Perft(s, depth). Under Chance::kFixed a chance root has
// exactly one entry, the sampled outcome, counted with the full depth. Empty
// when depth is 0 or the state is terminal.
std::vector<std::pair<Action, uint64_t>> PerftDivide(const State& s, int depth, const PerftOptions& options);
std::vector<std::pair<Action, uint64_t>> PerftDivide(const State& s, int depth, const PerftOptions& options,
                                                     const PerftGenerator& generator);

// The value in [0, 1) that Chance::kFixed passes to SampleChance at a chance
// node reached after `actions_applied` actions of the game. It depends on the
// game's action count, not on the depth inside the search, so that the count
// below a child is the same whether it is reached from its parent or used as
// a root (PerftDivide sums to Perft).
double PerftChanceValue(uint64_t seed, uint64_t actions_applied);

}  // namespace metropolis
