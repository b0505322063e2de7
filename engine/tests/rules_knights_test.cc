// Knights, RULES.md section 8 (KN-1..KN-13), one scenario per rule: the legal
// case with its whole effect, and each illegal case refused by Apply() with an
// error naming the rule and the state left unchanged.
//
// Positions are written in the notation (docs/NOTATION.md) on the default
// board; node and edge numbers are those of docs/BOARD.md. Most scenarios sit
// around hex 7 (hills 6), whose corners are 16 22 28 33 27 21:
//
//          16 --e24-- 22
//    e23 /               \ e34
//      21       h7        28
//    e33 \               / e40
//          27 --e39-- 33 --e49-- 38 --e54-- 43
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/notation.h"
#include "engine/state.h"
#include "engine/tests/test_util.h"

namespace metropolis {
namespace {

using namespace test_util;  // Pos, A, IsLegal, Play, ExpectRefused, ExpectPosition

std::vector<EventType> Types(const std::vector<Event>& events) {
  std::vector<EventType> t;
  for (const Event& e : events) t.push_back(e.type);
  return t;
}

// ---- KN-3 recruit ------------------------------------------------------------

// Seat 0: settlement 21, roads 21-27-33. Seat 1: settlement 38, roads 38-33-28,
// so node 33 lies between two roads of seat 1 with a road of seat 0 ending there.
constexpr std::string_view kRecruit = "phase=action current=0 turn=9 r0=33,39 s0=21 hand0=1w1o r1=40,49 s1=38 ";

TEST(KnightsTest, Kn3RecruitBasicInactiveAtOwnRoadIgnoringDistanceRule) {
  State s = Pos(kRecruit);
  std::vector<Event> events;
  // Node 27 is next to the settlement on 21: the distance rule does not apply.
  Play(s, "recruit_knight n27", &events);
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=33,39 s0=21 k0=27:1 r1=40,49 s1=38");
  EXPECT_EQ(s.player(0).knights_left[0], 1);
  // The action, then the cost paid to the bank: 1 wool + 1 ore (7.1).
  EXPECT_EQ(Types(events), (std::vector<EventType>{EventType::kAction, EventType::kPaid, EventType::kPaid}));
}

TEST(KnightsTest, Kn3RecruitBetweenOpponentRoadsWhenOwnRoadEndsThere) {
  State s = Pos(kRecruit);
  Play(s, "recruit_knight n33");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=33,39 s0=21 k0=33:1 r1=40,49 s1=38");
  // KN-10/LR-1: the knight cuts seat 1's trail 38-33-28 in two.
  EXPECT_EQ(s.player(1).road_length, 1);
}

TEST(KnightsTest, Kn3RecruitRefusals) {
  const State s = Pos(kRecruit);
  ExpectRefused(s, "recruit_knight n28", "KN-3");  // only seat 1's road ends there
  ExpectRefused(s, "recruit_knight n21", "KN-3");  // not empty: own settlement
  ExpectRefused(s, "recruit_knight n5", "KN-3");   // no road at all
  // Both basic knights already on the board.
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=21 k0=16:1,22:1 hand0=1w1o r1=40,49 s1=38"),
                "recruit_knight n27", "KN-3");
  // Missing the wool (costs 7.1).
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=21 hand0=1o r1=40,49 s1=38"), "recruit_knight n27",
                "COST-1");
  // Before the roll nothing but the roll (TRN-2).
  ExpectRefused(Pos("phase=before_roll current=0 turn=9 r0=33,39 s0=21 hand0=1w1o r1=40,49 s1=38"),
                "recruit_knight n27", "TRN-2");
}

// ---- KN-4 activate -------------------------------------------------------------

TEST(KnightsTest, Kn4ActivateAnyLevelForOneGrainNotReady) {
  State s = Pos("phase=action current=0 turn=9 r0=33,39 s0=21 k0=27:3,33:1 hand0=2g lvl0=030");
  Play(s, "activate_knight n27");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=33,39 s0=21 k0=27:3a,33:1 hand0=1g lvl0=030");
  // KN-6: activated this turn, so it cannot act.
  EXPECT_FALSE(s.knight_flags(27) & kKnightReady);
  ExpectRefused(s, "activate_knight n27", "KN-4");  // already active
  ExpectRefused(s, "activate_knight n16", "KN-4");  // no knight there
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=21 k0=27:1 hand0=1w"), "activate_knight n27", "COST-1");
}

TEST(KnightsTest, Kn4Kn6RecruitedThisTurnMayBeActivatedButNotAct) {
  State s = Pos("phase=action current=0 turn=9 r0=33,39 s0=21 hand0=1w1o1g");
  Play(s, "recruit_knight n27");
  Play(s, "activate_knight n27");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 r0=33,39 s0=21 k0=27:1a");
  ExpectRefused(s, "move_knight n27 n33", "KN-6");
}

// ---- KN-5 promote --------------------------------------------------------------

TEST(KnightsTest, Kn5PromoteOncePerTurnKeepingFlags) {
  // A ready knight stays ready when promoted, and keeps its active state.
  State s = Pos("phase=action current=0 turn=9 r0=33,39 s0=21 k0=27:1ar hand0=2w2o");
  Play(s, "promote_knight n27");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=33,39 s0=21 k0=27:2arp hand0=1w1o");
  EXPECT_EQ(s.player(0).knights_left[0], 2);
  EXPECT_EQ(s.player(0).knights_left[1], 1);
  ExpectRefused(s, "promote_knight n27", "KN-5");  // once per turn
  Play(s, "move_knight n27 n33");                  // still ready: it may act
  EXPECT_EQ(s.knight_level(33), 2);
  // The flag is per turn: after the turn the knight may be promoted again.
  Play(s, "end_turn");
  EXPECT_FALSE(s.knight_flags(33) & kKnightPromoted);
}

TEST(KnightsTest, Kn5PromoteTheTurnOfRecruiting) {
  State s = Pos("phase=action current=0 turn=9 r0=33,39 s0=21 hand0=2w2o");
  Play(s, "recruit_knight n27");
  Play(s, "promote_knight n27");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 r0=33,39 s0=21 k0=27:2p");
}

TEST(KnightsTest, Kn5Imp7MightyNeedsFortress) {
  const State without = Pos("phase=action current=0 turn=9 r0=33,39 c0=21 k0=27:2a hand0=1w1o lvl0=020");
  ExpectRefused(without, "promote_knight n27", "KN-5");
  State with = Pos("phase=action current=0 turn=9 r0=33,39 c0=21 k0=27:2a hand0=1w1o lvl0=030");
  Play(with, "promote_knight n27");
  ExpectPosition(with, "phase=action current=0 turn=9 actions=1 r0=33,39 c0=21 k0=27:3ap lvl0=030");
}

TEST(KnightsTest, Kn5RefusedForMightyAndWithoutPieceInSupply) {
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 c0=21 k0=27:3 hand0=1w1o lvl0=030"), "promote_knight n27",
                "KN-5");
  // Both strong knights on the board: no strong piece for the basic one.
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=23,24,33,39 c0=21 k0=27:1,16:2,22:2 hand0=1w1o"),
                "promote_knight n27", "KN-5");
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 c0=21 k0=27:1 hand0=1w1o k1=33:1"), "promote_knight n33",
                "KN-5");  // not his knight
}

// ---- KN-6 ready flags ----------------------------------------------------------

TEST(KnightsTest, Kn6ActiveKnightsBecomeReadyWhenTheActionPhaseStarts) {
  // 27 active, 33 inactive, seat 1's active knight is not seat 0's concern.
  State s = Pos("phase=before_roll current=0 turn=9 r0=33,39 s0=21 k0=27:1a,33:1 k1=38:1a");
  Play(s, "roll");
  Play(s, "dice 2 1 trade");  // 3: nobody produces; nobody has a trade level
  ASSERT_EQ(s.phase(), Phase::kAction);
  EXPECT_EQ(s.knight_flags(27), kKnightActive | kKnightReady);
  EXPECT_EQ(s.knight_flags(33), 0);
  EXPECT_EQ(s.knight_flags(38), kKnightActive);
  // TRN-7: the flags end with the turn.
  Play(s, "end_turn");
  EXPECT_EQ(s.knight_flags(27), kKnightActive);
}

TEST(KnightsTest, Kn6ActingMakesInactiveReactivationCannotActAgain) {
  State s = Pos("phase=action current=0 turn=9 r0=33,39,40 s0=21 k0=27:1ar hand0=1g");
  Play(s, "move_knight n27 n33");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=33,39,40 s0=21 k0=33:1 hand0=1g");
  Play(s, "activate_knight n33");
  EXPECT_EQ(s.knight_flags(33), kKnightActive);
  ExpectRefused(s, "move_knight n33 n28", "KN-6");
}

TEST(KnightsTest, Kn6InactiveKnightCannotAct) {
  const State s = Pos("phase=action current=0 turn=9 r0=33,39,40 s0=21 k0=27:1");
  ExpectRefused(s, "move_knight n27 n33", "KN-6");
}

// ---- KN-7 move -----------------------------------------------------------------

// Seat 0's roads run 16-21-27-33-28-22 (e23 e33 e39 e40 e34): its ready knight
// on 21, its own knight on 27, seat 1's knight on 28.
constexpr std::string_view kMove =
    "phase=action current=0 turn=9 r0=23,33,34,39,40 s0=16 k0=21:2ar,27:1 k1=28:1 r1=41 s1=34 ";

TEST(KnightsTest, Kn7MovePassesOwnPieces) {
  State s = Pos(kMove);
  std::vector<Event> events;
  Play(s, "move_knight n21 n33", &events);  // past its own knight on 27
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=23,33,34,39,40 s0=16 k0=33:2,27:1 k1=28:1 r1=41 s1=34");
  EXPECT_EQ(Types(events), std::vector<EventType>{EventType::kAction});
}

TEST(KnightsTest, Kn7OpponentsBlockAndMoveNeedsEmptyReachableNode) {
  const State s = Pos(kMove);
  ExpectRefused(s, "move_knight n21 n22", "KN-7");  // seat 1's knight on 28 blocks the way
  ExpectRefused(s, "move_knight n21 n27", "KN-7");  // not empty (own knight)
  ExpectRefused(s, "move_knight n21 n16", "KN-7");  // not empty (own settlement)
  ExpectRefused(s, "move_knight n21 n17", "KN-7");  // no road leads there
  ExpectRefused(s, "move_knight n21 n21", "KN-7");
}

TEST(KnightsTest, Kn7OptionPathThroughOpponents) {
  State s = Pos(std::string("opts=[knight_path_through_opponents=true] ") + std::string(kMove));
  Play(s, "move_knight n21 n22");
  EXPECT_EQ(s.knight_owner(22), 0);
  EXPECT_EQ(s.knight_owner(21), kNoSeat);
}

// ---- KN-8 displace -------------------------------------------------------------

// Seat 0's strong knight on 21 (ready), roads 21-27-33. Seat 1's active basic
// knight on 33; seat 1's roads 33-38-43 with its settlement on 43.
constexpr std::string_view kDisplace =
    "phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:2ar r1=49,54 s1=43 k1=33:1a ";

TEST(KnightsTest, Kn8DisplaceThenVictimRelocatesAlongHisRoads) {
  State s = Pos(kDisplace);
  std::vector<Event> events;
  Play(s, "displace_knight n21 n33", &events);
  // Step 1: the attacker stands on 33, inactive. Step 2 is seat 1's decision.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 r0=33,39 s0=16 k0=33:2 r1=49,54 s1=43 "
                 "pending=relocate_knight@1:33,1,1");
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{A("relocate_knight n38")});  // 43 holds his settlement
  ExpectRefused(s, "relocate_knight n27", "KN-8");
  ExpectRefused(s, "end_turn", "19");
  Play(s, "relocate_knight n38");
  // Level and active state kept; the turn goes on for seat 0.
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 r0=33,39 s0=16 k0=33:2 r1=49,54 s1=43 k1=38:1a");
  EXPECT_EQ(s.CurrentPlayer(), 0);
}

TEST(KnightsTest, Kn8StrictlyWeakerOwnKnightsNeverAndReachable) {
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:2ar r1=49,54 s1=43 k1=33:2a"),
                "displace_knight n21 n33", "KN-8");  // equal strength
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:1ar r1=49,54 s1=43 k1=33:1a"),
                "displace_knight n21 n33", "KN-8");  // basic displaces nothing
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:2ar,33:1"), "displace_knight n21 n33",
                "KN-8");  // own knight
  // Seat 2's knight on 27 cuts the way from 21 to 33.
  ExpectRefused(Pos(std::string(kDisplace) + "k2=27:1"), "displace_knight n21 n33", "KN-8");
  ExpectRefused(Pos("phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:3 r1=49,54 s1=43 k1=33:1a"),
                "displace_knight n21 n33", "KN-6");  // not ready
}

TEST(KnightsTest, Kn8OptionDisplaceWithoutConnection) {
  // An own road at 33 is enough, though seat 2's knight on 27 cuts the way.
  State s = Pos(std::string("opts=[displace_requires_connection=false] ") + std::string(kDisplace) + "k2=27:1");
  Play(s, "displace_knight n21 n33");
  EXPECT_EQ(s.knight_owner(33), 0);
  EXPECT_EQ(s.CurrentPlayer(), 1);
  // Still needs an own road at the target.
  ExpectRefused(Pos(std::string("opts=[displace_requires_connection=false] ") +
                    "phase=action current=0 turn=9 r0=33 s0=16 k0=21:2ar r1=49,54 s1=43 k1=33:1a"),
                "displace_knight n21 n33", "KN-8");
}

TEST(KnightsTest, Kn8VictimWithoutRoomIsRemovedToSupply) {
  // Seat 1's road 33-38 ends at its own settlement: nowhere to go.
  State s = Pos("phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:3ar r1=49 s1=38 k1=33:2");
  std::vector<Event> events;
  Play(s, "displace_knight n21 n33", &events);
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 r0=33,39 s0=16 k0=33:3 r1=49 s1=38");
  EXPECT_EQ(s.player(1).knights_left[1], 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].type, EventType::kKnightRemoved);
  EXPECT_EQ(events[1].seat, 1);
  EXPECT_EQ(events[1].a, 33);
}

// ---- KN-9 chase the robber -----------------------------------------------------

// The robber on hex 7; seat 0's ready knight on its corner 21; seat 1 has a
// settlement on 34 (hexes 8, 12, 13) and one card.
constexpr std::string_view kChase =
    "phase=action current=0 turn=9 robber=7 attacks=1 r0=33,39 s0=16 k0=21:1ar s1=34 hand1=1b ";

TEST(KnightsTest, Kn9ChaseMovesRobberToNumberedHexThenSteals) {
  State s = Pos(kChase);
  Play(s, "chase_robber n21");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 robber=7 attacks=1 r0=33,39 s0=16 k0=21:1 s1=34 "
                 "hand1=1b pending=move_robber@0:1");
  ExpectRefused(s, "move_robber h9", "ROB-2");  // the desert
  ExpectRefused(s, "move_robber h7", "ROB-2");  // must leave its hex
  Play(s, "move_robber h8 rob 1");
  ASSERT_TRUE(s.IsChanceNode());
  ASSERT_EQ(s.ChanceOutcomes().size(), 1u);
  std::vector<Event> events;
  const std::string error = s.Apply(s.ChanceOutcomes()[0].action, &events);
  ASSERT_EQ(error, "");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=3 robber=8 attacks=1 r0=33,39 s0=16 k0=21:1 hand0=1b s1=34");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].type, EventType::kStole);
}

TEST(KnightsTest, Kn9ChaseRefusals) {
  // ROB-1: locked until the first attack.
  ExpectRefused(Pos("phase=action current=0 turn=9 robber=9 r0=33,39 s0=16 k0=21:1ar s1=34 hand1=1b"),
                "chase_robber n21", "ROB-1");
  // Not next to the robber (hex 9's corners are 18 24 30 35 29 23).
  ExpectRefused(Pos("phase=action current=0 turn=9 attacks=1 r0=33,39 s0=16 k0=21:1ar s1=34 hand1=1b"),
                "chase_robber n21", "KN-9");
  ExpectRefused(Pos("phase=action current=0 turn=9 robber=7 attacks=1 r0=33,39 s0=16 k0=21:1a s1=34 hand1=1b"),
                "chase_robber n21", "KN-6");
}

TEST(KnightsTest, Kn9OptionChaseToAnyOtherLandHex) {
  State s = Pos(std::string("opts=[chase_robber_destination=ANY_OTHER_LAND_HEX] ") + std::string(kChase));
  Play(s, "chase_robber n21");
  Play(s, "move_robber h9");  // the desert, nobody to rob
  EXPECT_EQ(s.robber_hex(), 9);
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.pending_size(), 0);
}

// ---- KN-10 obstacles, KN-13 isolated knights ---------------------------------

TEST(KnightsTest, Kn10KnightsBlockSettlementsAndOpponentRoads) {
  // Seat 0: settlement 22, roads 22-16-21-27, his own knight on 21. Seat 1's
  // knight stands on 27, at the end of seat 0's road.
  const State s = Pos("phase=action current=0 turn=9 r0=23,24,33 s0=22 k0=21:1 k1=27:1 hand0=2b2l1w1g");
  ExpectRefused(s, "build_settlement n21", "BLD-2");  // even his own knight occupies it
  ExpectRefused(s, "build_road e39", "BLD-1");        // 27-33 would connect through seat 1's knight
  // Without seat 1's knight both are fine (the knight on 21 still stops the settlement).
  const State open = Pos("phase=action current=0 turn=9 r0=23,24,33 s0=22 k0=21:1 hand0=2b2l1w1g");
  EXPECT_TRUE(IsLegal(open, A("build_road e39")));
  EXPECT_TRUE(IsLegal(open, A("build_settlement n27")));
  EXPECT_FALSE(IsLegal(open, A("build_settlement n21")));
}

TEST(KnightsTest, Kn13IsolatedKnightCannotMoveAndIsRemovedWhenDisplaced) {
  // Seat 1's ready knight on 33 has no road of seat 1 next to it.
  State s = Pos("phase=action current=1 turn=9 r0=33,39 s0=16 k0=21:2ar k1=33:1ar s1=43 r1=54");
  ExpectRefused(s, "move_knight n33 n38", "KN-7");
  ExpectRefused(s, "move_knight n33 n27", "KN-7");  // seat 0's road is not his
  Play(s, "end_turn");
  Play(s, "roll");
  Play(s, "dice 2 1 trade");
  ASSERT_EQ(s.CurrentPlayer(), 2);
  Play(s, "end_turn");
  Play(s, "roll");
  Play(s, "dice 2 1 trade");
  Play(s, "end_turn");
  Play(s, "roll");
  Play(s, "dice 2 1 trade");
  ASSERT_EQ(s.current_seat(), 0);
  std::vector<Event> events;
  Play(s, "displace_knight n21 n33", &events);
  EXPECT_EQ(s.knight_owner(33), 0);
  EXPECT_EQ(s.player(1).knights, 0u);
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(events.back().type, EventType::kKnightRemoved);
}

}  // namespace
}  // namespace metropolis
