// splitmix64 (Steele, Lea and Flood, 2014): the project's one portable random
// stream. The same seed gives the same numbers with every compiler and standard
// library (std:: distributions do not), so a seed names the same board, game or
// bot choice everywhere. The engine, the bots, the tools, the services and the
// tests all draw from this; none writes the step again.
#pragma once

#include <cstdint>

namespace metropolis {

// The next number of the stream whose state is *state; the state advances.
constexpr uint64_t SplitMixNext(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The first number of the stream at state `x`: a strong mix of x, for seeds
// derived from other seeds.
constexpr uint64_t SplitMixHash(uint64_t x) { return SplitMixNext(&x); }

// The stream as an object, with the draws its users need.
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(uint64_t seed) : state_(seed) {}

  constexpr uint64_t Next() { return SplitMixNext(&state_); }

  // Uniform in [0, 1): the top 53 bits scaled by 2^-53, exactly representable,
  // so the value is the same on every IEEE-754 platform.
  constexpr double Uniform() { return double(Next() >> 11) * 0x1.0p-53; }

  // Uniform in [0, n), n >= 1, unbiased: draws below 2^64 mod n are rejected so
  // that every residue is equally likely. What deals boards.
  constexpr uint64_t Below(uint64_t n) {
    const uint64_t threshold = (0 - n) % n;
    for (;;) {
      const uint64_t x = Next();
      if (x >= threshold) return x % n;
    }
  }

  // Uniform in [0, n) for n > 0 by Lemire's multiply on the top 32 bits: one
  // draw and no division, biased by at most n / 2^32. What simulations use.
  constexpr uint32_t BelowFast(uint32_t n) { return uint32_t((uint64_t(uint32_t(Next() >> 32)) * n) >> 32); }

 private:
  uint64_t state_;
};

}  // namespace metropolis
