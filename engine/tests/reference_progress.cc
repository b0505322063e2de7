// The reference generator's progress cards (RULES.md sections 12-13, with the
// engine's choices of docs/PROGRESS_CARDS.md where the rules leave room): every
// card with every parameter value is tried and kept when a plain reading of
// its preconditions allows it; every decision a card raises is enumerated the
// same way. Like reference_legal.cc it reads only the public state.
#include <algorithm>
#include <vector>

#include "engine/progress.h"
#include "engine/tests/reference_internal.h"
#include "engine/tests/reference_legal.h"

namespace metropolis::reference::internal {
namespace {

// DEF-8: an end of P's road on edge e is closed by another road of P, a
// building of P or a knight of P there; the road is open when one end is not.
bool EndClosed(const State& s, int p, int v, int e) {
  if (OwnsBuilding(s, p, v) || OwnsKnight(s, p, v)) return true;
  for (int i = 0; i < 3; ++i) {
    const int f = Topo().node_edges[v][i];
    if (f >= 0 && f != e && s.road_owner(f) == p) return true;
  }
  return false;
}
bool OpenRoad(const State& s, int e) {
  const int p = s.road_owner(e);
  if (p < 0) return false;
  return !EndClosed(s, p, Topo().edge_nodes[e][0], e) || !EndClosed(s, p, Topo().edge_nodes[e][1], e);
}

bool HasKnightOnBoard(const State& s, int seat) {
  for (int level = 1; level <= kMaxKnightLevel; ++level)
    if (KnightsOnBoard(s, seat, level) > 0) return true;
  return false;
}

// D15: which hand cards Bishop, Wedding and Master Merchant may take.
int TakeableTypes(const State& s) { return s.options().progress_takes_resources_only ? kNumResources : kNumCardTypes; }

void AddFreeRoads(const State& s, int p, std::vector<Action>* out) {
  if (RoadsOnBoard(s, p) >= 15) return;
  for (int e = 0; e < kNumEdges; ++e)
    if (RoadEdgeAllowed(s, p, e)) out->push_back(Action::BuildRoad(e));
}

void AddPlays(const State& s, int p, int card, std::vector<Action>* out) {
  const PlayerState& ps = s.player(p);
  const RulesOptions& o = s.options();
  auto play = [out, card](int b = 0, int c = 0) { out->push_back(Action::Play(card, b, c)); };
  switch (card) {
    case kAlchemist:  // C-S1: before the roll only
    case kPrinter:    // C-S8, C-P2: never played (PD-4)
    case kConstitution:
      break;
    case kCrane: {  // C-S2
      bool below_five = false;
      for (int t = 0; t < kNumTracks; ++t) below_five |= ps.level[t] < kMaxImprovementLevel;
      const bool limit_ok = o.crane_limit != CraneLimit::kOnePerTurn || s.effects().cranes_played == 0;
      if (CitiesOnBoard(s, p) > 0 && below_five && limit_ok) play();
      break;
    }
    case kEngineer:  // C-S3, BLD-4
      if (WallsOnBoard(s, p) >= 3) break;
      for (int v = 0; v < kNumNodes; ++v)
        if (OwnsCity(s, p, v) && !(s.node_flags(v) & kWall)) play(v);
      break;
    case kInventor: {  // C-S4
      auto swappable = [&s](int hex) {
        const int t = s.board().token[hex];
        return t != 0 && t != 2 && t != 6 && t != 8 && t != 12;
      };
      for (int b = 0; b < kNumHexes; ++b)
        for (int c = b + 1; c < kNumHexes; ++c)
          if (swappable(b) && swappable(c)) play(b, c);
      break;
    }
    case kIrrigation:  // C-S5, C-S7: always, even when they yield nothing
    case kMining:
    case kWarlord:           // C-P8
    case kWedding:           // C-P9
    case kCommercialHarbor:  // C-T1
      play();
      break;
    case kMedicine:  // C-S6
      if (CitiesOnBoard(s, p) >= 4 || !Has(ps.hand, {{kOre, 2}, {kGrain, 1}})) break;
      for (int v = 0; v < kNumNodes; ++v)
        if (OwnsBuilding(s, p, v) && s.building(v) == kSettlement) play(v);
      break;
    case kRoadBuilding: {  // C-S9
      std::vector<Action> roads;
      AddFreeRoads(s, p, &roads);
      if (!roads.empty()) play();
      break;
    }
    case kSmith: {  // C-S10
      bool any = false;
      for (int v = 0; v < kNumNodes; ++v) any |= PromotableIgnoringCost(s, p, v);
      if (any) play();
      break;
    }
    case kBishop:  // C-P1, ROB-1, ROB-2: any other land hex, the desert included
      if (RobberLocked(s)) break;
      for (int hex = 0; hex < kNumHexes; ++hex)
        if (hex != s.robber_hex()) play(hex);
      break;
    case kDeserter:  // C-P3
      for (int q = 0; q < s.num_seats(); ++q)
        if (q != p && HasKnightOnBoard(s, q)) play(q);
      break;
    case kDiplomat: {  // C-P4, DEF-8
      bool any = false;
      for (int e = 0; e < kNumEdges; ++e) {
        if (!OpenRoad(s, e)) continue;
        any = true;
        if (o.diplomat_scope == DiplomatScope::kOneRoad) play(e);
      }
      if (any && o.diplomat_scope == DiplomatScope::kAllOpenRoads) play(0);
      break;
    }
    case kIntrigue:  // C-P5
      for (int v = 0; v < kNumNodes; ++v)
        if (HasKnight(s, v) && s.knight_owner(v) != p && HasRoadAt(s, p, v)) play(v);
      break;
    case kSaboteur:  // C-P6
      if (o.saboteur != Saboteur::kSabotageCity) {
        play();
        break;
      }
      for (int v = 0; v < kNumNodes; ++v)  // E20: not a metropolis
        if (HasBuilding(s, v) && s.building(v) == kCity && s.building_owner(v) != p && s.metropolis_at(v) < 0 &&
            !(s.node_flags(v) & kSabotaged))
          play(v);
      break;
    case kSpy:  // C-P7: VP cards never sit in the progress hand
      for (int q = 0; q < s.num_seats(); ++q)
        if (q != p && s.player(q).num_progress > 0) play(q);
      break;
    case kMasterMerchant:  // C-T2
      for (int q = 0; q < s.num_seats(); ++q)
        if (q != p && VictoryPoints(s, q) > VictoryPoints(s, p)) play(q);
      break;
    case kMerchant:  // C-T3, E08, D17
      for (int hex = 0; hex < kNumHexes; ++hex) {
        if (s.board().terrain[hex] == kDesert) continue;
        bool next_to_own = false;
        for (int i = 0; i < 6; ++i) {
          const int v = Topo().hex_nodes[hex][i];
          const bool counts =
              o.merchant_adjacency == MerchantAdjacency::kSettlementOrCity || s.building(v) == kSettlement;
          next_to_own |= OwnsBuilding(s, p, v) && counts;
        }
        if (next_to_own) play(hex);
      }
      break;
    case kMerchantFleet:  // C-T4
      for (int c = 0; c < kNumCardTypes; ++c) play(c);
      break;
    case kResourceMonopoly:  // C-T5
      for (int r = 0; r < kNumResources; ++r) play(r);
      break;
    case kTradeMonopoly:  // C-T6
      for (int c = kNumResources; c < kNumCardTypes; ++c) play(c);
      break;
    default:
      break;
  }
}

}  // namespace

void AddProgressPlays(const State& s, int p, bool before_roll, std::vector<Action>* out) {
  for (int card : HeldKinds(s.player(p))) {
    if (before_roll) {
      if (card != kAlchemist) continue;
      for (int y = 1; y <= 6; ++y)
        for (int r = 1; r <= 6; ++r) out->push_back(Action::Play(kAlchemist, y, r));  // C-S1
      continue;
    }
    AddPlays(s, p, card, out);
  }
}

bool AddProgressDecision(const State& s, const Pending& top, std::vector<Action>* out) {
  const int p = top.seat;
  const PlayerState& ps = s.player(p);
  const Action stop = Action::Make(ActionType::kProgressStop);
  switch (top.kind) {
    case PendingKind::kRoadBuilding:     // C-S9: up to 2 roads, each legal when placed
    case PendingKind::kDiplomatReplace:  // C-P4: the removed own road, placed again anywhere legal
      AddFreeRoads(s, p, out);
      out->push_back(stop);
      return true;
    case PendingKind::kSmith:  // C-S10: one or two knights, each obeying KN-5 but for the cost
      for (int v = 0; v < kNumNodes; ++v)
        if (PromotableIgnoringCost(s, p, v)) out->push_back(Action::Make(ActionType::kPromoteKnight, v));
      if (top.a < 2) out->push_back(stop);
      return true;
    case PendingKind::kDeserterRemove:  // C-P3 step 1: the victim picks any of his knights
      for (int v = 0; v < kNumNodes; ++v)
        if (OwnsKnight(s, p, v)) out->push_back(Action::Make(ActionType::kRemoveKnight, v));
      return true;
    case PendingKind::kDeserterPlace: {  // C-P3 step 2 (D08): the player may place a knight
      std::vector<int> levels;
      if (s.options().deserter_placement == DeserterPlacement::kAnyLevelInactive) {
        for (int level = 1; level <= kMaxKnightLevel; ++level)
          if (KnightsOnBoard(s, p, level) < 2) levels.push_back(level);
      } else {
        // The removed level if a piece is left, else the highest lower level with one.
        for (int level = top.a; level >= 1 && levels.empty(); --level)
          if (KnightsOnBoard(s, p, level) < 2) levels.push_back(level);
      }
      for (int v = 0; v < kNumNodes; ++v)
        if (KnightPlacementAllowed(s, p, v))
          for (int level : levels) out->push_back(Action::Make(ActionType::kPlaceKnight, v, level));
      out->push_back(stop);
      return true;
    }
    case PendingKind::kSpyTake:  // C-P7: any one of the victim's non-VP progress cards
      for (int card : HeldKinds(s.player(top.a))) out->push_back(Action::Make(ActionType::kTakeProgress, card));
      return true;
    case PendingKind::kMasterMerchantTake: {  // C-T2: the player's pick from the victim's hand
      const CardCounts& hand = s.player(top.a).hand;
      for (int c = 0; c < TakeableTypes(s); ++c)
        if (hand[c] > 0) out->push_back(Action::Make(ActionType::kTakeCard, c));
      return true;
    }
    case PendingKind::kWeddingGive:  // C-P9: the giver's choice
      for (int c = 0; c < TakeableTypes(s); ++c)
        if (ps.hand[c] > 0) out->push_back(Action::Make(ActionType::kGiveCard, c));
      return true;
    case PendingKind::kCommercialHarbor:  // C-T1, E11: a resource to each opponent at most once a turn
      for (int q = 0; q < s.num_seats(); ++q) {
        if (q == p || (s.effects().harbor_partners & (1 << q))) continue;
        for (int r = 0; r < kNumResources; ++r)
          if (ps.hand[r] > 0) out->push_back(Action::Make(ActionType::kHarborOffer, q, r));
      }
      out->push_back(stop);
      return true;
    case PendingKind::kHarborReturn:  // C-T1: one commodity of the opponent's own choice
      for (int c = kNumResources; c < kNumCardTypes; ++c)
        if (ps.hand[c] > 0) out->push_back(Action::Make(ActionType::kGiveCard, c));
      return true;
    case PendingKind::kDefenderTake: {  // BAR-6 ANY_CARD_OF_CHOSEN_DECK: any card the deck holds
      const ProgressDeck& d = s.deck(top.a);
      std::vector<bool> in_deck(kNumProgressKinds, false);
      for (int i = 0; i < TrackNumKinds(top.a); ++i) in_deck[TrackFirstCard(top.a) + i] = d.unseen[i] > 0;
      for (int i = 0; i < d.size; ++i) in_deck[d.returned[(d.head + i) % ProgressDeck::kCapacity]] = true;
      for (int card = 0; card < kNumProgressKinds; ++card)
        if (in_deck[card]) out->push_back(Action::Make(ActionType::kTakeProgress, card));
      return true;
    }
    default:
      return false;
  }
}

}  // namespace metropolis::reference::internal
