#include "engine/view.h"

#include <algorithm>
#include <cassert>

#include "engine/splitmix.h"
#include "engine/state_editor.h"

namespace metropolis {
namespace {

int ProgressTotal(const ProgressCounts& p) {
  int t = 0;
  for (uint8_t n : p) t += n;
  return t;
}

// The sampler's stream (engine/splitmix.h), with the plain modulo draw the
// samples have always used: changing it would change every sampled world.
class SampleRng {
 public:
  explicit SampleRng(uint64_t seed) : stream_(seed) {}
  int Below(int n) { return int(stream_.Next() % uint64_t(n)); }

 private:
  SplitMix64 stream_;
};

// Removes one item drawn uniformly from the multiset counts[first, first+len)
// and returns its index; the multiset must not be empty there.
template <typename Counts>
int DrawOne(Counts& counts, int first, int len, SampleRng& rng) {
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

using DevPool = std::array<int, kNumDevKinds>;

// DrawOne for development cards. (GCC 12 reports a false array-bounds error
// when DrawOne is instantiated for arrays of ints of two sizes.)
int DrawDev(DevPool& pool, SampleRng& rng) {
  int total = 0;
  for (int n : pool) total += n;
  int r = rng.Below(total);
  for (int k = 0; k < kNumDevKinds; ++k) {
    if (r < pool[k]) {
      --pool[k];
      return k;
    }
    r -= pool[k];
  }
  return -1;  // unreachable for a non-empty pool
}

// BG-9: development cards in hand are private and their number public; the
// deck's composition is what the hands leave, so it is as hidden as they are.
// A hidden seat's VP cards count for him (BG-5) but not in the VP others see,
// until the game ends and they are shown.
void MaskDevCards(const State& s, View* v, StateEditor* ed) {
  const bool shown = s.IsTerminal();
  for (int p = 0; p < s.num_seats(); ++p) {
    const PlayerState& ps = s.player(p);
    v->dev_count[p] = uint8_t(ps.DevTotal());
    if (!v->Hidden(p)) continue;
    PlayerState& masked = ed->player(p);
    masked.dev = {};
    if (shown)
      masked.dev[kDevVictoryPoint] = ps.dev[kDevVictoryPoint];
    else
      masked.vp = uint8_t(ps.vp - ps.dev[kDevVictoryPoint]);
    for (int k = 0; k < kNumDevKinds; ++k) v->unplaced_dev[k] = uint8_t(v->unplaced_dev[k] + ps.dev[k] - masked.dev[k]);
  }
  for (int k = 0; k < kNumDevKinds; ++k) v->unplaced_dev[k] = uint8_t(v->unplaced_dev[k] + s.dev_deck()[k]);
  ed->dev_deck() = {};
  v->dev_deck_size = uint8_t(s.DevDeckSize());
  if (v->Hidden(s.current_seat())) {
    for (uint8_t b : s.dev_bought()) v->dev_bought_count = uint8_t(v->dev_bought_count + b);
    ed->dev_bought() = {};
  }
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
  if (s.options().ruleset == Ruleset::kBase) MaskDevCards(s, &v, &ed);

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
  // A Commercial Harbor exchange waiting for its commodity: the resource was
  // named publicly (C-T1, HARBOR_OFFER) and moves when the answer comes, so
  // its owner holds it in every view, tracked or not.
  if (top != nullptr && top->kind == PendingKind::kHarborReturn && int(top->a) < n && v.Hidden(top->a))
    v.known_hand[top->a][top->b] = std::max<uint8_t>(v.known_hand[top->a][top->b], 1);
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

// ---- SampleState ---------------------------------------------------------------

namespace {

bool Fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

// Fills the hidden hands and the bank.
bool SampleHands(const View& v, SampleRng& rng, StateEditor& ed, std::string* error) {
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
bool SampleProgress(const View& v, SampleRng& rng, StateEditor& ed, std::string* error) {
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

// Fills the hidden development hands, the deck and the current player's
// cards bought this turn (BG-9); see SampleState in view.h.
bool SampleDevCards(const View& v, SampleRng& rng, StateEditor& ed, std::string* error) {
  const State& vs = v.state;
  if (vs.options().ruleset != Ruleset::kBase) return true;
  const int n = vs.num_seats();
  DevPool pool{};
  int pool_total = 0, wanted = v.dev_deck_size;
  for (int k = 0; k < kNumDevKinds; ++k) pool_total += pool[k] = v.unplaced_dev[k];
  for (int p = 0; p < n; ++p)
    if (v.Hidden(p)) wanted += v.dev_count[p] - vs.player(p).DevTotal();
  if (wanted != pool_total)
    return Fail(error, "view: " + std::to_string(pool_total) + " unplaced development cards for " +
                           std::to_string(wanted) + " places in the deck and hidden hands");
  // Once the game is over every VP card in a hand is shown. Before that, the
  // current player in his own turn holds fewer than would already have won
  // (WIN-1 ends the game at once), so he is dealt first, with that cap.
  const bool shown = vs.IsTerminal();
  const int current = vs.current_seat();
  const bool in_turn = vs.phase() == Phase::kBeforeRoll || vs.phase() == Phase::kAction;
  std::array<int, kMaxSeats> order{};
  int seats = 0;
  if (v.Hidden(current) && in_turn) order[seats++] = current;
  for (int p = 0; p < n; ++p)
    if (v.Hidden(p) && !(p == current && in_turn)) order[seats++] = p;
  for (int i = 0; i < seats; ++i) {
    const int p = order[i];
    PlayerState& ps = ed.player(p);
    const int unknown = v.dev_count[p] - ps.DevTotal();
    if (unknown < 0) return Fail(error, "view: seat " + std::to_string(p) + " shows more development cards than held");
    const int vp_cap = shown                     ? 0
                       : p == current && in_turn ? vs.options().victory_points - 1 - ps.vp
                                                 : kDevCardCounts[kDevVictoryPoint];
    for (int j = 0; j < unknown; ++j) {
      DevPool allowed = pool;
      if (ps.dev[kDevVictoryPoint] >= vp_cap) allowed[kDevVictoryPoint] = 0;
      int total = 0;
      for (int a : allowed) total += a;
      if (total == 0) return Fail(error, "view: no development card left that seat " + std::to_string(p) + " may hold");
      const int k = DrawDev(allowed, rng);
      --pool[k];
      ++ps.dev[k];
    }
    if (!shown) ps.vp = uint8_t(ps.vp + ps.dev[kDevVictoryPoint]);
  }
  for (int k = 0; k < kNumDevKinds; ++k) ed.dev_deck()[k] = uint8_t(pool[k]);
  if (v.dev_bought_count > 0) {
    // Bought this turn and so not played yet: any of his cards.
    if (!v.Hidden(current) || v.dev_bought_count > v.dev_count[current])
      return Fail(error, "view: cards bought this turn that the current player does not hold");
    DevPool hand{};
    for (int k = 0; k < kNumDevKinds; ++k) hand[k] = ed.player(current).dev[k];
    for (int j = 0; j < v.dev_bought_count; ++j) ++ed.dev_bought()[DrawDev(hand, rng)];
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
  SampleRng rng(seed);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    State s = v.state;
    StateEditor ed(&s);
    if (!SampleHands(v, rng, ed, error)) return false;
    if (!SampleProgress(v, rng, ed, error)) return false;
    if (!SampleDevCards(v, rng, ed, error)) return false;
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
