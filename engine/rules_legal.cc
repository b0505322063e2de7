// Legal-action generation. Each generator emits its actions in ascending
// Encode() order (type first, then a, b, c), so the list is sorted without a
// sort; debug builds check it.
#include <cassert>

#include "engine/rules_internal.h"

namespace metropolis {

namespace {

constexpr CardCounts Cost(int brick, int lumber, int wool, int grain, int ore) {
  CardCounts c;
  c.n = {uint8_t(brick), uint8_t(lumber), uint8_t(wool), uint8_t(grain), uint8_t(ore), 0, 0, 0};
  return c;
}

}  // namespace

// Shared with rules_apply.cc through declarations there.
extern const CardCounts kRoadCost = Cost(1, 1, 0, 0, 0);
extern const CardCounts kSettlementCost = Cost(1, 1, 1, 1, 0);
extern const CardCounts kCityCost = Cost(0, 0, 0, 2, 3);
extern const CardCounts kWallCost = Cost(2, 0, 0, 0, 0);
extern const CardCounts kKnightCost = Cost(0, 0, 1, 0, 1);
extern const CardCounts kActivateCost = Cost(0, 0, 0, 1, 0);

void RulesImpl::LegalSetup(const State& s, ActionList* list) {
  const Topology& topo = GetTopology();
  ActionWriter out(list);
  if (s.setup_step_ % 2 == 0) {
    // SET-2/SET-3: distance rule, no road needed. Round 2 places a city.
    const uint64_t buildings = AllBuildings(s);
    uint64_t forbidden = buildings;
    METROPOLIS_FOR_BITS(v, buildings) forbidden |= topo.node_neighbor_mask[v];
    // BG-2: the base game's second round places a settlement too.
    const bool city = s.setup_step_ >= 2 * s.num_seats_ && !IsBase(s);
    const ActionType t = city ? ActionType::kBuildCity : ActionType::kBuildSettlement;
    for (int v = 0; v < kNumNodes; ++v)
      if (!((forbidden >> v) & 1)) out.push(Action::Make(t, v));
  } else {
    const int v = s.last_setup_node_;
    uint64_t edges_lo = 0, edges_hi = 0;
    for (int i = 0; i < 3; ++i) {
      const int e = topo.node_edges[v][i];
      if (e < 0 || s.road_owner_[e] != kNoSeat) continue;
      if (e < 64)
        edges_lo |= uint64_t(1) << e;
      else
        edges_hi |= uint64_t(1) << (e - 64);
    }
    METROPOLIS_FOR_BITS(e, edges_lo) out.push(Action::BuildRoad(e));
    METROPOLIS_FOR_BITS(e, edges_hi) out.push(Action::BuildRoad(e + 64));
  }
}

void RulesImpl::LegalActionPhase(const State& s, ActionList* out) {
  const Topology& topo = GetTopology();
  const int seat = s.current_;
  const PlayerState& ps = s.players_[seat];
  const CardCounts& hand = ps.hand;

  // D10 PLAY_OR_DISCARD: holding 5 progress cards, play or discard one first.
  if (s.options_.progress_hand_limit == ProgressHandLimit::kPlayOrDiscard && ps.num_progress >= 5) {
    for (int i = 0; i < ps.num_progress; ++i)
      if (i == 0 || ps.progress[i] != ps.progress[i - 1])
        out->push(Action::Make(ActionType::kDiscardProgress, ps.progress[i]));
    LegalPlays(s, out);
    return;
  }

  const uint64_t buildings = AllBuildings(s);
  const uint64_t knights = AllKnights(s);
  const uint64_t occupied = buildings | knights;
  const uint64_t road_nodes = ps.road_nodes;

  {
    ActionWriter listed(out);
    listed.push(Action::EndTurn());

    // BLD-1 roads.
    if (ps.roads_left > 0 && hand.Contains(kRoadCost)) {
      uint64_t lo, hi;
      RoadEdges(s, seat, &lo, &hi);
      METROPOLIS_FOR_BITS(e, lo) listed.push(Action::BuildRoad(e));
      METROPOLIS_FOR_BITS(e, hi) listed.push(Action::BuildRoad(e + 64));
    }

    // BLD-2 settlements: empty, distance rule, on an own road.
    if (ps.settlements_left > 0 && hand.Contains(kSettlementCost)) {
      uint64_t forbidden = occupied;
      METROPOLIS_FOR_BITS(v, buildings) forbidden |= topo.node_neighbor_mask[v];
      const uint64_t ok = road_nodes & ~forbidden;
      METROPOLIS_FOR_BITS(v, ok) listed.push(Action::BuildSettlement(v));
    }

    // BLD-3 cities.
    if (ps.cities_left > 0 && hand.Contains(kCityCost)) {
      METROPOLIS_FOR_BITS(v, ps.settlements) listed.push(Action::BuildCity(v));
    }
  }

  // The base game has no walls, knights, improvements or commodities (BG-1).
  if (IsBase(s)) {
    LegalBaseTail(s, out);
    return;
  }

  {
    ActionWriter listed(out);

    // BLD-4 walls.
    if (ps.walls_left > 0 && hand.Contains(kWallCost)) {
      METROPOLIS_FOR_BITS(v, ps.cities) {
        if (!(s.node_flags_[v] & kWall)) listed.push(Action::Make(ActionType::kBuildWall, v));
      }
    }

    const bool knight_money = hand.Contains(kKnightCost);
    // KN-3 recruit: a basic knight on an empty node at an own road.
    if (knight_money && ps.knights_left[0] > 0) {
      const uint64_t ok = road_nodes & ~occupied;
      METROPOLIS_FOR_BITS(v, ok) listed.push(Action::Make(ActionType::kRecruitKnight, v));
    }
    // KN-4 activate, KN-5 promote, and the ready knights of KN-7..KN-9: one
    // pass over the seat's knights, then each list in order.
    uint64_t inactive = 0, promotable = 0, ready = 0;
    METROPOLIS_FOR_BITS(v, ps.knights) {
      const uint64_t bit = uint64_t(1) << v;
      const uint8_t f = s.knight_flags_[v];
      inactive |= (f & kKnightActive) ? 0 : bit;
      ready |= (f & kKnightReady) ? bit : 0;
      if (knight_money && CanPromote(s, seat, v)) promotable |= bit;
    }
    if (hand[kGrain] >= 1) {
      METROPOLIS_FOR_BITS(v, inactive) listed.push(Action::Make(ActionType::kActivateKnight, v));
    }
    METROPOLIS_FOR_BITS(v, promotable) listed.push(Action::Make(ActionType::kPromoteKnight, v));
    // KN-7 move and KN-8 displace, from each ready knight.
    if (ready) {
      std::array<uint64_t, kNumNodes> reach;  // only the ready knights' entries are written and read
      const uint64_t blocked = KnightBlocked(s, seat);
      METROPOLIS_FOR_BITS(v, ready) reach[v] = Reachable(ps, v, blocked);
      METROPOLIS_FOR_BITS(v, ready) {
        const uint64_t dest = reach[v] & ~occupied;
        METROPOLIS_FOR_BITS(w, dest) listed.push(Action::Make(ActionType::kMoveKnight, v, w));
      }
      const uint64_t enemy_knights = knights & ~ps.knights;
      METROPOLIS_FOR_BITS(v, ready) {
        const uint64_t targets = (s.options_.displace_requires_connection ? reach[v] : road_nodes) & enemy_knights;
        METROPOLIS_FOR_BITS(w, targets) {
          if (s.knight_level_[w] < s.knight_level_[v]) listed.push(Action::Make(ActionType::kDisplaceKnight, v, w));
        }
      }
      // KN-9 chase the robber.
      if (!IsRobberLocked(s)) {
        const uint64_t near = ready & topo.hex_node_mask[s.robber_];
        METROPOLIS_FOR_BITS(v, near) listed.push(Action::Make(ActionType::kChaseRobber, v));
      }
    }
    // IMP-1 improvements. A cheap necessary condition first (a level costs at
    // least level + 1 commodities, one less with a Crane, C-S2): most turns
    // cannot pay, and the full check is a call.
    if (ps.cities) {
      const int discount = s.effects_.crane_discounts > 0 ? 1 : 0;
      for (int t = 0; t < kNumTracks; ++t)
        if (hand[TrackCommodity(t)] + discount > ps.level[t] && CanBuyImprovement(s, seat, t))
          listed.push(Action::Make(ActionType::kBuyImprovement, t));
    }
    // TRD-2 bank trades at the best rate. No rate is below 2:1, so a hand of
    // fewer than two of every card trades nothing.
    constexpr uint64_t kAtLeastTwo = 0x7E7E7E7E7E7E7E7Eull;  // a count of 2..127 has one of bits 1..6 set
    if (hand.Word() & kAtLeastTwo) {
      const BankRates rates = ComputeBankRates(s, seat);
      // Card types the bank can pay, split into resources and commodities.
      uint32_t available = (1u << kNumCardTypes) - 1;
      if (s.options_.bank_limited) available = PositiveCounts(s.bank_);
      constexpr uint32_t kResourceBits = (1u << kNumResources) - 1;
      // The cards given at a rate the hand can pay, for resources and for commodities.
      const uint32_t for_resource = BytesAtLeast(hand.Word(), rates.to_resource);
      const uint32_t for_commodity = BytesAtLeast(hand.Word(), rates.to_commodity);
      METROPOLIS_FOR_BITS(give, uint64_t(for_resource | for_commodity)) {
        uint32_t takes = 0;
        if ((for_resource >> give) & 1) takes |= available & kResourceBits;
        if ((for_commodity >> give) & 1) takes |= available & ~kResourceBits;
        takes &= ~(1u << give);
        METROPOLIS_FOR_BITS(take, uint64_t(takes)) listed.push(Action::Make(ActionType::kBankTrade, give, take));
      }
    }
  }
  if (ps.num_progress > 0) LegalPlays(s, out);  // the call's cost is not worth it for an empty hand
  // C-P6 under SABOTAGE_CITY: repair a sabotaged city for 1 lumber + 1 ore.
  if (s.options_.saboteur == Saboteur::kSabotageCity && hand[kLumber] >= 1 && hand[kOre] >= 1) {
    METROPOLIS_FOR_BITS(v, ps.cities) {
      if (s.node_flags_[v] & kSabotaged) out->push(Action::Make(ActionType::kRepairCity, v));
    }
  }
}

void RulesImpl::LegalBaseTail(const State& s, ActionList* out) {
  const int seat = s.current_;
  const CardCounts& hand = s.players_[seat].hand;
  // TRD-2 with the harbors only (BG-3): resources for resources.
  constexpr uint64_t kAtLeastTwo = 0x7E7E7E7E7E7E7E7Eull;  // a count of 2..127 has one of bits 1..6 set
  if (hand.Word() & kAtLeastTwo) {
    ActionWriter listed(out);
    uint32_t available = (1u << kNumResources) - 1;  // what the bank can pay
    if (s.options_.bank_limited)
      for (int c = 0; c < kNumResources; ++c)
        if (s.bank_[c] <= 0) available &= ~(1u << c);
    for (int give = 0; give < kNumResources; ++give) {
      if (hand[give] < 2 || hand[give] < BaseBankRate(s, seat, give)) continue;
      METROPOLIS_FOR_BITS(take, uint64_t(available & ~(1u << give))) {
        listed.push(Action::Make(ActionType::kBankTrade, give, take));
      }
    }
  }
  LegalDevCards(s, true, out);  // BG-4, BG-5
}

void RulesImpl::RoadEdges(const State& s, int seat, uint64_t* lo, uint64_t* hi) {
  // BLD-1: anchored on an own building, or an own road end not blocked. The
  // edges of every anchor at once from per-node masks, minus the roads of all
  // seats (a seat that does not play has none).
  const Topology& topo = GetTopology();
  const PlayerState& ps = s.players_[seat];
  const uint64_t anchors = ps.buildings() | (ps.road_nodes & ~BlockedFor(s, seat));
  uint64_t near_lo = 0, near_hi = 0;
  METROPOLIS_FOR_BITS(v, anchors) {
    near_lo |= topo.node_edge_lo[v];
    near_hi |= topo.node_edge_hi[v];
  }
  const auto& all = s.players_;
  static_assert(kMaxSeats == 4);
  *lo = near_lo & ~(all[0].roads_lo | all[1].roads_lo | all[2].roads_lo | all[3].roads_lo);
  *hi = near_hi & ~(all[0].roads_hi | all[1].roads_hi | all[2].roads_hi | all[3].roads_hi);
}

void RulesImpl::LegalRobberMoves(const State& s, int seat, bool chase, ActionList* list) {
  const Topology& topo = GetTopology();
  ActionWriter out(list);
  // ROB-3: who can be robbed where, as a bit per victim on each hex one of
  // his buildings touches: each victim's hexes as one mask from his few
  // buildings, rather than 19 hexes by 4 seats.
  std::array<uint8_t, kNumHexes> victims{};
  for (int p = 0; p < s.num_seats_; ++p) {
    if (p == seat || s.players_[p].hand.Word() == 0) continue;
    uint32_t hexes = 0;
    METROPOLIS_FOR_BITS(v, s.players_[p].buildings()) hexes |= topo.node_hex_mask[v];
    METROPOLIS_FOR_BITS(h, hexes) victims[h] |= uint8_t(1u << p);
  }
  uint32_t destinations = (1u << kNumHexes) - 1;
  if (s.robber_ >= 0) destinations &= ~(1u << s.robber_);  // ROB-2: must leave its hex
  if (chase && s.options_.chase_robber_destination == ChaseRobberDestination::kNumberedHexOnly)
    for (int h = 0; h < kNumHexes; ++h)
      if (s.board_.terrain[h] == kDesert) destinations &= ~(1u << h);
  METROPOLIS_FOR_BITS(h, destinations) {
    if (victims[h] == 0) {
      out.push(Action::MoveRobber(h, -1));
      continue;
    }
    METROPOLIS_FOR_BITS(p, uint64_t(victims[h])) out.push(Action::MoveRobber(h, p));
  }
}

void RulesImpl::LegalPending(const State& s, const Pending& p, ActionList* out) {
  const PlayerState& ps = s.players_[p.seat];
  if (IsProgressStep(p.kind)) {
    LegalProgressStep(s, p, out);
    return;
  }
  switch (p.kind) {
    case PendingKind::kDiscard:
      for (int c = 0; c < kNumCardTypes; ++c)
        if (ps.hand[c] > 0) out->push(Action::Make(ActionType::kDiscard, c));
      break;
    case PendingKind::kMoveRobber:
      LegalRobberMoves(s, p.seat, p.a == 1, out);
      break;
    case PendingKind::kRelocateKnight: {
      const uint64_t dest = Reachable(s, p.seat, p.a) & ~Occupied(s);
      METROPOLIS_FOR_BITS(v, dest) out->push(Action::Make(ActionType::kRelocateKnight, v));
      break;
    }
    case PendingKind::kPillage: {
      uint64_t cities = ps.cities;
      for (int t = 0; t < kNumTracks; ++t)
        if (s.metropolis_node_[t] >= 0) cities &= ~(uint64_t(1) << s.metropolis_node_[t]);
      METROPOLIS_FOR_BITS(v, cities) out->push(Action::Make(ActionType::kPillageCity, v));
      break;
    }
    case PendingKind::kAqueduct:
      for (int r = 0; r < kNumResources; ++r)
        if (!s.options_.bank_limited || s.bank_[r] > 0) out->push(Action::Make(ActionType::kAqueduct, r));
      break;
    case PendingKind::kPlaceMetropolis: {
      uint64_t cities = ps.cities;
      for (int t = 0; t < kNumTracks; ++t)
        if (s.metropolis_node_[t] >= 0) cities &= ~(uint64_t(1) << s.metropolis_node_[t]);
      METROPOLIS_FOR_BITS(v, cities) out->push(Action::Make(ActionType::kPlaceMetropolis, v));
      break;
    }
    case PendingKind::kCommitKnights: {
      METROPOLIS_FOR_BITS(v, ps.knights) {
        const uint8_t f = s.knight_flags_[v];
        if ((f & kKnightActive) && !(f & kKnightCommitted)) out->push(Action::Make(ActionType::kCommitKnight, v));
      }
      out->push(Action::Make(ActionType::kCommitDone));
      break;
    }
    case PendingKind::kDiscardProgress:
    case PendingKind::kEndTurnDiscard:
      for (int i = 0; i < ps.num_progress; ++i)
        if (i == 0 || ps.progress[i] != ps.progress[i - 1])
          out->push(Action::Make(ActionType::kDiscardProgress, ps.progress[i]));
      break;
    case PendingKind::kDefenderDeck:
      // BAR-6 with PD-3: any colour may be chosen; an empty deck gives nothing.
      for (int t = 0; t < kNumTracks; ++t) out->push(Action::Make(ActionType::kDefenderDeck, t));
      break;
    case PendingKind::kTradeAnswer: {
      // TRD-3 step 2: accept only holding the wanted cards; counters are
      // parameterised and checked when submitted.
      if (ps.hand.Contains(s.trade_.want.ToCounts())) out->push(Action::Make(ActionType::kTradeAccept));
      out->push(Action::Make(ActionType::kTradeDecline));
      break;
    }
    case PendingKind::kTradeClose: {
      const CardCounts& mine = s.players_[s.current_].hand;
      for (int q = 0; q < s.num_seats_; ++q) {
        const uint8_t ans = s.trade_.answer[q];
        const bool ok = (ans == kAccepted && mine.Contains(s.trade_.give.ToCounts()) &&
                         s.players_[q].hand.Contains(s.trade_.want.ToCounts())) ||
                        (ans == kCountered && mine.Contains(s.trade_.counter_want[q].ToCounts()) &&
                         s.players_[q].hand.Contains(s.trade_.counter_give[q].ToCounts()));
        if (ok) out->push(Action::Make(ActionType::kTradeConfirm, q));
      }
      out->push(Action::Make(ActionType::kTradeCancel));
      break;
    }
    default:
      break;  // chance and automatic entries are never decided by a seat
  }
}

}  // namespace metropolis
