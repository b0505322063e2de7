// The fixed graph of the standard board: 19 land hexes, 54 intersections
// (nodes), 72 edges (paths) and 9 harbor slots. Numbered once, here, and used
// as constant tables everywhere (DESIGN.md: "topology as constant tables").
//
// Numbering (documented with a picture in docs/BOARD.md):
//   hexes  0..18 row by row from the top (rows of 3, 4, 5, 4, 3), left to right;
//          pointy-top hexes in axial coordinates (q, r) with |q|,|r|,|q+r| <= 2.
//   nodes  0..53 sorted by screen position: top to bottom, then left to right.
//   edges  0..71 sorted by the screen position of their midpoints, same order.
//   harbors 0..8 clockwise around the coast starting at the top left.
// These numbers appear in the action encoding and the notation: they never
// change within a rules version.
#pragma once

#include <array>
#include <cstdint>

#include "engine/types.h"

namespace metropolis {

struct Topology {
  // Axial coordinates of each hex.
  std::array<int8_t, kNumHexes> hex_q{}, hex_r{};
  // Corners of each hex, clockwise from the top corner (N, NE, SE, S, SW, NW).
  std::array<std::array<int8_t, 6>, kNumHexes> hex_nodes{};
  // Edges of each hex, clockwise from the N-NE edge.
  std::array<std::array<int8_t, 6>, kNumHexes> hex_edges{};
  // Land hexes touching each node (1..3), padded with -1.
  std::array<std::array<int8_t, 3>, kNumNodes> node_hexes{};
  // Neighbouring nodes (2..3) and the edge leading to each, padded with -1;
  // node_edges[v][i] joins v and node_nodes[v][i].
  std::array<std::array<int8_t, 3>, kNumNodes> node_nodes{};
  std::array<std::array<int8_t, 3>, kNumNodes> node_edges{};
  // The two end nodes of each edge, lower number first.
  std::array<std::array<int8_t, 2>, kNumEdges> edge_nodes{};
  // The two coastal nodes of each harbor slot.
  std::array<std::array<int8_t, 2>, kNumHarbors> harbor_nodes{};
  // Hexes adjacent to each hex (up to 6, padded with -1).
  std::array<std::array<int8_t, 6>, kNumHexes> hex_neighbors{};
  // Screen position of each node in units of half a hex width (x) and a
  // quarter of a hex height (y), for drawing and for documentation.
  std::array<int8_t, kNumNodes> node_x{}, node_y{};

  // Bit masks over nodes for fast set operations.
  std::array<uint64_t, kNumHexes> hex_node_mask{};
  std::array<uint64_t, kNumNodes> node_neighbor_mask{};  // neighbours of v
  // The edges at each node as a mask over edges 0..63 and one over 64..71, and
  // the land hexes at each node as a mask over hexes: legal-action generation
  // ORs them over a few nodes instead of walking the per-node lists.
  std::array<uint64_t, kNumNodes> node_edge_lo{}, node_edge_hi{};
  std::array<uint32_t, kNumNodes> node_hex_mask{};
  std::array<uint64_t, kNumEdges> edge_node_mask{};  // both ends of each edge
};

namespace internal {
extern const Topology kTopologyTable;  // defined in topology.cc
}  // namespace internal

// The one instance, built at compile time. Inline: the rules ask for it in
// nearly every function, and a call per question cost more than the lookups.
inline const Topology& GetTopology() { return internal::kTopologyTable; }

// The edge joining two nodes, or -1 if they are not neighbours.
int EdgeBetween(int a, int b);

}  // namespace metropolis
