// Building (RULES.md section 7 and the supplies of 1.4): costs, BLD-1 ..
// BLD-5. Positions are written in the notation (docs/NOTATION.md) on the
// default board; docs/BOARD.md has the node and edge numbers.
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
#include "engine/tests/test_util.h"

namespace metropolis {
namespace {

using namespace test_util;  // Play, ExpectRefused, ExpectPosition, IsLegal

// Positions on the default board (test_util's kHead), named as in these tests.
State Position(std::string_view fields) { return Pos(fields); }

// ---- 7.1 costs -------------------------------------------------------------------

// Seat 0: city n12, settlement n0, roads n12-n17-n23-n29, an inactive basic
// knight on n29. Each item is bought with exactly its cost in hand.
constexpr std::string_view kShop = "phase=action current=0 turn=9 first_attack=no c0=12 s0=0 r0=19,26,35 k0=29:1 ";

struct CostCase {
  const char* item;
  Action action;
  const char* cost;  // notation cards
  CardCounts counts;
};

CardCounts Counts(int b, int l, int w, int g, int o) {
  CardCounts c;
  c.n = {uint8_t(b), uint8_t(l), uint8_t(w), uint8_t(g), uint8_t(o), 0, 0, 0};
  return c;
}

std::vector<CostCase> CostCases() {
  return {
      {"road", Action::BuildRoad(27), "1b1l", Counts(1, 1, 0, 0, 0)},
      {"settlement", Action::BuildSettlement(23), "1b1l1w1g", Counts(1, 1, 1, 1, 0)},
      {"city", Action::BuildCity(0), "2g3o", Counts(0, 0, 0, 2, 3)},
      {"city wall", Action::Make(ActionType::kBuildWall, 12), "2b", Counts(2, 0, 0, 0, 0)},
      {"recruit", Action::Make(ActionType::kRecruitKnight, 17), "1w1o", Counts(0, 0, 1, 0, 1)},
      {"promote", Action::Make(ActionType::kPromoteKnight, 29), "1w1o", Counts(0, 0, 1, 0, 1)},
      {"activate", Action::Make(ActionType::kActivateKnight, 29), "1g", Counts(0, 0, 0, 1, 0)},
  };
}

TEST(RulesBuildTest, Costs71ExactCostIsPaidToTheBank) {
  for (const CostCase& c : CostCases()) {
    SCOPED_TRACE(c.item);
    State s = Position(std::string(kShop) + "hand0=" + c.cost);
    Play(s, c.action);
    EXPECT_EQ(s.player(0).hand.Total(), 0);
    // Every card is back in the bank: 19 of each resource, 12 of each commodity.
    EXPECT_EQ(s.bank(), (std::array<int16_t, kNumCardTypes>{19, 19, 19, 19, 19, 12, 12, 12}));
  }
}

TEST(RulesBuildTest, Costs71OneCardShortIsRefused) {
  for (const CostCase& c : CostCases()) {
    for (int card = 0; card < kNumResources; ++card) {
      if (c.counts[card] == 0) continue;
      SCOPED_TRACE(std::string(c.item) + " without one " + std::string(CardName(card)));
      CardCounts hand = c.counts;
      --hand[card];
      std::string text;
      for (int k = 0; k < kNumResources; ++k)
        if (hand[k]) text += std::to_string(hand[k]) + CardLetter(k);
      ExpectRefused(Position(std::string(kShop) + (text.empty() ? "" : "hand0=" + text)), c.action, "COST-1");
    }
  }
}

TEST(RulesBuildTest, Costs71CommoditiesNeverPayForBuilding) {
  // A hand rich in commodities but one resource short of each price.
  ExpectRefused(Position(std::string(kShop) + "hand0=1b3c3m3p"), Action::BuildRoad(27), "COST-1");
  ExpectRefused(Position(std::string(kShop) + "hand0=1b1l1w3c3m3p"), Action::BuildSettlement(23), "COST-1");
  ExpectRefused(Position(std::string(kShop) + "hand0=2g2o3c3m3p"), Action::BuildCity(0), "COST-1");
  ExpectRefused(Position(std::string(kShop) + "hand0=1b3c3m3p"), Action::Make(ActionType::kBuildWall, 12), "COST-1");
  ExpectRefused(Position(std::string(kShop) + "hand0=1w3c3m3p"), Action::Make(ActionType::kRecruitKnight, 17),
                "COST-1");
}

// ---- BLD-1 roads -----------------------------------------------------------------------

TEST(RulesBuildTest, Bld1RoadFromOwnRoadEnd) {
  // Seat 0: settlement n12, road n12-n17; builds n17-n22.
  State s = Position("phase=action current=0 turn=9 s0=12 r0=19 hand0=1b1l1g");
  EXPECT_EQ(Play(s, Action::BuildRoad(25)),
            (std::vector<std::string>{"seat 0: build_road e25", "seat 0 paid 1 brick", "seat 0 paid 1 lumber"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=12 r0=19,25 hand0=1g");
  EXPECT_EQ(s.player(0).roads_left, 13);
  EXPECT_EQ(s.player(0).road_length, 2);
}

TEST(RulesBuildTest, Bld1RoadFromOwnBuilding) {
  // Anchored on the settlement n12 itself (n12-n7), not on a road end.
  State s = Position("phase=action current=0 turn=9 s0=12 r0=19 hand0=1b1l");
  Play(s, Action::BuildRoad(11));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=12 r0=11,19");
  // A city anchors too.
  State c = Position("phase=action current=0 turn=9 c0=12 hand0=1b1l");
  Play(c, Action::BuildRoad(12));
  ExpectPosition(c, "phase=action current=0 turn=9 actions=1 c0=12 r0=12");
}

TEST(RulesBuildTest, Bld1RoadNeedsAnAnchor) {
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19 hand0=1b1l");
  ExpectRefused(s, Action::BuildRoad(34), "BLD-1");  // n22-n28: touches nothing of seat 0
  ExpectRefused(s, Action::BuildRoad(0), "BLD-1");   // far away
}

TEST(RulesBuildTest, Bld1EdgeWithARoadIsTaken) {
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19 s1=22 r1=25 hand0=1b1l");
  ExpectRefused(s, Action::BuildRoad(25), "BLD-1");  // seat 1's road
  ExpectRefused(s, Action::BuildRoad(19), "BLD-1");  // seat 0's own road
}

TEST(RulesBuildTest, Bld1OpponentSettlementBlocksTheRoadEnd) {
  // Seat 0's road n12-n17-n22 ends at seat 1's settlement on n22: seat 0 may
  // not continue through n22, but may still branch off at n17.
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25 s1=22 hand0=1b1l");
  ExpectRefused(s, Action::BuildRoad(34), "BLD-1");  // n22-n28
  ExpectRefused(s, Action::BuildRoad(24), "BLD-1");  // n22-n16
  State legal = s;
  Play(legal, Action::BuildRoad(26));  // n17-n23
}

TEST(RulesBuildTest, Bld1OpponentKnightBlocksTheRoadEnd) {
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25 k1=22:1 hand0=1b1l");
  ExpectRefused(s, Action::BuildRoad(34), "BLD-1");
  ExpectRefused(s, Action::BuildRoad(24), "BLD-1");
  // An active strong knight blocks just the same.
  ExpectRefused(Position("phase=action current=0 turn=9 s0=12 r0=19,25 k1=22:2a hand0=1b1l"), Action::BuildRoad(34),
                "BLD-1");
}

TEST(RulesBuildTest, Bld1OwnKnightDoesNotBlockOwnRoad) {
  // DEF-4: only other players' pieces block.
  State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25 k0=22:1 hand0=1b1l");
  Play(s, Action::BuildRoad(34));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=12 r0=19,25,34 k0=22:1");
}

TEST(RulesBuildTest, Bld1E09OwnKnightIsNotAnAnchor) {
  // Seat 0's knight on n33 has no road at it (a Diplomat removed it): no new
  // road may start there.
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19 k0=33:1a hand0=1b1l");
  ExpectRefused(s, Action::BuildRoad(39), "BLD-1");  // n27-n33
  ExpectRefused(s, Action::BuildRoad(40), "BLD-1");  // n28-n33
  ExpectRefused(s, Action::BuildRoad(49), "BLD-1");  // n33-n38
}

TEST(RulesBuildTest, Bld1RoadMayEndAtAnOpponentPiece) {
  // n17-n22 ends on seat 1's settlement (or knight); its other end n17 is an
  // unblocked end of seat 0's road.
  State settlement = Position("phase=action current=0 turn=9 s0=12 r0=19 s1=22 hand0=1b1l");
  Play(settlement, Action::BuildRoad(25));
  ExpectPosition(settlement, "phase=action current=0 turn=9 actions=1 s0=12 r0=19,25 s1=22");
  State knight = Position("phase=action current=0 turn=9 s0=12 r0=19 k1=22:3a hand0=1b1l");
  Play(knight, Action::BuildRoad(25));
  ExpectPosition(knight, "phase=action current=0 turn=9 actions=1 s0=12 r0=19,25 k1=22:3a");
}

TEST(RulesBuildTest, Bld1Supply14NoRoadLeft) {
  // 15 roads on the board: n0-n4-n8-n12-n17-n22-n28-n33-n27-n21-n16-n11-n7-n3
  // plus n4-n1.
  const State s =
      Position("phase=action current=0 turn=9 longest=0 s0=0 r0=1,7,12,19,25,34,40,39,33,23,18,10,6,2,11 hand0=1b1l");
  ASSERT_EQ(s.player(0).roads_left, 0);
  ExpectRefused(s, Action::BuildRoad(26), "SUP-1");
}

// ---- BLD-2 settlements --------------------------------------------------------------------

TEST(RulesBuildTest, Bld2SettlementAtOwnRoad) {
  State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25 hand0=1b1l1w1g1o");
  EXPECT_EQ(Play(s, Action::BuildSettlement(22)),
            (std::vector<std::string>{"seat 0: build_settlement n22", "seat 0 paid 1 brick", "seat 0 paid 1 lumber",
                                      "seat 0 paid 1 wool", "seat 0 paid 1 grain"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=12,22 r0=19,25 hand0=1o");
  EXPECT_EQ(s.player(0).vp, 2);
  EXPECT_EQ(s.player(0).settlements_left, 3);
}

TEST(RulesBuildTest, Bld2DistanceRule) {
  // n17 is at seat 0's road end but next to seat 0's own settlement n12;
  // n23 is next to seat 1's settlement n18.
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19,26 s1=18 hand0=1b1l1w1g");
  ExpectRefused(s, Action::BuildSettlement(17), "BLD-2");
  ExpectRefused(s, Action::BuildSettlement(23), "BLD-2");
}

TEST(RulesBuildTest, Bld2KnightsOccupyTheirIntersection) {
  // KN-10: a knight, own or foreign, active or not, stands in the way.
  ExpectRefused(Position("phase=action current=0 turn=9 s0=12 r0=19,25 k0=22:1 hand0=1b1l1w1g"),
                Action::BuildSettlement(22), "BLD-2");
  ExpectRefused(Position("phase=action current=0 turn=9 s0=12 r0=19,25 k1=22:2a hand0=1b1l1w1g"),
                Action::BuildSettlement(22), "BLD-2");
}

TEST(RulesBuildTest, Bld2DistanceRuleIgnoresKnights) {
  // Knights of both seats next to n22 (on n28 and n16) do not count.
  State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25 k1=28:1 k0=16:2a hand0=1b1l1w1g");
  Play(s, Action::BuildSettlement(22));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=12,22 r0=19,25 k0=16:2a k1=28:1");
}

TEST(RulesBuildTest, Bld2SettlementNeedsOwnRoad) {
  // n33 is an end of seat 1's road n28-n33 only; n0 touches nothing.
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25 s1=39 r1=40 hand0=1b1l1w1g");
  ExpectRefused(s, Action::BuildSettlement(33), "BLD-2");
  ExpectRefused(s, Action::BuildSettlement(0), "BLD-2");
  ExpectRefused(s, Action::BuildSettlement(12), "BLD-2");  // taken by seat 0's own settlement
}

TEST(RulesBuildTest, Bld2Supply14NoSettlementLeft) {
  const State s = Position("phase=action current=0 turn=9 s0=0,2,12,21,26 r0=19,25 hand0=1b1l1w1g");
  ASSERT_EQ(s.player(0).settlements_left, 0);
  ExpectRefused(s, Action::BuildSettlement(22), "SUP-1");
}

TEST(RulesBuildTest, Sup1TheEmptySupplyIsNamedBeforeTheMissingCards) {
  // No settlement left and no cards at all: the supply is the reason given, then the cost with its rule id.
  const State none = Position("phase=action current=0 turn=9 s0=0,2,12,21,26 r0=19,25");
  EXPECT_EQ(ExpectRefused(none, Action::BuildSettlement(22), "SUP-1"), "SUP-1: no settlement left in your supply");
  const State poor = Position("phase=action current=0 turn=9 s0=12 r0=19,25 hand0=1b");
  EXPECT_EQ(ExpectRefused(poor, Action::BuildRoad(27), "COST-1"),
            "COST-1: a road costs 1 brick + 1 lumber (missing 1 lumber)");
  // Both strong knights on the board, and no wool or ore: KN-5's piece first.
  const State knights = Position("phase=action current=0 turn=9 r0=23,24,33,39 c0=21 k0=16:2,22:2,27:1");
  EXPECT_EQ(ExpectRefused(knights, Action::Make(ActionType::kPromoteKnight, 27), "KN-5"),
            "KN-5: no knight of the next level left in your supply (SUP-1)");
}

// ---- BLD-3 cities -----------------------------------------------------------------------

TEST(RulesBuildTest, Bld3CityReplacesOwnSettlement) {
  State s = Position("phase=action current=0 turn=9 s0=12,22 r0=19,25 hand0=2g3o1b");
  EXPECT_EQ(Play(s, Action::BuildCity(22)),
            (std::vector<std::string>{"seat 0: build_city n22", "seat 0 paid 2 grain", "seat 0 paid 3 ore"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=12 c0=22 r0=19,25 hand0=1b");
  EXPECT_EQ(s.player(0).vp, 3);
  EXPECT_EQ(s.player(0).settlements_left, 4);  // the settlement went back to supply
  EXPECT_EQ(s.player(0).cities_left, 3);
}

TEST(RulesBuildTest, Bld3OnlyOnOwnSettlement) {
  const State s = Position("phase=action current=0 turn=9 s0=12 c0=22 r0=19,25 s1=0 hand0=2g3o");
  ExpectRefused(s, Action::BuildCity(0), "BLD-3");   // seat 1's settlement
  ExpectRefused(s, Action::BuildCity(17), "BLD-3");  // empty
  ExpectRefused(s, Action::BuildCity(22), "BLD-3");  // already a city
}

TEST(RulesBuildTest, Bld3Supply14NoCityLeft) {
  const State s = Position("phase=action current=0 turn=9 c0=0,2,21,26 s0=12 r0=19 hand0=2g3o");
  ASSERT_EQ(s.player(0).cities_left, 0);
  ExpectRefused(s, Action::BuildCity(12), "SUP-1");
}

// ---- BLD-4 walls ------------------------------------------------------------------------

TEST(RulesBuildTest, Bld4WallUnderOwnCityRaisesTheHandLimit) {
  State s = Position("phase=action current=0 turn=9 c0=12 s0=22 r0=19,25 hand0=2b");
  EXPECT_EQ(s.HandLimit(0), 7);
  EXPECT_EQ(Play(s, Action::Make(ActionType::kBuildWall, 12)),
            (std::vector<std::string>{"seat 0: build_wall n12", "seat 0 paid 2 brick"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=12w s0=22 r0=19,25");
  EXPECT_EQ(s.HandLimit(0), 9);
  EXPECT_EQ(s.player(0).walls_left, 2);
  EXPECT_EQ(s.player(0).vp, 3);  // a wall is worth no VP
}

TEST(RulesBuildTest, Bld4HandLimitGrowsByTwoPerWall) {
  EXPECT_EQ(Position("phase=action current=0 c0=0,2,12").HandLimit(0), 7);
  EXPECT_EQ(Position("phase=action current=0 c0=0w,2,12").HandLimit(0), 9);
  EXPECT_EQ(Position("phase=action current=0 c0=0w,2w,12").HandLimit(0), 11);
  EXPECT_EQ(Position("phase=action current=0 c0=0w,2w,12w").HandLimit(0), 13);
}

TEST(RulesBuildTest, Bld4NeverUnderASettlementOrTwiceUnderACity) {
  const State s = Position("phase=action current=0 turn=9 c0=12w,40 s0=22 r0=19,25 c1=0 hand0=2b");
  ExpectRefused(s, Action::Make(ActionType::kBuildWall, 22), "BLD-4");  // settlement
  ExpectRefused(s, Action::Make(ActionType::kBuildWall, 12), "BLD-4");  // already walled
  ExpectRefused(s, Action::Make(ActionType::kBuildWall, 0), "BLD-4");   // seat 1's city
  ExpectRefused(s, Action::Make(ActionType::kBuildWall, 17), "BLD-4");  // nothing there
  State legal = s;
  Play(legal, Action::Make(ActionType::kBuildWall, 40));
}

TEST(RulesBuildTest, Bld4AtMostThreeWalls) {
  const State s = Position("phase=action current=0 turn=9 c0=0w,2w,21w,12 r0=19 hand0=2b");
  ASSERT_EQ(s.player(0).walls_left, 0);
  ExpectRefused(s, Action::Make(ActionType::kBuildWall, 12), "BLD-4");
}

TEST(RulesBuildTest, Bld4MetropolisCityTakesAWall) {
  State s = Position("phase=action current=0 turn=9 c0=12T lvl0=400 hand0=2b");
  Play(s, Action::Make(ActionType::kBuildWall, 12));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=12wT lvl0=400");
}

// ---- BLD-5 wall loss through pillage ----------------------------------------------------

TEST(RulesBuildTest, Bld5PillagedCityLosesItsWallWhichMayBeRebuilt) {
  // The ship is one step from Catan; seat 0 owns two cities, one walled, and
  // no knight, so the barbarians (2) beat Catan (0) and seat 0, the only
  // vulnerable player, loses a city of his choice.
  State s =
      Position("phase=before_roll current=0 turn=9 barbarians=6 c0=12w,40 s0=22 r0=19,25 hand0=2b s1=0 r1=0 hand1=1w");
  ASSERT_EQ(s.HandLimit(0), 9);
  Play(s, Action::Roll());
  // 6 + 6 = 12 (hex 16): nobody produces.
  EXPECT_EQ(Play(s, Action::Dice(6, 6, kEventShip)),
            (std::vector<std::string>{"chance: dice 6 6 ship", "barbarians advance to 7",
                                      "barbarians attack: barbarians 2 vs Catan 0, barbarians win",
                                      "seat 0 defended with strength 0", "seat 1 defended with strength 0",
                                      "seat 2 defended with strength 0", "seat 3 defended with strength 0"}));
  ASSERT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{Action::Make(ActionType::kPillageCity, 12),
                                                   Action::Make(ActionType::kPillageCity, 40)}));
  EXPECT_EQ(Play(s, Action::Make(ActionType::kPillageCity, 12)),
            (std::vector<std::string>{"seat 0: pillage_city n12", "seat 0 lost the city at n12"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 attacks=1 dice=6,6,ship c0=40 s0=12,22 r0=19,25 hand0=2b "
                 "s1=0 r1=0 hand1=1w");
  EXPECT_EQ(s.player(0).walls_left, 3);
  EXPECT_EQ(s.HandLimit(0), 7);
  EXPECT_EQ(s.player(0).vp, 4);
  // BLD-5: the wall is back in supply and may go under the other city.
  EXPECT_TRUE(IsLegal(s, Action::Make(ActionType::kBuildWall, 40)));
  ExpectRefused(s, Action::Make(ActionType::kBuildWall, 12), "BLD-4");  // now a settlement
  Play(s, Action::Make(ActionType::kBuildWall, 40));
  EXPECT_EQ(s.HandLimit(0), 9);
}

// ---- 1.4 knight supply ---------------------------------------------------------------------

TEST(RulesBuildTest, Supply14RecruitNeedsABasicKnightInSupply) {
  const State s = Position("phase=action current=0 turn=9 s0=12 r0=19,25,34 k0=17:1,22:1 hand0=1w1o");
  ASSERT_EQ(s.player(0).knights_left[0], 0);
  ExpectRefused(s, Action::Make(ActionType::kRecruitKnight, 28), "KN-3");
}

}  // namespace
}  // namespace metropolis
