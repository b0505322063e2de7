// Views: what one seat (or a spectator) may see of a game (RULES.md 18), the
// knowledge a seat gathers from its own event stream, and a sampler that turns
// a view back into a full State for search (determinisation).
//
// A View is the State with everything hidden from the viewer replaced by a
// canonical value, plus the few public numbers the masking removed and what
// the viewer has learnt from events. The contract the random-simulation tests
// check: two states that differ only in what the viewer may not see give
// equal views, and for every view v and seed, MakeView(SampleState(v)) == v.
//
// What the masked state hides from the viewer:
//   - other seats' resource and commodity hands (emptied; totals kept in
//     hand_total);
//   - other seats' progress hands (emptied; counts kept in progress_count);
//   - the bank's exact counts: only whether a stack is empty stays (legality of
//     bank trades and the Aqueduct depends on it, and an empty stack is plain
//     to see), since the exact counts would give away the sum of hidden hands;
//     with an unlimited bank nothing of it stays;
//   - each deck's never-seen multiset: only its size and the VP cards still in
//     it (Printer and Constitution are revealed when drawn, so where they are
//     is public);
//   - returned-queue cards that only another seat knows (kHiddenCard);
//   - in the base game (BG-9): other seats' development cards (emptied; counts
//     kept in dev_count), the development deck's composition (emptied; its
//     size kept in dev_deck_size), which cards the current player bought this
//     turn when he is someone else (emptied; their number kept in
//     dev_bought_count), and the victory point cards among hidden hands: a
//     hidden seat's vp is its public VP, without them. When the game is over
//     the VP cards are shown (kDevRevealed): they stay in the hands, and vp is
//     the full count.
// The board, pieces, levels, VP, dice, decks' sizes, the open trade, the
// effects of cards played this turn (TurnEffects) and the pending stack are
// public and stay as they are: pending entries carry seats, counts, tracks and
// the public card being played, never a hidden card.
//
// A decision of the viewer's own may show him hidden cards: the victim's
// progress hand to the Spy's player (C-P7), the victim's hand to the Master
// Merchant's (C-T2), the chosen deck to the player of a Defender tie under
// ANY_CARD_OF_CHOSEN_DECK (BAR-6). His legal actions name those cards, so his
// view holds them whether or not a tracker is given: as known cards, and the
// chosen deck unmasked. Every other viewer's view is unchanged. The masked state is for
// reading only: it breaks card conservation, so Validate() refuses it and it
// must not be played on; the viewer's choices are View::LegalActions().
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/progress.h"
#include "engine/state.h"
#include "engine/types.h"

namespace metropolis {

using ProgressCounts = std::array<uint8_t, kNumProgressKinds>;

// What a seat knows about the other seats' hidden cards, built only from its
// masked event stream. Every number is a lower bound that is certainly true:
// when a card leaves a seat's hand unseen, the knowledge shrinks to what holds
// whichever card it was, so the tracker never claims a card that is not there.
// Card movements are read from events (kProduced, kPaid, kStole,
// kTradeExecuted, kCardGiven, kProgressTaken), never recomputed from costs or
// rates, so the tracker needs no rules of its own.
class KnowledgeTracker {
 public:
  // `viewer` is a seat, or kNoSeat for a spectator.
  explicit KnowledgeTracker(int viewer = kNoSeat);

  // Starts over from `initial` knowing nothing hidden. Any state will do (a
  // fresh game or a position); only its seats and open trade offer are read.
  void Reset(const State& initial);
  // One event as MaskEvent(e, viewer) shows it, in the order they were emitted.
  void Observe(const Event& masked);

  int viewer() const { return viewer_; }
  // Cards `seat` certainly holds; all zero for the viewer itself.
  const CardCounts& known_hand(int seat) const { return known_hand_[seat]; }
  // Non-VP progress cards `seat` certainly holds, counted per kind.
  const ProgressCounts& known_progress(int seat) const { return known_progress_[seat]; }

 private:
  bool Hidden(int seat) const { return seat >= 0 && seat < num_seats_ && seat != viewer_; }
  void ObserveAction(const Event& e);
  void ObserveCardGiven(const Event& e);
  void Forget();
  void Gain(int seat, const CardCounts& cards);
  void Lose(int seat, const CardCounts& cards);
  void LoseUnseenCard(int seat, int first_type);
  void Holds(int seat, const CardCounts& cards);
  void GainProgress(int seat, int card);
  void LoseProgress(int seat, int card);  // kHiddenCard: one card the viewer did not see

  int viewer_;
  int num_seats_ = 0;
  std::array<CardCounts, kMaxSeats> known_hand_{};
  std::array<ProgressCounts, kMaxSeats> known_progress_{};
  PackedCards offer_want_;  // what the open offer asks of its addressees
  bool steal_unresolved_ = false;
  // A DISCARD's card is lost when the action is seen; a kPaid of that card
  // right after it is the same card, not a second one.
  int discard_seat_ = kNoSeat;
  int discard_card_ = 0;
  // The Commercial Harbor exchange under way (C-T1): its resource is public in
  // HARBOR_OFFER, so it names the card of the exchange's masked kCardGiven.
  int harbor_player_ = kNoSeat;
  int harbor_opponent_ = kNoSeat;
  int harbor_resource_ = 0;
  ProgressCounts spy_seen_{};  // C-P7: the cards the current Spy showed, per kind
};

struct View {
  explicit View(const State& masked) : state(masked) {}

  int viewer = kNoSeat;
  State state;  // masked as described at the top of this file
  std::array<uint8_t, kMaxSeats> hand_total{};
  std::array<uint8_t, kMaxSeats> progress_count{};
  // Cards of each type the viewer cannot place: in the bank or in hidden
  // hands (the card supply minus the viewer's own hand).
  std::array<int16_t, kNumCardTypes> unplaced_cards{};
  // Non-VP progress cards of each kind the viewer cannot place: never seen in
  // a deck, returned face down by another seat, or in hidden progress hands.
  ProgressCounts unplaced_progress{};
  // The viewer's knowledge (KnowledgeTracker), zero for the viewer's own seat.
  std::array<CardCounts, kMaxSeats> known_hand{};
  std::array<ProgressCounts, kMaxSeats> known_progress{};
  // The base game (BG-9): development cards in each hand (public), the
  // deck's size, how many the current player bought this turn, and the
  // development cards of each kind the viewer cannot place (in the deck or in
  // hidden hands). Nothing beyond these is ever learnt of hidden development
  // cards before the game ends, so there is no tracker knowledge of them.
  std::array<uint8_t, kMaxSeats> dev_count{};
  uint8_t dev_deck_size = 0;
  uint8_t dev_bought_count = 0;
  std::array<uint8_t, kNumDevKinds> unplaced_dev{};
  // The viewer's legal actions when it is the one to act, else empty. Kept
  // here because some depend on hidden facts the viewer is entitled to use
  // (e.g. whether a trade partner still holds the cards he accepted to give).
  std::vector<Action> legal;

  bool Hidden(int seat) const { return seat != viewer; }
  const std::vector<Action>& LegalActions() const { return legal; }
  bool operator==(const View&) const = default;
};

// The view of seat `viewer` (0..num_seats-1, or kNoSeat for a spectator).
// `knowledge`, when given, must track the same viewer over the same game.
View MakeView(const State& s, int viewer, const KnowledgeTracker* knowledge = nullptr);

// Fills *out with a full State consistent with `v`: every hidden card drawn
// from the cards the viewer cannot place, respecting hand sizes and the
// viewer's knowledge. Hidden development cards are drawn from the unplaced
// ones (the deck gets the rest), the current player's cards bought this turn
// from his sampled hand, and during his own turn he holds fewer VP cards than
// would have won him the game already (WIN-1, BG-8). The result passes Validate() and MakeView of it with
// the same knowledge equals `v`. Deterministic for a seed (splitmix64). False
// with *error set when `v` is inconsistent (no state could produce it).
bool SampleState(const View& v, uint64_t seed, State* out, std::string* error);

}  // namespace metropolis
