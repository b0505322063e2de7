// KnowledgeTracker (engine/view.h): what a seat knows of the others' hidden
// cards, read only from its masked event stream.
#include <algorithm>

#include "engine/view.h"

namespace metropolis {
namespace {

CardCounts Some(int card, int n) {
  CardCounts c;
  c[card] = uint8_t(n);
  return c;
}

}  // namespace

KnowledgeTracker::KnowledgeTracker(int viewer) : viewer_(viewer) {}

void KnowledgeTracker::Reset(const State& s) {
  num_seats_ = s.num_seats();
  known_hand_ = {};
  known_progress_ = {};
  offer_want_ = s.trade().open ? s.trade().want : PackedCards{};
  steal_unresolved_ = false;
  discard_seat_ = kNoSeat;
  harbor_player_ = harbor_opponent_ = kNoSeat;
  spy_seen_ = {};
}

void KnowledgeTracker::Forget() {
  known_hand_ = {};
  known_progress_ = {};
}

void KnowledgeTracker::Gain(int seat, const CardCounts& cards) {
  if (!Hidden(seat)) return;
  for (int c = 0; c < kNumCardTypes; ++c)
    known_hand_[seat][c] = uint8_t(std::min(255, known_hand_[seat][c] + cards[c]));
}

// Cards of known identity left: whatever was known of them is gone, and the
// rest of them came out of the unknown part.
void KnowledgeTracker::Lose(int seat, const CardCounts& cards) {
  if (!Hidden(seat)) return;
  for (int c = 0; c < kNumCardTypes; ++c) known_hand_[seat][c] = uint8_t(std::max(0, known_hand_[seat][c] - cards[c]));
}

// One card left unseen: it may have been any of the known ones of types
// first_type.., so only what survives every choice stays known (one
// fewer of each of those known types).
void KnowledgeTracker::LoseUnseenCard(int seat, int first_type) {
  if (!Hidden(seat)) return;
  for (int c = first_type; c < kNumCardTypes; ++c)
    if (known_hand_[seat][c] > 0) --known_hand_[seat][c];
}

void KnowledgeTracker::Holds(int seat, const CardCounts& cards) {
  if (!Hidden(seat)) return;
  for (int c = 0; c < kNumCardTypes; ++c) known_hand_[seat][c] = std::max(known_hand_[seat][c], cards[c]);
}

void KnowledgeTracker::GainProgress(int seat, int card) {
  if (Hidden(seat) && card < kNumProgressKinds && known_progress_[seat][card] < 255) ++known_progress_[seat][card];
}

void KnowledgeTracker::LoseProgress(int seat, int card) {
  if (!Hidden(seat)) return;
  ProgressCounts& known = known_progress_[seat];
  if (card < kNumProgressKinds) {
    if (known[card] > 0) --known[card];
    return;
  }
  for (uint8_t& k : known)
    if (k > 0) --k;
}

void KnowledgeTracker::Observe(const Event& e) {
  // A kPaid right after a DISCARD is that discard's card (already lost).
  const bool discard_paid = e.type == EventType::kPaid && e.seat == discard_seat_ && e.b == discard_card_ && e.a == 1;
  discard_seat_ = kNoSeat;
  switch (e.type) {
    case EventType::kAction:
      // A random steal whose outcome event never came: its victim lost a card
      // we cannot place, so nothing known may be trusted any more.
      if (steal_unresolved_) Forget();
      steal_unresolved_ = false;
      spy_seen_ = {};
      ObserveAction(e);
      break;
    case EventType::kProduced:
      if (e.b < kNumCardTypes) Gain(e.seat, Some(e.b, e.a));
      break;
    case EventType::kPaid:
      if (!discard_paid && e.b < kNumCardTypes) Lose(e.seat, Some(e.b, e.a));
      break;
    case EventType::kStole:
      steal_unresolved_ = false;
      if (e.b == kHiddenCard || e.b >= kNumCardTypes) {
        LoseUnseenCard(e.other, 0);
      } else {
        Lose(e.other, Some(e.b, 1));
        Gain(e.seat, Some(e.b, 1));
      }
      break;
    case EventType::kTradeExecuted: {
      const CardCounts give = e.action.give.ToCounts(), want = e.action.want.ToCounts();
      Lose(e.seat, give);
      Gain(e.seat, want);
      Lose(e.other, want);
      Gain(e.other, give);
      break;
    }
    case EventType::kCardGiven:
      ObserveCardGiven(e);
      break;
    case EventType::kHandSeen:  // C-T2: the looker saw this many of the type
      if (e.b < kNumCardTypes && e.a != kHiddenCard) Holds(e.other, Some(e.b, e.a));
      break;
    case EventType::kProgressSeen:  // C-P7: one event per card shown
      if (e.b < kNumProgressKinds && Hidden(e.other)) {
        ++spy_seen_[e.b];
        known_progress_[e.other][e.b] = std::max(known_progress_[e.other][e.b], spy_seen_[e.b]);
      }
      break;
    case EventType::kProgressTaken:
      LoseProgress(e.other, e.b);
      GainProgress(e.seat, e.b);
      break;
    default:
      break;
  }
}

void KnowledgeTracker::ObserveCardGiven(const Event& e) {
  int card = e.b;
  // C-T1: the player's resource was announced in HARBOR_OFFER, and only a
  // commodity comes back.
  const bool harbor_give = harbor_player_ != kNoSeat && e.seat == harbor_player_ && e.other == harbor_opponent_;
  const bool harbor_return = harbor_player_ != kNoSeat && e.seat == harbor_opponent_ && e.other == harbor_player_;
  if (card == kHiddenCard && harbor_give) card = harbor_resource_;
  if (harbor_return) harbor_player_ = harbor_opponent_ = kNoSeat;
  if (card >= kNumCardTypes) {
    for (int i = 0; i < e.a; ++i) LoseUnseenCard(e.seat, harbor_return ? kNumResources : 0);
    return;
  }
  Lose(e.seat, Some(card, e.a));
  Gain(e.other, Some(card, e.a));
}

void KnowledgeTracker::ObserveAction(const Event& e) {
  const Action& a = e.action;
  const int seat = e.seat;
  // The exchange of a Commercial Harbor follows its offer, after the
  // opponent's GIVE_CARD; anything else means there was none.
  if (a.type != ActionType::kGiveCard) harbor_player_ = harbor_opponent_ = kNoSeat;
  switch (a.type) {
    case ActionType::kChanceStartPlayer:
    case ActionType::kChanceDice:
    case ActionType::kChanceDraw:
    case ActionType::kRoll:
    case ActionType::kEndTurn:
    case ActionType::kBuildRoad:  // costs come as kPaid, free roads cost nothing
    case ActionType::kBuildSettlement:
    case ActionType::kBuildCity:
    case ActionType::kBuildWall:
    case ActionType::kRecruitKnight:
    case ActionType::kActivateKnight:
    case ActionType::kPromoteKnight:
    case ActionType::kMoveKnight:
    case ActionType::kDisplaceKnight:
    case ActionType::kChaseRobber:
    case ActionType::kBuyImprovement:
    case ActionType::kMoveRobber:
    case ActionType::kRelocateKnight:
    case ActionType::kPillageCity:
    case ActionType::kPlaceMetropolis:
    case ActionType::kCommitKnight:
    case ActionType::kCommitDone:
    case ActionType::kDefenderDeck:
    case ActionType::kTradeDecline:
    case ActionType::kTradeConfirm:  // the exchange itself comes as kTradeExecuted
    case ActionType::kTradeCancel:
    case ActionType::kAqueduct:  // the card itself comes as kProduced
    case ActionType::kProgressStop:
    case ActionType::kRemoveKnight:
    case ActionType::kPlaceKnight:
    case ActionType::kTakeProgress:  // followed by kProgressTaken or kProgressDrawn
    case ActionType::kTakeCard:      // followed by kCardGiven
    case ActionType::kRepairCity:    // the cost comes as kPaid
    // The base game (BG-9): development cards never move resource cards
    // unseen; the cost comes as kPaid, Year of Plenty as kProduced and a
    // Monopoly as public kCardGiven. Who holds which development card is
    // never shown before the end, so there is nothing to remember of them.
    case ActionType::kBuyDev:
    case ActionType::kChanceDev:
    case ActionType::kPlayDev:
      break;
    case ActionType::kGiveCard:  // followed by kCardGiven
      if (seat != harbor_opponent_) harbor_player_ = harbor_opponent_ = kNoSeat;
      break;
    case ActionType::kChanceSteal:
      steal_unresolved_ = true;  // resolved by the kStole that follows
      break;
    case ActionType::kBankTrade:  // what is paid comes as kPaid
      if (a.b < kNumCardTypes) Gain(seat, Some(a.b, 1));
      break;
    case ActionType::kDiscard:  // SEV-2 and Saboteur discards are public (E19)
      if (a.a < kNumCardTypes) {
        Lose(seat, Some(a.a, 1));
        discard_seat_ = seat;
        discard_card_ = a.a;
      }
      break;
    case ActionType::kDiscardProgress:
      LoseProgress(seat, a.a);
      break;
    case ActionType::kPlayProgress:  // PC-6: the card is announced, its effects come as events
      LoseProgress(seat, a.a);
      break;
    case ActionType::kHarborOffer:  // C-T1: he offers a resource he holds
      if (a.b < kNumResources) {
        Holds(seat, Some(a.b, 1));
        harbor_player_ = seat;
        harbor_opponent_ = a.a;
        harbor_resource_ = a.b;
      }
      break;
    case ActionType::kTradeOffer:
      Holds(seat, a.give.ToCounts());  // TRD-3 step 1: he must hold what he gives
      offer_want_ = a.want;
      break;
    case ActionType::kTradeAccept:
      Holds(seat, offer_want_.ToCounts());  // TRD-3 step 2: accepting needs the cards
      break;
    case ActionType::kTradeCounter:
      Holds(seat, a.give.ToCounts());  // a counter is an offer with the same limits
      break;
    default:
      // An action this tracker cannot read (a later rules version's): it may
      // move any card, so forget rather than guess.
      Forget();
      break;
  }
}

}  // namespace metropolis
