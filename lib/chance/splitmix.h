// splitmix64: a small counter-based random stream, the same on every platform.
// The bots draw their own choices from it over a caller-owned state, and the chance
// streams (chance.h) hash (seed, kind, index) with MixSeed.
#pragma once

#include <cstdint>

#include "engine/splitmix.h"

namespace metropolis::chance {

// The next number of the stream whose state is *state.
inline uint64_t NextRandom(uint64_t* state) { return SplitMixNext(state); }
// Uniform in [0, 1).
inline double UniformRandom(uint64_t* state) { return double(NextRandom(state) >> 11) * 0x1.0p-53; }
// Uniform in [0, n) for n > 0.
inline uint32_t RandomBelow(uint64_t* state, uint32_t n) {
  return uint32_t((uint64_t(uint32_t(NextRandom(state) >> 32)) * n) >> 32);
}
// A seed derived from another one and a salt, for independent sub-streams.
inline uint64_t MixSeed(uint64_t seed, uint64_t salt) {
  uint64_t s = seed ^ (salt * 0xD1B54A32D192ED03ull);
  return NextRandom(&s);
}

}  // namespace metropolis::chance
