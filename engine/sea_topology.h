// The graph of a Seafarers map (RULES.md 23.1): hexes, intersections (nodes),
// edges (paths) and harbor slots, with what the sea adds to the standard
// board's tables (engine/topology.h): sea and land, where roads and ships may
// go, and the islands' regions. Each map's tables are built from its data
// (engine/sea_maps.h) by the same procedure that builds the standard board
// (engine/topology_build.h), so the numbering rules are the same:
//   hexes   row by row from the top, left to right within a row;
//   nodes   sorted by screen position: top to bottom, then left to right;
//   edges   sorted by the screen position of their midpoints, same order;
//   harbors in the order the map lists them.
// docs/SEAFARERS.md documents the maps and their numbering.
//
// The template is over a geometry (engine/geometry.h), the sizes and mask
// types a board needs; it is instantiated for SeaGeometry by the maps, and for
// StandardGeometry only by the tests that check the builder against the
// standard board's constant tables.
#pragma once

#include <array>
#include <cstdint>

#include "engine/geometry.h"
#include "engine/types.h"

namespace metropolis {

enum RegionKind : uint8_t { kHomeRegion = 0, kForeignRegion = 1, kNeutralRegion = 2 };

template <class G>
struct BasicTopology {
  using NodeId = typename G::NodeId;
  using EdgeId = typename G::EdgeId;
  using NodeMask = typename G::NodeMask;
  using EdgeMask = typename G::EdgeMask;
  using HexMask = typename G::HexMask;

  // The map's own counts (at most the geometry's).
  int num_hexes = 0, num_nodes = 0, num_edges = 0, num_harbors = 0;

  // Each hex's grid row and position in the row, 1-based (RULES.md 23.1),
  // and its centre on screen in the units of node_x and node_y.
  std::array<int8_t, G::kMaxHexes> hex_row{}, hex_col{}, hex_x{}, hex_y{};
  // Corners of each hex, clockwise from the top corner (N, NE, SE, S, SW, NW).
  std::array<std::array<NodeId, 6>, G::kMaxHexes> hex_nodes{};
  // Edges of each hex, clockwise from the N-NE edge (facing NE, E, SE, SW, W, NW).
  std::array<std::array<EdgeId, 6>, G::kMaxHexes> hex_edges{};
  // Hexes touching each node (1..3; fewer than 3 on the map's border),
  // ascending, padded with -1.
  std::array<std::array<int8_t, 3>, G::kMaxNodes> node_hexes{};
  // Neighbouring nodes (2..3, or fewer at the corner of a border hex) and the
  // edge leading to each, ascending by node, padded with -1;
  // node_edges[v][i] joins v and node_nodes[v][i].
  std::array<std::array<NodeId, 3>, G::kMaxNodes> node_nodes{};
  std::array<std::array<EdgeId, 3>, G::kMaxNodes> node_edges{};
  // The two end nodes of each edge, lower number first.
  std::array<std::array<NodeId, 2>, G::kMaxEdges> edge_nodes{};
  // The two coastal nodes of each harbor slot, lower number first.
  std::array<std::array<NodeId, 2>, G::kMaxHarbors> harbor_nodes{};
  // Hexes sharing a side with each hex (up to 6, ascending, padded with -1).
  std::array<std::array<int8_t, 6>, G::kMaxHexes> hex_neighbors{};
  // Screen position of each node in units of half a hex width (x) and a
  // quarter of a hex height (y), for drawing and for documentation.
  std::array<int8_t, G::kMaxNodes> node_x{}, node_y{};

  // Bit masks for set operations: the corners of each hex, the neighbours of
  // each node, the edges and the hexes at each node, both ends of each edge,
  // the sides of each hex.
  std::array<NodeMask, G::kMaxHexes> hex_node_mask{};
  std::array<NodeMask, G::kMaxNodes> node_neighbor_mask{};
  std::array<EdgeMask, G::kMaxNodes> node_edge_mask{};
  std::array<HexMask, G::kMaxNodes> node_hex_mask{};
  std::array<NodeMask, G::kMaxEdges> edge_node_mask{};
  std::array<EdgeMask, G::kMaxHexes> hex_edge_mask{};

  // Land and sea (RULES.md 23.1), filled by the map reader.
  HexMask land_hexes{}, sea_hexes{};
  NodeMask land_nodes{};  // SEA-2: land or coastal, where buildings may stand
  NodeMask sea_nodes{};   // SEA-2: every hex at the node is sea
  EdgeMask road_edges{};  // SEA-3: land or coast edges
  EdgeMask ship_edges{};  // SEA-3: coast or sea edges
  // SEA-4: the region of each land hex and of each node (-1: sea, or only
  // neutral land at the node), and the regions' kinds. Region 0 is the home
  // island.
  static constexpr int kMaxRegions = 8;
  std::array<int8_t, G::kMaxHexes> hex_region{};
  std::array<int8_t, G::kMaxNodes> node_region{};
  int num_regions = 0;
  std::array<char, kMaxRegions> region_letter{};   // as in RULES.md 23.20: m home, t a b c foreign, d neutral
  std::array<uint8_t, kMaxRegions> region_kind{};  // RegionKind
  NodeMask home_nodes{};                           // SEA-7: where the setup buildings stand
  uint8_t foreign_regions = 0;                     // bit r: region r is foreign (SEA-32)
};

using SeaTopology = BasicTopology<SeaGeometry>;

// What the topology builder needs of a map: the centre of each hex in node
// units (x in half hex widths, y in quarter hex heights; the corners sit at
// (x, y - 2), (x + 1, y - 1), (x + 1, y + 1), (x, y + 2), (x - 1, y + 1),
// (x - 1, y - 1)), its grid row and position, and the harbor slots as a hex
// and one of its sides (0..5 as in hex_edges).
struct HexPlace {
  int x = 0, y = 0, row = 0, col = 0;
};
struct HarborPlace {
  int hex = 0, side = 0;
};

}  // namespace metropolis
