// The command line's random source: splitmix64, the same stream on every
// platform, so that a seed names the same games everywhere (std::
// distributions differ between standard libraries).
#pragma once

#include <cstdint>

namespace metropolis::cli {

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
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
inline uint64_t GameChanceSeed(uint64_t seed, uint64_t index) { return SplitMix64(seed + index); }
inline uint64_t GamePlayerSeed(uint64_t seed, uint64_t index, int seat) {
  return SplitMix64(SplitMix64(seed + index) ^ (0xD1B54A32D192ED03ull * uint64_t(seat + 1)));
}

}  // namespace metropolis::cli
