#include "engine/view.h"

#include <algorithm>
#include <cassert>

#include "engine/state_editor.h"

namespace metropolis {
namespace {

CardCounts Some(int card, int n) {
  CardCounts c;
  c[card] = uint8_t(n);
  return c;
}

int ProgressTotal(const ProgressCounts& p) {
  int t = 0;
  for (uint8_t n : p) t += n;
  return t;
}

// splitmix64: fixed across platforms, unlike std:: distributions.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : x_(seed) {}
  uint64_t Next() {
    uint64_t z = (x_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int Below(int n) { return int(Next() % uint64_t(n)); }

 private:
  uint64_t x_;
};

// Removes one item drawn uniformly from the multiset counts[first, first+len)
// and returns its index; the multiset must not be empty there.
template <typename Counts>
int DrawOne(Counts& counts, int first, int len, SplitMix64& rng) {
  int total = 0;
  for (int i = first; i < first + len; ++i) total += counts[i];
  int r = rng.Below(total);
  for (int i = first; i < first + len; ++i) {
    if (r < counts[i]) {
      --counts[i];
      return i;
    }
    r -= counts[i];
  }
  return -1;  // unreachable for a non-empty range
}

}  // namespace

// ---- MakeView ----------------------------------------------------------------

View MakeView(const State& s, int viewer, const KnowledgeTracker* knowledge) {
  View v(s);
  v.viewer = viewer;
  StateEditor ed(&v.state);
  const int n = s.num_seats();

  for (int c = 0; c < kNumCardTypes; ++c) v.unplaced_cards[c] = s.bank()[c];
  for (int p = 0; p < n; ++p) {
    const PlayerState& ps = s.player(p);
    v.hand_total[p] = uint8_t(ps.hand.Total());
    v.progress_count[p] = ps.num_progress;
    if (!v.Hidden(p)) continue;
    for (int c = 0; c < kNumCardTypes; ++c) v.unplaced_cards[c] = int16_t(v.unplaced_cards[c] + ps.hand[c]);
    for (int i = 0; i < ps.num_progress; ++i) ++v.unplaced_progress[ps.progress[i]];
    PlayerState& masked = ed.player(p);
    masked.hand = CardCounts{};
    masked.progress.fill(kNoProgressCard);
    masked.num_progress = 0;
  }
  for (int c = 0; c < kNumCardTypes; ++c) ed.bank()[c] = s.options().bank_limited && s.bank()[c] > 0 ? 1 : 0;

  // The viewer's own decision, when it shows him hidden cards (top of view.h).
  const Pending* top = s.pending_size() > 0 ? &s.pending(s.pending_size() - 1) : nullptr;
  if (top != nullptr && (viewer < 0 || top->seat != viewer)) top = nullptr;
  const int looked_through_deck = top != nullptr && top->kind == PendingKind::kDefenderTake ? top->a : -1;

  for (int t = 0; t < kNumTracks; ++t) {
    if (t == looked_through_deck) continue;
    ProgressDeck& d = ed.deck(t);
    for (int k = 0; k < TrackNumKinds(t); ++k) {
      const int card = TrackFirstCard(t) + k;
      if (IsVictoryPointCard(card)) continue;  // PD-4: where VP cards are is public
      v.unplaced_progress[card] = uint8_t(v.unplaced_progress[card] + d.unseen[k]);
      d.unseen[k] = 0;
    }
    std::array<bool, ProgressDeck::kCapacity> live{};
    for (int i = 0; i < d.size; ++i) {
      const int slot = (d.head + i) % ProgressDeck::kCapacity;
      live[slot] = true;
      if (d.returned_hidden[slot] != 0 && d.returned_hidden[slot] != viewer + 1) {
        ++v.unplaced_progress[d.returned[slot]];
        d.returned[slot] = kHiddenCard;
      }
    }
    // Slots outside the queue may still hold cards drawn long ago.
    for (int slot = 0; slot < ProgressDeck::kCapacity; ++slot) {
      if (live[slot]) continue;
      d.returned[slot] = 0;
      d.returned_hidden[slot] = 0;
    }
  }
  for (size_t i = ed.pending_size(); i < ed.pending().size(); ++i) ed.pending()[i] = Pending{};

  assert(knowledge == nullptr || knowledge->viewer() == viewer);
  if (knowledge != nullptr) {
    for (int p = 0; p < n; ++p) {
      if (!v.Hidden(p)) continue;
      // Knowledge beyond the public counts can only come from a missed event;
      // dropping it keeps the view possible without looking at hidden cards.
      if (knowledge->known_hand(p).Total() <= v.hand_total[p]) v.known_hand[p] = knowledge->known_hand(p);
      if (ProgressTotal(knowledge->known_progress(p)) <= v.progress_count[p])
        v.known_progress[p] = knowledge->known_progress(p);
    }
  }
  // An open trade shows who holds what (TRD-3: offering, accepting and
  // countering all need the cards, and nothing moves while it is open). The
  // current player's legal confirmations depend on it, so it belongs to every
  // view, tracked or not.
  const TradeState& trade = s.trade();
  if (trade.open) {
    auto holds = [&](int p, const PackedCards& cards) {
      if (p < 0 || p >= n || !v.Hidden(p)) return;
      for (int c = 0; c < kNumCardTypes; ++c)
        v.known_hand[p][c] = std::max<uint8_t>(v.known_hand[p][c], uint8_t(cards.Get(c)));
    };
    holds(s.current_seat(), trade.give);
    for (int p = 0; p < n; ++p) {
      if (trade.answer[p] == kAccepted) holds(p, trade.want);
      if (trade.answer[p] == kCountered) holds(p, trade.counter_give[p]);
    }
  }
  if (top != nullptr && top->kind == PendingKind::kSpyTake && v.Hidden(top->a)) {
    const PlayerState& victim = s.player(top->a);
    ProgressCounts shown{};
    for (int i = 0; i < victim.num_progress; ++i) ++shown[victim.progress[i]];
    v.known_progress[top->a] = shown;
  }
  if (top != nullptr && top->kind == PendingKind::kMasterMerchantTake && v.Hidden(top->a)) {
    // He sees the whole hand (C-T2), even when only resources may be taken
    // (D15): the legal picks then say which resources are absent, which no
    // lower bound could carry.
    v.known_hand[top->a] = s.player(top->a).hand;
  }
  if (viewer >= 0 && s.CurrentPlayer() == viewer) v.legal = s.LegalActions();
  return v;
}

// ---- KnowledgeTracker ----------------------------------------------------------

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

// ---- SampleState ---------------------------------------------------------------

namespace {

bool Fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

// Fills the hidden hands and the bank.
bool SampleHands(const View& v, SplitMix64& rng, StateEditor& ed, std::string* error) {
  const State& vs = v.state;
  const int n = vs.num_seats();
  std::array<int, kNumCardTypes> free_cards{};  // unplaced and not known to be in a hand
  for (int c = 0; c < kNumCardTypes; ++c) {
    free_cards[c] = v.unplaced_cards[c];
    for (int p = 0; p < n; ++p)
      if (v.Hidden(p)) free_cards[c] -= v.known_hand[p][c];
    if (free_cards[c] < 0)
      return Fail(error, "view: known " + std::string(CardName(c)) + " cards exceed the unplaced ones");
  }
  std::array<int, kMaxSeats> unknown{};
  int total_unknown = 0;
  for (int p = 0; p < n; ++p) {
    if (!v.Hidden(p)) continue;
    unknown[p] = v.hand_total[p] - v.known_hand[p].Total();
    if (unknown[p] < 0) return Fail(error, "view: seat " + std::to_string(p) + " known cards exceed its hand");
    total_unknown += unknown[p];
  }

  // The unknown cards as one multiset, then dealt out.
  std::array<int, kNumCardTypes> deal{};
  if (vs.options().bank_limited) {
    // An empty bank stack means every free card of that type is in a hand; a
    // non-empty one keeps at least one back.
    std::array<int, kNumCardTypes> optional{};
    int forced = 0, optional_total = 0;
    for (int c = 0; c < kNumCardTypes; ++c) {
      if (vs.bank()[c] == 0) {
        deal[c] = free_cards[c];
        forced += free_cards[c];
      } else {
        if (free_cards[c] < 1)
          return Fail(error, "view: bank shows " + std::string(CardName(c)) + " but none is unplaced");
        optional[c] = free_cards[c] - 1;
        optional_total += optional[c];
      }
    }
    if (forced > total_unknown || total_unknown > forced + optional_total)
      return Fail(error, "view: hidden hands hold " + std::to_string(total_unknown) +
                             " unknown cards, the bank allows " + std::to_string(forced) + ".." +
                             std::to_string(forced + optional_total));
    for (int i = forced; i < total_unknown; ++i) ++deal[DrawOne(optional, 0, kNumCardTypes, rng)];
  } else {
    const int types = vs.options().ruleset == Ruleset::kBase ? kNumResources : kNumCardTypes;
    for (int i = 0; i < total_unknown; ++i) ++deal[rng.Below(types)];
  }

  for (int p = 0; p < n; ++p) {
    if (!v.Hidden(p)) continue;
    CardCounts hand = v.known_hand[p];
    for (int i = 0; i < unknown[p]; ++i) ++hand[DrawOne(deal, 0, kNumCardTypes, rng)];
    ed.player(p).hand = hand;
  }
  for (int c = 0; c < kNumCardTypes; ++c) {
    int bank = v.unplaced_cards[c];
    for (int p = 0; p < n; ++p)
      if (v.Hidden(p)) bank -= ed.player(p).hand[c];
    ed.bank()[c] = int16_t(bank);
  }
  return true;
}

// Fills the decks' never-seen multisets, the hidden returned cards and the
// hidden progress hands.
bool SampleProgress(const View& v, SplitMix64& rng, StateEditor& ed, std::string* error) {
  const int n = v.state.num_seats();
  std::array<int, kNumProgressKinds> pool{};
  for (int k = 0; k < kNumProgressKinds; ++k) {
    pool[k] = v.unplaced_progress[k];
    for (int p = 0; p < n; ++p)
      if (v.Hidden(p)) pool[k] -= v.known_progress[p][k];
    if (pool[k] < 0)
      return Fail(error, "view: known " + std::string(ProgressCardName(k)) + " cards exceed the unplaced ones");
  }
  for (int t = 0; t < kNumTracks; ++t) {
    ProgressDeck& d = ed.deck(t);
    const int first = TrackFirstCard(t), kinds = TrackNumKinds(t);
    int in_pool = 0;
    for (int k = first; k < first + kinds; ++k) in_pool += pool[k];
    // What the view shows of the never-seen part: the VP cards, or the whole
    // deck the viewer is looking through; the rest is drawn.
    int shown_unseen = 0;
    for (int k = 0; k < kinds; ++k) shown_unseen += d.unseen[k];
    int hidden_returned = 0;
    for (int i = 0; i < d.size; ++i)
      if (d.returned[(d.head + i) % ProgressDeck::kCapacity] == kHiddenCard) ++hidden_returned;
    const int unseen = d.unseen_total - shown_unseen;
    if (unseen < 0 || unseen + hidden_returned > in_pool)
      return Fail(error, "view: the " + std::string(TrackName(t)) + " deck has more hidden cards than are unplaced");
    for (int i = 0; i < d.size; ++i) {
      const int slot = (d.head + i) % ProgressDeck::kCapacity;
      if (d.returned[slot] == kHiddenCard) d.returned[slot] = uint8_t(DrawOne(pool, first, kinds, rng));
    }
    for (int i = 0; i < unseen; ++i) ++d.unseen[DrawOne(pool, first, kinds, rng) - first];
  }
  int left = 0, wanted = 0;
  for (int k = 0; k < kNumProgressKinds; ++k) left += pool[k];
  for (int p = 0; p < n; ++p) {
    if (!v.Hidden(p)) continue;
    const int unknown = v.progress_count[p] - ProgressTotal(v.known_progress[p]);
    if (unknown < 0 || v.progress_count[p] > int(ed.player(p).progress.size()))
      return Fail(error, "view: seat " + std::to_string(p) + " progress knowledge exceeds its hand");
    wanted += unknown;
  }
  if (left != wanted)
    return Fail(error, "view: " + std::to_string(left) + " unplaced progress cards for " + std::to_string(wanted) +
                           " hidden progress hand slots");
  for (int p = 0; p < n; ++p) {
    if (!v.Hidden(p)) continue;
    PlayerState& ps = ed.player(p);
    ProgressCounts hand = v.known_progress[p];
    for (int i = ProgressTotal(hand); i < v.progress_count[p]; ++i) ++hand[DrawOne(pool, 0, kNumProgressKinds, rng)];
    ps.progress.fill(kNoProgressCard);
    int i = 0;
    for (int k = 0; k < kNumProgressKinds; ++k)
      for (int j = 0; j < hand[k]; ++j) ps.progress[i++] = uint8_t(k);
    ps.num_progress = uint8_t(i);
  }
  return true;
}

}  // namespace

bool SampleState(const View& v, uint64_t seed, State* out, std::string* error) {
  // A few public facts are not per-card bounds — a seat asked to return a
  // commodity to a Commercial Harbor holds at least one (C-T1) — so a sample
  // that breaks one is drawn again; Validate() knows them all.
  constexpr int kAttempts = 64;
  std::string e;
  SplitMix64 rng(seed);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    State s = v.state;
    StateEditor ed(&s);
    if (!SampleHands(v, rng, ed, error)) return false;
    if (!SampleProgress(v, rng, ed, error)) return false;
#if defined(METROPOLIS_VALIDATE_EVERY_STEP)
    e = s.Validate();
#else
    // Release builds (search samples thousands of states) check only the
    // public facts a sample can break: whoever must act can act.
    e.clear();
    if (s.IsChanceNode() ? s.ChanceOutcomes().empty() : (!s.IsTerminal() && s.LegalActions().empty()))
      e = "no decision possible at the top of the stack";
#endif
    if (e.empty()) {
      *out = s;
      return true;
    }
  }
  return Fail(error, "sampled state fails Validate(): " + e);
}

}  // namespace metropolis
