// Longest Road (RULES.md section 16): LR-1 .. LR-4. Positions are written in
// the notation (docs/NOTATION.md) on the default board; docs/BOARD.md has the
// node and edge numbers.
//
// Most scenarios use seat 0's trail along the left of the board,
//   n0 -e1- n4 -e7- n8 -e12- n12 -e19- n17 -e25- n22 -e34- n28,
// and cut it at n12, where seat 1 or seat 3 reaches with the road n11-n7-n12.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/event.h"
#include "engine/notation.h"
#include "engine/state.h"

namespace metropolis {
namespace {

// Default board and harbors; every position below starts with these words.
constexpr std::string_view kBoard =
    "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

State Position(std::string_view fields) {
  State s;
  std::string error;
  const std::string text = std::string(kBoard) + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  return s;
}

// Applies an action that must be legal; returns the events as text, leaving
// out the payments (rules_build_test checks costs; here the pieces and
// Longest Road matter).
std::vector<std::string> Play(State& s, const Action& a) {
  const std::string before = ToNotation(s);
  std::vector<Event> events;
  const std::string error = s.Apply(a, &events);
  EXPECT_EQ(error, "") << ActionToString(a) << " refused in\n" << before;
  std::vector<std::string> texts;
  for (const Event& e : events)
    if (e.type != EventType::kPaid) texts.push_back(EventToString(e));
  return texts;
}

// The whole state equals the position `fields` (canonical texts compared, so
// a failure shows both positions).
void ExpectPosition(const State& s, std::string_view fields) { EXPECT_EQ(ToNotation(s), ToNotation(Position(fields))); }

// ---- LR-1 length ---------------------------------------------------------------------

TEST(RulesRoadsTest, Lr1LengthIsTheLongestTrailNotTheRoadCount) {
  // A fork at n12: n0-n4-n8-n12-n17-n22 (5) plus the branch n12-n7-n3 (2).
  // The longest trail is n3-n7-n12-n8-n4-n0 or n3-n7-n12-n17-n22: 5, not 7.
  const State s = Position("phase=action current=0 longest=0 s0=0 r0=1,7,12,19,25,11,6");
  EXPECT_EQ(s.player(0).road_length, 5);
  EXPECT_EQ(s.ComputeRoadLength(0), 5);
}

TEST(RulesRoadsTest, Lr1TrailRunsAroundALoop) {
  // The six edges around hex 7 (n16-n22-n28-n33-n27-n21-n16) plus n16-n11:
  // the trail may close the loop and leave by the spur, 7 edges.
  const State s = Position("phase=action current=0 longest=0 s0=21 r0=24,34,40,39,33,23,18");
  EXPECT_EQ(s.player(0).road_length, 7);
}

TEST(RulesRoadsTest, Lr1OwnPiecesNeverBreakTheTrail) {
  // A settlement of seat 0 on n12 and knights of seat 0 on n8 and n17.
  const State s = Position("phase=action current=0 longest=0 s0=0,12 k0=8:1,17:2a r0=1,7,12,19,25");
  EXPECT_EQ(s.player(0).road_length, 5);
  EXPECT_EQ(s.longest_road_holder(), 0);
}

TEST(RulesRoadsTest, Lr1OpponentPiecesBreakTheTrailButMayEndIt) {
  // Seat 1's settlement (or knight) on n12 splits the trail into 3 + 2.
  EXPECT_EQ(Position("phase=action current=0 s0=0 r0=1,7,12,19,25 s1=12").player(0).road_length, 3);
  EXPECT_EQ(Position("phase=action current=0 s0=0 r0=1,7,12,19,25 k1=12:1").player(0).road_length, 3);
  // On n22, the end of the trail, it breaks nothing.
  EXPECT_EQ(Position("phase=action current=0 longest=0 s0=0 r0=1,7,12,19,25 s1=22").player(0).road_length, 5);
  EXPECT_EQ(Position("phase=action current=0 longest=0 s0=0 r0=1,7,12,19,25 k1=22:1").player(0).road_length, 5);
}

// ---- LR-2 award -------------------------------------------------------------------------

TEST(RulesRoadsTest, Lr2FiveRoadsAtLeastAndTheHolderScoresTwo) {
  State s = Position("phase=action current=0 turn=9 s0=0 r0=1,7,12 hand0=2b2l");
  // Four roads: still nobody holds the card.
  EXPECT_EQ(Play(s, Action::BuildRoad(19)), std::vector<std::string>{"seat 0: build_road e19"});
  EXPECT_EQ(s.player(0).road_length, 4);
  EXPECT_EQ(s.longest_road_holder(), kNoSeat);
  EXPECT_EQ(s.player(0).vp, 1);
  // The fifth takes it: +2 VP.
  EXPECT_EQ(Play(s, Action::BuildRoad(25)),
            (std::vector<std::string>{"seat 0: build_road e25", "seat 0 holds Longest Road"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 longest=0 s0=0 r0=1,7,12,19,25");
  EXPECT_EQ(s.player(0).vp, 3);
}

TEST(RulesRoadsTest, Lr2TieKeepsTheHolderAndOnlyAGreaterLengthTakesIt) {
  // Seat 0 holds with 5. Seat 1 builds a trail n47-n43-n38-n33-n27 (4) on the
  // far side and lengthens it.
  State s = Position("phase=action current=1 turn=10 longest=0 s0=0 r0=1,7,12,19,25 s1=47 r1=62,54,49,39 hand1=2b2l");
  EXPECT_EQ(Play(s, Action::BuildRoad(33)), std::vector<std::string>{"seat 1: build_road e33"});  // n27-n21
  EXPECT_EQ(s.player(1).road_length, 5);
  EXPECT_EQ(s.longest_road_holder(), 0);  // a tie keeps the holder
  EXPECT_EQ(Play(s, Action::BuildRoad(23)),
            (std::vector<std::string>{"seat 1: build_road e23", "seat 1 holds Longest Road"}));  // n21-n16
  ExpectPosition(s,
                 "phase=action current=1 turn=10 actions=2 longest=1 s0=0 r0=1,7,12,19,25 s1=47 "
                 "r1=62,54,49,39,33,23");
  EXPECT_EQ(s.player(0).vp, 1);
  EXPECT_EQ(s.player(1).vp, 3);
}

// ---- LR-3 / LR-4: lengths that fall ----------------------------------------------------------

TEST(RulesRoadsTest, Lr3Lr4OpponentSettlementCutsTheTrailBelowFive) {
  // Seat 1 reaches n12 by n11-n7-n12 and settles there: seat 0 drops to 3
  // and nobody is left with 5.
  State s = Position("phase=action current=1 turn=10 longest=0 s0=0 r0=1,7,12,19,25 s1=11 r1=10,11 hand1=1b1l1w1g");
  ASSERT_EQ(s.player(0).vp, 3);
  EXPECT_EQ(Play(s, Action::BuildSettlement(12)),
            (std::vector<std::string>{"seat 1: build_settlement n12", "nobody holds Longest Road"}));
  ExpectPosition(s, "phase=action current=1 turn=10 actions=1 s0=0 r0=1,7,12,19,25 s1=11,12 r1=10,11");
  EXPECT_EQ(s.player(0).road_length, 3);
  EXPECT_EQ(s.player(0).vp, 1);
}

TEST(RulesRoadsTest, Lr3Lr4KnightRecruitedOnTheRoadCutsIt) {
  // The same cut with a basic knight recruited on n12 (KN-10).
  State s = Position("phase=action current=1 turn=10 longest=0 s0=0 r0=1,7,12,19,25 s1=11 r1=10,11 hand1=1w1o");
  EXPECT_EQ(Play(s, Action::Make(ActionType::kRecruitKnight, 12)),
            (std::vector<std::string>{"seat 1: recruit_knight n12", "nobody holds Longest Road"}));
  ExpectPosition(s, "phase=action current=1 turn=10 actions=1 s0=0 r0=1,7,12,19,25 s1=11 r1=10,11 k1=12:1");
  EXPECT_EQ(s.player(0).road_length, 3);
  EXPECT_EQ(s.player(0).vp, 1);
}

TEST(RulesRoadsTest, Lr3OwnKnightRecruitedOnOwnTrailChangesNothing) {
  State s = Position("phase=action current=0 turn=9 longest=0 s0=0 r0=1,7,12,19,25 hand0=1w1o");
  EXPECT_EQ(Play(s, Action::Make(ActionType::kRecruitKnight, 12)),
            std::vector<std::string>{"seat 0: recruit_knight n12"});
  EXPECT_EQ(s.player(0).road_length, 5);
  EXPECT_EQ(s.longest_road_holder(), 0);
}

TEST(RulesRoadsTest, Lr4HolderFallsAndTheCardLeavesOnATie) {
  // Seat 0 holds with 6; seats 1 and 2 have 5 each. Seat 3 settles on n12:
  // seat 0 falls to 3, and with two seats tied at 5 nobody holds the card.
  State s = Position(
      "phase=action current=3 turn=11 longest=0 s0=0 r0=1,7,12,19,25,34 s1=47 r1=62,54,49,39,33 s2=2 "
      "r2=5,9,17,22,32 s3=11 r3=10,11 hand3=1b1l1w1g");
  ASSERT_EQ(s.player(0).vp, 3);
  EXPECT_EQ(Play(s, Action::BuildSettlement(12)),
            (std::vector<std::string>{"seat 3: build_settlement n12", "nobody holds Longest Road"}));
  EXPECT_EQ(s.player(0).road_length, 3);
  EXPECT_EQ(s.longest_road_holder(), kNoSeat);
  EXPECT_EQ(s.player(0).vp, 1);
  EXPECT_EQ(s.player(1).vp, 1);
  EXPECT_EQ(s.player(2).vp, 1);
}

TEST(RulesRoadsTest, Lr4HolderFallsAndTheSoleLongestTakesIt) {
  // As above, but seat 2 has only 4: seat 1 alone has the greatest length.
  State s = Position(
      "phase=action current=3 turn=11 longest=0 s0=0 r0=1,7,12,19,25,34 s1=47 r1=62,54,49,39,33 s2=2 "
      "r2=5,9,17,22 s3=11 r3=10,11 hand3=1b1l1w1g");
  EXPECT_EQ(Play(s, Action::BuildSettlement(12)),
            (std::vector<std::string>{"seat 3: build_settlement n12", "seat 1 holds Longest Road"}));
  ExpectPosition(s,
                 "phase=action current=3 turn=11 actions=1 longest=1 s0=0 r0=1,7,12,19,25,34 s1=47 "
                 "r1=62,54,49,39,33 s2=2 r2=5,9,17,22 s3=11,12 r3=10,11");
  EXPECT_EQ(s.player(0).vp, 1);
  EXPECT_EQ(s.player(1).vp, 3);
}

TEST(RulesRoadsTest, Lr4HolderCutButStillLongestKeepsIt) {
  // Seat 0 holds with the 8-road trail n0..n28-n33-n27; the cut at n12
  // leaves n12-n17-n22-n28-n33-n27, 5, still the greatest: seat 0 keeps it.
  State s =
      Position("phase=action current=1 turn=10 longest=0 s0=0 r0=1,7,12,19,25,34,40,39 s1=11 r1=10,11 hand1=1b1l1w1g");
  ASSERT_EQ(s.player(0).road_length, 8);
  EXPECT_EQ(Play(s, Action::BuildSettlement(12)), std::vector<std::string>{"seat 1: build_settlement n12"});
  EXPECT_EQ(s.player(0).road_length, 5);
  EXPECT_EQ(s.longest_road_holder(), 0);
  EXPECT_EQ(s.player(0).vp, 3);
}

TEST(RulesRoadsTest, Lr4HolderCutToATieAtTheTopKeepsIt) {
  // Seat 0 holds with 8; seat 1 has 5. Seat 3 cuts seat 0 at n12 down to 5:
  // seat 0 is still among the longest, so he keeps the card.
  State s = Position(
      "phase=action current=3 turn=11 longest=0 s0=0 r0=1,7,12,19,25,34,40,39 s1=2 r1=5,9,17,22,32 s3=11 "
      "r3=10,11 hand3=1b1l1w1g");
  ASSERT_EQ(s.player(1).road_length, 5);
  EXPECT_EQ(Play(s, Action::BuildSettlement(12)), std::vector<std::string>{"seat 3: build_settlement n12"});
  EXPECT_EQ(s.player(0).road_length, 5);
  EXPECT_EQ(s.longest_road_holder(), 0);
}

TEST(RulesRoadsTest, Lr4NobodyTakesTheCardWhileTwoAreTied) {
  // Nobody holds it; seats 1 and 2 are tied at 5. Seat 1 goes to 6 and takes
  // it at once.
  State s = Position("phase=action current=1 turn=10 s1=47 r1=62,54,49,39,33 s2=2 r2=5,9,17,22,32 hand1=1b1l");
  ASSERT_EQ(s.longest_road_holder(), kNoSeat);
  EXPECT_EQ(Play(s, Action::BuildRoad(23)),
            (std::vector<std::string>{"seat 1: build_road e23", "seat 1 holds Longest Road"}));
  EXPECT_EQ(s.player(1).vp, 3);
}

}  // namespace
}  // namespace metropolis
