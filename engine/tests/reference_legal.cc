#include "engine/tests/reference_legal.h"

#include <algorithm>
#include <utility>

#include "engine/progress.h"
#include "engine/tests/reference_internal.h"
#include "engine/topology.h"

namespace metropolis::reference {
namespace {

using namespace internal;  // the board readings shared with reference_progress.cc

// SET-2/SET-3: pairs (building, road) in snake order from the start seat.
int SetupSeat(const State& s) {
  const int n = s.num_seats();
  const int pair = s.setup_step() / 2;
  return pair < n ? (s.start_seat() + pair) % n : (s.start_seat() + 2 * n - 1 - pair) % n;
}

// Automatic steps sit among the decisions in the enum; they are named here so that a new
// decision kind is a decision by default.
bool IsAutomatic(PendingKind k) {
  return (k >= PendingKind::kStepEvent && k <= PendingKind::kStepDraws) || k == PendingKind::kStepEndTurn ||
         k == PendingKind::kStepReturnProgress;
}
bool IsDecision(PendingKind k) { return k >= PendingKind::kDiscard && !IsAutomatic(k); }
bool IsChance(PendingKind k) { return k <= PendingKind::kDraw || k == PendingKind::kDevDraw; }
bool IsBaseGame(const State& s) { return s.options().ruleset == Ruleset::kBase; }

void AddSetupActions(const State& s, std::vector<Action>* out) {
  if (s.setup_step() % 2 == 0) {
    const bool city = s.setup_step() / 2 >= s.num_seats();
    for (int v = 0; v < kNumNodes; ++v) {
      if (!Empty(s, v)) continue;
      bool distance_ok = true;  // SET-2: the distance rule applies, no road needed
      for (int i = 0; i < 3; ++i) {
        const int w = Topo().node_nodes[v][i];
        if (w >= 0 && HasBuilding(s, w)) distance_ok = false;
      }
      if (distance_ok) out->push_back(city ? Action::BuildCity(v) : Action::BuildSettlement(v));
    }
  } else {
    const int v = s.last_setup_node();
    for (int e = 0; e < kNumEdges; ++e) {
      const auto& ends = Topo().edge_nodes[e];
      if (s.road_owner(e) < 0 && (ends[0] == v || ends[1] == v)) out->push_back(Action::BuildRoad(e));
    }
  }
}

void AddBuildActions(const State& s, int p, std::vector<Action>* out) {
  const CardCounts& hand = s.player(p).hand;
  // BLD-1.
  if (Has(hand, {{kBrick, 1}, {kLumber, 1}}) && RoadsOnBoard(s, p) < 15) {
    for (int e = 0; e < kNumEdges; ++e)
      if (RoadEdgeAllowed(s, p, e)) out->push_back(Action::BuildRoad(e));
  }
  // BLD-2 (BAR-10: the supply may be -1).
  if (Has(hand, {{kBrick, 1}, {kLumber, 1}, {kWool, 1}, {kGrain, 1}}) && SettlementsOnBoard(s, p) < 5) {
    for (int v = 0; v < kNumNodes; ++v) {
      if (!Empty(s, v) || !HasRoadAt(s, p, v)) continue;
      bool distance_ok = true;
      for (int i = 0; i < 3; ++i) {
        const int w = Topo().node_nodes[v][i];
        if (w >= 0 && HasBuilding(s, w)) distance_ok = false;
      }
      if (distance_ok) out->push_back(Action::BuildSettlement(v));
    }
  }
  // BLD-3.
  if (Has(hand, {{kGrain, 2}, {kOre, 3}}) && CitiesOnBoard(s, p) < 4) {
    for (int v = 0; v < kNumNodes; ++v)
      if (OwnsBuilding(s, p, v) && s.building(v) == kSettlement) out->push_back(Action::BuildCity(v));
  }
  // BLD-4.
  if (Has(hand, {{kBrick, 2}}) && WallsOnBoard(s, p) < 3) {
    for (int v = 0; v < kNumNodes; ++v)
      if (OwnsBuilding(s, p, v) && s.building(v) == kCity && !(s.node_flags(v) & kWall))
        out->push_back(Action::Make(ActionType::kBuildWall, v));
  }
}

bool Ready(const State& s, int v) {
  return (s.knight_flags(v) & kKnightActive) && (s.knight_flags(v) & kKnightReady);  // KN-6
}

void AddKnightActions(const State& s, int p, std::vector<Action>* out) {
  const CardCounts& hand = s.player(p).hand;
  // KN-3.
  if (Has(hand, {{kWool, 1}, {kOre, 1}}) && KnightsOnBoard(s, p, 1) < 2) {
    for (int v = 0; v < kNumNodes; ++v)
      if (KnightPlacementAllowed(s, p, v)) out->push_back(Action::Make(ActionType::kRecruitKnight, v));
  }
  // KN-4.
  if (Has(hand, {{kGrain, 1}})) {
    for (int v = 0; v < kNumNodes; ++v)
      if (OwnsKnight(s, p, v) && !(s.knight_flags(v) & kKnightActive))
        out->push_back(Action::Make(ActionType::kActivateKnight, v));
  }
  // KN-5.
  if (Has(hand, {{kWool, 1}, {kOre, 1}})) {
    for (int v = 0; v < kNumNodes; ++v)
      if (PromotableIgnoringCost(s, p, v)) out->push_back(Action::Make(ActionType::kPromoteKnight, v));
  }
  for (int a = 0; a < kNumNodes; ++a) {
    if (!OwnsKnight(s, p, a) || !Ready(s, a)) continue;
    for (int b = 0; b < kNumNodes; ++b) {
      if (b == a) continue;
      // KN-7.
      if (Empty(s, b) && Reachable(s, p, a, b)) out->push_back(Action::Make(ActionType::kMoveKnight, a, b));
      // KN-8.
      if (HasKnight(s, b) && s.knight_owner(b) != p && s.knight_level(b) < s.knight_level(a)) {
        const bool connected = s.options().displace_requires_connection ? Reachable(s, p, a, b) : HasRoadAt(s, p, b);
        if (connected) out->push_back(Action::Make(ActionType::kDisplaceKnight, a, b));
      }
    }
    // KN-9.
    if (!RobberLocked(s) && NodeOnHex(a, s.robber_hex())) out->push_back(Action::Make(ActionType::kChaseRobber, a));
  }
}

bool CanBuyImprovement(const State& s, int p, int track) {
  const int level = s.player(p).level[track];
  if (level >= kMaxImprovementLevel) return false;
  const int next = level + 1;
  // IMP-1, less one commodity while a Crane discount is unused (C-S2).
  const int cost = std::max(0, next - (s.effects().crane_discounts > 0 ? 1 : 0));
  if (s.player(p).hand[TrackCommodity(track)] < cost) return false;
  const int cities = CitiesOnBoard(s, p);
  if (cities == 0) return false;  // IMP-2
  const bool free_city = OwnsCityWithoutMetropolis(s, p);
  if (next == 4) {  // IMP-3
    if (s.options().level4_city_rule == Level4CityRule::kFreeCityRequired) return free_city;
    return !(cities == 1 && !free_city);
  }
  if (next == 5) {  // IMP-4
    const int owner = s.metropolis_owner(track);
    const bool own_or_safe = owner == p || (owner != kNoSeat && s.player(owner).level[track] >= 5);
    return own_or_safe || free_city;
  }
  return true;
}

void AddTradeActions(const State& s, int p, std::vector<Action>* out) {
  for (int give = 0; give < kNumCardTypes; ++give) {
    for (int take = 0; take < kNumCardTypes; ++take) {
      const int rate = BankRate(s, p, give, take);
      if (rate == 0 || s.player(p).hand[give] < rate) continue;
      if (s.options().bank_limited && s.bank()[take] <= 0) continue;
      out->push_back(Action::Make(ActionType::kBankTrade, give, take));
    }
  }
}

// One action per kind held, however many copies (PC-4).
void AddProgressDiscards(const PlayerState& ps, std::vector<Action>* out) {
  for (int kind : HeldKinds(ps)) out->push_back(Action::Make(ActionType::kDiscardProgress, kind));
}

void AddActionPhase(const State& s, int p, std::vector<Action>* out) {
  const PlayerState& ps = s.player(p);
  if (s.options().progress_hand_limit == ProgressHandLimit::kPlayOrDiscard && ps.num_progress >= 5) {
    // D10 PLAY_OR_DISCARD: nothing else before the hand is back to 4.
    AddProgressDiscards(ps, out);
    AddProgressPlays(s, p, /*before_roll=*/false, out);
    return;
  }
  out->push_back(Action::EndTurn());
  AddBuildActions(s, p, out);
  AddKnightActions(s, p, out);
  for (int t = 0; t < kNumTracks; ++t)
    if (CanBuyImprovement(s, p, t)) out->push_back(Action::Make(ActionType::kBuyImprovement, t));
  AddTradeActions(s, p, out);
  AddProgressPlays(s, p, /*before_roll=*/false, out);
  // C-P6 under SABOTAGE_CITY: the owner repairs in his action phase (7.1).
  if (s.options().saboteur == Saboteur::kSabotageCity && Has(ps.hand, {{kLumber, 1}, {kOre, 1}})) {
    for (int v = 0; v < kNumNodes; ++v)
      if (OwnsCity(s, p, v) && (s.node_flags(v) & kSabotaged)) out->push_back(Action::Make(ActionType::kRepairCity, v));
  }
}

void AddMoveRobber(const State& s, const Pending& top, std::vector<Action>* out) {
  const int mover = top.seat;
  const bool chase = top.a == 1;
  for (int hex = 0; hex < kNumHexes; ++hex) {
    if (hex == s.robber_hex()) continue;  // ROB-2
    if (chase && s.options().chase_robber_destination == ChaseRobberDestination::kNumberedHexOnly &&
        s.board().token[hex] == 0)
      continue;  // KN-9
    bool any_victim = false;
    for (int victim = 0; victim < s.num_seats(); ++victim) {
      if (victim == mover || s.player(victim).hand.Total() == 0) continue;
      bool on_hex = false;
      for (int i = 0; i < 6; ++i) on_hex |= OwnsBuilding(s, victim, Topo().hex_nodes[hex][i]);
      if (!on_hex) continue;
      any_victim = true;
      out->push_back(Action::MoveRobber(hex, victim));
    }
    // ROB-3: the steal is not optional when someone qualifies.
    if (!any_victim) out->push_back(Action::MoveRobber(hex, -1));
  }
}

void AddDecision(const State& s, const Pending& top, std::vector<Action>* out) {
  const int p = top.seat;
  const PlayerState& ps = s.player(p);
  switch (top.kind) {
    case PendingKind::kDiscard:  // SEV-2
      for (int c = 0; c < kNumCardTypes; ++c)
        if (ps.hand[c] > 0) out->push_back(Action::Make(ActionType::kDiscard, c));
      break;
    case PendingKind::kMoveRobber:
      AddMoveRobber(s, top, out);
      break;
    case PendingKind::kRelocateKnight:  // KN-8 step 2, C-P5: a displaced knight leaves its intersection
      for (int c = 0; c < kNumNodes; ++c)
        if (c != top.a && Empty(s, c) && Reachable(s, p, top.a, c))
          out->push_back(Action::Make(ActionType::kRelocateKnight, c));
      break;
    case PendingKind::kPillage:  // BAR-8
      for (int v = 0; v < kNumNodes; ++v)
        if (OwnsBuilding(s, p, v) && s.building(v) == kCity && s.metropolis_at(v) < 0)
          out->push_back(Action::Make(ActionType::kPillageCity, v));
      break;
    case PendingKind::kAqueduct:  // PRD-5: a resource the bank can give
      for (int r = 0; r < kNumResources; ++r)
        if (!s.options().bank_limited || s.bank()[r] > 0) out->push_back(Action::Make(ActionType::kAqueduct, r));
      break;
    case PendingKind::kPlaceMetropolis:  // MET-2/MET-3
      for (int v = 0; v < kNumNodes; ++v)
        if (OwnsBuilding(s, p, v) && s.building(v) == kCity && s.metropolis_at(v) < 0)
          out->push_back(Action::Make(ActionType::kPlaceMetropolis, v));
      break;
    case PendingKind::kCommitKnights:  // BAR-12
      for (int v = 0; v < kNumNodes; ++v)
        if (OwnsKnight(s, p, v) && (s.knight_flags(v) & kKnightActive) && !(s.knight_flags(v) & kKnightCommitted))
          out->push_back(Action::Make(ActionType::kCommitKnight, v));
      out->push_back(Action::Make(ActionType::kCommitDone));
      break;
    case PendingKind::kDiscardProgress:  // PC-4.1/PC-4.2
    case PendingKind::kEndTurnDiscard:   // PC-4.3
      AddProgressDiscards(ps, out);
      break;
    case PendingKind::kDefenderDeck:  // BAR-6; PD-3 makes an empty deck a legal, empty-handed choice
      for (int t = 0; t < kNumTracks; ++t) out->push_back(Action::Make(ActionType::kDefenderDeck, t));
      break;
    case PendingKind::kTradeAnswer: {  // TRD-3 step 2: the addressee gives what the offer wants
      if (ps.hand.Contains(s.trade().want.ToCounts())) out->push_back(Action::Make(ActionType::kTradeAccept));
      out->push_back(Action::Make(ActionType::kTradeDecline));
      break;
    }
    case PendingKind::kTradeClose: {  // TRD-3 steps 3 and 4
      const TradeState& t = s.trade();
      for (int q = 0; q < s.num_seats(); ++q) {
        if (q == p || !(t.addressees & (1 << q))) continue;
        bool executable = false;
        if (t.answer[q] == kAccepted)
          executable = ps.hand.Contains(t.give.ToCounts()) && s.player(q).hand.Contains(t.want.ToCounts());
        if (t.answer[q] == kCountered)
          executable =
              ps.hand.Contains(t.counter_want[q].ToCounts()) && s.player(q).hand.Contains(t.counter_give[q].ToCounts());
        if (executable) out->push_back(Action::Make(ActionType::kTradeConfirm, q));
      }
      out->push_back(Action::Make(ActionType::kTradeCancel));
      break;
    }
    default:
      AddProgressDecision(s, top, out);
      break;
  }
}

void SortByCode(std::vector<Action>* v) {
  std::sort(v->begin(), v->end(), [](const Action& x, const Action& y) { return Encode(x) < Encode(y); });
}

const Pending* Top(const State& s) { return s.pending_size() > 0 ? &s.pending(s.pending_size() - 1) : nullptr; }

// Sections 4-17's chance nodes (the base game's dice and draws are in
// reference_base.cc).
void AddChanceOutcomes(const State& s, const Pending* top, std::vector<ChanceOutcome>* out) {
  switch (top->kind) {
    case PendingKind::kStartPlayer:  // SET-1, ties re-rolled: uniform
      for (int seat = 0; seat < s.num_seats(); ++seat)
        out->push_back({Action::Make(ActionType::kChanceStartPlayer, seat), 1.0 / s.num_seats()});
      break;
    case PendingKind::kDice: {  // TRN-3, 1.3
      const double face_p[kNumEventFaces] = {0.5, 1.0 / 6, 1.0 / 6, 1.0 / 6};
      for (int face = 0; face < kNumEventFaces; ++face) {
        if (top->a == 1) {
          out->push_back({Action::Dice(0, 0, face), face_p[face]});
          continue;
        }
        for (int y = 1; y <= 6; ++y)
          for (int r = 1; r <= 6; ++r) out->push_back({Action::Dice(y, r, face), face_p[face] / 36});
      }
      break;
    }
    case PendingKind::kSteal: {  // ROB-3, C-P1: uniform over the victim's cards that may be taken
      const CardCounts& hand = s.player(top->a).hand;
      const int types = top->b == 1 ? kNumResources : kNumCardTypes;  // D15 for the Bishop
      int total = 0;
      for (int c = 0; c < types; ++c) total += hand[c];
      for (int c = 0; c < types; ++c)
        if (hand[c] > 0) out->push_back({Action::Make(ActionType::kChanceSteal, c), double(hand[c]) / total});
      break;
    }
    case PendingKind::kDraw: {  // PD-2, PC-8: unseen cards first, then the known queue
      const ProgressDeck& d = s.deck(top->a);
      if (d.unseen_total > 0) {
        for (int i = 0; i < TrackNumKinds(top->a); ++i)
          if (d.unseen[i] > 0)
            out->push_back({Action::Make(ActionType::kChanceDraw, TrackFirstCard(top->a) + i),
                            double(d.unseen[i]) / d.unseen_total});
      } else if (d.size > 0) {
        out->push_back({Action::Make(ActionType::kChanceDraw, d.returned[d.head]), 1.0});
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace

void internal::AddSharedDecision(const State& s, const Pending& top, std::vector<Action>* out) {
  AddDecision(s, top, out);
}

bool RobberLocked(const State& s) { return s.options().robber_locked_until_first_attack && !s.first_attack_done(); }

int BankRate(const State& s, int seat, int give, int take) {
  if (give == take) return 0;
  int rate = 4;
  for (int h = 0; h < kNumHarbors; ++h) {
    const auto& nodes = Topo().harbor_nodes[h];
    if (!OwnsBuilding(s, seat, nodes[0]) && !OwnsBuilding(s, seat, nodes[1])) continue;
    const int type = s.board().harbor[h];
    if (type == kGenericHarbor) {
      const bool allowed = !IsCommodity(give) || IsResource(take) ||
                           s.options().harbor3_commodity_output == Harbor3CommodityOutput::kAnyCard;  // D18
      if (allowed) rate = std::min(rate, 3);
    } else if (type == give) {
      rate = 2;
    }
  }
  if (IsCommodity(give) && s.player(seat).level[kTrade] >= 3) rate = 2;  // IMP-6
  if (IsResource(give) && s.merchant_owner() == seat && s.merchant_hex() >= 0 &&
      s.board().terrain[s.merchant_hex()] == give)
    rate = 2;                                           // C-T3
  if (s.effects().fleet_cards & (1 << give)) rate = 2;  // C-T4
  return rate;
}

bool Reachable(const State& s, int seat, int a, int b) {
  const bool pass_all = s.options().knight_path_through_opponents;
  std::vector<bool> seen(kNumNodes, false);
  std::vector<int> stack = {a};
  seen[a] = true;
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    for (int i = 0; i < 3; ++i) {
      const int w = Topo().node_nodes[u][i];
      const int e = Topo().node_edges[u][i];
      if (w < 0 || s.road_owner(e) != seat) continue;
      if (w == b) return true;
      // Only intermediate intersections are tested; a simple path never passes its start again.
      if (!seen[w] && (pass_all || !BlockedFor(s, seat, w))) {
        seen[w] = true;
        stack.push_back(w);
      }
    }
  }
  return false;
}

int CurrentPlayer(const State& s) {
  if (s.phase() == Phase::kGameOver) return kTerminalPlayer;
  if (const Pending* top = Top(s)) {
    if (IsChance(top->kind)) return kChancePlayer;
    if (IsDecision(top->kind)) return top->seat;
    return kTerminalPlayer - 1;  // an automatic step left on top: inconsistent
  }
  if (s.phase() == Phase::kSetup) return SetupSeat(s);
  return s.current_seat();
}

std::vector<Action> LegalActions(const State& s) {
  std::vector<Action> out;
  if (s.phase() == Phase::kGameOver) return out;
  if (IsBaseGame(s)) {
    const Pending* top = Top(s);
    if (top == nullptr || IsDecision(top->kind)) AddBaseActions(s, &out);
  } else if (const Pending* top = Top(s)) {
    if (IsDecision(top->kind)) AddDecision(s, *top, &out);
  } else if (s.phase() == Phase::kSetup) {
    AddSetupActions(s, &out);
  } else if (s.phase() == Phase::kBeforeRoll) {
    out.push_back(Action::Roll());  // TRN-2: the roll, or an Alchemist instead
    AddProgressPlays(s, s.current_seat(), /*before_roll=*/true, &out);
  } else if (s.phase() == Phase::kAction) {
    AddActionPhase(s, s.current_seat(), &out);
  }
  SortByCode(&out);
  return out;
}

std::vector<ChanceOutcome> ChanceOutcomes(const State& s) {
  std::vector<ChanceOutcome> out;
  const Pending* top = Top(s);
  if (s.phase() == Phase::kGameOver || top == nullptr) return out;
  if (IsBaseGame(s) && (top->kind == PendingKind::kDice || top->kind == PendingKind::kDevDraw)) {
    AddBaseChanceOutcomes(s, &out);
  } else {
    AddChanceOutcomes(s, top, &out);
  }
  std::sort(out.begin(), out.end(),
            [](const ChanceOutcome& x, const ChanceOutcome& y) { return Encode(x.action) < Encode(y.action); });
  return out;
}

const PerftGenerator& Generator() {
  static const PerftGenerator generator{
      [](const State& s, std::vector<Action>* out) { *out = LegalActions(s); },
      [](const State& s, std::vector<ChanceOutcome>* out) { *out = ChanceOutcomes(s); },
      // Which branch a fixed-chance count follows is the engine's choice (its map from u to an
      // outcome is not specified); that the branch is an outcome at all is checked here, and an
      // action the state refuses makes the branch count 0.
      [](const State& s, double u) {
        const Action sampled = s.SampleChance(u);
        for (const ChanceOutcome& o : ChanceOutcomes(s))
          if (o.action == sampled && o.probability > 0) return sampled;
        return Action::Make(ActionType::kChanceDraw, kNoProgressCard);
      },
  };
  return generator;
}

}  // namespace metropolis::reference
