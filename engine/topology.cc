#include "engine/topology.h"

#include <algorithm>
#include <array>
#include <utility>

namespace metropolis {
namespace {

// Pointy-top geometry on an integer grid: a hex centre sits at (2q + r, 3r)
// and its corners at these offsets, clockwise from the top. The shifts make
// every coordinate non-negative (x 0..10, y 0..16).
constexpr int kCornerDx[6] = {0, 1, 1, 0, -1, -1};
constexpr int kCornerDy[6] = {-2, -1, 1, 2, 1, -1};
constexpr int kShiftX = 5;
constexpr int kShiftY = 8;

// Axial steps to the neighbour across hex edge i (edge i joins corners i and
// i + 1, so it faces NE, E, SE, SW, W, NW in turn).
constexpr int kEdgeDq[6] = {1, 1, 0, -1, -1, 0};
constexpr int kEdgeDr[6] = {-1, 0, 1, 1, 0, -1};

// The harbors of the printed base-game frame: every other sea hex of the
// outer ring, three of them on ring corners (top left, right, bottom left).
// Each is given as the land hex it faces and that hex's coastal edge, in
// clockwise order from the top left.
struct HarborSpot {
  int q, r, edge;
};
constexpr HarborSpot kHarborSpots[kNumHarbors] = {
    {0, -2, 5},   // top-left hex, NW edge
    {1, -2, 0},   // top-middle hex, NE edge
    {2, -1, 0},   // right hex of row 2, NE edge
    {2, 0, 1},    // right end of the middle row, E edge
    {1, 1, 2},    // right hex of row 4, SE edge
    {-1, 2, 2},   // bottom-middle hex, SE edge
    {-2, 2, 3},   // bottom-left hex, SW edge
    {-2, 1, 4},   // left hex of row 4, W edge
    {-1, -1, 4},  // left hex of row 2, W edge
};

struct Point {
  int y, x;  // y first: ids follow reading order
  constexpr auto operator<=>(const Point&) const = default;
};

constexpr int HexIndex(const Topology& t, int q, int r) {
  for (int h = 0; h < kNumHexes; ++h)
    if (t.hex_q[h] == q && t.hex_r[h] == r) return h;
  return -1;
}

constexpr Point CornerPoint(const Topology& t, int h, int i) {
  return {3 * t.hex_r[h] + kShiftY + kCornerDy[i], 2 * t.hex_q[h] + t.hex_r[h] + kShiftX + kCornerDx[i]};
}

// Adds `value` to the first free (-1) slot of `slots`.
template <size_t N>
constexpr void Append(std::array<int8_t, N>& slots, int value) {
  for (int8_t& s : slots) {
    if (s == -1) {
      s = static_cast<int8_t>(value);
      return;
    }
  }
}

constexpr Topology BuildTopology() {
  Topology t;
  for (auto* table : {&t.node_hexes, &t.node_nodes, &t.node_edges})
    for (auto& row : *table) row.fill(-1);
  for (auto& row : t.hex_neighbors) row.fill(-1);

  int h = 0;
  for (int r = -2; r <= 2; ++r) {
    for (int q = std::max(-2, -2 - r); q <= std::min(2, 2 - r); ++q) {
      t.hex_q[h] = static_cast<int8_t>(q);
      t.hex_r[h] = static_cast<int8_t>(r);
      ++h;
    }
  }

  // Nodes: the distinct hex corners in reading order.
  std::array<Point, kNumHexes * 6> corners{};
  for (int hex = 0; hex < kNumHexes; ++hex)
    for (int i = 0; i < 6; ++i) corners[hex * 6 + i] = CornerPoint(t, hex, i);
  std::sort(corners.begin(), corners.end());
  std::array<Point, kNumNodes> nodes{};
  int num_nodes = 0;
  for (int i = 0; i < kNumHexes * 6; ++i)
    if (i == 0 || corners[i] != corners[i - 1]) nodes[num_nodes++] = corners[i];
  auto node_id = [&nodes](Point p) {
    return static_cast<int>(std::lower_bound(nodes.begin(), nodes.end(), p) - nodes.begin());
  };
  for (int v = 0; v < kNumNodes; ++v) {
    t.node_x[v] = static_cast<int8_t>(nodes[v].x);
    t.node_y[v] = static_cast<int8_t>(nodes[v].y);
  }
  for (int hex = 0; hex < kNumHexes; ++hex) {
    for (int i = 0; i < 6; ++i) {
      int v = node_id(CornerPoint(t, hex, i));
      t.hex_nodes[hex][i] = static_cast<int8_t>(v);
      Append(t.node_hexes[v], hex);  // hexes come in ascending order
      t.hex_node_mask[hex] |= uint64_t{1} << v;
    }
  }

  // Edges: distinct corner pairs ordered by midpoint (twice the midpoint keeps
  // it integral), which is the reading order of the edge centres.
  struct EdgeKey {
    Point twice_mid;
    int a, b;
    constexpr bool operator<(const EdgeKey& o) const { return twice_mid < o.twice_mid; }
  };
  std::array<EdgeKey, kNumHexes * 6> sides{};
  for (int hex = 0; hex < kNumHexes; ++hex) {
    for (int i = 0; i < 6; ++i) {
      int a = t.hex_nodes[hex][i], b = t.hex_nodes[hex][(i + 1) % 6];
      if (a > b) std::swap(a, b);
      sides[hex * 6 + i] = {{t.node_y[a] + t.node_y[b], t.node_x[a] + t.node_x[b]}, a, b};
    }
  }
  std::sort(sides.begin(), sides.end());
  int num_edges = 0;
  for (int i = 0; i < kNumHexes * 6; ++i) {
    if (i > 0 && sides[i].twice_mid == sides[i - 1].twice_mid) continue;
    t.edge_nodes[num_edges] = {static_cast<int8_t>(sides[i].a), static_cast<int8_t>(sides[i].b)};
    ++num_edges;
  }

  for (int e = 0; e < kNumEdges; ++e) {
    int a = t.edge_nodes[e][0], b = t.edge_nodes[e][1];
    t.edge_node_mask[e] = (uint64_t{1} << a) | (uint64_t{1} << b);
    Append(t.node_nodes[a], b);
    Append(t.node_edges[a], e);
    Append(t.node_nodes[b], a);
    Append(t.node_edges[b], e);
  }
  for (int v = 0; v < kNumNodes; ++v) {
    // Neighbours sorted by id make the lists predictable for callers that
    // enumerate moves in a fixed order.
    std::array<std::pair<int, int>, 3> pairs{};
    int n = 0;
    for (int i = 0; i < 3 && t.node_nodes[v][i] != -1; ++i) pairs[n++] = {t.node_nodes[v][i], t.node_edges[v][i]};
    std::sort(pairs.begin(), pairs.begin() + n);
    for (int i = 0; i < n; ++i) {
      t.node_nodes[v][i] = static_cast<int8_t>(pairs[i].first);
      t.node_edges[v][i] = static_cast<int8_t>(pairs[i].second);
      t.node_neighbor_mask[v] |= uint64_t{1} << pairs[i].first;
      const int e = pairs[i].second;
      if (e < 64)
        t.node_edge_lo[v] |= uint64_t{1} << e;
      else
        t.node_edge_hi[v] |= uint64_t{1} << (e - 64);
    }
    for (int i = 0; i < 3; ++i)
      if (t.node_hexes[v][i] >= 0) t.node_hex_mask[v] |= uint32_t{1} << t.node_hexes[v][i];
  }

  for (int hex = 0; hex < kNumHexes; ++hex) {
    for (int i = 0; i < 6; ++i) {
      int a = t.hex_nodes[hex][i], b = t.hex_nodes[hex][(i + 1) % 6];
      for (int j = 0; j < 3; ++j)
        if (t.node_nodes[a][j] == b) t.hex_edges[hex][i] = t.node_edges[a][j];
    }
    // Scanning ids in ascending order keeps each neighbour list sorted.
    for (int other = 0; other < kNumHexes; ++other) {
      for (int i = 0; i < 6; ++i) {
        if (t.hex_q[other] == t.hex_q[hex] + kEdgeDq[i] && t.hex_r[other] == t.hex_r[hex] + kEdgeDr[i])
          Append(t.hex_neighbors[hex], other);
      }
    }
  }

  for (int k = 0; k < kNumHarbors; ++k) {
    const HarborSpot& s = kHarborSpots[k];
    int hex = HexIndex(t, s.q, s.r);
    int a = t.hex_nodes[hex][s.edge], b = t.hex_nodes[hex][(s.edge + 1) % 6];
    t.harbor_nodes[k] = {static_cast<int8_t>(std::min(a, b)), static_cast<int8_t>(std::max(a, b))};
  }
  return t;
}

}  // namespace

namespace internal {
constexpr Topology kTopologyTable = BuildTopology();
}  // namespace internal

namespace {

constexpr const Topology& kTopology = internal::kTopologyTable;

// Cheap compile-time guards on the counts the rest of the engine relies on;
// the full invariants are checked by the tests.
constexpr bool CountsMatch() {
  for (int v = 0; v < kNumNodes; ++v)
    if (kTopology.node_hexes[v][0] == -1 || kTopology.node_nodes[v][1] == -1) return false;
  for (int e = 0; e < kNumEdges; ++e)
    if (kTopology.edge_nodes[e][0] >= kTopology.edge_nodes[e][1]) return false;
  return kTopology.node_y[kNumNodes - 1] == 16 && kTopology.node_y[0] == 0;
}
static_assert(CountsMatch());

}  // namespace

int EdgeBetween(int a, int b) {
  if (a < 0 || a >= kNumNodes || b < 0 || b >= kNumNodes) return -1;
  for (int i = 0; i < 3; ++i)
    if (kTopology.node_nodes[a][i] == b) return kTopology.node_edges[a][i];
  return -1;
}

}  // namespace metropolis
