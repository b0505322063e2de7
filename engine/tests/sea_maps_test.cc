// The Seafarers maps as data (RULES.md 23.20, SEA-43..SEA-47), their
// topologies, deals and geometry description, and the topology builder they
// share with the standard board. Ruleset seafarers itself is still refused
// (config_test, options_test).
#include "engine/sea_maps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/config.h"
#include "engine/topology.h"
#include "engine/topology_build.h"

namespace metropolis {
namespace {

// ---------------------------------------------------------------------------
// The masks of several words the maps' topologies use (engine/geometry.h).

TEST(GeometryMaskTest, SetsAcrossWords) {
  using M = SeaGeometry::EdgeMask;  // five words
  const std::vector<int> bits = {0, 1, 63, 64, 127, 128, 200, 255, 256, kSeaMaxEdges - 1};
  M m;
  EXPECT_FALSE(m.Any());
  for (int b : bits) m.Set(b);
  EXPECT_EQ(m.Count(), int(bits.size()));
  EXPECT_TRUE(MaskAny(m));
  std::vector<int> seen;
  METROPOLIS_FOR_BITS(b, m) seen.push_back(b);
  EXPECT_EQ(seen, bits);
  for (int b = 0; b < kSeaMaxEdges; ++b)
    EXPECT_EQ(m.Test(b), std::find(bits.begin(), bits.end(), b) != bits.end()) << b;
  const M high = M::Bit(200) | M::Bit(256);
  EXPECT_EQ((m & high), high);
  EXPECT_EQ((m ^ high).Count(), int(bits.size()) - 2);
  EXPECT_EQ((~m & m).Count(), 0);
  m.Clear(64);
  EXPECT_FALSE(MaskTest(m, 64));
  // The same vocabulary on a plain word, and an empty scan.
  uint64_t word = MaskBit<uint64_t>(5) | MaskBit<uint64_t>(63);
  seen.clear();
  METROPOLIS_FOR_BITS(b, word) seen.push_back(b);
  EXPECT_EQ(seen, (std::vector<int>{5, 63}));
  MaskClear(word, 5);
  EXPECT_EQ(MaskCount(word), 1);
  seen.clear();
  METROPOLIS_FOR_BITS(b, M{}) seen.push_back(b);
  EXPECT_TRUE(seen.empty());
}

// ---------------------------------------------------------------------------
// The builder reproduces the standard board's constant tables, so the maps'
// numbering follows the rules docs/BOARD.md documents.

TEST(TopologyBuilderTest, ReproducesTheStandardBoard) {
  const Topology& std_t = GetTopology();
  std::array<HexPlace, kNumHexes> hexes{};
  for (int h = 0; h < kNumHexes; ++h) {
    const int q = std_t.hex_q[h], r = std_t.hex_r[h];
    // topology.cc's grid: centre (2q + r, 3r), shifted to non-negative.
    hexes[h] = {2 * q + r + 5, 3 * r + 8, r + 3, 0};
  }
  // Each standard harbor as the hex and side whose corners are its nodes.
  std::array<HarborPlace, kNumHarbors> harbors{};
  for (int k = 0; k < kNumHarbors; ++k) {
    bool found = false;
    for (int h = 0; h < kNumHexes && !found; ++h) {
      for (int side = 0; side < 6 && !found; ++side) {
        const int a = std_t.hex_nodes[h][side], b = std_t.hex_nodes[h][(side + 1) % 6];
        if (std::min(a, b) == std_t.harbor_nodes[k][0] && std::max(a, b) == std_t.harbor_nodes[k][1]) {
          harbors[k] = {h, side};
          found = true;
        }
      }
    }
    ASSERT_TRUE(found) << "harbor " << k;
  }
  const auto built =
      internal::BuildTopologyTables<StandardGeometry>(hexes.data(), kNumHexes, harbors.data(), kNumHarbors);
  ASSERT_EQ(built.num_hexes, kNumHexes);
  ASSERT_EQ(built.num_nodes, kNumNodes);
  ASSERT_EQ(built.num_edges, kNumEdges);
  for (int h = 0; h < kNumHexes; ++h) {
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(built.hex_nodes[h][i], std_t.hex_nodes[h][i]) << h;
      EXPECT_EQ(built.hex_edges[h][i], std_t.hex_edges[h][i]) << h;
      EXPECT_EQ(built.hex_neighbors[h][i], std_t.hex_neighbors[h][i]) << h;
    }
    EXPECT_EQ(built.hex_node_mask[h], std_t.hex_node_mask[h]) << h;
  }
  for (int v = 0; v < kNumNodes; ++v) {
    EXPECT_EQ(built.node_x[v], std_t.node_x[v]) << v;
    EXPECT_EQ(built.node_y[v], std_t.node_y[v]) << v;
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(built.node_hexes[v][i], std_t.node_hexes[v][i]) << v;
      EXPECT_EQ(built.node_nodes[v][i], std_t.node_nodes[v][i]) << v;
      EXPECT_EQ(built.node_edges[v][i], std_t.node_edges[v][i]) << v;
    }
    EXPECT_EQ(built.node_neighbor_mask[v], std_t.node_neighbor_mask[v]) << v;
    EXPECT_EQ(built.node_edge_mask[v].w[0], std_t.node_edge_lo[v]) << v;
    EXPECT_EQ(built.node_edge_mask[v].w[1], std_t.node_edge_hi[v]) << v;
    EXPECT_EQ(built.node_hex_mask[v], std_t.node_hex_mask[v]) << v;
  }
  for (int e = 0; e < kNumEdges; ++e) {
    EXPECT_EQ(built.edge_nodes[e], std_t.edge_nodes[e]) << e;
    EXPECT_EQ(built.edge_node_mask[e], std_t.edge_node_mask[e]) << e;
  }
  for (int k = 0; k < kNumHarbors; ++k) EXPECT_EQ(built.harbor_nodes[k], std_t.harbor_nodes[k]) << k;
}

// ---------------------------------------------------------------------------
// Every map.

struct MapCase {
  Scenario scenario;
  int seats;
  int hexes;             // RULES.md 23.20: rows times hexes per row
  int foreign, neutral;  // regions
  bool desert_robber;    // SEA-9: the robber starts on a desert
};
constexpr MapCase kMaps[] = {
    {Scenario::kNewShores, 3, 9 * 7, 3, 0, false},
    {Scenario::kNewShores, 4, 9 * 8, 3, 0, true},
    {Scenario::kThroughTheDesert, 3, 9 * 7, 4, 1, true},
    {Scenario::kThroughTheDesert, 4, 5 * 8 + 4 * 9, 4, 1, true},
};

std::string Name(const MapCase& c) { return std::string(ScenarioName(c.scenario)) + "/" + std::to_string(c.seats); }

TEST(SeaMapsTest, IndexNamesAndSizes) {
  std::set<int> indices;
  for (const MapCase& c : kMaps) {
    const SeaMap& m = GetSeaMap(c.scenario, c.seats);
    SCOPED_TRACE(Name(c));
    EXPECT_EQ(m.scenario, c.scenario);
    EXPECT_EQ(m.seats, c.seats);
    EXPECT_EQ(m.index, SeaMapIndex(c.scenario, c.seats));
    indices.insert(m.index);
    EXPECT_EQ(m.num_rows, 9);
    EXPECT_EQ(m.topology.num_hexes, c.hexes);
    EXPECT_EQ(m.target_vp, 15);  // SEA-42
    EXPECT_LE(m.topology.num_nodes, kSeaMaxNodes);
    EXPECT_LE(m.topology.num_edges, kSeaMaxEdges);
  }
  EXPECT_EQ(indices.size(), size_t(kNumSeaMaps));
  EXPECT_EQ(ScenarioName(Scenario::kNewShores), "NEW_SHORES");
  EXPECT_EQ(ScenarioName(Scenario::kThroughTheDesert), "THROUGH_THE_DESERT");
  // The largest map sizes the geometry (types.h): 76 hexes, 186 nodes, 261 edges.
  const SeaTopology& largest = GetSeaMap(Scenario::kThroughTheDesert, 4).topology;
  EXPECT_EQ(largest.num_hexes, kSeaMaxHexes);
  EXPECT_EQ(largest.num_nodes, 186);
  EXPECT_EQ(largest.num_edges, 261);
}

// The graph is a patch of hexes without holes: consistent adjacency, and
// Euler's formula for a disc, nodes - edges + hexes = 1.
TEST(SeaMapsTest, TopologyIsConsistent) {
  for (const MapCase& c : kMaps) {
    SCOPED_TRACE(Name(c));
    const SeaTopology& t = GetSeaMap(c.scenario, c.seats).topology;
    EXPECT_EQ(t.num_nodes - t.num_edges + t.num_hexes, 1);
    for (int e = 0; e < t.num_edges; ++e) {
      const int a = t.edge_nodes[e][0], b = t.edge_nodes[e][1];
      ASSERT_LT(a, b);
      int found = 0;
      for (int i = 0; i < 3; ++i) {
        found += t.node_nodes[a][i] == b && t.node_edges[a][i] == e;
        found += t.node_nodes[b][i] == a && t.node_edges[b][i] == e;
      }
      EXPECT_EQ(found, 2) << "edge " << e;
      // Neighbouring nodes are one step apart on the screen grid.
      const int dx = std::abs(t.node_x[a] - t.node_x[b]), dy = std::abs(t.node_y[a] - t.node_y[b]);
      EXPECT_TRUE((dx == 0 && dy == 2) || (dx == 1 && dy == 1)) << "edge " << e;
    }
    for (int v = 0; v < t.num_nodes; ++v) {
      int degree = 0, hexes = 0;
      for (int i = 0; i < 3; ++i) {
        degree += t.node_nodes[v][i] >= 0;
        hexes += t.node_hexes[v][i] >= 0;
      }
      EXPECT_GE(degree, 2) << v;
      EXPECT_GE(hexes, 1) << v;
      EXPECT_EQ(MaskCount(t.node_neighbor_mask[v]), degree) << v;
      EXPECT_EQ(MaskCount(t.node_edge_mask[v]), degree) << v;
      EXPECT_EQ(MaskCount(t.node_hex_mask[v]), hexes) << v;
      // Reading order: top to bottom, then left to right.
      if (v > 0) {
        EXPECT_TRUE(std::pair(t.node_y[v - 1], t.node_x[v - 1]) < std::pair(t.node_y[v], t.node_x[v])) << v;
      }
    }
    for (int h = 0; h < t.num_hexes; ++h) {
      std::set<int> nodes(t.hex_nodes[h].begin(), t.hex_nodes[h].end());
      std::set<int> edges(t.hex_edges[h].begin(), t.hex_edges[h].end());
      EXPECT_EQ(nodes.size(), 6u) << h;
      EXPECT_EQ(edges.size(), 6u) << h;
      EXPECT_EQ(MaskCount(t.hex_node_mask[h]), 6) << h;
      EXPECT_EQ(MaskCount(t.hex_edge_mask[h]), 6) << h;
      // Rows are read from the top, positions from the left (RULES.md 23.1).
      if (h > 0) {
        EXPECT_TRUE(std::pair(t.hex_row[h - 1], t.hex_col[h - 1]) < std::pair(t.hex_row[h], t.hex_col[h])) << h;
      }
      for (int n : t.hex_neighbors[h]) {
        if (n < 0) continue;
        EXPECT_TRUE(MaskAny(t.hex_edge_mask[h] & t.hex_edge_mask[n])) << h << " " << n;
      }
    }
  }
}

// SEA-1..SEA-4: land, sea, coasts and regions as the map's letters say.
TEST(SeaMapsTest, LandSeaAndRegions) {
  for (const MapCase& c : kMaps) {
    SCOPED_TRACE(Name(c));
    const SeaMap& m = GetSeaMap(c.scenario, c.seats);
    const SeaTopology& t = m.topology;
    int foreign = 0, neutral = 0;
    for (int r = 0; r < t.num_regions; ++r) {
      foreign += t.region_kind[r] == kForeignRegion;
      neutral += t.region_kind[r] == kNeutralRegion;
    }
    EXPECT_EQ(t.region_letter[0], 'm');
    EXPECT_EQ(t.region_kind[0], kHomeRegion);
    EXPECT_EQ(foreign, c.foreign);
    EXPECT_EQ(neutral, c.neutral);
    for (int h = 0; h < t.num_hexes; ++h) {
      const bool sea = m.default_board.terrain[h] == kSea;
      EXPECT_EQ(t.sea_hexes.Test(h), sea) << h;
      EXPECT_EQ(t.land_hexes.Test(h), !sea) << h;
      EXPECT_EQ(t.hex_region[h] < 0, sea) << h;
      // The border of every map is sea.
      if (t.hex_row[h] == 1 || t.hex_row[h] == m.num_rows || t.hex_col[h] == 1 ||
          t.hex_col[h] == m.row_length[t.hex_row[h] - 1]) {
        EXPECT_TRUE(sea) << h;
      }
    }
    for (int v = 0; v < t.num_nodes; ++v) {
      bool land = false;
      for (int h : t.node_hexes[v]) land |= h >= 0 && t.land_hexes.Test(h);
      EXPECT_EQ(t.land_nodes.Test(v), land) << v;
      EXPECT_EQ(t.sea_nodes.Test(v), !land) << v;
      EXPECT_EQ(t.home_nodes.Test(v), t.node_region[v] == 0) << v;
    }
    for (int e = 0; e < t.num_edges; ++e) {
      int land = 0, sea = 0;
      for (int h = 0; h < t.num_hexes; ++h)
        if (t.hex_edge_mask[h].Test(e)) (t.land_hexes.Test(h) ? land : sea)++;
      EXPECT_EQ(t.road_edges.Test(e), land > 0) << e;
      EXPECT_EQ(t.ship_edges.Test(e), sea > 0) << e;
    }
    EXPECT_TRUE(t.sea_hexes.Test(m.pirate_hex));  // SEA-9
    if (c.desert_robber) {
      EXPECT_EQ(m.default_board.terrain[m.robber_hex], kDesert);
    } else {
      EXPECT_EQ(m.robber_hex, -1);
    }
  }
}

// SEA-43: the main island of New Shores for 4 is the default base board, its
// harbors the nine standard slots in the default order, in the same places.
TEST(SeaMapsTest, NewShoresFourHasTheStandardBoardAsItsMainIsland) {
  const SeaMap& m = GetSeaMap(Scenario::kNewShores, 4);
  const SeaTopology& t = m.topology;
  const Topology& std_t = GetTopology();
  const Board standard = DefaultBoard();
  std::vector<int> home;
  for (int h = 0; h < t.num_hexes; ++h)
    if (t.hex_region[h] == 0) home.push_back(h);
  ASSERT_EQ(home.size(), size_t(kNumHexes));
  // The offset between the two screen grids, from the first hex.
  const int dx = t.hex_x[home[0]] - (2 * std_t.hex_q[0] + std_t.hex_r[0] + 5);
  const int dy = t.hex_y[home[0]] - (3 * std_t.hex_r[0] + 8);
  for (int i = 0; i < kNumHexes; ++i) {
    EXPECT_EQ(m.default_board.terrain[home[i]], standard.terrain[i]) << i;
    EXPECT_EQ(m.default_board.token[home[i]], standard.token[i]) << i;
  }
  ASSERT_EQ(t.num_harbors, kNumHarbors);
  for (int k = 0; k < kNumHarbors; ++k) {
    EXPECT_EQ(m.default_board.harbor[k], standard.harbor[k]) << k;
    for (int end = 0; end < 2; ++end) {
      const int sv = std_t.harbor_nodes[k][end], v = t.harbor_nodes[k][end];
      EXPECT_EQ(t.node_x[v], std_t.node_x[sv] + dx) << k;
      EXPECT_EQ(t.node_y[v], std_t.node_y[sv] + dy) << k;
    }
  }
}

TEST(SeaMapsTest, HarborsAreOnCoasts) {
  for (const MapCase& c : kMaps) {
    SCOPED_TRACE(Name(c));
    const SeaTopology& t = GetSeaMap(c.scenario, c.seats).topology;
    EXPECT_GE(t.num_harbors, 8);
    std::set<std::pair<int, int>> seen;
    for (int k = 0; k < t.num_harbors; ++k) {
      const int a = t.harbor_nodes[k][0], b = t.harbor_nodes[k][1];
      EXPECT_TRUE(seen.insert({a, b}).second) << k;
      int edge = -1;
      for (int i = 0; i < 3; ++i)
        if (t.node_nodes[a][i] == b) edge = t.node_edges[a][i];
      ASSERT_GE(edge, 0) << k;
      EXPECT_TRUE(t.road_edges.Test(edge) && t.ship_edges.Test(edge)) << k;
    }
  }
}

// ---------------------------------------------------------------------------
// Deals (SEA-47).

TEST(SeaBoardTest, DefaultDealIsValidUnderBothDeals) {
  for (const MapCase& c : kMaps) {
    SCOPED_TRACE(Name(c));
    const SeaBoard b = SeaDefaultBoard(c.scenario, c.seats);
    EXPECT_EQ(ValidateSeaBoard(b, c.scenario, c.seats, BoardDeal::kFixed), "");
    EXPECT_EQ(ValidateSeaBoard(b, c.scenario, c.seats, BoardDeal::kShuffled), "");
  }
}

TEST(SeaBoardTest, ShuffledDealsAreValidDeterministicAndVaried) {
  for (const MapCase& c : kMaps) {
    SCOPED_TRACE(Name(c));
    const SeaMap& m = GetSeaMap(c.scenario, c.seats);
    std::set<std::string> distinct;
    for (uint64_t seed = 0; seed < 60; ++seed) {
      const SeaBoard b = SeaRandomBoard(c.scenario, c.seats, seed);
      EXPECT_EQ(ValidateSeaBoard(b, c.scenario, c.seats, BoardDeal::kShuffled), "") << seed;
      EXPECT_EQ(b, SeaRandomBoard(c.scenario, c.seats, seed)) << seed;
      distinct.insert(std::string(b.terrain.begin(), b.terrain.end()) + std::string(b.token.begin(), b.token.end()));
      // The sea stays the sea, and hexes outside every deal group keep theirs.
      for (int h = 0; h < m.topology.num_hexes; ++h) {
        EXPECT_EQ(b.terrain[h] == kSea, m.default_board.terrain[h] == kSea) << h;
        if (m.deal_group[h] < 0) {
          EXPECT_EQ(b.terrain[h], m.default_board.terrain[h]) << h;
        }
      }
      if (c.scenario == Scenario::kThroughTheDesert) {
        // SEA-47: the single gold field of the main part and strip goes to the strip.
        int strip_group = -1;
        for (int h = 0; h < m.topology.num_hexes; ++h)
          if (m.topology.hex_region[h] >= 0 && m.topology.region_letter[m.topology.hex_region[h]] == 't')
            strip_group = m.deal_group[h];
        ASSERT_GE(strip_group, 0);
        for (int h = 0; h < m.topology.num_hexes; ++h) {
          if (b.terrain[h] != kGold || m.deal_group[h] != strip_group) continue;
          EXPECT_EQ(m.topology.region_letter[m.topology.hex_region[h]], 't') << seed;
        }
      }
      if (b != m.default_board) {
        EXPECT_NE(ValidateSeaBoard(b, c.scenario, c.seats, BoardDeal::kFixed), "") << seed;
      }
    }
    EXPECT_GT(distinct.size(), 50u);
  }
}

TEST(SeaBoardTest, BadDealsAreRefused) {
  const Scenario s = Scenario::kNewShores;
  const SeaMap& m = GetSeaMap(s, 4);
  const SeaBoard good = SeaDefaultBoard(s, 4);

  SeaBoard land_for_sea = good;  // land where the map has sea
  land_for_sea.terrain[0] = kHills;
  land_for_sea.token[0] = 5;
  EXPECT_NE(ValidateSeaBoard(land_for_sea, s, 4, BoardDeal::kShuffled), "");
  EXPECT_NE(ValidateSeaBoard(land_for_sea, s, 4, BoardDeal::kFixed), "");

  // Equal numbers side by side: give a hex the token of its neighbour by a
  // swap inside its island, so the island's token set stays the same and only
  // the spacing rule can refuse it.
  bool made = false;
  int h = -1;
  for (int x = 0; x < m.topology.num_hexes && !made; ++x) {
    for (int n : m.topology.hex_neighbors[x]) {
      if (made || n < 0 || good.token[x] == 0 || good.token[n] == 0 || m.deal_group[x] < 0) continue;
      for (int other = 0; other < m.topology.num_hexes && !made; ++other) {
        if (other == x || other == n || m.deal_group[other] != m.deal_group[x] || good.token[other] != good.token[n])
          continue;
        SeaBoard equal_numbers = good;
        std::swap(equal_numbers.token[x], equal_numbers.token[other]);
        EXPECT_NE(ValidateSeaBoard(equal_numbers, s, 4, BoardDeal::kShuffled).find("(SEA-47)"), std::string::npos);
        made = true;
        h = x;
      }
    }
  }
  ASSERT_TRUE(made);

  SeaBoard extra_token = good;  // a token that is not in the island's set
  extra_token.token[h] = extra_token.token[h] == 2 ? 3 : 2;
  EXPECT_NE(ValidateSeaBoard(extra_token, s, 4, BoardDeal::kShuffled), "");

  SeaBoard off_map = good;                             // something past the map's hexes
  off_map.terrain[m.topology.num_hexes] = kMountains;  // not 0, which is also kHills
  EXPECT_NE(ValidateSeaBoard(off_map, s, 4, BoardDeal::kShuffled), "");

  SeaBoard harbors = good;  // a harbor type the map does not have that often
  harbors.harbor[0] = harbors.harbor[0] == kBrick ? kOre : kBrick;
  EXPECT_NE(ValidateSeaBoard(harbors, s, 4, BoardDeal::kShuffled), "");
  EXPECT_NE(ValidateSeaBoard(harbors, s, 4, BoardDeal::kFixed), "");

  // Gold on a 6 or an 8 (SEA-47), by a swap inside the strip and main part
  // of Through the Desert, which are dealt together with the gold field.
  const Scenario desert = Scenario::kThroughTheDesert;
  const SeaMap& d = GetSeaMap(desert, 4);
  const SeaBoard dgood = SeaDefaultBoard(desert, 4);
  int gold = -1, six = -1;
  for (int x = 0; x < d.topology.num_hexes; ++x)
    if (dgood.terrain[x] == kGold && d.topology.region_letter[d.topology.hex_region[x]] == 't') gold = x;
  ASSERT_GE(gold, 0);
  for (int x = 0; x < d.topology.num_hexes; ++x)
    if ((dgood.token[x] == 6 || dgood.token[x] == 8) && d.deal_group[x] == d.deal_group[gold]) six = x;
  ASSERT_GE(six, 0);
  SeaBoard gold6 = dgood;
  std::swap(gold6.token[gold], gold6.token[six]);
  EXPECT_NE(ValidateSeaBoard(gold6, desert, 4, BoardDeal::kShuffled).find("a gold field on"), std::string::npos);
}

// ---------------------------------------------------------------------------
// The map reader refuses what is not a map, with the field at fault.

std::string ParseError(std::string text) {
  SeaMap m;
  std::string error;
  EXPECT_FALSE(ParseSeaMap(text, &m, &error)) << text;
  return error;
}

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(SeaMapParserTest, ReadsItsOwnTexts) {
  for (int i = 0; i < kNumSeaMaps; ++i) {
    SeaMap m;
    std::string error;
    ASSERT_TRUE(ParseSeaMap(SeaMapText(i), &m, &error)) << error;
    EXPECT_EQ(m.index, i);
    EXPECT_EQ(m.default_board, GetSeaMap(i).default_board);
  }
}

TEST(SeaMapParserTest, RefusesBadTexts) {
  const std::string good(SeaMapText(SeaMapIndex(Scenario::kNewShores, 4)));
  EXPECT_EQ(ParseError(Replace(good, "pirate   r5c8", "")), "missing field 'pirate'");
  EXPECT_EQ(ParseError(Replace(good, "seats    4", "seats    5")), "seats: expected 3 or 4");
  EXPECT_EQ(ParseError(Replace(good, "scenario NEW_SHORES", "scenario GREATER_CATAN")),
            "scenario: unknown 'GREATER_CATAN'");
  EXPECT_NE(ParseError(Replace(good, "SSA3M9", "SSX3M9")).find("unknown terrain 'X'"), std::string::npos);
  EXPECT_NE(ParseError(Replace(good, "SSA3M9", "SSA7M9")).find("token"), std::string::npos);
  EXPECT_NE(ParseError(Replace(good, "SSA3M9", "SSAM9")).find("token"), std::string::npos);
  EXPECT_NE(ParseError(Replace(good, "regions  ........", "regions  .......m")).find("regions"), std::string::npos);
  EXPECT_NE(ParseError(Replace(good, "..aa.b..", "..aa.x..")).find("letter 'x'"), std::string::npos);
  EXPECT_EQ(ParseError(Replace(good, "pirate   r5c8", "pirate   r5c2")), "pirate: not a sea hex");
  EXPECT_EQ(ParseError(Replace(good, "pirate   r5c8", "pirate   r10c2")), "pirate: r10c2 is not on the map");
  EXPECT_EQ(ParseError(Replace(good, "robber   r6c4", "robber   r6c3")), "robber: not a desert");
  // r4c3's E side faces r4c4, land: no coast there.
  EXPECT_EQ(ParseError(Replace(good, "r4c3:NW=3:1", "r4c3:E=3:1")), "harbors: harbor 0 is not on a coast");
  EXPECT_NE(ParseError(Replace(good, "r4c3:NW=3:1", "r4c3:NW=gold")).find("unknown side or type"), std::string::npos);
  EXPECT_EQ(ParseError(Replace(good, "deal     m a b c", "deal     m a b c z")), "deal: no hex of region 'z'");
  EXPECT_EQ(ParseError(good + "target 15\n"), "field 'target' given twice");
}

// The reader on damaged texts, as a fuzzer would feed it but deterministic and
// quick: every text with one character deleted, or replaced by one of a few
// characters that matter to the format, is either refused with a message or
// read into a map whose graph holds together.
TEST(SeaMapParserTest, SurvivesDamagedTexts) {
  constexpr std::string_view kReplacements = "S.mD/ 9A1";
  int accepted = 0, refused = 0;
  for (int i = 0; i < kNumSeaMaps; ++i) {
    const std::string text(SeaMapText(i));
    for (size_t at = 0; at < text.size(); ++at) {
      std::vector<std::string> damaged = {text.substr(0, at) + text.substr(at + 1)};
      for (char c : kReplacements)
        if (c != text[at]) damaged.push_back(text.substr(0, at) + c + text.substr(at + 1));
      for (const std::string& d : damaged) {
        SeaMap m;
        std::string error;
        if (!ParseSeaMap(d, &m, &error)) {
          EXPECT_FALSE(error.empty());
          ++refused;
          continue;
        }
        ++accepted;
        const SeaTopology& t = m.topology;
        ASSERT_LE(t.num_nodes, kSeaMaxNodes) << d;
        ASSERT_LE(t.num_edges, kSeaMaxEdges) << d;
        // Rows of hexes side by side: a disc, whatever the row lengths.
        EXPECT_EQ(t.num_nodes - t.num_edges + t.num_hexes, 1) << d;
        EXPECT_TRUE(t.sea_hexes.Test(m.pirate_hex)) << d;
        EXPECT_EQ(ValidateSeaBoard(m.default_board, m.scenario, m.seats, BoardDeal::kFixed).empty(),
                  m.default_board == GetSeaMap(m.index).default_board)
            << d;
        EXPECT_FALSE(SeaMapGeometryJson(m, &m.default_board).empty());
      }
    }
  }
  // Both outcomes happen: damage to the sea border or to a token's digits
  // still reads, damage to a field name does not.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 1000);
}

// ---------------------------------------------------------------------------
// The geometry description.

int Occurrences(const std::string& s, std::string_view what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(SeaMapGeometryTest, DescribesEveryHexNodeEdgeAndHarbor) {
  for (const MapCase& c : kMaps) {
    SCOPED_TRACE(Name(c));
    const SeaMap& m = GetSeaMap(c.scenario, c.seats);
    const SeaBoard board = SeaDefaultBoard(c.scenario, c.seats);
    const std::string json = SeaMapGeometryJson(m, &board);
    // Balanced brackets and braces, outside strings (none holds one).
    int depth = 0;
    for (char ch : json) {
      depth += (ch == '{' || ch == '[') - (ch == '}' || ch == ']');
      ASSERT_GE(depth, 0);
    }
    EXPECT_EQ(depth, 0);
    EXPECT_EQ(json.front(), '{');
    EXPECT_EQ(Occurrences(json, "\"row\":"), m.topology.num_hexes);
    EXPECT_EQ(Occurrences(json, "\"terrain\":"), m.topology.num_hexes);
    EXPECT_EQ(Occurrences(json, "\"road\":"), m.topology.num_edges);
    EXPECT_EQ(Occurrences(json, "\"type\":"), m.topology.num_harbors);
    EXPECT_EQ(Occurrences(json, "\"terrain\":\"S\""), MaskCount(m.topology.sea_hexes));
    // Every node's entry has its position, hexes, neighbours and edges.
    EXPECT_EQ(Occurrences(json, "\"hexes\":["), 1 + m.topology.num_nodes);  // the list, then each node's
    EXPECT_NE(json.find("\"scenario\":\"" + std::string(ScenarioName(c.scenario)) + "\""), std::string::npos);
    // Without a deal, no terrain or harbor types.
    const std::string bare = SeaMapGeometryJson(m, nullptr);
    EXPECT_EQ(Occurrences(bare, "\"terrain\":"), 0);
    EXPECT_EQ(Occurrences(bare, "\"type\":"), 0);
  }
  // A node of the first hex, spelled out: hex 0 of every map is the top-left
  // sea hex, its top corner node 0 at (x, 0).
  const SeaMap& m = GetSeaMap(Scenario::kNewShores, 4);
  const std::string json = SeaMapGeometryJson(m, nullptr);
  EXPECT_EQ(m.topology.hex_nodes[0][0], 0);
  EXPECT_NE(json.find("\"nodes\":[{\"x\":" + std::to_string(m.topology.node_x[0]) + ",\"y\":0,"), std::string::npos);
}

}  // namespace
}  // namespace metropolis
