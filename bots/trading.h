// Player-to-player trades (RULES.md TRD-3) for the heuristic and search bots:
// offers in the seat's own action phase, answers to the current player's
// offers (accept, decline or counter), and the close of its own offers
// (confirm one partner or cancel).
//
// Every decision reads only the seat's view. A trade moves cards between two
// hands, so what it is worth is read from the evaluation (evaluation.h) on
// full states sampled from the view (SampleState), with the two hands
// exchanged:
//
//   - for the seat itself: in its own turn, the best of doing nothing more and
//     one build after the exchange (a trade is worth the build it enables),
//     scored as the heuristic scores its moves; outside its turn, its hand's
//     value;
//   - for the partner: the same by his own evaluation, averaged over a few
//     samples of his hidden hand, weighted by how much his gain costs the seat
//     (much when it makes or keeps him the strongest opponent, a little
//     otherwise).
//
// Hard limits, whatever the evaluation says:
//   - never with an opponent in reach of a win (InReachOfWin): a trade never
//     hands him the cards of his winning build;
//   - an offer or counter gives only cards the seat holds, asks for at most 7
//     of a type, shares no type between its sides and wants no commodity in the
//     base game (E10, BG-1), and is checked by the engine's own CheckAction on
//     the sample (which holds the seat's real hand) before it is returned;
//   - at most max_trade_offers_per_turn offers a turn, as the engine counts
//     them; none when the option is 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/action.h"
#include "engine/state.h"
#include "engine/view.h"

namespace metropolis::bots {

// What a bot does with player trades; a bot spec's `trade=` setting.
enum class TradeMode : uint8_t {
  // "0": no offers, no counters, and an offer is accepted only when it gives
  // more cards than it takes: the bots as they were before they traded,
  // decision for decision.
  kOff,
  // "answer": accepts or declines offers by its evaluation; makes no offers
  // and no counters.
  kAnswer,
  // "1" (the default): makes, answers and counters offers.
  kOn,
};

bool ParseTradeMode(std::string_view value, TradeMode* mode, std::string* error);
std::string_view TradeModeName(TradeMode mode);  // "0", "answer", "1"

// Victory points within which an opponent is never traded with: what one turn
// can bring him beyond the cards he holds — a metropolis and a city in C&K
// (3), two buildings, Longest Road or Largest Army in the base game (2).
int WinReach(const State& state);

// Whether `seat` might be within WinReach of the victory points that win:
// his public VP plus, in the base game, as many hidden VP cards as his
// development cards could be (BG-9).
bool InReachOfWin(const View& view, int seat);

// A trade decision for the view's seat, or nothing. `sampled` is a full state
// consistent with the view (SampleState), drawn by the caller; `rng` gives the
// few more samples that estimate a partner's gain.
//   - An offer to answer (TRD-3 step 2): accept, decline or a counter.
//   - Its own offer to close (step 3): a confirmation or the cancel.
//   - Its action phase with offers left (kOn only): an offer worth making, or
//     nothing, and the caller plays on.
//   - Anything else, or TradeMode::kOff: nothing.
std::optional<Action> ChooseTrade(const View& view, const State& sampled, TradeMode mode, uint64_t* rng);

// Whether ChooseTrade may return an action that is not in view.legal (an
// offer or a counter), so that a single legal action is not a forced move.
bool MayOfferOrCounter(const View& view, TradeMode mode);

}  // namespace metropolis::bots
