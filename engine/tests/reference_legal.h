// A second, deliberately slow legal-action generator, written from RULES.md
// alone, to cross-check the engine's fast one (perft_test.cc).
//
// It enumerates every action of every type with every parameter (every edge,
// every node, every pair of nodes, every hex with every victim, every card,
// ...) and keeps those that a plain reading of the rules allows in the given
// state. It reads only the public accessors of State, the topology tables and
// the options; it never calls the engine's rules (LegalActions, CheckAction,
// ChanceOutcomes, HandLimit, the supply counters of PlayerState; SampleChance
// only to pick a branch, see Generator()), so that
// agreement between the two generators means something.
//
// Scope: RULES.md sections 4-17 and 19: every progress card with every
// parameter (reference_progress.cc, with docs/PROGRESS_CARDS.md's choices where
// the rules leave room), the decisions cards raise, and the turn-scoped card
// effects (Crane discounts, Merchant Fleet rates). Trade offers and counters
// are parameterised and never listed.
#pragma once

#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/perft.h"
#include "engine/state.h"

namespace metropolis::reference {

// Who acts next by this reading: a seat, kChancePlayer or kTerminalPlayer.
// During setup the seat is derived from the setup step (SET-2/SET-3 snake
// order), not taken from State::current_seat().
int CurrentPlayer(const State& s);

// The acting seat's legal actions sorted by Encode(); empty at chance nodes,
// at terminal states and when the pending stack's top is an automatic step
// (which should never be visible between two actions).
std::vector<Action> LegalActions(const State& s);

// Every chance outcome with its probability, sorted by Encode(); empty when
// the state is not a chance node.
std::vector<ChanceOutcome> ChanceOutcomes(const State& s);

// The reference as a perft move source. Under PerftOptions::Chance::kFixed it
// follows the branch the engine's SampleChance picks, after checking that the
// branch is one of the reference's outcomes.
const PerftGenerator& Generator();

// Whether the robber is still locked on the desert (ROB-1).
bool RobberLocked(const State& s);

// The best bank rate for giving `give` and taking `take` (TRD-2), or 0 when
// the pair is not a trade (same card).
int BankRate(const State& s, int seat, int give, int take);

// DEF-5/DEF-6: whether b is reachable from a along `seat`'s roads, where
// intermediate intersections must not hold another player's piece unless
// knight_path_through_opponents is on.
bool Reachable(const State& s, int seat, int a, int b);

}  // namespace metropolis::reference
