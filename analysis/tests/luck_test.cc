// The luck account (analysis/luck.h) against hand-computed examples: dice
// production (PRD-1..PRD-3), progress draws on the event die (EVT-2, PD-1),
// dice fixed by an Alchemist (C-S1), the luck-adjusted result.
#include "analysis/luck.h"

#include <gtest/gtest.h>

#include "analysis/tests/play.h"
#include "engine/tests/test_util.h"

namespace metropolis::analysis {
namespace {

using test_util::Play;
using test_util::Pos;

// Seat 0: a city on n8 (hexes 0 F4, 1 P9, 4 M6) and a settlement on n27 (hex 7
// H6), science level 1; seat 1: a settlement on n15 (hex 6 P5). By hand, with
// P(4) = 3/36, P(5) = 4/36, P(6) = 5/36, P(9) = 4/36:
//   seat 0: a 4 gives 2 (lumber + paper), a 9 gives 2 (wool + cloth), a 6
//           gives 3 (ore + coin, and a brick): (3*2 + 4*2 + 5*3) / 36 = 29/36;
//   seat 1: a 5 gives 1: 4/36.
// Seat 0 draws on a science gate (1/6) with red 1 or 2 (2/6): 1/18 (PD-1).
constexpr std::string_view kPosition = "phase=before_roll current=0 turn=9 c0=8 s0=27 s1=15 lvl0=001";

// The luck account of one step: the dice `roll_text` played from `s`, a chance
// node.
LuckAccount LuckOfRoll(State s, std::string_view roll_text) {
  const State before = s;
  const Action roll = test_util::A(roll_text);
  std::vector<Event> events;
  Play(s, roll, &events);
  LuckAccount account;
  AddLuckOfStep(before, roll, events, &account);
  return account;
}

TEST(LuckTest, Prd1DiceLuckIsWhatTheRollGaveAgainstTheMeanOfEveryOutcome) {
  State s = Pos(kPosition);
  Play(s, "roll");
  ASSERT_TRUE(s.IsChanceNode());
  const LuckAccount account = LuckOfRoll(s, "dice 3 3 ship");  // a 6: seat 0 gets 3, seat 1 nothing
  EXPECT_EQ(account.production_rolls, 1);
  EXPECT_NEAR(account.seats[0].expected_cards, 29.0 / 36, 1e-12);
  EXPECT_EQ(account.seats[0].dice_cards, 3);
  EXPECT_NEAR(account.seats[1].expected_cards, 4.0 / 36, 1e-12);
  EXPECT_EQ(account.seats[1].dice_cards, 0);
  EXPECT_NEAR(account.seats[0].expected_draws, 1.0 / 18, 1e-12);
  EXPECT_EQ(account.seats[0].draws, 0);
  EXPECT_EQ(account.seats[2].expected_cards, 0);
  EXPECT_EQ(account.seats[2].rolls, 1);
}

TEST(LuckTest, Pd1AGateThatAdmitsTheRedDieIsADraw) {
  State s = Pos(kPosition);
  Play(s, "roll");
  const LuckAccount account = LuckOfRoll(s, "dice 2 1 science");  // red 1: seat 0 draws; a 3 produces nothing here
  EXPECT_EQ(account.seats[0].draws, 1);
  EXPECT_EQ(account.seats[0].dice_cards, 0);
  EXPECT_EQ(account.seats[1].draws, 0);
}

TEST(LuckTest, Cs1DiceFixedByAnAlchemistAreAChoiceNotLuck) {
  // Seat 0's settlement on n45 touches hexes 14 (G8), 17 (M5) and 18 (G11):
  // the Alchemist's 2 + 3 gives one ore, and one ore is all it could give.
  State s = Pos("phase=before_roll current=0 turn=8 s0=45 r0=58 prog0=alchemist deck_science=1212222122");
  Play(s, "play alchemist 2 3");
  const LuckAccount account = LuckOfRoll(s, "dice - - ship");
  EXPECT_EQ(account.seats[0].dice_cards, 1);
  EXPECT_NEAR(account.seats[0].expected_cards, 1.0, 1e-12);
}

TEST(LuckTest, Sev2StealsAndDiscardsAreCountedForBothSides) {
  LuckAccount account;
  const State s = Pos(kPosition);
  Event steal;
  steal.type = EventType::kStole;
  steal.seat = 2;
  steal.other = 1;
  Event discard;
  discard.type = EventType::kAction;
  discard.seat = 3;
  discard.action = Action::Make(ActionType::kDiscard, kOre);
  AddLuckOfStep(s, Action::EndTurn(), {steal, discard, discard}, &account);
  EXPECT_EQ(account.seats[2].cards_stolen, 1);
  EXPECT_EQ(account.seats[1].cards_lost, 1);
  EXPECT_EQ(account.seats[3].cards_discarded, 2);
  EXPECT_EQ(account.production_rolls, 0);  // not a roll
}

TEST(LuckTest, TheAdjustedResultTakesLuckOutAtTheGamesOwnRate) {
  // Seat 0: city + settlement = 3 VP; seat 1: a settlement, 1 VP; seats 2, 3: 0.
  const State s = Pos(kPosition);
  LuckAccount account;
  account.seats[0].dice_cards = 30;
  account.seats[0].expected_cards = 20;  // 10 cards of dice luck
  account.seats[1].dice_cards = 10;
  account.seats[1].expected_cards = 14;  // 4 cards of bad luck
  account.seats[1].draws = 1;
  account.seats[1].expected_draws = 0.5;  // half a card of good luck, worth 1 card
  FinishLuck(s, &account);
  // 40 cards for 4 VP: 10 cards a point.
  EXPECT_DOUBLE_EQ(account.cards_per_vp, 10.0);
  EXPECT_DOUBLE_EQ(account.seats[0].luck_cards, 10.0);
  EXPECT_DOUBLE_EQ(account.seats[1].luck_cards, -3.0);
  EXPECT_EQ(account.seats[0].vp, 3);
  EXPECT_DOUBLE_EQ(account.seats[0].adjusted_vp, 2.0);
  EXPECT_DOUBLE_EQ(account.seats[1].adjusted_vp, 1.3);
  EXPECT_EQ(account.seats[0].place, 1);
  EXPECT_EQ(account.seats[1].place, 2);
  EXPECT_EQ(account.seats[2].place, 3);  // equal points share a place
  EXPECT_EQ(account.seats[3].place, 3);
  EXPECT_EQ(account.seats[0].adjusted_place, 1);

  // Points held at the first roll cost no card: with seat 0 at 2 VP and seat 1
  // at 1 VP then, 40 cards bought 1 point, and 10 cards of luck are a quarter.
  account.seats[0].start_vp = 2;
  account.seats[1].start_vp = 1;
  FinishLuck(s, &account);
  EXPECT_DOUBLE_EQ(account.cards_per_vp, 40.0);
  EXPECT_DOUBLE_EQ(account.seats[0].adjusted_vp, 2.75);
}

TEST(LuckTest, TheFirstRollRecordsTheSetupsPoints) {
  State s = Pos(kPosition);  // seat 0: a city and a settlement, 3 VP
  Play(s, "roll");
  const LuckAccount account = LuckOfRoll(s, "dice 3 3 ship");
  EXPECT_EQ(account.seats[0].start_vp, 3);
  EXPECT_EQ(account.seats[1].start_vp, 1);
}

TEST(LuckTest, OverAWholeGameLuckSumsToTheDiceAndStealsBalance) {
  const GameRecord record = testing::PlayRecorded("heuristic:trade=0", 11);
  LuckAccount account;
  std::string error;
  ASSERT_TRUE(ComputeLuck(record, &account, &error)) << error;
  ASSERT_GT(account.production_rolls, 20);
  int stolen = 0, lost = 0;
  double expected = 0;
  int got = 0;
  for (int s = 0; s < 4; ++s) {
    stolen += account.seats[size_t(s)].cards_stolen;
    lost += account.seats[size_t(s)].cards_lost;
    expected += account.seats[size_t(s)].expected_cards;
    got += account.seats[size_t(s)].dice_cards;
    EXPECT_EQ(account.seats[size_t(s)].rolls, account.production_rolls);
  }
  EXPECT_EQ(stolen, lost);
  EXPECT_GT(got, 0);
  // The game's dice luck adds up to little over a whole game: the same rolls
  // feed every seat, so the total is within a few cards a seat of expectation.
  EXPECT_NEAR(got, expected, 0.35 * expected);
  EXPECT_EQ(account.seats[size_t(*record.winner)].place, 1);
}

TEST(LuckTest, ARecordThatDoesNotReplayIsRefused) {
  GameRecord record = testing::PlayRecorded("random", 3);
  record.actions.insert(record.actions.begin() + 5, Action::EndTurn());
  LuckAccount account;
  std::string error;
  EXPECT_FALSE(ComputeLuck(record, &account, &error));
  EXPECT_TRUE(error.starts_with("step 6:")) << error;
}

}  // namespace
}  // namespace metropolis::analysis
