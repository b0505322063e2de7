// The flat action space: a documented bijection between the actions a seat can
// choose and the indices 0..size-1, fixed per ruleset, so that a legal-action
// mask over the indices means the same thing in every position (docs/PYTHON.md).
//
// The space is a list of segments. A segment covers one action type (and, for
// PLAY_PROGRESS and PLAY_DEV, one card: its `a` is fixed) with a range per
// parameter; its indices are
//
//     offset + ((a - a.lo) * b.count + (b - b.lo)) * c.count + (c - c.lo)
//
// in the order of the table in action_space.cc. Every action inside the ranges
// has an index, legal or not (the mask says which are legal now); an action
// outside every segment has none (Index() is -1). Chance outcomes are not in
// the space (they are no seat's decision), nor are trade offers and counters,
// which carry card lists the engine never enumerates (IsParameterised).
//
// The table is data: a ruleset the table does not name (a new one) gets every
// segment of the Cities & Knights and base tables, so that it runs as soon as
// the engine knows it; its own action types need their segments added there.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"

namespace metropolis::python {

// What one parameter of an action names. Policies attach features to the
// board places (node, edge, hex); the rest are small categorical values.
enum class ParamKind : uint8_t {
  kNone = 0,
  kNode,          // an intersection 0..kNumNodes-1
  kEdge,          // a path 0..kNumEdges-1
  kHex,           // a hex 0..kNumHexes-1
  kSeat,          // an absolute seat
  kVictim,        // MOVE_ROBBER's victim + 1 (0: nobody)
  kCard,          // a card type (resources then commodities)
  kTrack,         // an improvement track, deck or metropolis colour
  kProgressCard,  // a progress card kind
  kDevCard,       // a development card kind (the base game)
  kDie,           // a die's face 1..6 (the Alchemist)
  kLevel,         // a knight level 1..3
};
std::string_view ParamKindName(ParamKind kind);

struct ParamRange {
  ParamKind kind = ParamKind::kNone;
  uint8_t lo = 0;
  uint8_t count = 1;  // a parameter not used by the type: count 1 at lo 0
};

struct Segment {
  ActionType type;
  int fixed_a = -1;                  // PLAY_PROGRESS / PLAY_DEV: the card; -1 when `a` ranges
  std::array<ParamRange, 3> params;  // a, b, c
  int offset = 0;
  int size = 0;
  std::string name;  // "build_road", "play alchemist", ...
};

class ActionSpace {
 public:
  // The space of a ruleset; built once and shared (thread-safe).
  static const ActionSpace& For(Ruleset ruleset);

  int size() const { return size_; }
  const std::vector<Segment>& segments() const { return segments_; }
  // -1 for an action outside the space (a chance outcome, a trade offer, a
  // type or parameter the table does not cover).
  int Index(const Action& action) const;
  // The action of an index in [0, size).
  Action ActionAt(int index) const;
  int SegmentOf(int index) const { return segment_of_[size_t(index)]; }
  // The board places an index names, for policies that look at them: up to
  // two nodes (an edge gives its two end nodes, a knight move its from and to)
  // and one hex; -1 where there is none.
  struct Targets {
    int node1 = -1, node2 = -1, hex = -1;
  };
  Targets TargetsOf(int index) const;

 private:
  explicit ActionSpace(Ruleset ruleset);

  std::vector<Segment> segments_;
  int size_ = 0;
  // Segment of each action type when `a` ranges (-1: none or keyed by card),
  // and for types keyed by card, the segment of each (type, a).
  std::array<int16_t, 256> by_type_{};
  std::array<std::array<int16_t, 32>, 2> by_card_{};  // [0] PLAY_PROGRESS, [1] PLAY_DEV
  std::vector<int16_t> segment_of_;
};

// Why an action has no index, for errors at the boundary: "play_progress printer
// is outside the action space of ruleset cities_and_knights".
std::string OutsideSpaceError(const Action& action, Ruleset ruleset);
std::string RulesetName(Ruleset ruleset);

}  // namespace metropolis::python
