// Winning, RULES.md TRN-1, TRN-8 and section 17: who wins and when, the end
// of the game, the victory_points option, the length cap, and the VP table.
// Positions are in the notation (docs/NOTATION.md); several use a small
// victory_points target so that a single step crosses it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/notation.h"
#include "engine/state.h"

namespace metropolis {
namespace {

constexpr std::string_view kHead =
    "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

// The position `fields` (everything after the harbors) on the default board.
State Pos(std::string_view fields) {
  State s;
  std::string error;
  const std::string text = std::string(kHead) + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  return s;
}

Action A(std::string_view text) {
  std::string error;
  const std::optional<Action> a = ParseAction(text, &error);
  EXPECT_TRUE(a.has_value()) << text << ": " << error;
  return a.value_or(Action{});
}

// Listed among the legal actions, or among the chance outcomes at a chance node.
bool IsLegal(const State& s, const Action& a) {
  if (s.IsChanceNode()) {
    for (const ChanceOutcome& o : s.ChanceOutcomes())
      if (o.action == a) return true;
    return false;
  }
  const std::vector<Action> legal = s.LegalActions();
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// Applies an action that must be legal; the position goes into the message.
void Play(State& s, const std::string& action, std::vector<Event>* events = nullptr) {
  const std::string before = ToNotation(s);
  EXPECT_TRUE(IsLegal(s, A(action))) << before << "\n" << action << " is not listed";
  const std::string error = s.Apply(A(action), events);
  ASSERT_EQ(error, "") << before << "\n" << action;
}

// Apply refuses `action` citing `rule` ("KN-7" matches "KN-7: ...") and
// changes nothing; it is not listed as legal either.
void ExpectRefused(const State& s, std::string_view action, std::string_view rule) {
  State copy = s;
  const std::string error = copy.Apply(A(action));
  EXPECT_TRUE(error.starts_with(std::string(rule) + ":")) << ToNotation(s) << "\n" << action << " -> '" << error << "'";
  EXPECT_TRUE(copy == s) << action << " changed the state: " << ToNotation(copy);
  EXPECT_FALSE(IsLegal(s, A(action))) << action;
}

// The state equals the position `fields` (compared as text for a readable diff).
void ExpectPosition(const State& s, const std::string& fields) {
  const State want = Pos(fields);
  EXPECT_EQ(ToNotation(s), ToNotation(want));
  EXPECT_TRUE(s == want);
}

// ---- TRN-1 start of turn, WIN-2 the end --------------------------------------------

// Seat 1 holds 13 VP: trade and politics metropolises (4 + 4), a city (2) and
// three settlements (3).
constexpr std::string_view kThirteen = "c1=0T,13P,46 s1=21,38,53 lvl1=440 ";

TEST(WinTest, Trn1WinsAtTheStartOfHisTurn) {
  State s = Pos("phase=action current=0 turn=9 " + std::string(kThirteen));
  EXPECT_EQ(s.player(1).vp, 13);
  EXPECT_EQ(s.Winner(), kNoSeat);  // WIN-1: not on seat 0's turn
  std::vector<Event> events;
  Play(s, "end_turn", &events);
  ExpectPosition(s, "phase=over current=1 winner=1 turn=10 actions=1 " + std::string(kThirteen));
  EXPECT_EQ(events.back().type, EventType::kGameOver);
  EXPECT_EQ(events.back().seat, 1);
  EXPECT_EQ(s.Returns(), (std::array<double, kMaxSeats>{0, 1, 0, 0}));
}

TEST(WinTest, Win2NothingIsLegalAfterTheEnd) {
  State s = Pos("phase=action current=0 turn=9 " + std::string(kThirteen));
  Play(s, "end_turn");
  ASSERT_TRUE(s.IsTerminal());
  EXPECT_EQ(s.CurrentPlayer(), kTerminalPlayer);
  EXPECT_TRUE(s.LegalActions().empty());
  EXPECT_TRUE(s.ChanceOutcomes().empty());
  ExpectRefused(s, "roll", "WIN-2");
  ExpectRefused(s, "end_turn", "WIN-2");
  ExpectRefused(s, "dice 1 1 ship", "WIN-2");
}

// ---- TRN-8 the moment the target is reached ------------------------------------------

TEST(WinTest, Trn8WinsTheMomentHisPointsReachTheTarget) {
  // victory_points=4: seat 0 has 3 and upgrades a settlement.
  State s = Pos("opts=[victory_points=4] phase=action current=0 turn=9 s0=0 c0=13 hand0=1w2g4o");
  std::vector<Event> events;
  Play(s, "build_city n0", &events);
  ExpectPosition(s, "opts=[victory_points=4] phase=over current=0 winner=0 turn=9 actions=1 c0=0,13 hand0=1w1o");
  EXPECT_EQ(events.back().type, EventType::kGameOver);
  EXPECT_EQ(s.Returns(), (std::array<double, kMaxSeats>{1, 0, 0, 0}));
}

TEST(WinTest, Trn8WinsDuringHisRollResolution) {
  // Seat 0 (3 of 4 VP) draws the Printer at a science gate of his own roll:
  // the game ends before the production step runs.
  State s = Pos("opts=[victory_points=4] phase=before_roll current=0 turn=9 s0=0 c0=13 lvl0=001");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  std::vector<Event> events;
  Play(s, "draw printer", &events);
  ExpectPosition(s,
                 "opts=[victory_points=4] phase=over current=0 winner=0 turn=9 actions=3 dice=1,1,science s0=0 "
                 "c0=13 vpc0=printer lvl0=001 deck_science=2212222022");
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(events.back().type, EventType::kGameOver);
}

// ---- WIN-1 never on another player's turn ------------------------------------------------

TEST(WinTest, Win1PointsReachedOnAnotherTurnWinOnlyWhenHisTurnStarts) {
  // Seat 1 (3 of 4 VP) draws the Printer on seat 0's roll.
  State s = Pos("opts=[victory_points=4] phase=before_roll current=0 turn=9 s1=0 c1=13 lvl1=001");
  Play(s, "roll");
  Play(s, "dice 1 1 science");
  Play(s, "draw printer");
  EXPECT_EQ(s.player(1).vp, 4);
  EXPECT_FALSE(s.IsTerminal());
  EXPECT_EQ(s.CurrentPlayer(), 0);
  Play(s, "end_turn");
  EXPECT_TRUE(s.IsTerminal());
  EXPECT_EQ(s.Winner(), 1);
}

TEST(WinTest, VictoryPointsOptionSetsTheTarget) {
  // 12 VP are not enough under the default 13 (and the game goes on).
  State s = Pos("phase=action current=0 turn=9 c1=0T,13P,46 s1=21,38 lvl1=440");
  EXPECT_EQ(s.player(1).vp, 12);
  Play(s, "end_turn");
  EXPECT_FALSE(s.IsTerminal());
  State ten = Pos("opts=[victory_points=12] phase=action current=0 turn=9 c1=0T,13P,46 s1=21,38 lvl1=440");
  Play(ten, "end_turn");
  EXPECT_EQ(ten.Winner(), 1);
}

// ---- the length cap ---------------------------------------------------------------------

TEST(WinTest, MaxActionsEndsTheGameWithoutWinner) {
  State s = Pos("opts=[max_actions=10] phase=action current=0 turn=9 actions=9 s0=0 hand0=1g");
  std::vector<Event> events;
  Play(s, "end_turn", &events);
  EXPECT_TRUE(s.IsTerminal());
  EXPECT_EQ(s.Winner(), kNoSeat);
  EXPECT_EQ(s.action_count(), 10u);
  EXPECT_EQ(s.Returns(), (std::array<double, kMaxSeats>{0, 0, 0, 0}));
  EXPECT_EQ(events.back().type, EventType::kGameOver);
  EXPECT_EQ(events.back().seat, -1);
  ExpectRefused(s, "roll", "WIN-2");
}

// ---- section 17: the VP table ------------------------------------------------------------

TEST(WinTest, Section17EverySourceCountsAndTheRunningCountMatches) {
  // Seat 0: settlement 0 (1), trade metropolis city 13 (2 + 2), Longest Road
  // over 0-4-1-5-2-6 (2), the merchant on hex 4 (1), Printer and Constitution
  // (2), two Defender cards (2): 12.
  State s =
      Pos("phase=action current=0 turn=9 merchant=4@0 longest=0 r0=1,2,3,4,5 s0=0 c0=13T hand0=2g3o "
          "vpc0=printer,constitution def0=2 lvl0=400 deck_politics=202222322 deck_science=2212222022");
  EXPECT_EQ(s.ComputeVictoryPoints(0), 12);
  EXPECT_EQ(s.player(0).vp, 12);
  EXPECT_FALSE(s.IsTerminal());
  // The running count moves with each step (TRN-8): the city upgrade brings 13 and wins.
  Play(s, "build_city n0");
  EXPECT_EQ(s.player(0).vp, 13);
  EXPECT_EQ(s.ComputeVictoryPoints(0), 13);
  EXPECT_EQ(s.Winner(), 0);
}

TEST(WinTest, Section17PointsFollowLosses) {
  // Seat 1 captures the trade metropolis: seat 0 loses 2 and seat 1 gains 2.
  State s = Pos("phase=action current=1 turn=9 c0=13T lvl0=400 c1=46 hand1=5c lvl1=400");
  EXPECT_EQ(s.player(0).vp, 4);
  Play(s, "buy_improvement trade");
  Play(s, "place_metropolis n46");
  EXPECT_EQ(s.player(0).vp, 2);
  EXPECT_EQ(s.player(1).vp, 4);
  for (int seat = 0; seat < 4; ++seat) EXPECT_EQ(s.player(seat).vp, s.ComputeVictoryPoints(seat)) << seat;
}

}  // namespace
}  // namespace metropolis
