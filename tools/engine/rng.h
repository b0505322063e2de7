// The command line's random source: the engine's splitmix64 (engine/splitmix.h),
// the same stream on every platform, so that a seed names the same games everywhere (std::
// distributions differ between standard libraries).
#pragma once

#include <cstdint>

#include "engine/splitmix.h"

namespace metropolis::cli {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t Next() { return SplitMixNext(&state_); }
  // Uniform in [0, 1) from the top 53 bits.
  double Uniform() { return double(Next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n) for n > 0; Lemire's multiply keeps it unbiased enough
  // for n in the hundreds and needs no division.
  uint32_t Below(uint32_t n) { return uint32_t((uint64_t(uint32_t(Next() >> 32)) * n) >> 32); }

 private:
  uint64_t state_;
};

// Seeds of one simulated game: the chance stream of game `index`, and the
// stream of the player in `seat`. Each game's seeds depend only on its index,
// never on which thread plays it, so the thread count cannot change a game.
inline uint64_t GameChanceSeed(uint64_t seed, uint64_t index) { return SplitMixHash(seed + index); }
inline uint64_t GamePlayerSeed(uint64_t seed, uint64_t index, int seat) {
  return SplitMixHash(SplitMixHash(seed + index) ^ (0xD1B54A32D192ED03ull * uint64_t(seat + 1)));
}

}  // namespace metropolis::cli
