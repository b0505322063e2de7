// Checking a submitted action. Legality itself is decided in one place — the
// legal-action list (or, for parameterised trades, CheckTrade below) — and
// this file only explains a refusal: which rule forbids the action and why.
#include <algorithm>

#include "engine/rules_internal.h"

namespace metropolis {

extern const CardCounts kRoadCost, kSettlementCost, kCityCost, kWallCost, kKnightCost, kActivateCost, kDevCost;

namespace {

std::string Node(int v) { return "n" + std::to_string(v); }
std::string Edge(int e) { return "e" + std::to_string(e); }

std::string MissingCards(const CardCounts& hand, const CardCounts& cost) {
  std::string s;
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (hand[c] >= cost[c]) continue;
    if (!s.empty()) s += ", ";
    s += std::to_string(cost[c] - hand[c]) + " " + std::string(CardName(c));
  }
  return s;
}

// "1 brick + 1 lumber": a cost as the rulebook's table writes it.
std::string CardList(const CardCounts& cost) {
  std::string s;
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (cost[c] == 0) continue;
    if (!s.empty()) s += " + ";
    s += std::to_string(cost[c]) + " " + std::string(CardName(c));
  }
  return s;
}

bool SameDecision(ActionType submitted, PendingKind pending) {
  switch (pending) {
    case PendingKind::kDiscard:
      return submitted == ActionType::kDiscard;
    case PendingKind::kMoveRobber:
      return submitted == ActionType::kMoveRobber;
    case PendingKind::kRelocateKnight:
      return submitted == ActionType::kRelocateKnight;
    case PendingKind::kPillage:
      return submitted == ActionType::kPillageCity;
    case PendingKind::kAqueduct:
      return submitted == ActionType::kAqueduct;
    case PendingKind::kPlaceMetropolis:
      return submitted == ActionType::kPlaceMetropolis;
    case PendingKind::kCommitKnights:
      return submitted == ActionType::kCommitKnight || submitted == ActionType::kCommitDone;
    case PendingKind::kDiscardProgress:
    case PendingKind::kEndTurnDiscard:
      return submitted == ActionType::kDiscardProgress;
    case PendingKind::kDefenderDeck:
      return submitted == ActionType::kDefenderDeck;
    case PendingKind::kTradeAnswer:
      return submitted == ActionType::kTradeAccept || submitted == ActionType::kTradeDecline ||
             submitted == ActionType::kTradeCounter;
    case PendingKind::kTradeClose:
      return submitted == ActionType::kTradeConfirm || submitted == ActionType::kTradeCancel;
    case PendingKind::kRoadBuilding:
    case PendingKind::kDiplomatReplace:
      return submitted == ActionType::kBuildRoad || submitted == ActionType::kProgressStop;
    case PendingKind::kSmith:
      return submitted == ActionType::kPromoteKnight || submitted == ActionType::kProgressStop;
    case PendingKind::kDeserterRemove:
      return submitted == ActionType::kRemoveKnight;
    case PendingKind::kDeserterPlace:
      return submitted == ActionType::kPlaceKnight || submitted == ActionType::kProgressStop;
    case PendingKind::kSpyTake:
    case PendingKind::kDefenderTake:
      return submitted == ActionType::kTakeProgress;
    case PendingKind::kMasterMerchantTake:
      return submitted == ActionType::kTakeCard;
    case PendingKind::kWeddingGive:
    case PendingKind::kHarborReturn:
      return submitted == ActionType::kGiveCard;
    case PendingKind::kCommercialHarbor:
      return submitted == ActionType::kHarborOffer || submitted == ActionType::kProgressStop;
    default:
      return false;
  }
}

const char* PendingName(PendingKind k) {
  switch (k) {
    case PendingKind::kDiscard:
      return "a discard (SEV-2)";
    case PendingKind::kMoveRobber:
      return "moving the robber (ROB-2)";
    case PendingKind::kRelocateKnight:
      return "relocating a displaced knight (KN-8)";
    case PendingKind::kPillage:
      return "choosing the city the barbarians take (BAR-8)";
    case PendingKind::kAqueduct:
      return "the Aqueduct's resource (PRD-5)";
    case PendingKind::kPlaceMetropolis:
      return "placing a metropolis (MET-2)";
    case PendingKind::kCommitKnights:
      return "committing knights (BAR-12)";
    case PendingKind::kDiscardProgress:
    case PendingKind::kEndTurnDiscard:
      return "discarding a progress card (PC-4)";
    case PendingKind::kDefenderDeck:
      return "choosing a deck for the Defender tie (BAR-6)";
    case PendingKind::kTradeAnswer:
      return "an answer to a trade offer (TRD-3)";
    case PendingKind::kTradeClose:
      return "closing a trade offer (TRD-3)";
    case PendingKind::kRoadBuilding:
      return "the free roads of Road Building (C-S9)";
    case PendingKind::kDiplomatReplace:
      return "placing the road removed by the Diplomat (C-P4)";
    case PendingKind::kSmith:
      return "the Smith's free promotions (C-S10)";
    case PendingKind::kDeserterRemove:
      return "which knight deserts (C-P3)";
    case PendingKind::kDeserterPlace:
      return "where the deserter goes (C-P3)";
    case PendingKind::kSpyTake:
      return "the card the Spy takes (C-P7)";
    case PendingKind::kMasterMerchantTake:
      return "the cards the Master Merchant takes (C-T2)";
    case PendingKind::kWeddingGive:
      return "the Wedding gifts (C-P9)";
    case PendingKind::kCommercialHarbor:
      return "the Commercial Harbor's offers (C-T1)";
    case PendingKind::kHarborReturn:
      return "the commodity returned to the Commercial Harbor (C-T1)";
    case PendingKind::kDefenderTake:
      return "the card taken for the Defender tie (BAR-6)";
    default:
      return "a chance outcome";
  }
}

// Shared limits of offers and counters (TRD-3, E10).
std::string CheckTradeShape(const PackedCards& give, const PackedCards& want, const CardCounts& giver_hand) {
  if (give.Total() == 0 || want.Total() == 0) return "TRD-3: each side of a trade gives at least one card";
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (give.Get(c) > kMaxCardsPerTypeInOffer || want.Get(c) > kMaxCardsPerTypeInOffer)
      return "TRD-3: at most 7 cards of one type per side of an offer";
    if (give.Get(c) > 0 && want.Get(c) > 0)
      return "TRD-3: the two sides of a trade share no card type (" + std::string(CardName(c)) + " on both)";
  }
  if (!giver_hand.Contains(give.ToCounts()))
    return "TRD-3: you do not hold the cards you give (missing " + MissingCards(giver_hand, give.ToCounts()) + ")";
  return {};
}

// BG-1: nobody can hold a commodity in the base game, so asking for one is a
// malformed offer rather than one that nobody can accept.
std::string CheckBaseTradeCards(const State& s, const PackedCards& want) {
  if (!RulesImpl::IsBase(s)) return {};
  for (int c = kNumResources; c < kNumCardTypes; ++c)
    if (want.Get(c) > 0) return "BG-1: the base game has no commodities (" + std::string(CardName(c)) + " wanted)";
  return {};
}

}  // namespace

std::string State::CheckAction(const Action& action) const {
  if (phase_ == Phase::kGameOver) return "WIN-2: the game is over";
  // Fields out of range, or stray data in fields the type does not have.
  if (const auto decoded = Decode(Encode(action)); !decoded || !(*decoded == action))
    return "malformed action: fields out of range or unused fields set in " + ActionToString(action);
  const int actor = CurrentPlayer();
  if (actor == kChancePlayer) {
    if (!IsChanceAction(action.type)) return "0.4: a chance outcome is due, not a decision";
    for (const ChanceOutcome& o : ChanceOutcomes())
      if (o.action == action) return {};
    return "0.4: '" + ActionToString(action) + "' is not a possible chance outcome here";
  }
  if (IsChanceAction(action.type))
    return "0.4: seat " + std::to_string(actor) + " must decide; no chance outcome is due";
  if (IsParameterised(action.type)) return RulesImpl::CheckTrade(*this, action);
  static thread_local ActionList legal;  // 16 KB: not zeroed per call
  LegalActions(&legal);
  if (std::find(legal.begin(), legal.end(), action) != legal.end()) return {};
  return RulesImpl::Explain(*this, action);
}

std::string RulesImpl::CheckTrade(const State& s, const Action& a) {
  if (a.type == ActionType::kTradeOffer) {
    if (s.pending_size_ > 0 || s.phase_ != Phase::kAction)
      return "TRD-1: trade offers only in the current player's action phase";
    if (s.options_.max_trade_offers_per_turn == 0)
      return "TRD-3: player trades are disabled (max_trade_offers_per_turn=0)";
    if (s.offers_this_turn_ >= s.options_.max_trade_offers_per_turn)
      return "TRD-3: at most " + std::to_string(s.options_.max_trade_offers_per_turn) + " offers per turn";
    const uint8_t opponents = uint8_t(((1u << s.num_seats_) - 1) & ~(1u << s.current_));
    if (a.addressees == 0) return "TRD-3: an offer needs at least one addressee";
    if (a.addressees & ~opponents) return "TRD-3: an offer is addressed to opponents only";
    if (std::string e = CheckBaseTradeCards(s, a.want); !e.empty()) return e;
    return CheckTradeShape(a.give, a.want, s.players_[s.current_].hand);
  }
  // Counter-offer.
  if (s.pending_size_ == 0 || s.pending_[s.pending_size_ - 1].kind != PendingKind::kTradeAnswer)
    return "TRD-3: a counter-offer only answers an open offer";
  const int seat = s.pending_[s.pending_size_ - 1].seat;
  if (a.give == s.trade_.want && a.want == s.trade_.give)
    return "TRD-3: a counter-offer must differ from the offer (accept it instead)";
  if (std::string e = CheckBaseTradeCards(s, a.want); !e.empty()) return e;
  return CheckTradeShape(a.give, a.want, s.players_[seat].hand);
}

std::string RulesImpl::Explain(const State& s, const Action& a) {
  const std::string what = "'" + ActionToString(a) + "'";
  if ((a.type == ActionType::kBuyDev || a.type == ActionType::kPlayDev) && !RulesImpl::IsBase(s))
    return "BG-4: development cards exist only in the base game (ruleset base)";
  if (s.pending_size_ > 0) {
    const Pending& p = s.pending_[s.pending_size_ - 1];
    if (!SameDecision(a.type, p.kind))
      return std::string("19: seat ") + std::to_string(p.seat) + " must first decide " + PendingName(p.kind) + "; " +
             what + " is not that decision";
    switch (p.kind) {
      case PendingKind::kDiscard:
        return "SEV-2: you hold no " + std::string(CardName(a.a)) + " to discard";
      case PendingKind::kMoveRobber:
        if (a.a == s.robber_) return "ROB-2: the robber must leave its hex";
        if (p.a == 1 && s.board_.terrain[a.a] == kDesert) return "ROB-2: a chased robber goes to a hex with a number";
        return "ROB-3: seat " + std::to_string(int(a.b) - 1) +
               " cannot be robbed there (needs a building on the hex and a card in hand; name a victim when one "
               "exists)";
      case PendingKind::kRelocateKnight:
        return "KN-8: " + Node(a.a) + " is not an empty intersection reachable along your roads from " + Node(p.a);
      case PendingKind::kPillage:
        return "BAR-8: " + Node(a.a) + " is not one of your cities without a metropolis";
      case PendingKind::kAqueduct:
        return "PRD-5: the Aqueduct gives a resource the bank holds";
      case PendingKind::kPlaceMetropolis:
        return "MET-2: " + Node(a.a) + " is not one of your cities without a metropolis";
      case PendingKind::kCommitKnights:
        return "BAR-12: " + Node(a.a) + " holds no active uncommitted knight of yours";
      case PendingKind::kDiscardProgress:
      case PendingKind::kEndTurnDiscard:
        return "PC-4: you hold no such progress card";
      case PendingKind::kDefenderDeck:
        return "BAR-6: choose a deck by its track";
      case PendingKind::kTradeAnswer:
        return "TRD-3: you may accept only holding the cards wanted (missing " +
               MissingCards(s.players_[p.seat].hand, s.trade_.want.ToCounts()) + ")";
      case PendingKind::kTradeClose:
        return "TRD-3: seat " + std::to_string(a.a) + " did not accept or counter, or a side lacks the cards";
      case PendingKind::kRoadBuilding:
      case PendingKind::kDiplomatReplace:
        return "BLD-1: " + Edge(a.a) + " is not a legal place for a road now";
      case PendingKind::kSmith:
        return a.type == ActionType::kProgressStop ? "C-S10: the Smith promotes at least one knight"
                                                   : "KN-5: " + Node(a.a) + " holds no knight you may promote";
      case PendingKind::kDeserterRemove:
        return "C-P3: " + Node(a.a) + " holds none of your knights";
      case PendingKind::kDeserterPlace:
        return "C-P3: the deserter goes on an empty intersection at your road, at the level the card allows";
      case PendingKind::kSpyTake:
        return "C-P7: seat " + std::to_string(p.a) + " holds no such progress card";
      case PendingKind::kMasterMerchantTake:
        return "C-T2: seat " + std::to_string(p.a) + " holds no such card (or it may not be taken)";
      case PendingKind::kWeddingGive:
        return "C-P9: you hold no such card (or it may not be given)";
      case PendingKind::kCommercialHarbor:
        return "C-T1: offer one of your resources to an opponent not yet dealt with this turn";
      case PendingKind::kHarborReturn:
        return "C-T1: return one of your commodities";
      case PendingKind::kDefenderTake:
        return "BAR-6: that card is not in the chosen deck";
      default:
        return "19: " + what + " is not legal now";
    }
  }
  if (s.phase_ == Phase::kSetup) {
    const bool building_step = s.setup_step_ % 2 == 0;
    const bool city_round = s.setup_step_ >= 2 * s.num_seats_;
    if (building_step && RulesImpl::IsBase(s) && a.type != ActionType::kBuildSettlement)
      return "BG-2: place a settlement now";
    if (building_step && a.type != (city_round ? ActionType::kBuildCity : ActionType::kBuildSettlement))
      return city_round ? "SET-3: place a city now" : "SET-2: place a settlement now";
    if (!building_step && a.type != ActionType::kBuildRoad) return "SET-2: place a road touching your new building";
    if (building_step) return "SET-2: " + Node(a.a) + " breaks the distance rule (a building on or next to it)";
    return "SET-2: " + Edge(a.a) + " is taken or does not touch " + Node(s.last_setup_node_);
  }
  if (a.type == ActionType::kPlayDev) {
    const PlayerState& ps = s.players_[s.current_];
    if (a.a == kDevVictoryPoint) return "BG-5: victory point cards are never played";
    if (ps.dev[a.a] == 0) return "BG-5: you hold no " + std::string(DevCardName(a.a)) + " card";
    if (s.dev_played_) return "BG-5: at most one development card per turn";
    if (ps.dev[a.a] <= s.dev_bought_[a.a]) return "BG-5: a card bought this turn cannot be played this turn";
    return "BG-5: the bank cannot give those two resources";
  }
  if (a.type == ActionType::kBuyDev && s.phase_ == Phase::kAction) {
    const PlayerState& ps = s.players_[s.current_];
    if (!ps.hand.Contains(kDevCost)) return "BG-4: not enough cards (missing " + MissingCards(ps.hand, kDevCost) + ")";
    return "BG-4: the development deck is empty";
  }
  if (s.phase_ == Phase::kBeforeRoll) {
    if (RulesImpl::IsBase(s)) return "TRN-2: before the roll you may only roll (or play a development card, BG-5)";
    if (a.type == ActionType::kPlayProgress && a.a == kAlchemist) {
      bool held = false;
      for (int i = 0; i < s.players_[s.current_].num_progress; ++i)
        held |= s.players_[s.current_].progress[i] == kAlchemist;
      if (!held) return "C-S1: you do not hold an Alchemist";
      return "C-S1: the Alchemist's dice are each 1..6";
    }
    if (a.type == ActionType::kPlayProgress && a.a < kNumProgressKinds)
      return "TRN-2: before the roll you may only roll (or play an Alchemist); " + std::string(ProgressCardTitle(a.a)) +
             " (" + std::string(ProgressCardRule(a.a)) + ") is played after it (PC-5)";
    return "TRN-2: before the roll you may only roll (or play an Alchemist)";
  }

  const int seat = s.current_;
  const PlayerState& ps = s.players_[seat];
  const Topology& topo = GetTopology();
  // COST-1: what the action costs, and what is missing; the supply (SUP-1) is checked first.
  auto cost_error = [&](const char* what, const CardCounts& cost) -> std::string {
    if (ps.hand.Contains(cost)) return {};
    return std::string("COST-1: ") + what + " costs " + CardList(cost) + " (missing " + MissingCards(ps.hand, cost) +
           ")";
  };
  // D10 PLAY_OR_DISCARD: with 5 progress cards only a play or a discard is listed.
  if (s.options_.progress_hand_limit == ProgressHandLimit::kPlayOrDiscard && ps.num_progress >= 5 &&
      a.type != ActionType::kPlayProgress && a.type != ActionType::kDiscardProgress)
    return "PC-4: you hold 5 progress cards; play or discard one first (progress_hand_limit=PLAY_OR_DISCARD, D10)";
  std::string e;
  switch (a.type) {
    case ActionType::kRoll:
      return "TRN-3: the dice were already rolled this turn";
    case ActionType::kBuildRoad:
      if (ps.roads_left == 0) return "SUP-1: no road left in your supply";
      if (!(e = cost_error("a road", kRoadCost)).empty()) return e;
      if (s.road_owner_[a.a] != kNoSeat) return "BLD-1: " + Edge(a.a) + " already has a road";
      return "BLD-1: " + Edge(a.a) +
             " touches none of your buildings, nor a road of yours at an unblocked intersection";
    case ActionType::kBuildSettlement:
      if (ps.settlements_left <= 0) return "SUP-1: no settlement left in your supply";
      if (!(e = cost_error("a settlement", kSettlementCost)).empty()) return e;
      if (s.building_[a.a] != kNoBuilding || s.knight_owner_[a.a] != kNoSeat)
        return "BLD-2: " + Node(a.a) + " is not empty";
      for (int i = 0; i < 3; ++i) {
        const int w = topo.node_nodes[a.a][i];
        if (w >= 0 && s.building_[w] != kNoBuilding) return "BLD-2: distance rule — a building stands on " + Node(w);
      }
      return "BLD-2: " + Node(a.a) + " touches none of your roads";
    case ActionType::kBuildCity:
      if (ps.cities_left == 0) return "SUP-1: no city left in your supply";
      if (!(e = cost_error("a city", kCityCost)).empty()) return e;
      return "BLD-3: " + Node(a.a) + " holds no settlement of yours";
    case ActionType::kBuildWall:
      if (ps.walls_left == 0) return "BLD-4: you already have 3 walls";
      if (!(e = cost_error("a city wall", kWallCost)).empty()) return e;
      return "BLD-4: " + Node(a.a) + " is not one of your cities without a wall";
    case ActionType::kRecruitKnight:
      if (ps.knights_left[0] == 0) return "KN-3: both basic knights are on the board";
      if (!(e = cost_error("recruiting a knight", kKnightCost)).empty()) return e;
      return "KN-3: " + Node(a.a) + " is not an empty intersection at one of your roads";
    case ActionType::kActivateKnight:
      if (!(e = cost_error("activating a knight", kActivateCost)).empty()) return e;
      return "KN-4: " + Node(a.a) + " holds no inactive knight of yours";
    case ActionType::kPromoteKnight: {
      if (s.knight_owner_[a.a] != seat) return "KN-5: " + Node(a.a) + " holds no knight of yours";
      const int level = s.knight_level_[a.a];
      if (level >= kMaxKnightLevel) return "KN-5: a mighty knight cannot be promoted";
      if (ps.knights_left[level] == 0) return "KN-5: no knight of the next level left in your supply (SUP-1)";
      if (!(e = cost_error("promoting a knight", kKnightCost)).empty()) return e;
      if (s.knight_flags_[a.a] & kKnightPromoted) return "KN-5: a knight is promoted at most once per turn";
      return "KN-5: strong to mighty needs the Fortress (politics 3)";
    }
    case ActionType::kMoveKnight:
    case ActionType::kDisplaceKnight:
    case ActionType::kChaseRobber: {
      const char* rule = a.type == ActionType::kMoveKnight       ? "KN-7"
                         : a.type == ActionType::kDisplaceKnight ? "KN-8"
                                                                 : "KN-9";
      if (s.knight_owner_[a.a] != seat) return std::string(rule) + ": " + Node(a.a) + " holds no knight of yours";
      if (!(s.knight_flags_[a.a] & kKnightReady))
        return "KN-6: that knight cannot act this turn (inactive at the start of the action phase, or it already "
               "acted)";
      if (a.type == ActionType::kChaseRobber) {
        if (RulesImpl::IsRobberLocked(s)) return "ROB-1: the robber is locked until the first barbarian attack";
        return "KN-9: the knight is not next to the robber's hex";
      }
      if (a.type == ActionType::kMoveKnight)
        return "KN-7: " + Node(a.b) + " is not an empty intersection reachable along your roads";
      if (s.knight_owner_[a.b] == kNoSeat || s.knight_owner_[a.b] == seat)
        return "KN-8: " + Node(a.b) + " holds no opponent's knight";
      if (s.knight_level_[a.b] >= s.knight_level_[a.a]) return "KN-8: only a strictly weaker knight can be displaced";
      return "KN-8: " + Node(a.b) + " is not reachable along your roads";
    }
    case ActionType::kBuyImprovement: {
      const int level = ps.level[a.a];
      if (level >= kMaxImprovementLevel) return "IMP-1: that track is complete";
      if (ps.cities == 0) return "IMP-2: buying an improvement needs a city";
      const int cost = level + 1 - (s.effects_.crane_discounts > 0 ? 1 : 0);  // C-S2
      if (ps.hand[TrackCommodity(a.a)] < cost)
        return "IMP-1: level " + std::to_string(level + 1) + " costs " + std::to_string(cost) + " " +
               std::string(CardName(TrackCommodity(a.a)));
      if (level + 1 == 4) return "IMP-3: level 4 needs a city without a metropolis";
      return "IMP-4: capturing the metropolis needs a city without a metropolis";
    }
    case ActionType::kBankTrade: {
      if (a.a == a.b) return "TRD-2: the bank gives a card of another type";
      if (RulesImpl::IsBase(s) && (IsCommodity(a.a) || IsCommodity(a.b)))
        return "BG-1: the base game has no commodities";
      const int rate = RulesImpl::BankRate(s, seat, a.a, a.b);
      if (ps.hand[a.a] < rate)
        return "TRD-2: your rate for " + std::string(CardName(a.a)) + " is " + std::to_string(rate) + ":1, you hold " +
               std::to_string(ps.hand[a.a]);
      return "TRD-2: the bank holds no " + std::string(CardName(a.b));
    }
    case ActionType::kEndTurn:
      return "PC-4: discard or play a progress card first (progress_hand_limit=PLAY_OR_DISCARD)";
    case ActionType::kPlayProgress: {
      if (a.a >= kNumProgressKinds) return "PC-5: no such progress card";
      bool held = false;
      for (int i = 0; i < ps.num_progress; ++i) held |= ps.progress[i] == a.a;
      if (IsVictoryPointCard(a.a))
        return "PD-4: the " + std::string(ProgressCardTitle(a.a)) + " (" + std::string(ProgressCardRule(a.a)) +
               ") is a victory point card, never played";
      if (!held)
        return "PC-5: you do not hold " + std::string(ProgressCardTitle(a.a)) + " (" +
               std::string(ProgressCardRule(a.a)) + ")";
      if (a.a == kAlchemist) return "C-S1: the Alchemist is played before the roll only";
      return RulesImpl::ExplainPlay(s, a);
    }
    case ActionType::kRepairCity:
      if (s.options_.saboteur != Saboteur::kSabotageCity) return "C-P6: cities are sabotaged only under SABOTAGE_CITY";
      if (!(e = cost_error("repairing a city",
                           [] {
                             CardCounts c;
                             c[kLumber] = 1;
                             c[kOre] = 1;
                             return c;
                           }()))
               .empty())
        return e;
      return "C-P6: " + Node(a.a) + " is not a sabotaged city of yours";
    default:
      return "19: " + what + " answers no pending decision";
  }
}

}  // namespace metropolis
