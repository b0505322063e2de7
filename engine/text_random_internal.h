// Small helpers the engine's readers and board dealers share (not part of the
// engine's API): splitting text, and splitmix64 with an unbiased bounded draw so
// that a seed deals the same board with every compiler and standard library.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace metropolis::internal {

// The pieces of `s` between each `sep`, empty pieces kept.
inline std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n >= 1. Draws below 2^64 mod n are rejected so that
  // every residue is equally likely.
  uint64_t Below(uint64_t n) {
    const uint64_t threshold = (0 - n) % n;
    for (;;) {
      const uint64_t x = Next();
      if (x >= threshold) return x % n;
    }
  }

 private:
  uint64_t state_;
};

}  // namespace metropolis::internal
