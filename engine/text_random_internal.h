// Small helpers the engine's readers and board dealers share (not part of the
// engine's API): splitting text, and the splitmix64 stream the dealers draw from
// (engine/splitmix.h), whose unbiased bounded draw deals the same board everywhere.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/splitmix.h"

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

// The dealers' stream: the engine's one splitmix64 (engine/splitmix.h).
using metropolis::SplitMix64;

}  // namespace metropolis::internal
