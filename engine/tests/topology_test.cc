#include "engine/topology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <utility>
#include <vector>

namespace metropolis {
namespace {

const Topology& T() { return GetTopology(); }

// Hexes sharing a node, counted by how many hexes the node touches.
TEST(TopologyTest, NodeHexDistribution) {
  std::array<int, 4> by_count{};
  for (int v = 0; v < kNumNodes; ++v) {
    int n = 0;
    for (int h : T().node_hexes[v]) {
      if (h == -1) continue;
      ASSERT_GE(h, 0);
      ASSERT_LT(h, kNumHexes);
      ++n;
    }
    ++by_count[n];
  }
  EXPECT_EQ(by_count[0], 0);
  EXPECT_EQ(by_count[1], 18);
  EXPECT_EQ(by_count[2], 12);
  EXPECT_EQ(by_count[3], 24);
}

TEST(TopologyTest, HexIdsAreAxialRowsTopToBottom) {
  int h = 0;
  for (int r = -2; r <= 2; ++r) {
    for (int q = -2; q <= 2; ++q) {
      if (std::abs(q + r) > 2) continue;
      EXPECT_EQ(T().hex_q[h], q) << "hex " << h;
      EXPECT_EQ(T().hex_r[h], r) << "hex " << h;
      ++h;
    }
  }
  EXPECT_EQ(h, kNumHexes);
}

TEST(TopologyTest, EachHexHasSixDistinctCornersClockwiseFromTop) {
  // Corner offsets from the centre (2q + r, 3r), in the header's units.
  constexpr int kDx[6] = {0, 1, 1, 0, -1, -1};
  constexpr int kDy[6] = {-2, -1, 1, 2, 1, -1};
  for (int h = 0; h < kNumHexes; ++h) {
    std::set<int> seen;
    const int cx = 2 * T().hex_q[h] + T().hex_r[h] + 5;
    const int cy = 3 * T().hex_r[h] + 8;
    for (int i = 0; i < 6; ++i) {
      const int v = T().hex_nodes[h][i];
      ASSERT_GE(v, 0);
      ASSERT_LT(v, kNumNodes);
      seen.insert(v);
      EXPECT_EQ(T().node_x[v], cx + kDx[i]) << "hex " << h << " corner " << i;
      EXPECT_EQ(T().node_y[v], cy + kDy[i]) << "hex " << h << " corner " << i;
      EXPECT_NE(T().hex_node_mask[h] & (uint64_t{1} << v), 0u);
    }
    EXPECT_EQ(seen.size(), 6u);
    EXPECT_EQ(__builtin_popcountll(T().hex_node_mask[h]), 6);
  }
}

TEST(TopologyTest, NodesInReadingOrder) {
  for (int v = 1; v < kNumNodes; ++v) {
    EXPECT_LT(std::make_pair(T().node_y[v - 1], T().node_x[v - 1]), std::make_pair(T().node_y[v], T().node_x[v]))
        << "node " << v;
  }
  EXPECT_EQ(T().node_y[0], 0);
  EXPECT_EQ(T().node_y[kNumNodes - 1], 16);
  for (int v = 0; v < kNumNodes; ++v) {
    EXPECT_GE(T().node_x[v], 0);
    EXPECT_LE(T().node_x[v], 10);
  }
}

TEST(TopologyTest, EdgesInMidpointOrderAndDistinct) {
  std::set<std::pair<int, int>> pairs;
  std::pair<int, int> prev{-1, -1};
  for (int e = 0; e < kNumEdges; ++e) {
    const int a = T().edge_nodes[e][0], b = T().edge_nodes[e][1];
    ASSERT_GE(a, 0);
    ASSERT_LT(a, b) << "edge " << e;
    ASSERT_LT(b, kNumNodes);
    pairs.insert({a, b});
    const std::pair<int, int> mid{T().node_y[a] + T().node_y[b], T().node_x[a] + T().node_x[b]};
    EXPECT_LT(prev, mid) << "edge " << e;
    prev = mid;
    // A hex side is either vertical (two quarter heights) or slanted (one step each way).
    const int dx = std::abs(T().node_x[a] - T().node_x[b]), dy = std::abs(T().node_y[a] - T().node_y[b]);
    EXPECT_TRUE((dx == 0 && dy == 2) || (dx == 1 && dy == 1)) << "edge " << e;
  }
  EXPECT_EQ(pairs.size(), static_cast<size_t>(kNumEdges));
}

TEST(TopologyTest, DegreesAndNeighbourLists) {
  int degree_sum = 0;
  for (int v = 0; v < kNumNodes; ++v) {
    int deg = 0;
    uint64_t mask = 0;
    for (int i = 0; i < 3; ++i) {
      const int w = T().node_nodes[v][i], e = T().node_edges[v][i];
      if (w == -1) {
        EXPECT_EQ(e, -1);
        continue;
      }
      ++deg;
      ASSERT_GE(e, 0);
      ASSERT_LT(e, kNumEdges);
      EXPECT_EQ(T().edge_nodes[e][0], std::min(v, w));
      EXPECT_EQ(T().edge_nodes[e][1], std::max(v, w));
      if (i > 0) {
        EXPECT_LT(T().node_nodes[v][i - 1], w);
      }
      mask |= uint64_t{1} << w;
    }
    // Padding only at the end.
    if (deg == 2) {
      EXPECT_EQ(T().node_nodes[v][2], -1);
    }
    EXPECT_TRUE(deg == 2 || deg == 3) << "node " << v;
    EXPECT_EQ(mask, T().node_neighbor_mask[v]);
    degree_sum += deg;
  }
  EXPECT_EQ(degree_sum / 2, kNumEdges);
  EXPECT_EQ(degree_sum % 2, 0);
}

TEST(TopologyTest, NodeHexesInverseOfHexNodes) {
  for (int v = 0; v < kNumNodes; ++v) {
    std::vector<int> expected;
    for (int h = 0; h < kNumHexes; ++h)
      for (int c : T().hex_nodes[h])
        if (c == v) expected.push_back(h);
    std::vector<int> actual;
    for (int h : T().node_hexes[v])
      if (h != -1) actual.push_back(h);
    EXPECT_EQ(actual, expected) << "node " << v;
    // A node touching only one hex sits in the corner of a coastal hex and has degree 2.
    int deg = T().node_nodes[v][2] == -1 ? 2 : 3;
    if (actual.size() == 1) {
      EXPECT_EQ(deg, 2);
    }
    if (actual.size() == 3) {
      EXPECT_EQ(deg, 3);
    }
  }
}

TEST(TopologyTest, HexEdgesFollowCorners) {
  for (int h = 0; h < kNumHexes; ++h) {
    std::set<int> seen;
    for (int i = 0; i < 6; ++i) {
      const int e = T().hex_edges[h][i];
      seen.insert(e);
      EXPECT_EQ(e, EdgeBetween(T().hex_nodes[h][i], T().hex_nodes[h][(i + 1) % 6])) << "hex " << h << " edge " << i;
    }
    EXPECT_EQ(seen.size(), 6u);
  }
}

TEST(TopologyTest, ThirtyCoastalEdges) {
  std::array<int, kNumEdges> hexes_per_edge{};
  for (int h = 0; h < kNumHexes; ++h)
    for (int e : T().hex_edges[h]) ++hexes_per_edge[e];
  int coastal = 0, inland = 0;
  for (int n : hexes_per_edge) {
    EXPECT_TRUE(n == 1 || n == 2);
    coastal += n == 1;
    inland += n == 2;
  }
  EXPECT_EQ(coastal, 30);
  EXPECT_EQ(inland, 42);
}

TEST(TopologyTest, HexNeighborsShareAnEdge) {
  std::array<int, 7> by_count{};
  for (int h = 0; h < kNumHexes; ++h) {
    std::vector<int> expected;
    for (int o = 0; o < kNumHexes; ++o) {
      if (o == h) continue;
      if (__builtin_popcountll(T().hex_node_mask[h] & T().hex_node_mask[o]) == 2) expected.push_back(o);
    }
    std::vector<int> actual;
    for (int o : T().hex_neighbors[h])
      if (o != -1) actual.push_back(o);
    EXPECT_EQ(actual, expected) << "hex " << h;
    ++by_count[actual.size()];
  }
  EXPECT_EQ(by_count[3], 6);
  EXPECT_EQ(by_count[4], 6);
  EXPECT_EQ(by_count[6], 7);
}

TEST(TopologyTest, EdgeBetween) {
  for (int e = 0; e < kNumEdges; ++e) {
    const int a = T().edge_nodes[e][0], b = T().edge_nodes[e][1];
    EXPECT_EQ(EdgeBetween(a, b), e);
    EXPECT_EQ(EdgeBetween(b, a), e);
  }
  int joined = 0;
  for (int a = 0; a < kNumNodes; ++a) {
    for (int b = 0; b < kNumNodes; ++b) {
      EXPECT_EQ(EdgeBetween(a, b), EdgeBetween(b, a));
      if (EdgeBetween(a, b) != -1) ++joined;
    }
  }
  EXPECT_EQ(joined, 2 * kNumEdges);
  EXPECT_EQ(EdgeBetween(0, 0), -1);
  EXPECT_EQ(EdgeBetween(-1, 3), -1);
  EXPECT_EQ(EdgeBetween(0, kNumNodes), -1);
}

TEST(TopologyTest, HarborsOnDistinctCoastalEdges) {
  std::array<int, kNumEdges> hexes_per_edge{};
  for (int h = 0; h < kNumHexes; ++h)
    for (int e : T().hex_edges[h]) ++hexes_per_edge[e];
  std::set<int> nodes;
  for (int k = 0; k < kNumHarbors; ++k) {
    const int a = T().harbor_nodes[k][0], b = T().harbor_nodes[k][1];
    EXPECT_LT(a, b);
    const int e = EdgeBetween(a, b);
    ASSERT_NE(e, -1) << "harbor " << k;
    EXPECT_EQ(hexes_per_edge[e], 1) << "harbor " << k;
    EXPECT_TRUE(nodes.insert(a).second) << "node " << a << " in two harbors";
    EXPECT_TRUE(nodes.insert(b).second) << "node " << b << " in two harbors";
  }
}

// Board-centred Euclidean position of a node (hex size 1, y down).
std::pair<double, double> Position(int v) {
  return {(T().node_x[v] - 5) * std::sqrt(3.0) / 2, (T().node_y[v] - 8) / 2.0};
}

TEST(TopologyTest, HarborsClockwiseFromTopLeft) {
  double prev = -1;
  for (int k = 0; k < kNumHarbors; ++k) {
    auto [xa, ya] = Position(T().harbor_nodes[k][0]);
    auto [xb, yb] = Position(T().harbor_nodes[k][1]);
    // Clockwise on screen (y down) means increasing atan2(y, x); start the
    // turn at the upper left, just past due west.
    double angle = std::atan2((ya + yb) / 2, (xa + xb) / 2);
    angle -= std::atan2(-1.0, -1.5);
    if (angle < 0) angle += 2 * std::numbers::pi;
    EXPECT_GT(angle, prev) << "harbor " << k;
    prev = angle;
  }
}

// The printed frame has three-fold symmetry: turning the board by 120 degrees
// maps the set of harbor edges onto itself.
TEST(TopologyTest, HarborLayoutHasThreeFoldSymmetry) {
  auto rotate = [](int v) {
    auto [x, y] = Position(v);
    const double c = std::cos(2 * std::numbers::pi / 3), s = std::sin(2 * std::numbers::pi / 3);
    const double rx = c * x - s * y, ry = s * x + c * y;
    for (int w = 0; w < kNumNodes; ++w) {
      auto [wx, wy] = Position(w);
      if (std::abs(wx - rx) < 1e-6 && std::abs(wy - ry) < 1e-6) return w;
    }
    return -1;
  };
  std::set<std::pair<int, int>> harbors;
  for (const auto& hn : T().harbor_nodes) harbors.insert({hn[0], hn[1]});
  for (const auto& hn : T().harbor_nodes) {
    int a = rotate(hn[0]), b = rotate(hn[1]);
    ASSERT_NE(a, -1);
    ASSERT_NE(b, -1);
    EXPECT_EQ(harbors.count({std::min(a, b), std::max(a, b)}), 1u);
  }
}

// These numbers are part of the action encoding: a change here is a new rules
// version, not a refactoring.
TEST(TopologyTest, PinnedNumbers) {
  const std::array<std::array<int8_t, 2>, kNumHarbors> harbors = {
      {{0, 3}, {1, 5}, {10, 15}, {26, 32}, {42, 46}, {49, 52}, {47, 51}, {33, 38}, {11, 16}}};
  EXPECT_EQ(T().harbor_nodes, harbors);
  EXPECT_EQ(T().hex_nodes[0], (std::array<int8_t, 6>{0, 4, 8, 12, 7, 3}));
  EXPECT_EQ(T().hex_nodes[9], (std::array<int8_t, 6>{18, 24, 30, 35, 29, 23}));
  EXPECT_EQ(T().hex_edges[9], (std::array<int8_t, 6>{28, 36, 44, 43, 35, 27}));
  EXPECT_EQ(T().hex_nodes[18], (std::array<int8_t, 6>{41, 46, 50, 53, 49, 45}));
  EXPECT_EQ(T().edge_nodes[0], (std::array<int8_t, 2>{0, 3}));
  EXPECT_EQ(T().edge_nodes[71], (std::array<int8_t, 2>{50, 53}));
  EXPECT_EQ(T().node_hexes[18], (std::array<int8_t, 3>{4, 5, 9}));
  EXPECT_EQ(T().hex_neighbors[9], (std::array<int8_t, 6>{4, 5, 8, 10, 13, 14}));
}

}  // namespace
}  // namespace metropolis
