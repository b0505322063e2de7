// State::ComputeRoadLength: the longest trail of a seat's roads (LR-1), kept
// current after every piece placed or removed, so it runs on every road built.
//
// A trail may end at a node holding another player's piece but not pass it
// (LR-1, BG-7). Seen that way the roads fall into components joined only at
// free or own nodes, where a blocked node is a separate end for each road that
// reaches it. Random and real play mostly build trees, and in a tree the
// longest trail is the longest path: two depth-first walks (the farthest end
// from anywhere, then the farthest from that end). A component with a cycle
// gets the exhaustive search over trails. Validate() recomputes every length
// the slow way, with no shortcut at all.
#include <algorithm>

#include "engine/rules_internal.h"

namespace metropolis {
namespace {

struct RoadGraph {
  // Only `degree` is zeroed: road/next are written before they are read, and
  // zeroing them on every call cost more than the search itself.
  std::array<uint8_t, kNumNodes> degree{};
  std::array<std::array<int8_t, 3>, kNumNodes> road;  // local road index
  std::array<std::array<int8_t, 3>, kNumNodes> next;  // the road's other end
  std::array<std::array<int8_t, 2>, 15> ends;         // each local road's two nodes
  uint64_t blocked = 0;

  bool Blocked(int v) const { return (blocked >> v) & 1; }

  // Exhaustive: the longest trail from `node` over roads not in `used`.
  int Longest(int node, uint32_t used, uint64_t* touched) const {
    int best = 0;
    for (int i = 0; i < degree[node]; ++i) {
      const int r = road[node][i];
      if ((used >> r) & 1) continue;
      const int w = next[node][i];
      *touched |= uint64_t(1) << w;
      const int len = 1 + (Blocked(w) ? 0 : Longest(w, used | (1u << r), touched));
      best = std::max(best, len);
    }
    return best;
  }

  // In a tree: the farthest end from `node`, reached by road `came` (-1 at
  // the start), at distance `dist`. An end is a node and the road it was
  // reached by, since a blocked node is a separate end per road.
  struct End {
    int dist, node, road;
  };
  void Farthest(int node, int came, int dist, End* best) const {
    if (dist > best->dist) *best = {dist, node, came};
    if (came >= 0 && Blocked(node)) return;
    for (int i = 0; i < degree[node]; ++i) {
      const int r = road[node][i];
      if (r != came) Farthest(next[node][i], r, dist + 1, best);
    }
  }
  // The same from an end: a blocked end leaves only by its own road.
  void FarthestFromEnd(const End& from, End* best) const {
    if (from.road >= 0 && Blocked(from.node)) {
      const int other = ends[from.road][0] == from.node ? ends[from.road][1] : ends[from.road][0];
      Farthest(other, from.road, 1, best);
    } else {
      Farthest(from.node, -1, 0, best);
    }
  }
};

}  // namespace

int State::ComputeRoadLength(int seat) const { return RulesImpl::LongestTrail(*this, seat, -1); }

int RulesImpl::LongestTrail(const State& s, int seat, int through) {
  const Topology& topo = GetTopology();
  const PlayerState& ps = s.players_[seat];
  RoadGraph g;
  int n = 0, through_local = -1;
  auto add = [&](int e) {
    const int a = topo.edge_nodes[e][0], b = topo.edge_nodes[e][1];
    g.road[a][g.degree[a]] = int8_t(n);
    g.next[a][g.degree[a]++] = int8_t(b);
    g.road[b][g.degree[b]] = int8_t(n);
    g.next[b][g.degree[b]++] = int8_t(a);
    g.ends[n] = {int8_t(a), int8_t(b)};
    if (e == through) through_local = n;
    ++n;
  };
  METROPOLIS_FOR_BITS(e, ps.roads_lo) add(e);
  METROPOLIS_FOR_BITS(e, ps.roads_hi) add(e + 64);
  if (n == 0) return 0;
  g.blocked = BlockedFor(s, seat);

  int best = 0;
  uint32_t done = 0;
  const uint32_t all = (1u << n) - 1;
  // With `through`, only its component is searched: the loop below starts
  // there and stops after it.
  if (through_local >= 0) done = all & ~(1u << through_local);
  while (done != all && best < n) {
    // The component of the first road not yet seen: roads joined at free or
    // own nodes. node_ends counts its nodes, a blocked node once per road.
    const int first = std::countr_zero(all & ~done);
    uint32_t comp = 1u << first, frontier = comp;
    uint64_t open_nodes = 0, comp_nodes = 0;
    int node_ends = 0;
    while (frontier) {
      const int r = std::countr_zero(frontier);
      frontier &= frontier - 1;
      for (int k = 0; k < 2; ++k) {
        const int v = g.ends[r][k];
        comp_nodes |= uint64_t(1) << v;
        if (g.Blocked(v)) {
          ++node_ends;
          continue;
        }
        if ((open_nodes >> v) & 1) continue;
        open_nodes |= uint64_t(1) << v;
        ++node_ends;
        for (int i = 0; i < g.degree[v]; ++i) {
          const uint32_t bit = 1u << g.road[v][i];
          if (!(comp & bit)) comp |= bit, frontier |= bit;
        }
      }
    }
    done |= comp;
    if (through_local >= 0) done = all;  // the one component asked for
    if (node_ends == std::popcount(comp) + 1) {
      // A tree: the longest path, by two walks.
      RoadGraph::End far{-1, g.ends[first][0], first}, diameter{-1, 0, 0};
      g.FarthestFromEnd(far, &far);
      g.FarthestFromEnd(far, &diameter);
      best = std::max(best, diameter.dist);
      continue;
    }
    // A cycle: every trail from every node where a longest one may start
    // (degree 1 or 3, or blocked: at an open node of degree 2 a trail could
    // be extended backwards), and for pure cycles from any node not reached.
    uint64_t starts = 0;
    METROPOLIS_FOR_BITS(v, comp_nodes) {
      if (g.degree[v] != 2 || g.Blocked(v)) starts |= uint64_t(1) << v;
    }
    uint64_t touched = starts;
    METROPOLIS_FOR_BITS(v, starts) best = std::max(best, g.Longest(v, 0, &touched));
    while (comp_nodes & ~touched) {
      const int v = std::countr_zero(comp_nodes & ~touched);
      touched |= uint64_t(1) << v;
      best = std::max(best, g.Longest(v, 0, &touched));
    }
  }
  return best;
}

}  // namespace metropolis
