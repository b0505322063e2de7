#include "python/src/action_space.h"

#include <cassert>
#include <memory>
#include <mutex>

#include "engine/progress.h"
#include "engine/topology.h"
#include "engine/types.h"

namespace metropolis::python {
namespace {

// Which rulesets an entry of the table belongs to. kOther stands for every
// ruleset this table does not know yet: it gets the widest segments.
enum RulesetBits : uint8_t { kCk = 1, kBase = 2, kOther = 4 };

struct Entry {
  ActionType type;
  int fixed_a;
  std::array<ParamRange, 3> params;
  uint8_t rulesets;
};

constexpr ParamRange None() { return {}; }
constexpr ParamRange Node() { return {ParamKind::kNode, 0, uint8_t(kNumNodes)}; }
constexpr ParamRange Edge() { return {ParamKind::kEdge, 0, uint8_t(kNumEdges)}; }
constexpr ParamRange Hex() { return {ParamKind::kHex, 0, uint8_t(kNumHexes)}; }
constexpr ParamRange Seat() { return {ParamKind::kSeat, 0, uint8_t(kMaxSeats)}; }
constexpr ParamRange Card() { return {ParamKind::kCard, 0, uint8_t(kNumCardTypes)}; }
constexpr ParamRange Resource() { return {ParamKind::kCard, 0, uint8_t(kNumResources)}; }
constexpr ParamRange Commodity() {
  return {ParamKind::kCard, uint8_t(kNumResources), uint8_t(kNumCardTypes - kNumResources)};
}
constexpr ParamRange Track() { return {ParamKind::kTrack, 0, uint8_t(kNumTracks)}; }
constexpr ParamRange Progress() { return {ParamKind::kProgressCard, 0, uint8_t(kNumProgressKinds)}; }
constexpr ParamRange Die() { return {ParamKind::kDie, 1, 6}; }
constexpr ParamRange Level() { return {ParamKind::kLevel, 1, uint8_t(kMaxKnightLevel)}; }
constexpr ParamRange Victim() { return {ParamKind::kVictim, 0, uint8_t(kMaxSeats + 1)}; }

constexpr uint8_t kCkWide = kCk | kOther;
constexpr uint8_t kAll = kCk | kBase | kOther;
constexpr uint8_t kBaseWide = kBase | kOther;

using T = ActionType;

// The table. Its order is the order of the indices: change it only with a new
// rules version (docs/PYTHON.md lists it). Parameters follow docs/PROTOCOL.md.
const std::vector<Entry>& Table() {
  static const std::vector<Entry> table = {
      {T::kRoll, -1, {None(), None(), None()}, kAll},
      {T::kEndTurn, -1, {None(), None(), None()}, kAll},
      {T::kBuildRoad, -1, {Edge(), None(), None()}, kAll},
      {T::kBuildSettlement, -1, {Node(), None(), None()}, kAll},
      {T::kBuildCity, -1, {Node(), None(), None()}, kAll},
      {T::kBuildWall, -1, {Node(), None(), None()}, kCkWide},
      {T::kRecruitKnight, -1, {Node(), None(), None()}, kCkWide},
      {T::kActivateKnight, -1, {Node(), None(), None()}, kCkWide},
      {T::kPromoteKnight, -1, {Node(), None(), None()}, kCkWide},
      {T::kMoveKnight, -1, {Node(), Node(), None()}, kCkWide},
      {T::kDisplaceKnight, -1, {Node(), Node(), None()}, kCkWide},
      {T::kChaseRobber, -1, {Node(), None(), None()}, kCkWide},
      {T::kBuyImprovement, -1, {Track(), None(), None()}, kCkWide},
      {T::kBankTrade, -1, {Card(), Card(), None()}, kCkWide},
      {T::kBankTrade, -1, {Resource(), Resource(), None()}, kBase},
      {T::kMoveRobber, -1, {Hex(), Victim(), None()}, kAll},
      {T::kDiscard, -1, {Card(), None(), None()}, kCkWide},
      {T::kDiscard, -1, {Resource(), None(), None()}, kBase},
      {T::kRelocateKnight, -1, {Node(), None(), None()}, kCkWide},
      {T::kPillageCity, -1, {Node(), None(), None()}, kCkWide},
      {T::kAqueduct, -1, {Resource(), None(), None()}, kCkWide},
      {T::kPlaceMetropolis, -1, {Node(), None(), None()}, kCkWide},
      {T::kCommitKnight, -1, {Node(), None(), None()}, kCkWide},
      {T::kCommitDone, -1, {None(), None(), None()}, kCkWide},
      {T::kDiscardProgress, -1, {Progress(), None(), None()}, kCkWide},
      {T::kDefenderDeck, -1, {Track(), None(), None()}, kCkWide},
      {T::kTradeAccept, -1, {None(), None(), None()}, kAll},
      {T::kTradeDecline, -1, {None(), None(), None()}, kAll},
      {T::kTradeConfirm, -1, {Seat(), None(), None()}, kAll},
      {T::kTradeCancel, -1, {None(), None(), None()}, kAll},
      // Progress cards (PLAY_PROGRESS parameters in docs/PROTOCOL.md). The
      // Printer and the Constitution are never played (PD-4).
      {T::kPlayProgress, kAlchemist, {None(), Die(), Die()}, kCkWide},
      {T::kPlayProgress, kCrane, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kEngineer, {None(), Node(), None()}, kCkWide},
      {T::kPlayProgress, kInventor, {None(), Hex(), Hex()}, kCkWide},
      {T::kPlayProgress, kIrrigation, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kMedicine, {None(), Node(), None()}, kCkWide},
      {T::kPlayProgress, kMining, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kRoadBuilding, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kSmith, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kBishop, {None(), Hex(), None()}, kCkWide},
      {T::kPlayProgress, kDeserter, {None(), Seat(), None()}, kCkWide},
      {T::kPlayProgress, kDiplomat, {None(), Edge(), None()}, kCkWide},
      {T::kPlayProgress, kIntrigue, {None(), Node(), None()}, kCkWide},
      {T::kPlayProgress, kSaboteur, {None(), Node(), None()}, kCkWide},
      {T::kPlayProgress, kSpy, {None(), Seat(), None()}, kCkWide},
      {T::kPlayProgress, kWarlord, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kWedding, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kCommercialHarbor, {None(), None(), None()}, kCkWide},
      {T::kPlayProgress, kMasterMerchant, {None(), Seat(), None()}, kCkWide},
      {T::kPlayProgress, kMerchant, {None(), Hex(), None()}, kCkWide},
      {T::kPlayProgress, kMerchantFleet, {None(), Card(), None()}, kCkWide},
      {T::kPlayProgress, kResourceMonopoly, {None(), Resource(), None()}, kCkWide},
      {T::kPlayProgress, kTradeMonopoly, {None(), Commodity(), None()}, kCkWide},
      {T::kProgressStop, -1, {None(), None(), None()}, kAll},
      {T::kRemoveKnight, -1, {Node(), None(), None()}, kCkWide},
      {T::kPlaceKnight, -1, {Node(), Level(), None()}, kCkWide},
      {T::kTakeProgress, -1, {Progress(), None(), None()}, kCkWide},
      {T::kTakeCard, -1, {Card(), None(), None()}, kCkWide},
      {T::kGiveCard, -1, {Card(), None(), None()}, kCkWide},
      {T::kHarborOffer, -1, {Seat(), Resource(), None()}, kCkWide},
      {T::kRepairCity, -1, {Node(), None(), None()}, kCkWide},
      // The base game's development cards (BG-4, BG-5); victory point cards
      // are never played.
      {T::kBuyDev, -1, {None(), None(), None()}, kBaseWide},
      {T::kPlayDev, kDevKnight, {None(), None(), None()}, kBaseWide},
      {T::kPlayDev, kDevRoadBuilding, {None(), None(), None()}, kBaseWide},
      {T::kPlayDev, kDevYearOfPlenty, {None(), Resource(), Resource()}, kBaseWide},
      {T::kPlayDev, kDevMonopoly, {None(), Resource(), None()}, kBaseWide},
  };
  return table;
}

// Not a switch: a ruleset added to the engine must fall through to kOther, not
// break the build with -Wswitch.
uint8_t BitsOf(Ruleset ruleset) {
  if (ruleset == Ruleset::kCitiesAndKnights) return kCk;
  if (ruleset == Ruleset::kBase) return kBase;
  return kOther;
}

std::string SegmentName(const Entry& e) {
  std::string name(ActionTypeName(e.type));
  if (e.type == T::kPlayProgress) name += " " + std::string(ProgressCardName(e.fixed_a));
  if (e.type == T::kPlayDev) name += " " + std::string(DevCardName(e.fixed_a));
  return name;
}

bool InRange(const ParamRange& r, int v) { return v >= r.lo && v < r.lo + r.count; }

}  // namespace

std::string_view ParamKindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kNone:
      return "none";
    case ParamKind::kNode:
      return "node";
    case ParamKind::kEdge:
      return "edge";
    case ParamKind::kHex:
      return "hex";
    case ParamKind::kSeat:
      return "seat";
    case ParamKind::kVictim:
      return "victim";
    case ParamKind::kCard:
      return "card";
    case ParamKind::kTrack:
      return "track";
    case ParamKind::kProgressCard:
      return "progress_card";
    case ParamKind::kDevCard:
      return "dev_card";
    case ParamKind::kDie:
      return "die";
    case ParamKind::kLevel:
      return "level";
  }
  return "?";
}

std::string RulesetName(Ruleset ruleset) {
  RulesOptions o = DefaultOptions(ruleset);
  const std::string text = OptionsToString(o);
  const std::string key = "ruleset=";
  if (text.rfind(key, 0) != 0) return "cities_and_knights";  // the default is never written
  const size_t end = text.find(' ');
  return text.substr(key.size(), end == std::string::npos ? std::string::npos : end - key.size());
}

ActionSpace::ActionSpace(Ruleset ruleset) {
  by_type_.fill(-1);
  for (auto& keyed : by_card_) keyed.fill(-1);
  const uint8_t bits = BitsOf(ruleset);
  for (const Entry& e : Table()) {
    if (!(e.rulesets & bits)) continue;
    Segment s;
    s.type = e.type;
    s.fixed_a = e.fixed_a;
    s.params = e.params;
    if (e.fixed_a >= 0)
      s.params[0] = {e.type == T::kPlayDev ? ParamKind::kDevCard : ParamKind::kProgressCard, uint8_t(e.fixed_a), 1};
    s.offset = size_;
    s.size = int(s.params[0].count) * s.params[1].count * s.params[2].count;
    s.name = SegmentName(e);
    const int id = int(segments_.size());
    if (e.fixed_a >= 0) {
      auto& keyed = by_card_[e.type == T::kPlayDev ? 1 : 0];
      assert(size_t(e.fixed_a) < keyed.size() && keyed[size_t(e.fixed_a)] < 0);
      keyed[size_t(e.fixed_a)] = int16_t(id);
    } else {
      assert(by_type_[uint8_t(e.type)] < 0);  // one segment per type and ruleset
      by_type_[uint8_t(e.type)] = int16_t(id);
    }
    size_ += s.size;
    segments_.push_back(std::move(s));
  }
  segment_of_.resize(size_t(size_));
  for (size_t i = 0; i < segments_.size(); ++i)
    for (int k = 0; k < segments_[i].size; ++k) segment_of_[size_t(segments_[i].offset + k)] = int16_t(i);
}

const ActionSpace& ActionSpace::For(Ruleset ruleset) {
  // One per value of the enum; built on first use under a lock.
  static std::mutex mu;
  static std::array<std::unique_ptr<ActionSpace>, 256> spaces;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = spaces[uint8_t(ruleset)];
  if (!slot) slot.reset(new ActionSpace(ruleset));
  return *slot;
}

int ActionSpace::Index(const Action& action) const {
  int id;
  if (action.type == T::kPlayProgress || action.type == T::kPlayDev) {
    const auto& keyed = by_card_[action.type == T::kPlayDev ? 1 : 0];
    id = action.a < keyed.size() ? keyed[action.a] : -1;
  } else {
    id = by_type_[uint8_t(action.type)];
  }
  if (id < 0) return -1;
  if (action.give.bits || action.want.bits || action.addressees) return -1;
  const Segment& s = segments_[size_t(id)];
  const int v[3] = {action.a, action.b, action.c};
  int index = 0;
  for (int k = 0; k < 3; ++k) {
    if (!InRange(s.params[size_t(k)], v[k])) return -1;
    index = index * s.params[size_t(k)].count + (v[k] - s.params[size_t(k)].lo);
  }
  return s.offset + index;
}

Action ActionSpace::ActionAt(int index) const {
  assert(index >= 0 && index < size_);
  const Segment& s = segments_[size_t(segment_of_[size_t(index)])];
  int rest = index - s.offset;
  int v[3];
  for (int k = 2; k >= 0; --k) {
    const ParamRange& r = s.params[size_t(k)];
    v[k] = r.lo + rest % r.count;
    rest /= r.count;
  }
  return Action::Make(s.type, v[0], v[1], v[2]);
}

ActionSpace::Targets ActionSpace::TargetsOf(int index) const {
  const Segment& s = segments_[size_t(segment_of_[size_t(index)])];
  const Action a = ActionAt(index);
  const int v[3] = {a.a, a.b, a.c};
  Targets t;
  auto add_node = [&](int node) { (t.node1 < 0 ? t.node1 : t.node2) = node; };
  for (int k = 0; k < 3; ++k) {
    switch (s.params[size_t(k)].kind) {
      case ParamKind::kNode:
        add_node(v[k]);
        break;
      case ParamKind::kEdge:
        add_node(GetTopology().edge_nodes[size_t(v[k])][0]);
        add_node(GetTopology().edge_nodes[size_t(v[k])][1]);
        break;
      case ParamKind::kHex:
        if (t.hex < 0) t.hex = v[k];
        break;
      default:
        break;
    }
  }
  return t;
}

std::string OutsideSpaceError(const Action& action, Ruleset ruleset) {
  return "'" + ActionToString(action) + "' is outside the action space of ruleset " + RulesetName(ruleset) +
         (IsParameterised(action.type)  ? " (trade offers and counters carry cards and are not enumerated)"
          : IsChanceAction(action.type) ? " (chance outcomes are no seat's decision)"
                                        : " (python/src/action_space.cc has no segment for it)");
}

}  // namespace metropolis::python
