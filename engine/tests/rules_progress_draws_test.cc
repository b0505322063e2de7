// Progress-card draws and the progress hand limit, RULES.md 6.2 and 12:
// PD-1..PD-6, PC-4 under its three options and PC-8's returned queue. The
// positions (docs/NOTATION.md) have no buildings on the hexes the rolled sum
// names, so a roll changes only the decks and the progress hands. Decks are
// written as copies per kind (science: alchemist crane engineer inventor
// irrigation medicine mining printer road_building smith), then `/` and the
// queue of returned cards.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/notation.h"
#include "engine/progress.h"
#include "engine/state.h"
#include "engine/tests/test_util.h"

namespace metropolis {
namespace {

using namespace test_util;  // Pos, A, IsLegal, Play, ExpectRefused, ExpectPosition

// Whether seat 1 is queued to draw after a science gate with red value `red`.
bool QueuedToDraw(const State& s, int seat) {
  for (int i = 0; i < s.pending_size(); ++i)
    if (s.pending(i).kind == PendingKind::kDraw && s.pending(i).seat == seat) return true;
  return false;
}

State RollScienceGate(const std::string& fields, int red) {
  State s = Pos(fields);
  Play(s, "roll");
  const int yellow = red == 6 ? 2 : 1;  // never a 7
  Play(s, "dice " + std::to_string(yellow) + " " + std::to_string(red) + " science");
  return s;
}

// ---- PD-1 eligibility ---------------------------------------------------------------

TEST(ProgressDrawsTest, Pd1LevelLDrawsOnRedOneToLPlusOne) {
  for (int level = 0; level <= 5; ++level) {
    for (int red = 1; red <= 6; ++red) {
      const std::string fields = "phase=before_roll current=0 turn=9 lvl1=00" + std::to_string(level);
      const State s = RollScienceGate(fields, red);
      EXPECT_EQ(QueuedToDraw(s, 1), level >= 1 && red <= level + 1) << "level " << level << ", red " << red;
    }
  }
}

TEST(ProgressDrawsTest, Pd1OptionRedDieTable) {
  const std::string fields = "opts=[red_die_table=1,1,2,2,3] phase=before_roll current=0 turn=9 lvl1=001";
  EXPECT_TRUE(QueuedToDraw(RollScienceGate(fields, 1), 1));
  EXPECT_FALSE(QueuedToDraw(RollScienceGate(fields, 2), 1));
}

TEST(ProgressDrawsTest, Pd1OnlyTheGatesTrack) {
  State s = Pos("phase=before_roll current=0 turn=9 lvl1=550");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  EXPECT_FALSE(QueuedToDraw(s, 1));
}

// ---- PD-2 order and source, PD-4 VP cards, PD-6 no city ---------------------------------

TEST(ProgressDrawsTest, Pd2TurnOrderFromTheCurrentPlayerOverTheUnseenDeck) {
  // Seat 2 rolls red 3: seats 3 and 0 (level 2) draw, in that order;
  // seat 1 (level 1 needs red 2 or less) does not. Only seat 0 owns a city (PD-6).
  State s = Pos("phase=before_roll current=2 turn=9 c0=53 lvl0=002 s1=46 lvl1=001 s3=38 lvl3=002");
  Play(s, "roll");
  Play(s, "dice 1 3 science");  // 4: hexes 0 and 5, nobody there
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=2 dice=1,3,science c0=53 lvl0=002 s1=46 lvl1=001 s3=38 "
                 "lvl3=002 pending=step_production@2/draw@0:2/draw@3:2");
  ASSERT_TRUE(s.IsChanceNode());
  // The outcomes are the science kinds, weighted by their copies among 18.
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 10u);
  double total = 0;
  for (const ChanceOutcome& o : outcomes) {
    const int copies = o.action == A("draw engineer") || o.action == A("draw printer") ? 1 : 2;
    EXPECT_DOUBLE_EQ(o.probability, copies / 18.0) << ActionToString(o.action);
    total += o.probability;
  }
  EXPECT_DOUBLE_EQ(total, 1.0);
  ExpectRefused(s, "end_turn", "0.4");
  std::vector<Event> events;
  Play(s, "draw smith", &events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].type, EventType::kProgressDrawn);
  EXPECT_EQ(events[1].seat, 3);
  EXPECT_EQ(events[1].private_to, 1 << 3);  // PD-2: only the receiver sees it
  // The deck shrank: the next draw is over 17 cards.
  EXPECT_DOUBLE_EQ(s.ChanceOutcomes().back().probability, 1.0 / 17);  // one smith left
  Play(s, "draw medicine");
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=4 dice=1,3,science c0=53 prog0=medicine lvl0=002 s1=46 "
                 "lvl1=001 s3=38 prog3=smith lvl3=002 deck_science=2212212121");
}

TEST(ProgressDrawsTest, Pd4VictoryPointCardsAreRevealedAndScore) {
  State s = Pos("phase=before_roll current=0 turn=9 s1=46 lvl1=001");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  std::vector<Event> events;
  Play(s, "draw printer", &events);
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 dice=1,1,science s1=46 vpc1=printer lvl1=001 "
                 "deck_science=2212222022");
  EXPECT_EQ(s.player(1).num_progress, 0);
  EXPECT_EQ(s.player(1).vp, 2);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[2].type, EventType::kVictoryCardRevealed);
  EXPECT_EQ(events[2].seat, 1);
  EXPECT_EQ(events[2].b, kPrinter);
  EXPECT_EQ(events[2].private_to, 0);
}

TEST(ProgressDrawsTest, Pd4VictoryCardNeverCountsTowardTheHandLimit) {
  // Seat 1 holds 4 cards off-turn and draws the Constitution: no discard.
  State s =
      Pos("phase=before_roll current=0 turn=9 prog1=bishop,bishop,deserter,deserter lvl1=030 "
          "deck_politics=010222322");
  Play(s, "roll");
  Play(s, "dice 1 1 politics");
  Play(s, "draw constitution");
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(s.player(1).num_progress, 4);
  EXPECT_EQ(s.player(1).vp_cards, 2);
}

// ---- PD-3 empty deck ------------------------------------------------------------------

// All 18 science cards are out: in the hands and one revealed Printer.
constexpr std::string_view kEmptyScience =
    "prog0=alchemist,alchemist,crane,crane,engineer prog1=inventor,inventor,irrigation,irrigation lvl1=001 "
    "prog2=medicine,medicine,mining,mining prog3=road_building,road_building,smith,smith vpc3=printer "
    "deck_science=0000000000 ";

TEST(ProgressDrawsTest, Pd3EmptyDeckGivesNothing) {
  State s = Pos("phase=before_roll current=0 turn=9 " + std::string(kEmptyScience) + "lvl0=001");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 dice=1,1,science " + std::string(kEmptyScience) + "lvl0=001");
}

// ---- PC-8 returned cards --------------------------------------------------------------

TEST(ProgressDrawsTest, Pc8ReturnedCardsAreDrawnBackInOrderWithoutChance) {
  // The unseen part is empty; the queue holds road_building, then two smiths
  // (the first put back face down by seat 0). Seats 2 and 3 draw.
  const std::string others =
      "c0=0 prog0=alchemist,alchemist,crane,crane prog1=engineer,inventor,inventor,irrigation "
      "prog2=irrigation,medicine,medicine lvl2=001 prog3=mining,mining,road_building vpc3=printer lvl3=001 ";
  State s = Pos("phase=before_roll current=0 turn=9 " + others + "deck_science=0000000000/road_building,smith@0,smith");
  Play(s, "roll");
  std::vector<Event> events;
  Play(s, "dice 1 1 science", &events);
  EXPECT_FALSE(s.IsChanceNode());
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 dice=1,1,science c0=0 prog0=alchemist,alchemist,crane,"
                 "crane prog1=engineer,inventor,inventor,irrigation prog2=irrigation,medicine,medicine,"
                 "road_building lvl2=001 prog3=mining,mining,road_building,smith vpc3=printer lvl3=001 "
                 "deck_science=0000000000/smith");
  int drawn = 0;
  for (const Event& e : events) drawn += e.type == EventType::kProgressDrawn;
  EXPECT_EQ(drawn, 2);
}

// ---- PC-4 hand limit -------------------------------------------------------------------

TEST(ProgressDrawsTest, Pc4OffTurnFifthCardIsDiscardedToTheBottomAtOnce) {
  State s =
      Pos("phase=before_roll current=0 turn=9 prog1=alchemist,crane,crane,engineer lvl1=001 "
          "deck_science=1002222122");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  Play(s, "draw smith");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 dice=1,1,science prog1=alchemist,crane,crane,engineer,"
                 "smith lvl1=001 deck_science=1002222121 pending=step_production@0/discard_progress@1");
  // PD-5: the discard comes at once, before the roll's production.
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{A("discard_progress alchemist"), A("discard_progress crane"),
                                                   A("discard_progress engineer"), A("discard_progress smith")}));
  ExpectRefused(s, "discard_progress bishop", "PC-4");
  std::vector<Event> events;
  Play(s, "discard_progress crane", &events);
  // PC-8: face down to the bottom; only seat 1 knows which card it was.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=4 dice=1,1,science prog1=alchemist,crane,engineer,smith "
                 "lvl1=001 deck_science=1002222121/crane@1");
  EXPECT_EQ(events[0].private_to, 1 << 1);
}

TEST(ProgressDrawsTest, Pc4OwnTurnFiveAllowedSixthDiscarded) {
  State s =
      Pos("phase=before_roll current=0 turn=9 prog0=alchemist,crane,crane,engineer lvl0=001 "
          "deck_science=1002222122");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  Play(s, "draw smith");
  EXPECT_EQ(s.pending_size(), 0);  // 5 on his own turn
  EXPECT_EQ(s.player(0).num_progress, 5);
  // A 6th on his own turn: down to 5 at once.
  State six =
      Pos("phase=before_roll current=0 turn=9 prog0=alchemist,crane,crane,engineer,inventor lvl0=001 "
          "deck_science=1001222122");
  Play(six, "roll");
  Play(six, "dice 1 1 science");
  Play(six, "draw smith");
  EXPECT_EQ(six.CurrentPlayer(), 0);
  ASSERT_EQ(six.pending_size(), 2);
  EXPECT_EQ(six.pending(1).kind, PendingKind::kDiscardProgress);
  Play(six, "discard_progress smith");
  EXPECT_EQ(six.player(0).num_progress, 5);
}

TEST(ProgressDrawsTest, Pc4EndOfTurnWithFiveDiscardsBeforeTheTurnPasses) {
  State s = Pos("phase=action current=0 turn=9 prog0=alchemist,crane,crane,engineer,smith deck_science=1002222121");
  Play(s, "end_turn");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 prog0=alchemist,crane,crane,engineer,smith "
                 "deck_science=1002222121 pending=step_end_turn@0/end_turn_discard@0");
  ExpectRefused(s, "end_turn", "19");
  Play(s, "discard_progress engineer");
  ExpectPosition(s,
                 "phase=before_roll current=1 turn=10 actions=2 prog0=alchemist,crane,crane,smith "
                 "deck_science=1002222121/engineer@0");
}

TEST(ProgressDrawsTest, Pc4OptionStrictFourDiscardsAFifthOnOwnTurnToo) {
  State s =
      Pos("opts=[progress_hand_limit=STRICT_FOUR] phase=before_roll current=0 turn=9 "
          "prog0=alchemist,crane,crane,engineer lvl0=001 deck_science=1002222122");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  Play(s, "draw smith");
  EXPECT_EQ(s.CurrentPlayer(), 0);
  ASSERT_GE(s.pending_size(), 1);
  EXPECT_EQ(s.pending(s.pending_size() - 1).kind, PendingKind::kDiscardProgress);
}

TEST(ProgressDrawsTest, Pc4OptionPlayOrDiscardHoldingFiveListsOnlyDiscardsAndPlays) {
  // D10: holding 5, the player must play or discard before anything else; the
  // Alchemist is not playable after the roll and the Smith has no knight.
  const State s =
      Pos("opts=[progress_hand_limit=PLAY_OR_DISCARD] phase=action current=0 turn=9 c0=13 "
          "prog0=alchemist,crane,crane,engineer,smith hand0=1g deck_science=1002222121");
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{A("discard_progress alchemist"), A("discard_progress crane"),
                                                   A("discard_progress engineer"), A("discard_progress smith"),
                                                   A("play crane"), A("play engineer n13")}));
  ExpectRefused(s, "end_turn", "PC-4");
  State after = s;
  Play(after, "discard_progress crane");
  EXPECT_EQ(after.deck(kScience).size, 1);
  EXPECT_TRUE(IsLegal(after, A("end_turn")));
}

}  // namespace
}  // namespace metropolis
