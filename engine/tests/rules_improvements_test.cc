// City improvements and metropolises, RULES.md sections 9 and 10: costs,
// the city requirements of IMP-2..IMP-4, metropolis placement and capture
// (MET-1..MET-5) and the Merchant Guild rate. Positions are in the notation
// (docs/NOTATION.md); `lvl`N is trade, politics, science and a city mark
// `T`/`P`/`S` is the metropolis it carries.
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

// ---- IMP-1 purchase --------------------------------------------------------------

TEST(ImprovementsTest, Imp1LevelsCostOneToFourOfTheTracksCommodity) {
  // Cloth pays the trade track: 1 + 2 + 3 + 4 = 10.
  State s = Pos("phase=action current=0 turn=9 c0=0 hand0=10c1m");
  Play(s, "buy_improvement trade");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=0 hand0=9c1m lvl0=100");
  Play(s, "buy_improvement trade");
  Play(s, "buy_improvement trade");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=3 c0=0 hand0=4c1m lvl0=300");
  // Coin pays politics, not cloth.
  Play(s, "buy_improvement politics");
  EXPECT_EQ(s.player(0).level[kPolitics], 1);
  EXPECT_EQ(s.player(0).hand[kCoin], 0);
  // Level 4 costs 4 cloth (MET-2 then awards the free trade metropolis).
  Play(s, "buy_improvement trade");
  EXPECT_EQ(s.player(0).hand[kCloth], 0);
  EXPECT_EQ(s.player(0).level[kTrade], 4);
}

TEST(ImprovementsTest, Imp1LevelFiveCostsFiveAndTheTrackEndsThere) {
  State s = Pos("phase=action current=0 turn=9 c0=0T hand0=5c lvl0=400");
  Play(s, "buy_improvement trade");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=0T lvl0=500");
  ExpectRefused(Pos("phase=action current=0 turn=9 c0=0T hand0=6c lvl0=500"), "buy_improvement trade", "IMP-1");
}

TEST(ImprovementsTest, Imp1NotEnoughCommodities) {
  ExpectRefused(Pos("phase=action current=0 turn=9 c0=0 hand0=1c4p lvl0=100"), "buy_improvement trade", "IMP-1");
  ExpectRefused(Pos("phase=action current=0 turn=9 c0=0 hand0=4p"), "buy_improvement politics", "IMP-1");
}

// ---- IMP-2 a city is required ----------------------------------------------------

TEST(ImprovementsTest, Imp2NeedsACityEvenWithLevelsAlreadyBought) {
  ExpectRefused(Pos("phase=action current=0 turn=9 s0=0 hand0=3c"), "buy_improvement trade", "IMP-2");
  // A player who lost his cities keeps his levels but buys no more.
  ExpectRefused(Pos("phase=action current=0 turn=9 s0=0 hand0=3c lvl0=200"), "buy_improvement trade", "IMP-2");
  State metropolis_city = Pos("phase=action current=0 turn=9 c0=0P hand0=1c lvl0=040");
  Play(metropolis_city, "buy_improvement trade");  // a metropolis city counts
}

// ---- IMP-3 level 4 -----------------------------------------------------------------

TEST(ImprovementsTest, Imp3LevelFourNeedsACityWithoutMetropolis) {
  // The only city carries the politics metropolis.
  const State only = Pos("phase=action current=0 turn=9 c0=0P hand0=4c lvl0=340");
  ExpectRefused(only, "buy_improvement trade", "IMP-3");
  ExpectRefused(Pos("opts=[level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY] phase=action current=0 turn=9 c0=0P hand0=4c "
                    "lvl0=340"),
                "buy_improvement trade", "IMP-3");
  // Two cities, both metropolises: refused by default, allowed by the
  // literal S0/S4 option (which names only the single-city case).
  const std::string two = "phase=action current=0 turn=9 c0=0P,10S hand0=4c lvl0=344";
  ExpectRefused(Pos(two), "buy_improvement trade", "IMP-3");
  State literal = Pos("opts=[level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY] " + two);
  Play(literal, "buy_improvement trade");
  // No city is free, so no metropolis is placed (MET-1: one per city).
  ExpectPosition(literal,
                 "opts=[level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY] phase=action current=0 turn=9 "
                 "actions=1 c0=0P,10S lvl0=444");
}

// ---- MET-1/MET-2 placement -----------------------------------------------------------

TEST(ImprovementsTest, Met1Met2FirstLevelFourPlacesTheMetropolisOnAFreeCity) {
  // Seat 0 has the politics metropolis on 0, a plain city on 10 and a settlement on 38.
  State s = Pos("phase=action current=0 turn=9 c0=0P,10 s0=38 hand0=4c lvl0=340");
  Play(s, "buy_improvement trade");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=0P,10 s0=38 lvl0=440 pending=place_metropolis@0");
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{A("place_metropolis n10")});
  ExpectRefused(s, "place_metropolis n0", "MET-2");
  ExpectRefused(s, "place_metropolis n38", "MET-2");
  std::vector<Event> events;
  Play(s, "place_metropolis n10", &events);
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 c0=0P,10T s0=38 lvl0=440");
  // MET-5: +2 VP on top of the city's 2.
  EXPECT_EQ(s.player(0).vp, 4 + 4 + 1);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].type, EventType::kMetropolis);
  EXPECT_EQ(events[1].seat, 0);
  EXPECT_EQ(events[1].a, kTrade);
  EXPECT_EQ(events[1].b, 10);
}

TEST(ImprovementsTest, Met2LevelFourAwardsNothingWhenTheMetropolisIsOwned) {
  State s = Pos("phase=action current=0 turn=9 c0=0 hand0=4c lvl0=300 c1=46T lvl1=400");
  Play(s, "buy_improvement trade");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=0 lvl0=400 c1=46T lvl1=400");
}

// ---- IMP-4/MET-3 capture at level 5 ---------------------------------------------------

TEST(ImprovementsTest, Met3LevelFiveCapturesFromALowerLevelOwner) {
  // Seat 1's trade metropolis stands on its walled city 46.
  State s = Pos("phase=action current=0 turn=9 c0=0 hand0=5c lvl0=400 c1=46Tw lvl1=400");
  Play(s, "buy_improvement trade");
  // The old owner's city stays a city with its wall; seat 0 places it.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 c0=0 lvl0=500 c1=46w lvl1=400 "
                 "pending=place_metropolis@0");
  EXPECT_EQ(s.player(1).vp, 2);
  Play(s, "place_metropolis n0");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 c0=0T lvl0=500 c1=46w lvl1=400");
  EXPECT_EQ(s.player(0).vp, 4);
}

TEST(ImprovementsTest, Met3Met4OwnMetropolisBecomesSafeAndCannotBeTaken) {
  State s = Pos("phase=action current=0 turn=9 c0=0T hand0=5c lvl0=400 c1=46 hand1=5c lvl1=400");
  Play(s, "buy_improvement trade");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=0T lvl0=500 c1=46 hand1=5c lvl1=400");
  Play(s, "end_turn");
  Play(s, "roll");
  Play(s, "dice 1 1 politics");  // 2: hex 8, nobody there; nobody has a politics level
  ASSERT_EQ(s.CurrentPlayer(), 1);
  // Seat 1 may complete his track, but the safe metropolis stays.
  Play(s, "buy_improvement trade");
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(s.metropolis_owner(kTrade), 0);
  EXPECT_EQ(s.metropolis_node(kTrade), 0);
  EXPECT_EQ(s.player(1).level[kTrade], 5);
}

TEST(ImprovementsTest, Imp4CaptureNeedsACityWithoutMetropolis) {
  // Seat 0's only city carries the politics metropolis: nowhere to put the trade one.
  ExpectRefused(Pos("phase=action current=0 turn=9 c0=0P hand0=5c lvl0=440 c1=46T lvl1=400"), "buy_improvement trade",
                "IMP-4");
  // Against a safe owner nothing would move, so level 5 is free to buy.
  State s = Pos("phase=action current=0 turn=9 c0=0P hand0=5c lvl0=440 c1=46T lvl1=500");
  Play(s, "buy_improvement trade");
  EXPECT_EQ(s.metropolis_owner(kTrade), 1);
}

// ---- IMP-6 Merchant Guild, IMP-7 Fortress ------------------------------------------------

TEST(ImprovementsTest, Imp6MerchantGuildTradesTwoCommoditiesForAnyCard) {
  State s = Pos("phase=action current=0 turn=9 c0=13 hand0=2m2b lvl0=300");
  Play(s, "bank_trade coin brick");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=13 hand0=3b lvl0=300");
  // Commodities only: 3 brick stay at 4:1 away from the harbors.
  ExpectRefused(s, "bank_trade brick ore", "TRD-2");
  State paper = Pos("phase=action current=0 turn=9 c0=13 hand0=2p lvl0=300");
  Play(paper, "bank_trade paper cloth");  // for another commodity too
  EXPECT_EQ(paper.player(0).hand[kCloth], 1);
  // Below level 3 the rate is 4:1.
  ExpectRefused(Pos("phase=action current=0 turn=9 c0=13 hand0=2m lvl0=200"), "bank_trade coin brick", "TRD-2");
}

// IMP-7 (the Fortress lets strong knights become mighty) is checked with KN-5
// in rules_knights_test.cc; IMP-8 (Aqueduct) with production.

}  // namespace
}  // namespace metropolis
