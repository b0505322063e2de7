// The bench signature: one 64-bit number that sums up the behaviour of the
// rules over many seeded games, in the spirit of Stockfish's `bench`. It must
// not change unless the rules are meant to change; when it does, the change is
// reviewed and the checked-in number (engine/tests/testdata/signature.txt) is
// updated deliberately with scripts/update-signature.sh. docs/VERIFICATION.md
// says how it fits with perft, fuzzing and Validate().
//
// Definition (part of what the number means, so changing it changes the
// number): game i of K, for i = 0..K-1, is played with game seed g = seed + i
// on RandomBoard(g) with 4 seats and the default options of the ruleset
// (DefaultOptions: C&K, or the base game of RULES.md 22). Chance nodes are
// sampled with SampleChance(u), u drawn from a splitmix64 stream seeded with
// g. A seat takes legal action number (x mod n) of its n sorted legal actions,
// x drawn from a second splitmix64 stream, seeded with the first output of one
// seeded with ~g. Every applied action's Encode(), then each game's Returns(),
// Winner(), action count and seats' victory points, are folded byte by byte
// (little-endian) into a 64-bit FNV-1a hash.
#pragma once

#include <cstdint>
#include <functional>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/splitmix.h"
#include "engine/state.h"

namespace metropolis {

struct BenchCounts {
  uint64_t games = 0;
  uint64_t actions = 0;         // every applied action, chance outcomes included
  uint64_t chance_actions = 0;  // of which chance outcomes
  uint64_t won = 0;             // games with a winner (the others hit the length cap)
};

uint64_t BenchSignature(int games, uint64_t seed, BenchCounts* counts = nullptr,
                        Ruleset ruleset = Ruleset::kCitiesAndKnights);

// The stream both the signature and the benchmarks draw from: splitmix64, whose
// Uniform() is exactly representable, so SampleChance's choice is the same on
// every IEEE-754 platform.
using BenchRng = SplitMix64;

// Plays one game of the bench signature's definition from `state` to its end:
// chance from `chance`, seats' choices uniform from `players`. `on_action` (may
// be empty) sees each action just before it is applied.
void PlayRandomGame(State* state, BenchRng* chance, BenchRng* players,
                    const std::function<void(const State&, const Action&)>& on_action);

}  // namespace metropolis
