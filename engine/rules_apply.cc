// Applying actions: setup, the action phase and the answers to pending
// decisions. The resolution of a roll is in rules_roll.cc.
#include <algorithm>
#include <cassert>

#include "engine/rules_internal.h"

namespace metropolis {

extern const CardCounts kRoadCost, kSettlementCost, kCityCost, kWallCost, kKnightCost, kActivateCost;

// ---- Small helpers -----------------------------------------------------------

void RulesImpl::Pay(State& s, int seat, const CardCounts& cost, Events* ev) {
  // The hand holds the cost (every caller checked), so the eight counts
  // subtract as one word without a borrow; the bank gets each type paid.
  CardCounts& hand = s.players_[seat].hand;
  hand.SetWord(hand.Word() - cost.Word());
  for (uint64_t m = cost.Word(); m != 0;) {
    const int c = std::countr_zero(m) / 8;
    m &= ~(uint64_t(0xFF) << (8 * c));
    s.bank_[c] = int16_t(s.bank_[c] + cost[c]);
    Emit(ev, EventType::kPaid, seat, cost[c], c);
  }
}

void RulesImpl::EmitEvent(Events* ev, EventType t, int seat, int a, int b, int c, int other, uint8_t private_to) {
  Event e;
  e.type = t;
  e.seat = int8_t(seat);
  e.other = int8_t(other);
  e.a = uint8_t(a);
  e.b = uint8_t(b);
  e.c = uint8_t(c);
  e.private_to = private_to;
  ev->push_back(e);
}

// ---- Pieces and the derived facts they change ----------------------------------

void RulesImpl::PlaceRoad(State& s, int seat, int edge, Events* ev) {
  s.road_owner_[edge] = int8_t(seat);
  PlayerState& ps = s.players_[seat];
  if (edge < 64)
    ps.roads_lo |= uint64_t(1) << edge;
  else
    ps.roads_hi |= uint64_t(1) << (edge - 64);
  --ps.roads_left;
  const Topology& topo = GetTopology();
  ps.road_nodes |= (uint64_t(1) << topo.edge_nodes[edge][0]) | (uint64_t(1) << topo.edge_nodes[edge][1]);
  // A new road changes only its own component (the others keep their trails,
  // all no longer than the old length, which is kept exact), and that
  // component only grows.
  ps.road_length = uint8_t(std::max<int>(ps.road_length, LongestTrail(s, seat, edge)));
  UpdateLongestRoad(s, ev);
}

void RulesImpl::PlaceSettlement(State& s, int seat, int node, Events* ev) {
  s.building_owner_[node] = int8_t(seat);
  s.building_[node] = kSettlement;
  PlayerState& ps = s.players_[seat];
  ps.settlements |= uint64_t(1) << node;
  ps.harbors |= HarborTypes(s, uint64_t(1) << node);
  --ps.settlements_left;
  AddVp(s, seat, 1);
  AfterBoardChange(s, uint64_t(1) << node, seat, ev);
}

void RulesImpl::PlaceCity(State& s, int seat, int node, Events* ev) {
  PlayerState& ps = s.players_[seat];
  const uint64_t bit = uint64_t(1) << node;
  if (ps.settlements & bit) {
    ps.settlements &= ~bit;
    ++ps.settlements_left;
    AddVp(s, seat, 1);
  } else {
    s.building_owner_[node] = int8_t(seat);
    ps.harbors |= HarborTypes(s, bit);
    AddVp(s, seat, 2);
    AfterBoardChange(s, bit, seat, ev);
  }
  s.building_[node] = kCity;
  ps.cities |= bit;
  --ps.cities_left;
}

void RulesImpl::PlaceKnight(State& s, int seat, int node, int level, uint8_t flags, Events* ev) {
  s.knight_owner_[node] = int8_t(seat);
  s.knight_level_[node] = uint8_t(level);
  s.knight_flags_[node] = flags;
  s.players_[seat].knights |= uint64_t(1) << node;
  --s.players_[seat].knights_left[level - 1];
  AfterBoardChange(s, uint64_t(1) << node, seat, ev);
}

void RulesImpl::RemoveKnight(State& s, int node) {
  const int seat = s.knight_owner_[node];
  ++s.players_[seat].knights_left[s.knight_level_[node] - 1];
  s.players_[seat].knights &= ~(uint64_t(1) << node);
  s.knight_owner_[node] = kNoSeat;
  s.knight_level_[node] = 0;
  s.knight_flags_[node] = 0;
}

// A piece appeared or vanished on `touched` nodes: it can cut (or reconnect)
// the roads of the players other than its owner (LR-3).
void RulesImpl::AfterBoardChange(State& s, uint64_t touched, int owner, Events* ev) {
  const Topology& topo = GetTopology();
  bool changed = false;
  for (int p = 0; p < s.num_seats_; ++p) {
    if (p == owner) continue;
    // A piece on v changes p's length only if a trail of p can pass through
    // v, i.e. p has two or more roads there: a trail may always end at a
    // blocked node (LR-1), so one road at v is unaffected either way.
    // Only nodes at one of p's roads can qualify; mostly there are none.
    const PlayerState& ps = s.players_[p];
    bool affected = false;
    METROPOLIS_FOR_BITS(v, touched & ps.road_nodes) {
      const int roads_here =
          std::popcount(topo.node_edge_lo[v] & ps.roads_lo) + std::popcount(topo.node_edge_hi[v] & ps.roads_hi);
      affected |= roads_here >= 2;
    }
    if (!affected) continue;
    const uint8_t len = uint8_t(s.ComputeRoadLength(p));
    if (len != s.players_[p].road_length) {
      s.players_[p].road_length = len;
      changed = true;
    }
  }
  if (changed) UpdateLongestRoad(s, ev);
}

void RulesImpl::UpdateLongestRoad(State& s, Events* ev) {
  // LR-4.
  int best = 0, count = 0, who = kNoSeat;
  for (int p = 0; p < s.num_seats_; ++p) {
    const int len = s.players_[p].road_length;
    if (len > best) {
      best = len;
      count = 1;
      who = p;
    } else if (len == best) {
      ++count;
    }
  }
  int holder = s.longest_road_;
  if (best < 5) {
    holder = kNoSeat;
  } else if (holder != kNoSeat && s.players_[holder].road_length == best) {
    // keeps it
  } else {
    holder = count == 1 ? who : kNoSeat;
  }
  if (holder == s.longest_road_) return;
  if (s.longest_road_ != kNoSeat) AddVp(s, s.longest_road_, -2);
  if (holder != kNoSeat) AddVp(s, holder, 2);
  s.longest_road_ = int8_t(holder);
  Emit(ev, EventType::kLongestRoad, holder);
}

void RulesImpl::EndWon(State& s, Events* ev) {
  s.phase_ = Phase::kGameOver;
  s.winner_ = s.current_;
  ClearPending(s);
  RevealDevCards(s, ev);
  Emit(ev, EventType::kGameOver, s.current_);
}

void RulesImpl::RevealDevCards(const State& s, Events* ev) {
  // BG-9: victory point cards are shown when the game ends.
  for (int p = 0; p < s.num_seats_; ++p)
    if (s.players_[p].dev[kDevVictoryPoint] > 0)
      Emit(ev, EventType::kDevRevealed, p, s.players_[p].dev[kDevVictoryPoint]);
}

void RulesImpl::ClearPending(State& s) {
  // WIN-2: nothing more is decided; a card being played still goes under its
  // deck so that every card stays accounted for.
  while (s.pending_size_ > 0) {
    const Pending p = Pop(s);
    if (p.kind == PendingKind::kStepReturnProgress) ReturnProgress(s, p.a, -1);
  }
  s.trade_ = TradeState{};
}

// ---- Setup ---------------------------------------------------------------------

void RulesImpl::ApplySetup(State& s, const Action& a, Events* ev) {
  const Topology& topo = GetTopology();
  const int seat = SetupSeat(s, s.setup_step_);
  switch (a.type) {
    case ActionType::kBuildSettlement:
      PlaceSettlement(s, seat, a.a, ev);
      s.last_setup_node_ = int8_t(a.a);
      // BG-2: the base game's second settlement yields one resource per
      // adjacent land hex.
      if (IsBase(s) && s.setup_step_ >= 2 * s.num_seats_) {
        for (int i = 0; i < 3; ++i) {
          const int h = topo.node_hexes[a.a][i];
          if (h < 0 || s.board_.terrain[h] == kDesert) continue;
          Gain(s, seat, s.board_.terrain[h], 1);
          Emit(ev, EventType::kProduced, seat, 1, s.board_.terrain[h]);
        }
      }
      break;
    case ActionType::kBuildCity:
      PlaceCity(s, seat, a.a, ev);
      s.last_setup_node_ = int8_t(a.a);
      // SET-4: one resource per adjacent land hex of the city.
      for (int i = 0; i < 3; ++i) {
        const int h = topo.node_hexes[a.a][i];
        if (h < 0 || s.board_.terrain[h] == kDesert) continue;
        Gain(s, seat, s.board_.terrain[h], 1);
        Emit(ev, EventType::kProduced, seat, 1, s.board_.terrain[h]);
      }
      break;
    case ActionType::kBuildRoad:
      PlaceRoad(s, seat, a.a, ev);
      s.last_setup_node_ = -1;
      break;
    default:
      assert(false);
  }
  ++s.setup_step_;
  if (s.setup_step_ == 4 * s.num_seats_) {
    s.phase_ = Phase::kBeforeRoll;  // SET-5
    s.current_ = s.start_;
    s.turn_ = 1;
    s.setup_step_ = 0;
  }
}

// ---- The action phase ----------------------------------------------------------

void RulesImpl::ApplyActionPhase(State& s, const Action& a, Events* ev) {
  const int seat = s.current_;
  PlayerState& ps = s.players_[seat];
  switch (a.type) {
    case ActionType::kRoll:
      Push(s, PendingKind::kDice, seat, 0);
      break;
    case ActionType::kEndTurn:
      EndTurn(s, ev);
      break;
    case ActionType::kBuildRoad:
      Pay(s, seat, kRoadCost, ev);
      PlaceRoad(s, seat, a.a, ev);
      break;
    case ActionType::kBuildSettlement:
      Pay(s, seat, kSettlementCost, ev);
      PlaceSettlement(s, seat, a.a, ev);
      break;
    case ActionType::kBuildCity:
      Pay(s, seat, kCityCost, ev);
      PlaceCity(s, seat, a.a, ev);
      break;
    case ActionType::kBuildWall:
      Pay(s, seat, kWallCost, ev);
      s.node_flags_[a.a] |= kWall;
      --ps.walls_left;
      break;
    case ActionType::kRecruitKnight:
      Pay(s, seat, kKnightCost, ev);
      PlaceKnight(s, seat, a.a, 1, 0, ev);
      break;
    case ActionType::kActivateKnight:
      Pay(s, seat, kActivateCost, ev);
      s.knight_flags_[a.a] |= kKnightActive;  // not ready: KN-6
      break;
    case ActionType::kPromoteKnight: {
      Pay(s, seat, kKnightCost, ev);
      const int level = s.knight_level_[a.a];
      ++ps.knights_left[level - 1];
      --ps.knights_left[level];
      s.knight_level_[a.a] = uint8_t(level + 1);
      s.knight_flags_[a.a] |= kKnightPromoted;
      break;
    }
    case ActionType::kMoveKnight: {
      const uint8_t flags = uint8_t(s.knight_flags_[a.a] & ~(kKnightActive | kKnightReady));
      const int level = s.knight_level_[a.a];
      RemoveKnight(s, a.a);
      AfterBoardChange(s, uint64_t(1) << a.a, seat, ev);
      PlaceKnight(s, seat, a.b, level, flags, ev);
      break;
    }
    case ActionType::kDisplaceKnight: {
      // KN-8: the attacker takes the node; the victim relocates or leaves.
      const uint8_t flags = uint8_t(s.knight_flags_[a.a] & ~(kKnightActive | kKnightReady));
      const int level = s.knight_level_[a.a];
      const int victim = s.knight_owner_[a.b];
      const int victim_level = s.knight_level_[a.b];
      const bool victim_active = s.knight_flags_[a.b] & kKnightActive;
      RemoveKnight(s, a.a);
      RemoveKnight(s, a.b);
      // The victim's knight leaving b can lengthen the attacker's roads too.
      AfterBoardChange(s, (uint64_t(1) << a.a) | (uint64_t(1) << a.b), kNoSeat, ev);
      PlaceKnight(s, seat, a.b, level, flags, ev);
      if (Reachable(s, victim, a.b) & ~Occupied(s)) {
        Push(s, PendingKind::kRelocateKnight, victim, a.b, victim_level, victim_active ? 1 : 0);
      } else {
        Emit(ev, EventType::kKnightRemoved, victim, a.b);
        AfterBoardChange(s, uint64_t(1) << a.b, victim, ev);
      }
      break;
    }
    case ActionType::kChaseRobber:
      s.knight_flags_[a.a] &= uint8_t(~(kKnightActive | kKnightReady));
      Push(s, PendingKind::kMoveRobber, seat, 1);
      break;
    case ActionType::kBuyImprovement: {
      const int track = a.a;
      const int level = ps.level[track] + 1;
      // C-S2: a Crane discount takes one commodity off this purchase.
      const int discount = s.effects_.crane_discounts > 0 ? 1 : 0;
      s.effects_.crane_discounts = uint8_t(s.effects_.crane_discounts - discount);
      CardCounts cost;
      cost[TrackCommodity(track)] = uint8_t(level - discount);
      Pay(s, seat, cost, ev);
      ps.level[track] = uint8_t(level);
      const int owner = s.metropolis_owner_[track];
      // MET-2 / MET-3.
      if ((level == 4 && owner == kNoSeat) || (level == 5 && owner == kNoSeat)) {
        if (HasCityWithoutMetropolis(s, seat)) Push(s, PendingKind::kPlaceMetropolis, seat, track);
      } else if (level == 5 && owner != seat && s.players_[owner].level[track] < 5) {
        AddVp(s, owner, -2);
        s.metropolis_owner_[track] = kNoSeat;
        s.metropolis_node_[track] = -1;
        Push(s, PendingKind::kPlaceMetropolis, seat, track);
      }
      break;
    }
    case ActionType::kBankTrade: {
      const int rate = BankRate(s, seat, a.a, a.b);
      CardCounts c;
      c[a.a] = uint8_t(rate);
      Pay(s, seat, c, ev);
      Gain(s, seat, a.b, 1);
      break;
    }
    case ActionType::kPlayProgress:
      ApplyPlay(s, a, ev);
      break;
    case ActionType::kBuyDev:
    case ActionType::kPlayDev:
      ApplyDev(s, a, ev);
      break;
    case ActionType::kRepairCity: {  // C-P6 under SABOTAGE_CITY
      CardCounts cost;
      cost[kLumber] = 1;
      cost[kOre] = 1;
      Pay(s, seat, cost, ev);
      s.node_flags_[a.a] &= uint8_t(~kSabotaged);
      Emit(ev, EventType::kCitySabotaged, seat, a.a, 0);
      break;
    }
    case ActionType::kDiscardProgress:  // D10 PLAY_OR_DISCARD
      RemoveProgress(s, seat, a.a);
      ReturnProgress(s, a.a, seat);
      break;
    case ActionType::kTradeOffer: {
      TradeState& t = s.trade_;
      t = TradeState{};
      t.open = true;
      t.give = a.give;
      t.want = a.want;
      t.addressees = a.addressees;
      ++s.offers_this_turn_;
      Push(s, PendingKind::kTradeClose, seat);
      // Addressees answer in turn order starting after the current player, so
      // the first of them goes on top.
      for (int k = s.num_seats_ - 1; k >= 1; --k) {
        const int q = (seat + k) % s.num_seats_;
        if ((a.addressees >> q) & 1) Push(s, PendingKind::kTradeAnswer, q);
      }
      break;
    }
    default:
      assert(false);
  }
}

// ---- Answers to pending decisions ------------------------------------------------

void RulesImpl::ApplyPending(State& s, const Action& a, Events* ev) {
  Pending& top = s.pending_[s.pending_size_ - 1];
  if (IsProgressStep(top.kind)) {
    ApplyProgressStep(s, a, ev);
    return;
  }
  const int seat = top.seat;
  PlayerState& ps = s.players_[seat];
  switch (a.type) {
    case ActionType::kDiscard: {  // SEV-2, C-P6: one card of the seat's choice to the bank
      CardCounts card;
      card[a.a] = 1;
      if (--top.a == 0) Pop(s);
      Pay(s, seat, card, ev);
      break;
    }
    case ActionType::kMoveRobber: {
      Pop(s);
      s.robber_ = int8_t(a.a);
      if (a.b > 0) Push(s, PendingKind::kSteal, seat, a.b - 1);
      break;
    }
    case ActionType::kRelocateKnight: {
      const Pending p = Pop(s);
      PlaceKnight(s, seat, a.a, p.b, p.c ? kKnightActive : 0, ev);
      AfterBoardChange(s, uint64_t(1) << p.a, seat, ev);  // it left p.a
      break;
    }
    case ActionType::kPillageCity: {
      Pop(s);
      // BAR-8/BAR-10: the city becomes a settlement; its wall returns.
      const uint64_t bit = uint64_t(1) << a.a;
      ps.cities &= ~bit;
      ++ps.cities_left;
      ps.settlements |= bit;
      --ps.settlements_left;
      s.building_[a.a] = kSettlement;
      if (s.node_flags_[a.a] & kWall) ++ps.walls_left;
      s.node_flags_[a.a] = 0;
      AddVp(s, seat, -1);
      Emit(ev, EventType::kCityPillaged, seat, a.a);
      break;
    }
    case ActionType::kAqueduct:
      Pop(s);
      Gain(s, seat, a.a, 1);
      Emit(ev, EventType::kProduced, seat, 1, a.a);
      break;
    case ActionType::kPlaceMetropolis: {
      const Pending p = Pop(s);
      s.metropolis_owner_[p.a] = int8_t(seat);
      s.metropolis_node_[p.a] = int8_t(a.a);
      AddVp(s, seat, 2);
      Emit(ev, EventType::kMetropolis, seat, p.a, a.a);
      break;
    }
    case ActionType::kCommitKnight:
      s.knight_flags_[a.a] |= kKnightCommitted;
      break;
    case ActionType::kCommitDone:
      Pop(s);
      break;
    case ActionType::kDiscardProgress:
      Pop(s);
      RemoveProgress(s, seat, a.a);
      ReturnProgress(s, a.a, seat);
      break;
    case ActionType::kDefenderDeck:
      Pop(s);
      if (s.options_.defender_tie_reward == DefenderTieReward::kAnyCardOfChosenDeck) {
        if (s.decks_[a.a].Size() > 0) Push(s, PendingKind::kDefenderTake, seat, a.a);
      } else {
        Push(s, PendingKind::kDraw, seat, a.a);
      }
      break;
    case ActionType::kTradeAccept:
      s.trade_.answer[seat] = kAccepted;
      Pop(s);
      break;
    case ActionType::kTradeDecline:
      s.trade_.answer[seat] = kDeclined;
      Pop(s);
      break;
    case ActionType::kTradeCounter:
      s.trade_.answer[seat] = kCountered;
      s.trade_.counter_give[seat] = a.give;
      s.trade_.counter_want[seat] = a.want;
      Pop(s);
      break;
    case ActionType::kTradeConfirm: {
      Pop(s);
      const int q = a.a;
      const TradeState& t = s.trade_;
      // The current player gives `mine`, seat q gives `theirs`.
      const CardCounts mine = t.answer[q] == kAccepted ? t.give.ToCounts() : t.counter_want[q].ToCounts();
      const CardCounts theirs = t.answer[q] == kAccepted ? t.want.ToCounts() : t.counter_give[q].ToCounts();
      for (int c = 0; c < kNumCardTypes; ++c) {
        s.players_[seat].hand[c] = uint8_t(s.players_[seat].hand[c] - mine[c] + theirs[c]);
        s.players_[q].hand[c] = uint8_t(s.players_[q].hand[c] - theirs[c] + mine[c]);
      }
      if (ev) {
        Event e;
        e.type = EventType::kTradeExecuted;
        e.seat = int8_t(seat);
        e.other = int8_t(q);
        e.action.give = PackedCards::From(mine);
        e.action.want = PackedCards::From(theirs);
        ev->push_back(e);
      }
      s.trade_ = TradeState{};
      break;
    }
    case ActionType::kTradeCancel:
      Pop(s);
      s.trade_ = TradeState{};
      break;
    default:
      assert(false);
  }
}

// ---- Progress cards in hands and decks -----------------------------------------

void RulesImpl::RemoveProgress(State& s, int seat, int card) {
  PlayerState& ps = s.players_[seat];
  for (int i = 0; i < ps.num_progress; ++i) {
    if (ps.progress[i] != card) continue;
    for (int j = i; j + 1 < ps.num_progress; ++j) ps.progress[j] = ps.progress[j + 1];
    ps.progress[--ps.num_progress] = kNoProgressCard;
    return;
  }
  assert(false);
}

void RulesImpl::ReturnProgress(State& s, int card, int hidden_seat) {
  // PC-8: face down to the bottom of its deck.
  ProgressDeck& d = s.decks_[ProgressTrack(card)];
  assert(d.size < ProgressDeck::kCapacity);
  d.returned[d.size] = uint8_t(card);
  d.returned_hidden[d.size] = uint8_t(hidden_seat + 1);
  ++d.size;
}

void RulesImpl::GiveProgress(State& s, int seat, int card, Events* ev) {
  PlayerState& ps = s.players_[seat];
  if (IsVictoryPointCard(card)) {  // PD-4
    ps.vp_cards |= card == kPrinter ? 1 : 2;
    AddVp(s, seat, 1);
    Emit(ev, EventType::kVictoryCardRevealed, seat, 0, card);
    return;
  }
  int i = ps.num_progress;
  while (i > 0 && ps.progress[i - 1] > card) {
    ps.progress[i] = ps.progress[i - 1];
    --i;
  }
  ps.progress[i] = uint8_t(card);
  ++ps.num_progress;
  if (ps.num_progress > ProgressLimit(s, seat)) Push(s, PendingKind::kDiscardProgress, seat);  // PC-4
}

void RulesImpl::DrawFromReturned(State& s, int seat, int track, Events* ev) {
  ProgressDeck& d = s.decks_[track];
  const int card = d.returned[0];
  for (int i = 0; i + 1 < d.size; ++i) {
    d.returned[i] = d.returned[i + 1];
    d.returned_hidden[i] = d.returned_hidden[i + 1];
  }
  --d.size;
  d.returned[d.size] = 0;
  d.returned_hidden[d.size] = 0;
  Emit(ev, EventType::kProgressDrawn, seat, track, card, 0, -1, uint8_t(1u << seat));
  GiveProgress(s, seat, card, ev);
}

}  // namespace metropolis
