// The reference generator's base game (RULES.md section 22, BG-1..BG-9), read
// from the rulebook alone like the rest of the reference: every action with
// every parameter is tried and kept when a plain reading of section 22 allows
// it. It reads only the public accessors of State; the development deck is
// counted from BG-1's composition, never read from the engine's deck.
#include <vector>

#include "engine/tests/reference_internal.h"
#include "engine/tests/reference_legal.h"

namespace metropolis::reference::internal {
namespace {

// BG-1: 14 Knight, 5 Victory Point, 2 Road Building, 2 Year of Plenty, 2
// Monopoly, in the order of the DevCard codes.
constexpr int kDeckComposition[kNumDevKinds] = {14, 5, 2, 2, 2};

// Cards still in the face-down deck: the composition less every card in a
// hand, every Knight played (they stay face up in front of their owners,
// BG-5) and every other card played.
std::array<int, kNumDevKinds> DeckLeft(const State& s) {
  std::array<int, kNumDevKinds> left{};
  for (int k = 0; k < kNumDevKinds; ++k) {
    left[k] = kDeckComposition[k];
    for (int p = 0; p < s.num_seats(); ++p) left[k] -= s.player(p).dev[k];
    if (k == kDevKnight) {
      for (int p = 0; p < s.num_seats(); ++p) left[k] -= s.player(p).army;
    } else {
      left[k] -= s.dev_discarded()[k];
    }
  }
  return left;
}

bool DistanceRuleHolds(const State& s, int v) {
  for (int i = 0; i < 3; ++i) {
    const int w = Topo().node_nodes[v][i];
    if (w >= 0 && HasBuilding(s, w)) return false;
  }
  return true;
}

// BG-2: two rounds of a settlement and a road, in snake order.
void AddSetup(const State& s, std::vector<Action>* out) {
  if (s.setup_step() % 2 == 0) {
    for (int v = 0; v < kNumNodes; ++v)
      if (Empty(s, v) && DistanceRuleHolds(s, v)) out->push_back(Action::BuildSettlement(v));
    return;
  }
  const int v = s.last_setup_node();
  for (int e = 0; e < kNumEdges; ++e) {
    const auto& ends = Topo().edge_nodes[e];
    if (s.road_owner(e) < 0 && (ends[0] == v || ends[1] == v)) out->push_back(Action::BuildRoad(e));
  }
}

// BG-3/TRD-2: 4:1, 3:1 at a generic harbor, 2:1 at the resource's harbor;
// resources only.
int HarborRate(const State& s, int p, int give) {
  int rate = 4;
  for (int h = 0; h < kNumHarbors; ++h) {
    const auto& nodes = Topo().harbor_nodes[h];
    if (!OwnsBuilding(s, p, nodes[0]) && !OwnsBuilding(s, p, nodes[1])) continue;
    if (s.board().harbor[h] == kGenericHarbor && rate > 3) rate = 3;
    if (s.board().harbor[h] == give) rate = 2;
  }
  return rate;
}

// BG-5: at most one of Knight, Road Building, Year of Plenty or Monopoly a
// turn, never one bought this turn, and never a VP card.
void AddDevPlays(const State& s, int p, std::vector<Action>* out) {
  if (s.dev_played_this_turn()) return;
  const PlayerState& ps = s.player(p);
  auto playable = [&](int k) { return ps.dev[k] - s.dev_bought()[k] > 0; };
  if (playable(kDevKnight)) out->push_back(Action::PlayDev(kDevKnight));
  if (playable(kDevRoadBuilding)) out->push_back(Action::PlayDev(kDevRoadBuilding));
  if (playable(kDevYearOfPlenty)) {
    for (int b = 0; b < kNumResources; ++b)
      for (int c = b; c < kNumResources; ++c) {
        // "What the bank has": both cards must be there.
        const int need_b = b == c ? 2 : 1;
        if (s.options().bank_limited && (s.bank()[b] < need_b || s.bank()[c] < 1)) continue;
        out->push_back(Action::PlayDev(kDevYearOfPlenty, b, c));
      }
  }
  if (playable(kDevMonopoly))
    for (int r = 0; r < kNumResources; ++r) out->push_back(Action::PlayDev(kDevMonopoly, r));
}

void AddActionPhase(const State& s, int p, std::vector<Action>* out) {
  const CardCounts& hand = s.player(p).hand;
  out->push_back(Action::EndTurn());
  // BG-4 costs as 7.1, BLD-1..BLD-3 placements, 1.4 supplies (5, 4, 15).
  if (Has(hand, {{kBrick, 1}, {kLumber, 1}}) && RoadsOnBoard(s, p) < 15)
    for (int e = 0; e < kNumEdges; ++e)
      if (RoadEdgeAllowed(s, p, e)) out->push_back(Action::BuildRoad(e));
  if (Has(hand, {{kBrick, 1}, {kLumber, 1}, {kWool, 1}, {kGrain, 1}}) && SettlementsOnBoard(s, p) < 5)
    for (int v = 0; v < kNumNodes; ++v)
      if (Empty(s, v) && HasRoadAt(s, p, v) && DistanceRuleHolds(s, v)) out->push_back(Action::BuildSettlement(v));
  if (Has(hand, {{kGrain, 2}, {kOre, 3}}) && CitiesOnBoard(s, p) < 4)
    for (int v = 0; v < kNumNodes; ++v)
      if (OwnsBuilding(s, p, v) && s.building(v) == kSettlement) out->push_back(Action::BuildCity(v));
  for (int give = 0; give < kNumResources; ++give)
    for (int take = 0; take < kNumResources; ++take) {
      if (give == take || hand[give] < HarborRate(s, p, give)) continue;
      if (s.options().bank_limited && s.bank()[take] <= 0) continue;
      out->push_back(Action::Make(ActionType::kBankTrade, give, take));
    }
  // BG-4: an empty deck sells nothing.
  int deck = 0;
  for (int n : DeckLeft(s)) deck += n;
  if (deck > 0 && Has(hand, {{kWool, 1}, {kGrain, 1}, {kOre, 1}})) out->push_back(Action::Make(ActionType::kBuyDev));
  AddDevPlays(s, p, out);
}

// BG-3 and BG-5: the robber goes to any other land hex (no lock, the desert
// included), robbing a seat with a building there and a card in hand.
void AddRobberMoves(const State& s, int mover, std::vector<Action>* out) {
  for (int hex = 0; hex < kNumHexes; ++hex) {
    if (hex == s.robber_hex()) continue;
    bool any = false;
    for (int q = 0; q < s.num_seats(); ++q) {
      if (q == mover || s.player(q).hand.Total() == 0) continue;
      bool here = false;
      for (int i = 0; i < 6; ++i) here |= OwnsBuilding(s, q, Topo().hex_nodes[hex][i]);
      if (!here) continue;
      any = true;
      out->push_back(Action::MoveRobber(hex, q));
    }
    if (!any) out->push_back(Action::MoveRobber(hex, -1));
  }
}

}  // namespace

void AddBaseActions(const State& s, std::vector<Action>* out) {
  const Pending* top = s.pending_size() > 0 ? &s.pending(s.pending_size() - 1) : nullptr;
  if (top != nullptr) {
    switch (top->kind) {
      case PendingKind::kMoveRobber:
        AddRobberMoves(s, top->seat, out);
        return;
      case PendingKind::kRoadBuilding:  // BG-5: up to 2 free roads, each legal when placed
        if (RoadsOnBoard(s, top->seat) < 15)
          for (int e = 0; e < kNumEdges; ++e)
            if (RoadEdgeAllowed(s, top->seat, e)) out->push_back(Action::BuildRoad(e));
        out->push_back(Action::Make(ActionType::kProgressStop));
        return;
      case PendingKind::kDiscard:  // SEV-2, TRD-3: as in C&K
      case PendingKind::kTradeAnswer:
      case PendingKind::kTradeClose:
        AddSharedDecision(s, *top, out);
        return;
      default:
        return;  // nothing else is decided in the base game
    }
  }
  if (s.phase() == Phase::kSetup) {
    AddSetup(s, out);
  } else if (s.phase() == Phase::kBeforeRoll) {
    out->push_back(Action::Roll());  // BG-3: the roll, or a card before it (BG-5)
    AddDevPlays(s, s.current_seat(), out);
  } else if (s.phase() == Phase::kAction) {
    AddActionPhase(s, s.current_seat(), out);
  }
}

void AddBaseChanceOutcomes(const State& s, std::vector<ChanceOutcome>* out) {
  const Pending& top = s.pending(s.pending_size() - 1);
  if (top.kind == PendingKind::kDice) {  // BG-3: two production dice and nothing else
    for (int y = 1; y <= 6; ++y)
      for (int r = 1; r <= 6; ++r) out->push_back({Action::Dice(y, r, 0), 1.0 / 36});
  } else if (top.kind == PendingKind::kDevDraw) {  // BG-4: the top card of the shuffled deck
    const std::array<int, kNumDevKinds> left = DeckLeft(s);
    int total = 0;
    for (int n : left) total += n;
    for (int k = 0; k < kNumDevKinds; ++k)
      if (left[k] > 0) out->push_back({Action::Make(ActionType::kChanceDev, k), double(left[k]) / total});
  }
}

}  // namespace metropolis::reference::internal
