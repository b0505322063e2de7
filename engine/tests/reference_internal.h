// Board readings shared by the parts of the reference generator
// (reference_legal.cc: sections 4-11 and 14-17; reference_progress.cc:
// sections 12-13; reference_base.cc: section 22). Everything is counted on the board from the public
// accessors of State, never taken from the engine's running counters or rules.
#pragma once

#include <initializer_list>
#include <utility>
#include <vector>

#include "engine/action.h"
#include "engine/progress.h"
#include "engine/state.h"
#include "engine/topology.h"

namespace metropolis::reference::internal {

inline const Topology& Topo() { return GetTopology(); }

inline bool HasBuilding(const State& s, int v) { return s.building(v) != kNoBuilding; }
inline bool HasKnight(const State& s, int v) { return s.knight_level(v) != 0; }
inline bool Empty(const State& s, int v) { return !HasBuilding(s, v) && !HasKnight(s, v); }  // DEF-7
inline bool OwnsBuilding(const State& s, int seat, int v) { return HasBuilding(s, v) && s.building_owner(v) == seat; }
inline bool OwnsKnight(const State& s, int seat, int v) { return HasKnight(s, v) && s.knight_owner(v) == seat; }
inline bool OwnsCity(const State& s, int seat, int v) { return OwnsBuilding(s, seat, v) && s.building(v) == kCity; }

// DEF-4.
inline bool BlockedFor(const State& s, int seat, int v) {
  return (HasBuilding(s, v) && s.building_owner(v) != seat) || (HasKnight(s, v) && s.knight_owner(v) != seat);
}

// DEF-3.
inline bool HasRoadAt(const State& s, int seat, int v) {
  for (int i = 0; i < 3; ++i) {
    const int e = Topo().node_edges[v][i];
    if (e >= 0 && s.road_owner(e) == seat) return true;
  }
  return false;
}

// Supplies counted on the board (1.4), never read from the state's counters.
inline int SettlementsOnBoard(const State& s, int seat) {
  int n = 0;
  for (int v = 0; v < kNumNodes; ++v) n += OwnsBuilding(s, seat, v) && s.building(v) == kSettlement;
  return n;
}
inline int CitiesOnBoard(const State& s, int seat) {
  int n = 0;
  for (int v = 0; v < kNumNodes; ++v) n += OwnsCity(s, seat, v);
  return n;
}
inline int WallsOnBoard(const State& s, int seat) {
  int n = 0;
  for (int v = 0; v < kNumNodes; ++v) n += OwnsBuilding(s, seat, v) && (s.node_flags(v) & kWall);
  return n;
}
inline int RoadsOnBoard(const State& s, int seat) {
  int n = 0;
  for (int e = 0; e < kNumEdges; ++e) n += s.road_owner(e) == seat;
  return n;
}
inline int KnightsOnBoard(const State& s, int seat, int level) {
  int n = 0;
  for (int v = 0; v < kNumNodes; ++v) n += OwnsKnight(s, seat, v) && s.knight_level(v) == level;
  return n;
}
inline bool OwnsCityWithoutMetropolis(const State& s, int seat) {
  for (int v = 0; v < kNumNodes; ++v)
    if (OwnsCity(s, seat, v) && s.metropolis_at(v) < 0) return true;
  return false;
}

inline bool NodeOnHex(int v, int hex) {
  for (int i = 0; i < 6; ++i)
    if (Topo().hex_nodes[hex][i] == v) return true;
  return false;
}

inline bool Has(const CardCounts& hand, std::initializer_list<std::pair<int, int>> cost) {
  for (auto [card, n] : cost)
    if (hand[card] < n) return false;
  return true;
}

// BLD-1 placement, whatever pays for the road (cost, Road Building, Diplomat).
inline bool RoadEdgeAllowed(const State& s, int p, int e) {
  if (s.road_owner(e) >= 0) return false;
  for (int end = 0; end < 2; ++end) {
    const int v = Topo().edge_nodes[e][end];
    if (OwnsBuilding(s, p, v)) return true;
    bool other_road = false;
    for (int i = 0; i < 3; ++i) {
      const int f = Topo().node_edges[v][i];
      if (f >= 0 && f != e && s.road_owner(f) == p) other_road = true;
    }
    if (other_road && !BlockedFor(s, p, v)) return true;
  }
  return false;
}

// KN-5 without the cost: whether the knight on v can go up one level now
// (the Smith's free promotions obey the same limits).
inline bool PromotableIgnoringCost(const State& s, int p, int v) {
  if (!OwnsKnight(s, p, v)) return false;
  const int level = s.knight_level(v);
  if (level >= kMaxKnightLevel || (s.knight_flags(v) & kKnightPromoted)) return false;
  if (KnightsOnBoard(s, p, level + 1) >= 2) return false;
  return level != 2 || s.player(p).level[kPolitics] >= 3;  // IMP-7 Fortress
}

// KN-3 placement: an empty intersection at one of the player's roads.
inline bool KnightPlacementAllowed(const State& s, int p, int v) { return Empty(s, v) && HasRoadAt(s, p, v); }

// Section 17, recomputed from the pieces and the public holders.
inline int VictoryPoints(const State& s, int seat) {
  int vp = SettlementsOnBoard(s, seat) + 2 * CitiesOnBoard(s, seat);
  for (int t = 0; t < kNumTracks; ++t) vp += 2 * (s.metropolis_owner(t) == seat);
  vp += 2 * (s.longest_road_holder() == seat);
  vp += s.merchant_owner() == seat;
  const PlayerState& ps = s.player(seat);
  vp += (ps.vp_cards & 1) + ((ps.vp_cards >> 1) & 1) + ps.defender;
  return vp;
}

// Progress kinds a player holds, one entry per kind however many copies.
inline std::vector<int> HeldKinds(const PlayerState& ps) {
  std::vector<int> kinds;
  for (int kind = 0; kind < kNumProgressKinds; ++kind) {
    bool held = false;
    for (int i = 0; i < ps.num_progress; ++i) held |= ps.progress[i] == kind;
    if (held) kinds.push_back(kind);
  }
  return kinds;
}

// The card plays of the current player `p` with nothing pending: in the
// action phase (PC-5, section 13), or before the roll (Alchemist, TRN-2).
void AddProgressPlays(const State& s, int p, bool before_roll, std::vector<Action>* out);

// The decisions a progress card raises (the pending kinds kRoadBuilding ..
// kDefenderTake). False when `top` is not one of them.
bool AddProgressDecision(const State& s, const Pending& top, std::vector<Action>* out);

// The decisions of sections 4-17 (discards, trade answers, ...) as the C&K
// reading lists them; the base game shares some (reference_legal.cc).
void AddSharedDecision(const State& s, const Pending& top, std::vector<Action>* out);

// The base game, RULES.md section 22 (reference_base.cc): the acting seat's
// actions, unsorted, and the outcomes of the dice and of a development card's
// draw.
void AddBaseActions(const State& s, std::vector<Action>* out);
void AddBaseChanceOutcomes(const State& s, std::vector<ChanceOutcome>* out);

}  // namespace metropolis::reference::internal
