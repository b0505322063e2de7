// Board geometries: the sizes and bit-mask types a board's tables need.
//
//   StandardGeometry  the 19-hex board of Cities & Knights and of the base game:
//                     54 nodes in one 64-bit word, 72 edges in two, 19 hexes in
//                     a 32-bit word.
//   SeaGeometry       every Seafarers map (RULES.md 23.20): up to 76 hexes, 192
//                     nodes (three words) and 264 edges (five words).
//
// Today the Seafarers maps' topologies (engine/sea_topology.h) are built for
// SeaGeometry; the standard board keeps its own constant tables
// (engine/topology.h), and StandardGeometry serves the tests that check the
// shared topology builder against them. docs/SEAFARERS.md says how the rules
// are meant to use these types once Seafarers plays.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "engine/types.h"

namespace metropolis {

// A set of up to 64 * W elements (nodes, edges, hexes) as W words. Every
// operation is written out over the words at compile time: GCC at -O2 does not
// unroll even a loop of two.
template <int W>
struct Mask {
  static constexpr int kWords = W;
  std::array<uint64_t, W> w{};

  template <class F>
  static constexpr void ForWords(F&& f) {
    [&]<size_t... I>(std::index_sequence<I...>) { (f(int(I)), ...); }
    (std::make_index_sequence<W>{});
  }
  static constexpr Mask Bit(int i) {
    Mask m;
    m.w[i >> 6] = uint64_t(1) << (i & 63);
    return m;
  }
  constexpr bool Test(int i) const { return (w[i >> 6] >> (i & 63)) & 1; }
  constexpr void Set(int i) { w[i >> 6] |= uint64_t(1) << (i & 63); }
  constexpr void Clear(int i) { w[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  constexpr bool Any() const {
    uint64_t any = 0;
    ForWords([&](int k) { any |= w[k]; });
    return any != 0;
  }
  constexpr int Count() const {
    int n = 0;
    ForWords([&](int k) { n += std::popcount(w[k]); });
    return n;
  }
  constexpr Mask& operator|=(const Mask& o) {
    ForWords([&](int k) { w[k] |= o.w[k]; });
    return *this;
  }
  constexpr Mask& operator&=(const Mask& o) {
    ForWords([&](int k) { w[k] &= o.w[k]; });
    return *this;
  }
  constexpr Mask& operator^=(const Mask& o) {
    ForWords([&](int k) { w[k] ^= o.w[k]; });
    return *this;
  }
  friend constexpr Mask operator|(Mask a, const Mask& b) { return a |= b; }
  friend constexpr Mask operator&(Mask a, const Mask& b) { return a &= b; }
  friend constexpr Mask operator^(Mask a, const Mask& b) { return a ^= b; }
  constexpr Mask operator~() const {
    Mask m;
    ForWords([&](int k) { m.w[k] = ~w[k]; });
    return m;
  }
  constexpr bool operator==(const Mask&) const = default;
};

// The same vocabulary for a plain word, so that code written for a geometry
// reads alike whether its masks are one word or several.
inline constexpr bool MaskTest(uint64_t m, int i) { return (m >> i) & 1; }
inline constexpr bool MaskTest(uint32_t m, int i) { return (m >> i) & 1; }
template <int W>
constexpr bool MaskTest(const Mask<W>& m, int i) {
  return m.Test(i);
}
inline constexpr bool MaskAny(uint64_t m) { return m != 0; }
inline constexpr bool MaskAny(uint32_t m) { return m != 0; }
template <int W>
constexpr bool MaskAny(const Mask<W>& m) {
  return m.Any();
}
inline constexpr int MaskCount(uint64_t m) { return std::popcount(m); }
inline constexpr int MaskCount(uint32_t m) { return std::popcount(m); }
template <int W>
constexpr int MaskCount(const Mask<W>& m) {
  return m.Count();
}
template <class M>
constexpr M MaskBit(int i) {
  if constexpr (std::is_same_v<M, uint64_t> || std::is_same_v<M, uint32_t>)
    return M(1) << i;
  else
    return M::Bit(i);
}
inline constexpr void MaskSet(uint64_t& m, int i) { m |= uint64_t(1) << i; }
inline constexpr void MaskSet(uint32_t& m, int i) { m |= uint32_t(1) << i; }
template <int W>
constexpr void MaskSet(Mask<W>& m, int i) {
  m.Set(i);
}
inline constexpr void MaskClear(uint64_t& m, int i) { m &= ~(uint64_t(1) << i); }
template <int W>
constexpr void MaskClear(Mask<W>& m, int i) {
  m.Clear(i);
}

// Iterates the set bits of a mask in increasing order (METROPOLIS_FOR_BITS).
// One word: the loop of old. Several: one word after the other, the scan kept
// in registers.
template <class M>
struct BitScan;
template <>
struct BitScan<uint64_t> {
  uint64_t m;
  constexpr explicit BitScan(uint64_t mask) : m(mask) {}
  constexpr bool More() const { return m != 0; }
  constexpr int Index() const { return std::countr_zero(m); }
  constexpr void Next() { m &= m - 1; }
};
template <>
struct BitScan<uint32_t> : BitScan<uint64_t> {
  constexpr explicit BitScan(uint32_t mask) : BitScan<uint64_t>(mask) {}
};
template <int W>
struct BitScan<Mask<W>> {
  std::array<uint64_t, W> words;
  int word = 0;
  uint64_t m;
  constexpr explicit BitScan(const Mask<W>& mask) : words(mask.w), m(mask.w[0]) { Skip(); }
  constexpr void Skip() {
    while (m == 0 && word + 1 < W) m = words[++word];
  }
  constexpr bool More() const { return m != 0; }
  constexpr int Index() const { return 64 * word + std::countr_zero(m); }
  constexpr void Next() {
    m &= m - 1;
    Skip();
  }
};

// for each set bit `var` of `mask` (a word or a Mask), in increasing order. The
// mask is read once, before the loop.
#define METROPOLIS_FOR_BITS(var, mask)                                                                    \
  for (auto _s_##var = ::metropolis::BitScan<std::remove_cvref_t<decltype(mask)>>(mask); _s_##var.More(); \
       _s_##var.Next())                                                                                   \
    if (const int var = _s_##var.Index(); true)

// The standard board (docs/BOARD.md).
struct StandardGeometry {
  static constexpr bool kSea = false;
  static constexpr int kMaxHexes = kNumHexes, kMaxNodes = kNumNodes, kMaxEdges = kNumEdges;
  static constexpr int kMaxHarbors = kNumHarbors;
  using NodeMask = uint64_t;
  using EdgeMask = Mask<2>;
  using HexMask = uint32_t;
  using NodeId = int8_t;  // a node as stored, -1 for none
  using EdgeId = int8_t;
};

// Every Seafarers map (RULES.md 23.20; the largest, Through the Desert for 4,
// has 76 hexes, 186 nodes and 261 edges). Node arrays are rounded up to whole
// words.
struct SeaGeometry {
  static constexpr bool kSea = true;
  static constexpr int kMaxHexes = kSeaMaxHexes, kMaxNodes = kSeaMaxNodes, kMaxEdges = kSeaMaxEdges;
  static constexpr int kMaxHarbors = kSeaMaxHarbors;
  using NodeMask = Mask<(kSeaMaxNodes + 63) / 64>;
  using EdgeMask = Mask<(kSeaMaxEdges + 63) / 64>;
  using HexMask = Mask<(kSeaMaxHexes + 63) / 64>;
  using NodeId = int16_t;
  using EdgeId = int16_t;
};

}  // namespace metropolis
