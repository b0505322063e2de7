// Playing progress cards (RULES.md sections 12-13): which plays are legal and
// what each card does. The decisions a card raises are in
// rules_progress_steps.cc; docs/PROGRESS_CARDS.md is the overview.
#include <algorithm>
#include <cassert>

#include "engine/rules_internal.h"

namespace metropolis {

namespace {

bool Holds(const PlayerState& ps, int card) {
  for (int i = 0; i < ps.num_progress; ++i)
    if (ps.progress[i] == card) return true;
  return false;
}

// Calls push_one for each opponent, last in turn order first, so that the
// first opponent after `seat` ends up on top of the pending stack.
template <typename F>
void PushForOpponentsInTurnOrder(int seat, int n, F push_one) {
  for (int k = n - 1; k >= 1; --k) push_one((seat + k) % n);
}

}  // namespace

void RulesImpl::OpenRoads(const State& s, uint64_t* lo, uint64_t* hi) {
  // DEF-8 for every road at once: per owner, the nodes where two of his roads
  // meet or he has a building or knight close a road's end.
  const Topology& topo = GetTopology();
  *lo = *hi = 0;
  for (int p = 0; p < kMaxSeats; ++p) {  // a seat that does not play has no roads
    const PlayerState& ps = s.players_[p];
    uint64_t once = 0, twice = 0;
    auto count_ends = [&](int e) {
      for (int k = 0; k < 2; ++k) {
        const uint64_t bit = uint64_t(1) << topo.edge_nodes[e][k];
        twice |= once & bit;
        once |= bit;
      }
    };
    METROPOLIS_FOR_BITS(e, ps.roads_lo) count_ends(e);
    METROPOLIS_FOR_BITS(e, ps.roads_hi) count_ends(e + 64);
    const uint64_t closed = ps.buildings() | ps.knights | twice;
    auto open = [&](int e) {
      return (((uint64_t(1) << topo.edge_nodes[e][0]) | (uint64_t(1) << topo.edge_nodes[e][1])) & ~closed) != 0;
    };
    METROPOLIS_FOR_BITS(e, ps.roads_lo)* lo |= uint64_t(open(e)) << e;
    METROPOLIS_FOR_BITS(e, ps.roads_hi)* hi |= uint64_t(open(e + 64)) << e;
  }
}

bool RulesImpl::IsOpenRoad(const State& s, int edge) {
  // DEF-8: open when an end has no other road, building or knight of the owner.
  const Topology& topo = GetTopology();
  const int owner = s.road_owner_[edge];
  if (owner == kNoSeat) return false;
  const PlayerState& ps = s.players_[owner];
  for (int end = 0; end < 2; ++end) {
    const int v = topo.edge_nodes[edge][end];
    bool closed = ((ps.buildings() | ps.knights) >> v) & 1;
    for (int i = 0; i < 3 && !closed; ++i) {
      const int e = topo.node_edges[v][i];
      closed = e >= 0 && e != edge && s.road_owner_[e] == owner;
    }
    if (!closed) return true;
  }
  return false;
}

void RulesImpl::LegalAlchemist(const State& s, ActionList* list) {
  ActionWriter out(list);
  // C-S1: before the roll only; E17 at most one per turn follows from the
  // roll that comes with it.
  if (!Holds(s.players_[s.current_], kAlchemist)) return;
  for (int y = 1; y <= 6; ++y)
    for (int r = 1; r <= 6; ++r) out.push(Action::Play(kAlchemist, y, r));
}

void RulesImpl::LegalPlays(const State& s, ActionList* list) {
  ActionWriter out(list);
  const Topology& topo = GetTopology();
  const int seat = s.current_;
  const int n = s.num_seats_;
  const PlayerState& ps = s.players_[seat];
  for (int i = 0; i < ps.num_progress; ++i) {
    const int card = ps.progress[i];
    if (i > 0 && ps.progress[i - 1] == card) continue;
    switch (card) {
      case kAlchemist:  // before the roll only (TRN-2)
      case kPrinter:
      case kConstitution:
        break;
      case kCrane: {  // C-S2
        bool open_track = false;
        for (int t = 0; t < kNumTracks; ++t) open_track |= ps.level[t] < kMaxImprovementLevel;
        const bool limit = s.options_.crane_limit == CraneLimit::kOnePerTurn && s.effects_.cranes_played > 0;
        if (ps.cities && open_track && !limit) out.push(Action::Play(card));
        break;
      }
      case kEngineer:  // C-S3
        if (ps.walls_left > 0) {
          METROPOLIS_FOR_BITS(v, ps.cities) {
            if (!(s.node_flags_[v] & kWall)) out.push(Action::Play(card, v));
          }
        }
        break;
      case kInventor: {  // C-S4
        auto swappable = [&](int h) {
          const int t = s.board_.token[h];
          return t != 0 && t != 2 && t != 6 && t != 8 && t != 12;
        };
        uint32_t hexes = 0;
        for (int h = 0; h < kNumHexes; ++h) hexes |= uint32_t(swappable(h)) << h;
        METROPOLIS_FOR_BITS(a, hexes) {
          METROPOLIS_FOR_BITS(b, hexes & ~((uint64_t(2) << a) - 1)) out.push(Action::Play(card, a, b));
        }
        break;
      }
      case kIrrigation:  // C-S5, C-S7
      case kMining:
        out.push(Action::Play(card));
        break;
      case kMedicine:  // C-S6
        if (ps.cities_left > 0 && ps.hand[kOre] >= 2 && ps.hand[kGrain] >= 1) {
          METROPOLIS_FOR_BITS(v, ps.settlements) out.push(Action::Play(card, v));
        }
        break;
      case kRoadBuilding: {  // C-S9
        uint64_t lo, hi;
        RoadEdges(s, seat, &lo, &hi);
        if (ps.roads_left > 0 && (lo | hi)) out.push(Action::Play(card));
        break;
      }
      case kSmith: {  // C-S10
        bool any = false;
        METROPOLIS_FOR_BITS(v, ps.knights) any |= CanPromote(s, seat, v);
        if (any) out.push(Action::Play(card));
        break;
      }
      case kBishop:  // C-P1
        if (!IsRobberLocked(s))
          for (int h = 0; h < kNumHexes; ++h)
            if (h != s.robber_) out.push(Action::Play(card, h));
        break;
      case kDeserter:  // C-P3
        for (int q = 0; q < n; ++q)
          if (q != seat && s.players_[q].knights) out.push(Action::Play(card, q));
        break;
      case kDiplomat: {  // C-P4
        uint64_t lo, hi;
        OpenRoads(s, &lo, &hi);
        if (s.options_.diplomat_scope == DiplomatScope::kAllOpenRoads) {
          if (lo | hi) out.push(Action::Play(card, 0));
        } else {
          METROPOLIS_FOR_BITS(e, lo) out.push(Action::Play(card, e));
          METROPOLIS_FOR_BITS(e, hi) out.push(Action::Play(card, e + 64));
        }
        break;
      }
      case kIntrigue: {  // C-P5
        const uint64_t targets = ps.road_nodes & AllKnights(s) & ~ps.knights;
        METROPOLIS_FOR_BITS(v, targets) out.push(Action::Play(card, v));
        break;
      }
      case kSaboteur:  // C-P6
        if (s.options_.saboteur == Saboteur::kSabotageCity) {
          for (int v = 0; v < kNumNodes; ++v)
            if (s.building_[v] == kCity && s.building_owner_[v] != seat && !(s.node_flags_[v] & kSabotaged) &&
                s.metropolis_at(v) < 0)
              out.push(Action::Play(card, v));
        } else {
          out.push(Action::Play(card));
        }
        break;
      case kSpy:  // C-P7
        for (int q = 0; q < n; ++q)
          if (q != seat && s.players_[q].num_progress > 0) out.push(Action::Play(card, q));
        break;
      case kWarlord:  // C-P8, C-P9, C-T1
      case kWedding:
      case kCommercialHarbor:
        out.push(Action::Play(card));
        break;
      case kMasterMerchant:  // C-T2
        for (int q = 0; q < n; ++q)
          if (q != seat && s.players_[q].vp > ps.vp) out.push(Action::Play(card, q));
        break;
      case kMerchant: {  // C-T3
        const uint64_t mine =
            s.options_.merchant_adjacency == MerchantAdjacency::kSettlementOnly ? ps.settlements : ps.buildings();
        uint32_t hexes = 0;
        METROPOLIS_FOR_BITS(v, mine) hexes |= topo.node_hex_mask[v];
        METROPOLIS_FOR_BITS(h, hexes) {
          if (s.board_.terrain[h] != kDesert) out.push(Action::Play(card, h));
        }
        break;
      }
      case kMerchantFleet:  // C-T4
        for (int c = 0; c < kNumCardTypes; ++c) out.push(Action::Play(card, c));
        break;
      case kResourceMonopoly:  // C-T5
        for (int c = 0; c < kNumResources; ++c) out.push(Action::Play(card, c));
        break;
      case kTradeMonopoly:  // C-T6
        for (int c = kNumResources; c < kNumCardTypes; ++c) out.push(Action::Play(card, c));
        break;
      default:
        assert(false);
    }
  }
}

void RulesImpl::RemoveRoad(State& s, int edge, Events* ev) {
  const int owner = s.road_owner_[edge];
  PlayerState& ps = s.players_[owner];
  s.road_owner_[edge] = kNoSeat;
  if (edge < 64)
    ps.roads_lo &= ~(uint64_t(1) << edge);
  else
    ps.roads_hi &= ~(uint64_t(1) << (edge - 64));
  ++ps.roads_left;
  ps.road_nodes = RoadNodes(s, owner);
  ps.road_length = uint8_t(s.ComputeRoadLength(owner));
  Emit(ev, EventType::kRoadRemoved, owner, edge);
  UpdateLongestRoad(s, ev);
}

void RulesImpl::DisplaceBy(State& s, int node, Events* ev) {
  // KN-8 steps 2-3: the owner relocates the knight along his roads, or it
  // goes back to his supply.
  const int victim = s.knight_owner_[node];
  const int level = s.knight_level_[node];
  const bool active = s.knight_flags_[node] & kKnightActive;
  RemoveKnight(s, node);
  AfterBoardChange(s, uint64_t(1) << node, kNoSeat, ev);
  if (Reachable(s, victim, node) & ~Occupied(s)) {
    Push(s, PendingKind::kRelocateKnight, victim, node, level, active ? 1 : 0);
  } else {
    Emit(ev, EventType::kKnightRemoved, victim, node);
  }
}

void RulesImpl::ApplyPlay(State& s, const Action& a, Events* ev) {
  const Topology& topo = GetTopology();
  const int seat = s.current_;
  const int n = s.num_seats_;
  PlayerState& ps = s.players_[seat];
  const int card = a.a;
  RemoveProgress(s, seat, card);
  // PC-6: the card goes under its deck once everything it raises is decided.
  Push(s, PendingKind::kStepReturnProgress, seat, card);
  switch (card) {
    case kAlchemist:  // C-S1: the production dice are set; roll the event die.
      s.dice_yellow_ = a.b;
      s.dice_red_ = a.c;
      Push(s, PendingKind::kDice, seat, 1);
      break;
    case kCrane:
      ++s.effects_.crane_discounts;
      ++s.effects_.cranes_played;
      break;
    case kEngineer:
      s.node_flags_[a.b] |= kWall;
      --ps.walls_left;
      break;
    case kInventor:
      std::swap(s.board_.token[a.b], s.board_.token[a.c]);
      Emit(ev, EventType::kTokensSwapped, seat, a.b, a.c);
      break;
    case kIrrigation:
    case kMining: {
      // Two cards per matching hex next to the player's buildings, each hex
      // once; the robber does not matter (E06); the bank pays what it has.
      const int terrain = card == kIrrigation ? kFields : kMountains;
      int hexes = 0;
      for (int h = 0; h < kNumHexes; ++h)
        if (s.board_.terrain[h] == terrain && (ps.buildings() & topo.hex_node_mask[h])) ++hexes;
      int gain = 2 * hexes;
      if (s.options_.bank_limited) gain = std::min<int>(gain, s.bank_[terrain]);
      if (gain > 0) {
        Gain(s, seat, terrain, gain);
        Emit(ev, EventType::kProduced, seat, gain, terrain);
      }
      break;
    }
    case kMedicine: {
      CardCounts cost;
      cost[kOre] = 2;
      cost[kGrain] = 1;
      Pay(s, seat, cost, ev);
      PlaceCity(s, seat, a.b, ev);
      break;
    }
    case kRoadBuilding:
      Push(s, PendingKind::kRoadBuilding, seat, 2);
      break;
    case kSmith:
      Push(s, PendingKind::kSmith, seat, 2);
      break;
    case kBishop: {  // C-P1: one random card from each opponent on the hex.
      s.robber_ = int8_t(a.b);
      const bool resources_only = s.options_.progress_takes_resources_only;
      PushForOpponentsInTurnOrder(seat, n, [&](int q) {
        const CardCounts& hand = s.players_[q].hand;
        const int cards = resources_only ? hand.Resources() : hand.Total();
        if (cards > 0 && (s.players_[q].buildings() & topo.hex_node_mask[a.b]))
          Push(s, PendingKind::kSteal, seat, q, resources_only ? 1 : 0);
      });
      break;
    }
    case kDeserter:
      Push(s, PendingKind::kDeserterRemove, a.b, seat);
      break;
    case kDiplomat: {
      int own = 0;
      if (s.options_.diplomat_scope == DiplomatScope::kAllOpenRoads) {
        std::array<bool, kNumEdges> open{};
        for (int e = 0; e < kNumEdges; ++e) open[e] = IsOpenRoad(s, e);  // all at once
        for (int e = 0; e < kNumEdges; ++e) {
          if (!open[e]) continue;
          own += s.road_owner_[e] == seat;
          RemoveRoad(s, e, ev);
        }
      } else {
        own = s.road_owner_[a.b] == seat;
        RemoveRoad(s, a.b, ev);
      }
      if (own > 0) Push(s, PendingKind::kDiplomatReplace, seat, own);
      break;
    }
    case kIntrigue:
      DisplaceBy(s, a.b, ev);
      break;
    case kSaboteur:
      if (s.options_.saboteur == Saboteur::kSabotageCity) {
        s.node_flags_[a.b] |= kSabotaged;
        Emit(ev, EventType::kCitySabotaged, s.building_owner_[a.b], a.b, 1);
      } else {
        const bool strictly = s.options_.saboteur == Saboteur::kHalfHandVpGt;
        PushForOpponentsInTurnOrder(seat, n, [&](int q) {
          const int vp = s.players_[q].vp;
          const int discard = s.players_[q].hand.Total() / 2;
          if ((strictly ? vp > ps.vp : vp >= ps.vp) && discard > 0) Push(s, PendingKind::kDiscard, q, discard);
        });
        for (int i = s.pending_size_ - 1; i >= 0 && s.pending_[i].kind == PendingKind::kDiscard; --i)
          Emit(ev, EventType::kMustDiscard, s.pending_[i].seat, s.pending_[i].a);
      }
      break;
    case kSpy: {
      const PlayerState& victim = s.players_[a.b];
      for (int i = 0; i < victim.num_progress; ++i)
        Emit(ev, EventType::kProgressSeen, seat, 0, victim.progress[i], 0, a.b, uint8_t(1u << seat));
      Push(s, PendingKind::kSpyTake, seat, a.b);
      break;
    }
    case kWarlord:  // C-P8: active, but not ready this turn (E07)
      METROPOLIS_FOR_BITS(v, ps.knights) s.knight_flags_[v] |= kKnightActive;
      break;
    case kWedding: {  // C-P9
      const bool resources_only = s.options_.progress_takes_resources_only;
      PushForOpponentsInTurnOrder(seat, n, [&](int q) {
        const CardCounts& hand = s.players_[q].hand;
        const int cards = std::min(2, resources_only ? hand.Resources() : hand.Total());
        if (s.players_[q].vp > ps.vp && cards > 0) Push(s, PendingKind::kWeddingGive, q, seat, cards);
      });
      break;
    }
    case kCommercialHarbor:
      Push(s, PendingKind::kCommercialHarbor, seat);
      break;
    case kMasterMerchant: {  // C-T2: sees the hand, takes two of his choice.
      // The whole hand, one event per card type (zeros too), so that the
      // other seats learn nothing from how many events there are.
      const CardCounts& hand = s.players_[a.b].hand;
      const bool resources_only = s.options_.progress_takes_resources_only;
      for (int c = 0; c < kNumCardTypes; ++c)
        Emit(ev, EventType::kHandSeen, seat, hand[c], c, 0, a.b, uint8_t(1u << seat));
      const int cards = std::min(2, resources_only ? hand.Resources() : hand.Total());
      if (cards > 0) Push(s, PendingKind::kMasterMerchantTake, seat, a.b, cards);
      break;
    }
    case kMerchant:  // C-T3
      if (s.merchant_owner_ != kNoSeat) AddVp(s, s.merchant_owner_, -1);
      s.merchant_hex_ = int8_t(a.b);
      s.merchant_owner_ = int8_t(seat);
      AddVp(s, seat, 1);
      Emit(ev, EventType::kMerchantPlaced, seat, a.b);
      break;
    case kMerchantFleet:
      s.effects_.fleet_cards |= uint8_t(1u << a.b);
      break;
    case kResourceMonopoly:  // C-T5: two of it from each opponent, or what he has.
    case kTradeMonopoly:     // C-T6: one commodity from each opponent who has it.
      for (int k = 1; k < n; ++k) {
        const int q = (seat + k) % n;
        const int give = std::min<int>(card == kResourceMonopoly ? 2 : 1, s.players_[q].hand[a.b]);
        if (give == 0) continue;
        Transfer(s, q, seat, a.b, give);
        Emit(ev, EventType::kCardGiven, q, give, a.b, 0, seat);
      }
      break;
    default:
      assert(false);
  }
}

}  // namespace metropolis
