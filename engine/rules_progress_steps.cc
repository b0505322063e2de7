// The decisions progress cards raise (RULES.md section 13 and 19): free
// roads, free promotions, the Deserter's two steps, the Spy's and the Master
// Merchant's picks, Wedding gifts, the Commercial Harbor's exchanges and the
// Defender tie's free pick. Each is a small decision with a short list.
#include <algorithm>
#include <cassert>

#include "engine/rules_internal.h"

namespace metropolis {

bool RulesImpl::IsProgressStep(PendingKind k) {
  switch (k) {
    case PendingKind::kRoadBuilding:
    case PendingKind::kSmith:
    case PendingKind::kDiplomatReplace:
    case PendingKind::kDeserterRemove:
    case PendingKind::kDeserterPlace:
    case PendingKind::kSpyTake:
    case PendingKind::kMasterMerchantTake:
    case PendingKind::kWeddingGive:
    case PendingKind::kCommercialHarbor:
    case PendingKind::kHarborReturn:
    case PendingKind::kDefenderTake:
      return true;
    default:
      return false;
  }
}

namespace {

// The level a Deserter's player places (C-P3 step 2 under
// SAME_LEVEL_SAME_STATE): the removed level if he has that piece, else the
// highest lower level he has; 0 if none.
int DeserterLevel(const PlayerState& ps, int removed) {
  for (int level = removed; level >= 1; --level)
    if (ps.knights_left[level - 1] > 0) return level;
  return 0;
}

void PushCardTypes(const CardCounts& hand, int types, ActionType t, ActionList* out) {
  for (int c = 0; c < types; ++c)
    if (hand[c] > 0) out->push(Action::Make(t, c));
}

}  // namespace

void RulesImpl::LegalProgressStep(const State& s, const Pending& p, ActionList* out) {
  const PlayerState& ps = s.players_[p.seat];
  const int takeable = s.options_.progress_takes_resources_only ? kNumResources : kNumCardTypes;
  switch (p.kind) {
    case PendingKind::kRoadBuilding:
    case PendingKind::kDiplomatReplace:
      if (ps.roads_left > 0) {
        uint64_t lo, hi;
        RoadEdges(s, p.seat, &lo, &hi);
        METROPOLIS_FOR_BITS(e, lo) out->push(Action::BuildRoad(e));
        METROPOLIS_FOR_BITS(e, hi) out->push(Action::BuildRoad(e + 64));
      }
      out->push(Action::Make(ActionType::kProgressStop));
      break;
    case PendingKind::kSmith:
      METROPOLIS_FOR_BITS(v, ps.knights) {
        if (CanPromote(s, p.seat, v)) out->push(Action::Make(ActionType::kPromoteKnight, v));
      }
      if (p.a < 2) out->push(Action::Make(ActionType::kProgressStop));  // the second knight is optional
      break;
    case PendingKind::kDeserterRemove:
      METROPOLIS_FOR_BITS(v, ps.knights) out->push(Action::Make(ActionType::kRemoveKnight, v));
      break;
    case PendingKind::kDeserterPlace: {
      out->push(Action::Make(ActionType::kProgressStop));  // code 51 sorts first
      // KN-3 placement: empty and at one of the player's roads.
      const uint64_t nodes = ps.road_nodes & ~Occupied(s);
      METROPOLIS_FOR_BITS(v, nodes) {
        if (s.options_.deserter_placement == DeserterPlacement::kSameLevelSameState) {
          const int level = DeserterLevel(ps, p.a);
          if (level > 0) out->push(Action::Make(ActionType::kPlaceKnight, v, level));
        } else {
          for (int level = 1; level <= kMaxKnightLevel; ++level)
            if (ps.knights_left[level - 1] > 0) out->push(Action::Make(ActionType::kPlaceKnight, v, level));
        }
      }
      break;
    }
    case PendingKind::kSpyTake: {
      const PlayerState& victim = s.players_[p.a];
      for (int i = 0; i < victim.num_progress; ++i)
        if (i == 0 || victim.progress[i] != victim.progress[i - 1])
          out->push(Action::Make(ActionType::kTakeProgress, victim.progress[i]));
      break;
    }
    case PendingKind::kMasterMerchantTake:
      PushCardTypes(s.players_[p.a].hand, takeable, ActionType::kTakeCard, out);
      break;
    case PendingKind::kWeddingGive:
      PushCardTypes(ps.hand, takeable, ActionType::kGiveCard, out);
      break;
    case PendingKind::kCommercialHarbor:
      out->push(Action::Make(ActionType::kProgressStop));  // code 51 sorts first
      // C-T1: one resource to each opponent not yet dealt with this turn.
      for (int q = 0; q < s.num_seats_; ++q) {
        if (q == p.seat || ((s.effects_.harbor_partners >> q) & 1)) continue;
        for (int r = 0; r < kNumResources; ++r)
          if (ps.hand[r] > 0) out->push(Action::Make(ActionType::kHarborOffer, q, r));
      }
      break;
    case PendingKind::kHarborReturn:
      for (int c = kNumResources; c < kNumCardTypes; ++c)
        if (ps.hand[c] > 0) out->push(Action::Make(ActionType::kGiveCard, c));
      break;
    case PendingKind::kDefenderTake: {
      const ProgressDeck& d = s.decks_[p.a];
      std::array<bool, kNumProgressKinds> present{};
      for (int k = 0; k < TrackNumKinds(p.a); ++k) present[TrackFirstCard(p.a) + k] = d.unseen[k] > 0;
      for (int i = 0; i < d.size; ++i) present[d.returned[i]] = true;
      for (int c = 0; c < kNumProgressKinds; ++c)
        if (present[c]) out->push(Action::Make(ActionType::kTakeProgress, c));
      break;
    }
    default:
      assert(false);
  }
}

void RulesImpl::ApplyProgressStep(State& s, const Action& a, Events* ev) {
  Pending& top = s.pending_[s.pending_size_ - 1];
  const int seat = top.seat;
  PlayerState& ps = s.players_[seat];
  if (a.type == ActionType::kProgressStop) {
    Pop(s);
    return;
  }
  switch (top.kind) {
    case PendingKind::kRoadBuilding:
    case PendingKind::kDiplomatReplace:
      if (--top.a == 0) Pop(s);
      PlaceRoad(s, seat, a.a, ev);  // free (C-S9, C-P4)
      break;
    case PendingKind::kSmith: {
      if (--top.a == 0) Pop(s);
      // C-S10: a free promotion that counts as the knight's one this turn.
      const int level = s.knight_level_[a.a];
      ++ps.knights_left[level - 1];
      --ps.knights_left[level];
      s.knight_level_[a.a] = uint8_t(level + 1);
      s.knight_flags_[a.a] |= kKnightPromoted;
      break;
    }
    case PendingKind::kDeserterRemove: {
      const Pending p = Pop(s);
      const int level = s.knight_level_[a.a];
      const bool active = s.knight_flags_[a.a] & kKnightActive;
      RemoveKnight(s, a.a);
      Emit(ev, EventType::kKnightDeserted, seat, a.a);
      AfterBoardChange(s, uint64_t(1) << a.a, kNoSeat, ev);
      Push(s, PendingKind::kDeserterPlace, p.a, level, active ? 1 : 0);  // C-P3 step 2
      break;
    }
    case PendingKind::kDeserterPlace: {
      const Pending p = Pop(s);
      // Same state as the removed knight (or inactive under ANY_LEVEL_INACTIVE),
      // never ready this turn (E07).
      const bool active = s.options_.deserter_placement == DeserterPlacement::kSameLevelSameState && p.b;
      PlaceKnight(s, seat, a.a, a.b, active ? kKnightActive : 0, ev);
      break;
    }
    case PendingKind::kSpyTake: {
      const Pending p = Pop(s);
      RemoveProgress(s, p.a, a.a);
      Emit(ev, EventType::kProgressTaken, seat, 0, a.a, 0, p.a, uint8_t((1u << seat) | (1u << p.a)));
      GiveProgress(s, seat, a.a, ev);  // PC-4 applies
      break;
    }
    case PendingKind::kMasterMerchantTake: {
      const int victim = top.a;
      if (--top.b == 0) Pop(s);
      Transfer(s, victim, seat, a.a, 1);
      Emit(ev, EventType::kCardGiven, victim, 1, a.a, 0, seat, uint8_t((1u << seat) | (1u << victim)));
      break;
    }
    case PendingKind::kWeddingGive: {
      const int receiver = top.a;
      if (--top.b == 0) Pop(s);
      Transfer(s, seat, receiver, a.a, 1);
      Emit(ev, EventType::kCardGiven, seat, 1, a.a, 0, receiver, uint8_t((1u << seat) | (1u << receiver)));
      break;
    }
    case PendingKind::kCommercialHarbor: {
      // C-T1: the opponent must answer with a commodity if he has one; if not,
      // nothing changes hands (the exchange with him is still used up).
      const int q = a.a;
      s.effects_.harbor_partners |= uint8_t(1u << q);
      if (s.players_[q].hand.Commodities() > 0) Push(s, PendingKind::kHarborReturn, q, seat, a.b);
      break;
    }
    case PendingKind::kHarborReturn: {
      const Pending p = Pop(s);
      Transfer(s, p.a, seat, p.b, 1);
      Transfer(s, seat, p.a, a.a, 1);
      // The resource was named publicly by HARBOR_OFFER; the commodity is private.
      Emit(ev, EventType::kCardGiven, p.a, 1, p.b, 0, seat);
      Emit(ev, EventType::kCardGiven, seat, 1, a.a, 0, p.a, uint8_t((1u << seat) | (1u << p.a)));
      break;
    }
    case PendingKind::kDefenderTake: {
      // D04 ANY_CARD_OF_CHOSEN_DECK: any card of the deck, whose order is then
      // unknown again: the returned queue joins the unseen part.
      const Pending p = Pop(s);
      ProgressDeck& d = s.decks_[p.a];
      const int first = TrackFirstCard(p.a);
      bool taken = false;
      for (int i = 0; i < d.size; ++i) {
        if (!taken && d.returned[i] == a.a) {
          taken = true;
          continue;
        }
        ++d.unseen[d.returned[i] - first];
        ++d.unseen_total;
      }
      if (!taken) {
        --d.unseen[a.a - first];
        --d.unseen_total;
      }
      d.size = 0;
      d.returned.fill(0);
      d.returned_hidden.fill(0);
      Emit(ev, EventType::kProgressDrawn, seat, p.a, a.a, 0, -1, uint8_t(1u << seat));
      GiveProgress(s, seat, a.a, ev);
      break;
    }
    default:
      assert(false);
  }
}

}  // namespace metropolis
