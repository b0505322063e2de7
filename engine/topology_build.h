// Builds a topology's tables from the centres of its hexes: for each
// Seafarers map at start-up (sea_maps.cc), and in the tests for the standard
// board, whose constant tables (topology.cc) it must reproduce exactly, so
// that both numberings follow one set of rules. Internal to the engine.
//
// Numbering: hexes keep the order they are given in; nodes are the distinct
// hex corners sorted by screen position (top to bottom, then left to right);
// edges are the distinct hex sides sorted by the screen position of their
// midpoints, the same order; harbors keep the order they are given in.
#pragma once

#include <algorithm>
#include <array>
#include <utility>

#include "engine/sea_topology.h"

namespace metropolis::internal {

// Corner offsets from a hex centre, clockwise from the top.
inline constexpr int kCornerDx[6] = {0, 1, 1, 0, -1, -1};
inline constexpr int kCornerDy[6] = {-2, -1, 1, 2, 1, -1};

struct TopoPoint {
  int y = 0, x = 0;  // y first: ids follow reading order
  constexpr auto operator<=>(const TopoPoint&) const = default;
};

// Adds `value` to the first free (-1) slot of `slots`.
template <class T, size_t N>
constexpr void AppendSlot(std::array<T, N>& slots, int value) {
  for (T& s : slots) {
    if (s == -1) {
      s = static_cast<T>(value);
      return;
    }
  }
}

// `hexes[0..num_hexes)` and `harbors[0..num_harbors)` describe the board;
// num_hexes and num_harbors are at most the geometry's, the centres at most
// 127 from the origin.
// The land, region and kind fields are left for the caller.
template <class G>
constexpr BasicTopology<G> BuildTopologyTables(const HexPlace* hexes, int num_hexes, const HarborPlace* harbors,
                                               int num_harbors) {
  using T = BasicTopology<G>;
  using NodeId = typename T::NodeId;
  using EdgeId = typename T::EdgeId;
  using NodeMask = typename T::NodeMask;
  using EdgeMask = typename T::EdgeMask;
  using HexMask = typename T::HexMask;
  T t;
  t.num_hexes = num_hexes;
  t.num_harbors = num_harbors;
  for (auto& row : t.node_hexes) row.fill(-1);
  for (auto& row : t.node_nodes) row.fill(-1);
  for (auto& row : t.node_edges) row.fill(-1);
  for (auto& row : t.hex_neighbors) row.fill(-1);
  for (int h = 0; h < num_hexes; ++h) {
    t.hex_x[h] = static_cast<int8_t>(hexes[h].x);
    t.hex_y[h] = static_cast<int8_t>(hexes[h].y);
    t.hex_row[h] = static_cast<int8_t>(hexes[h].row);
    t.hex_col[h] = static_cast<int8_t>(hexes[h].col);
  }
  auto corner = [&](int h, int i) { return TopoPoint{hexes[h].y + kCornerDy[i], hexes[h].x + kCornerDx[i]}; };

  // Nodes: the distinct hex corners in reading order.
  std::array<TopoPoint, 6 * G::kMaxHexes> corners{};
  for (int h = 0; h < num_hexes; ++h)
    for (int i = 0; i < 6; ++i) corners[h * 6 + i] = corner(h, i);
  std::sort(corners.begin(), corners.begin() + 6 * num_hexes);
  std::array<TopoPoint, 6 * G::kMaxHexes> nodes{};
  int num_nodes = 0;
  for (int i = 0; i < 6 * num_hexes; ++i)
    if (i == 0 || corners[i] != corners[i - 1]) nodes[num_nodes++] = corners[i];
  t.num_nodes = num_nodes;
  // A map read from text may be too large for the geometry: the caller sees
  // the count and refuses it; nothing past the tables is written.
  if (num_nodes > G::kMaxNodes) return t;
  auto node_id = [&](TopoPoint p) {
    return static_cast<int>(std::lower_bound(nodes.begin(), nodes.begin() + num_nodes, p) - nodes.begin());
  };
  for (int v = 0; v < num_nodes; ++v) {
    t.node_x[v] = static_cast<int8_t>(nodes[v].x);
    t.node_y[v] = static_cast<int8_t>(nodes[v].y);
  }
  for (int h = 0; h < num_hexes; ++h) {
    for (int i = 0; i < 6; ++i) {
      const int v = node_id(corner(h, i));
      t.hex_nodes[h][i] = static_cast<NodeId>(v);
      AppendSlot(t.node_hexes[v], h);  // hexes come in ascending order
      t.hex_node_mask[h] |= MaskBit<NodeMask>(v);
    }
  }

  // Edges: distinct corner pairs ordered by midpoint (twice the midpoint keeps
  // it integral), which is the reading order of the edge centres.
  struct EdgeKey {
    TopoPoint twice_mid;
    int a = 0, b = 0;
    constexpr bool operator<(const EdgeKey& o) const { return twice_mid < o.twice_mid; }
  };
  std::array<EdgeKey, 6 * G::kMaxHexes> sides{};
  for (int h = 0; h < num_hexes; ++h) {
    for (int i = 0; i < 6; ++i) {
      int a = t.hex_nodes[h][i], b = t.hex_nodes[h][(i + 1) % 6];
      if (a > b) std::swap(a, b);
      sides[h * 6 + i] = {{t.node_y[a] + t.node_y[b], t.node_x[a] + t.node_x[b]}, a, b};
    }
  }
  std::sort(sides.begin(), sides.begin() + 6 * num_hexes);
  int num_edges = 0;
  for (int i = 0; i < 6 * num_hexes; ++i) num_edges += i == 0 || sides[i].twice_mid != sides[i - 1].twice_mid;
  t.num_edges = num_edges;
  if (num_edges > G::kMaxEdges) return t;
  num_edges = 0;
  for (int i = 0; i < 6 * num_hexes; ++i) {
    if (i > 0 && sides[i].twice_mid == sides[i - 1].twice_mid) continue;
    t.edge_nodes[num_edges] = {static_cast<NodeId>(sides[i].a), static_cast<NodeId>(sides[i].b)};
    ++num_edges;
  }
  t.num_edges = num_edges;

  for (int e = 0; e < num_edges; ++e) {
    const int a = t.edge_nodes[e][0], b = t.edge_nodes[e][1];
    t.edge_node_mask[e] = MaskBit<NodeMask>(a) | MaskBit<NodeMask>(b);
    AppendSlot(t.node_nodes[a], b);
    AppendSlot(t.node_edges[a], e);
    AppendSlot(t.node_nodes[b], a);
    AppendSlot(t.node_edges[b], e);
  }
  for (int v = 0; v < num_nodes; ++v) {
    // Neighbours sorted by id make the lists predictable for callers that
    // enumerate moves in a fixed order.
    std::array<std::pair<int, int>, 3> pairs{};
    int n = 0;
    for (int i = 0; i < 3 && t.node_nodes[v][i] != -1; ++i) pairs[n++] = {t.node_nodes[v][i], t.node_edges[v][i]};
    std::sort(pairs.begin(), pairs.begin() + n);
    for (int i = 0; i < n; ++i) {
      t.node_nodes[v][i] = static_cast<NodeId>(pairs[i].first);
      t.node_edges[v][i] = static_cast<EdgeId>(pairs[i].second);
      t.node_neighbor_mask[v] |= MaskBit<NodeMask>(pairs[i].first);
      t.node_edge_mask[v] |= MaskBit<EdgeMask>(pairs[i].second);
    }
    for (int i = 0; i < 3; ++i)
      if (t.node_hexes[v][i] >= 0) t.node_hex_mask[v] |= MaskBit<HexMask>(t.node_hexes[v][i]);
  }

  for (int h = 0; h < num_hexes; ++h) {
    for (int i = 0; i < 6; ++i) {
      const int a = t.hex_nodes[h][i], b = t.hex_nodes[h][(i + 1) % 6];
      for (int j = 0; j < 3; ++j)
        if (t.node_nodes[a][j] == b) t.hex_edges[h][i] = t.node_edges[a][j];
      t.hex_edge_mask[h] |= MaskBit<EdgeMask>(t.hex_edges[h][i]);
    }
  }
  // Two hexes are neighbours when they share a side; scanning ids in
  // ascending order keeps each list sorted.
  for (int h = 0; h < num_hexes; ++h)
    for (int other = 0; other < num_hexes; ++other)
      if (other != h && MaskAny(t.hex_edge_mask[h] & t.hex_edge_mask[other])) AppendSlot(t.hex_neighbors[h], other);

  for (int k = 0; k < num_harbors; ++k) {
    const int h = harbors[k].hex, side = harbors[k].side;
    const int a = t.hex_nodes[h][side], b = t.hex_nodes[h][(side + 1) % 6];
    t.harbor_nodes[k] = {static_cast<NodeId>(std::min(a, b)), static_cast<NodeId>(std::max(a, b))};
  }
  return t;
}

}  // namespace metropolis::internal
