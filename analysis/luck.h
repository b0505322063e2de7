// The luck account of a finished game: for each seat, what chance gave it
// against what it could expect, read from the record (every die, steal and
// draw is an action there) and the engine's own rules.
//
//   dice        cards the production dice gave the seat, against the mean of
//               every outcome of the same roll from the same position
//               (CardsProducedBy): the robber, cities, commodities and a short
//               bank are counted as the roll would count them. Dice fixed by an
//               Alchemist are a choice: their expectation is what they gave.
//   draws       progress cards drawn on the event die, against the chance of a
//               draw at each roll (DrawsProgress).
//   steals      cards taken from the seat by the robber and the Bishop, and
//               taken by it (who is robbed is a decision; which card is chance).
//   discards    cards the seat discarded on a 7 (SEV-2).
//   barbarians  attacks, cities pillaged (BAR-8), Defender points won (BAR-5).
//
// The seat's luck in cards is its dice surplus plus its draw surplus valued at
// kCardsPerProgressCard. The luck-adjusted result takes that luck out of the
// seat's victory points at the game's own exchange rate (every card the dice
// handed out against every point scored after the first roll: the setup's
// points cost no card), and ranks the seats again.
// docs/ANALYSIS.md explains the method and its limits.
#pragma once

#include <array>
#include <string>

#include "engine/game.h"

namespace metropolis::analysis {

// What one progress card is worth in resource cards when luck is added up:
// most cards give or save about two (Road Building, Resource Monopoly, Merchant
// Fleet, Irrigation). A convention stated in docs/ANALYSIS.md, not a measure.
inline constexpr double kCardsPerProgressCard = 2.0;

struct SeatLuck {
  int rolls = 0;              // production rolls the seat saw (all seats see all)
  double expected_cards = 0;  // from the dice, over those rolls
  int dice_cards = 0;         // what the dice gave
  double expected_draws = 0;  // progress draws on the event die
  int draws = 0;
  int cards_stolen = 0;     // taken by the seat (kStole)
  int cards_lost = 0;       // taken from the seat
  int cards_discarded = 0;  // on a 7
  int cities_pillaged = 0;  // by the barbarians
  int defender_points = 0;  // Defender of Catan cards won
  int start_vp = -1;        // VP at the first production roll (-1: none seen)
  // Derived (Finish): luck in cards, final and luck-adjusted VP and places
  // (1 = first; seats on equal points share a place, the winner is first).
  double luck_cards = 0;
  int vp = 0;
  double adjusted_vp = 0;
  int place = 0;
  int adjusted_place = 0;
};

struct LuckAccount {
  int num_seats = 0;
  int production_rolls = 0;  // production rolls, Alchemist rolls included (they add no luck)
  int barbarian_attacks = 0;
  double cards_per_vp = 0;  // the game's exchange rate (0 when nobody scored)
  std::array<SeatLuck, kMaxSeats> seats{};
};

// Replays `record` (every action checked) and fills *out. False with *error
// set when the record does not replay.
bool ComputeLuck(const GameRecord& record, LuckAccount* out, std::string* error);

// The luck of one step, added to *account: call with the state before the
// action, the action, and the step's events. ComputeLuck is this over a
// replay, then FinishLuck; the analysis, which replays the game anyway, calls
// it from its own loop.
void AddLuckOfStep(const State& before, const Action& action, const std::vector<Event>& events, LuckAccount* account);
// Fills the derived fields from the final state.
void FinishLuck(const State& final_state, LuckAccount* account);

}  // namespace metropolis::analysis
