// Setup (RULES.md section 4): SET-1 .. SET-6. Positions are written in the
// notation (docs/NOTATION.md) on the default board, so that each scenario
// reads like a picture of the board.
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

State FreshGame(RulesOptions options = {}) {
  GameConfig config;
  config.board = DefaultBoard();
  config.options = options;
  State s;
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  return s;
}

// One setup placement per seat and round, chosen far apart: settlement and
// road in round 1, city and road in round 2 (SET-2/SET-3).
struct Placement {
  int seat, node, edge;
};
constexpr Placement kRound1[] = {{0, 0, 0}, {1, 2, 5}, {2, 21, 23}, {3, 26, 32}};
constexpr Placement kRound2[] = {{3, 42, 53}, {2, 18, 20}, {1, 12, 19}, {0, 40, 57}};

// ---- SET-1 -------------------------------------------------------------------

TEST(RulesSetupTest, Set1Seat0StartsWithoutChanceNode) {
  const State s = FreshGame();
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.start_seat(), 0);
  EXPECT_EQ(s.pending_size(), 0);
  ExpectPosition(s, "phase=setup current=0");
}

TEST(RulesSetupTest, Set1RollIsAUniformChanceNodeOverTheSeats) {
  RulesOptions options;
  options.start_player = StartPlayer::kRoll;
  State s = FreshGame(options);
  ExpectPosition(s, "opts=[start_player=ROLL] phase=setup current=0 pending=start_player");
  ASSERT_TRUE(s.IsChanceNode());
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 4u);
  for (int seat = 0; seat < 4; ++seat) {
    EXPECT_EQ(outcomes[seat].action, Action::Make(ActionType::kChanceStartPlayer, seat));
    EXPECT_DOUBLE_EQ(outcomes[seat].probability, 0.25);
  }
  // No seat may place anything before the start player is known.
  ExpectRefused(s, Action::BuildSettlement(0), "0.4");

  EXPECT_EQ(Play(s, Action::Make(ActionType::kChanceStartPlayer, 2)),
            std::vector<std::string>{"chance: chance_start_player 2"});
  EXPECT_EQ(s.start_seat(), 2);
  EXPECT_EQ(s.CurrentPlayer(), 2);
  ExpectPosition(s, "opts=[start_player=ROLL] phase=setup current=2 start=2 actions=1");
}

TEST(RulesSetupTest, Set1ThreeSeatRollHasThreeOutcomes) {
  GameConfig config;
  config.num_seats = 3;
  config.board = DefaultBoard();
  config.options.start_player = StartPlayer::kRoll;
  State s;
  std::string error;
  ASSERT_TRUE(NewGame(config, &s, &error)) << error;
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 3u);
  for (const ChanceOutcome& o : outcomes) EXPECT_DOUBLE_EQ(o.probability, 1.0 / 3);
}

// ---- SET-2 / SET-3 / SET-5: the snake order ---------------------------------

TEST(RulesSetupTest, Set2Set3SnakeOrderFromSeat0) {
  State s = FreshGame();
  std::vector<int> order;
  for (const Placement& p : kRound1) {
    order.push_back(s.CurrentPlayer());
    Play(s, Action::BuildSettlement(p.node));
    order.push_back(s.CurrentPlayer());
    Play(s, Action::BuildRoad(p.edge));
  }
  for (const Placement& p : kRound2) {
    order.push_back(s.CurrentPlayer());
    Play(s, Action::BuildCity(p.node));
    order.push_back(s.CurrentPlayer());
    Play(s, Action::BuildRoad(p.edge));
  }
  EXPECT_EQ(order, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 2, 2, 1, 1, 0, 0}));
  // SET-5: the start player, who placed the last city, takes the first turn.
  EXPECT_EQ(s.phase(), Phase::kBeforeRoll);
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{Action::Roll()});
}

TEST(RulesSetupTest, Set2Set3Set5SnakeOrderFromARolledStartPlayer) {
  RulesOptions options;
  options.start_player = StartPlayer::kRoll;
  State s = FreshGame(options);
  Play(s, Action::Make(ActionType::kChanceStartPlayer, 2));
  std::vector<int> order;
  // Same nodes as kRound1/kRound2, used in the order the seats come.
  const int settlements[] = {0, 2, 21, 26}, roads1[] = {0, 5, 23, 32};
  const int cities[] = {42, 18, 12, 40}, roads2[] = {53, 20, 19, 57};
  for (int i = 0; i < 4; ++i) {
    order.push_back(s.CurrentPlayer());
    Play(s, Action::BuildSettlement(settlements[i]));
    Play(s, Action::BuildRoad(roads1[i]));
  }
  for (int i = 0; i < 4; ++i) {
    order.push_back(s.CurrentPlayer());
    Play(s, Action::BuildCity(cities[i]));
    Play(s, Action::BuildRoad(roads2[i]));
  }
  EXPECT_EQ(order, (std::vector<int>{2, 3, 0, 1, 1, 0, 3, 2}));
  EXPECT_EQ(s.phase(), Phase::kBeforeRoll);
  EXPECT_EQ(s.current_seat(), 2);  // SET-5
  EXPECT_EQ(s.turn_number(), 1);
}

TEST(RulesSetupTest, Set2FirstRoundPlacesASettlementNotACityOrRoad) {
  const State s = FreshGame();
  ExpectRefused(s, Action::BuildCity(12), "SET-2");
  ExpectRefused(s, Action::BuildRoad(0), "SET-2");
  // Every intersection is open on an empty board, with no road needed.
  EXPECT_EQ(s.LegalActions().size(), 54u);
}

TEST(RulesSetupTest, Set3SecondRoundPlacesACityNotASettlement) {
  // Round 1 done; seat 3 opens round 2.
  const State s = Position("phase=setup current=0 setup=8 actions=8 r0=0 s0=0 r1=5 s1=2 r2=23 s2=21 r3=32 s3=26");
  EXPECT_EQ(s.CurrentPlayer(), 3);
  ExpectRefused(s, Action::BuildSettlement(42), "SET-3");
  State after = s;
  EXPECT_EQ(Play(after, Action::BuildCity(42)),
            (std::vector<std::string>{"seat 3: build_city n42", "seat 3 produced 1 ore"}));
}

TEST(RulesSetupTest, Set2DistanceRuleInBothRounds) {
  // Seat 0 has a settlement on n12 (neighbours n7, n8, n17).
  const State round1 = Position("phase=setup current=0 setup=2 actions=2 r0=19 s0=12");
  ASSERT_EQ(round1.CurrentPlayer(), 1);
  ExpectRefused(round1, Action::BuildSettlement(12), "SET-2");  // taken
  ExpectRefused(round1, Action::BuildSettlement(8), "SET-2");   // next to n12
  ExpectRefused(round1, Action::BuildSettlement(17), "SET-2");  // next to n12, at seat 0's road end
  State legal = round1;
  Play(legal, Action::BuildSettlement(13));  // two steps away: fine, and needs no road

  const State round2 =
      Position("phase=setup current=0 setup=8 actions=8 r0=19 s0=12 r1=5 s1=2 r2=23 s2=21 r3=32 s3=26");
  ASSERT_EQ(round2.CurrentPlayer(), 3);
  ExpectRefused(round2, Action::BuildCity(7), "SET-2");
  ExpectRefused(round2, Action::BuildCity(20), "SET-2");  // next to seat 3's own settlement n26
}

TEST(RulesSetupTest, Set2RoadMustTouchTheNewBuilding) {
  // Seat 1 has just placed a settlement on n13 (edges e13, e14, e20).
  const State s = Position("phase=setup current=0 setup=3 last=13 actions=3 r0=19 s0=12 s1=13");
  ASSERT_EQ(s.CurrentPlayer(), 1);
  ExpectRefused(s, Action::BuildRoad(2), "SET-2");        // elsewhere on the board
  ExpectRefused(s, Action::BuildSettlement(2), "SET-2");  // a road is due, not a building
  std::vector<Action> legal = s.LegalActions();
  EXPECT_EQ(legal, (std::vector<Action>{Action::BuildRoad(13), Action::BuildRoad(14), Action::BuildRoad(20)}));
  State after = s;
  EXPECT_EQ(Play(after, Action::BuildRoad(20)), std::vector<std::string>{"seat 1: build_road e20"});
  ExpectPosition(after, "phase=setup current=0 setup=4 actions=4 r0=19 s0=12 r1=20 s1=13");
}

TEST(RulesSetupTest, Set3SecondRoadMustTouchTheCityNotTheSettlement) {
  // Seat 0's last placement: settlement n0 with road e0 (n0-n3), city just
  // placed on n40. A road at the settlement is not allowed now.
  const State s = Position(
      "phase=setup current=0 setup=15 last=40 actions=15 r0=0 s0=0 c0=40 hand0=1b1g1o r1=5,19 s1=2 c1=12 "
      "hand1=1l1w1o r2=20,23 s2=21 c2=18 hand2=1g1o r3=32,53 s3=26 c3=42 hand3=1o");
  ASSERT_EQ(s.CurrentPlayer(), 0);
  ExpectRefused(s, Action::BuildRoad(1), "SET-2");  // e1 touches n0, the settlement
  ExpectRefused(s, Action::BuildRoad(6), "SET-2");  // e6 extends the road from n3
  EXPECT_EQ(s.LegalActions(),
            (std::vector<Action>{Action::BuildRoad(51), Action::BuildRoad(57), Action::BuildRoad(58)}));
}

// ---- SET-4 ---------------------------------------------------------------------

TEST(RulesSetupTest, Set4CityTakesOneResourcePerAdjacentLandHexNoCommodity) {
  // n12 touches hex 0 (forest), hex 3 (pasture), hex 4 (mountains): a city
  // there would produce paper, cloth and coin, but setup gives resources only.
  State s = Position("phase=setup current=0 setup=8 actions=8 r0=0 s0=0 r1=5 s1=2 r2=23 s2=21 r3=32 s3=26");
  Play(s, Action::BuildCity(42));
  Play(s, Action::BuildRoad(53));
  ASSERT_EQ(s.CurrentPlayer(), 2);
  Play(s, Action::BuildCity(18));
  Play(s, Action::BuildRoad(20));
  ASSERT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(Play(s, Action::BuildCity(12)),
            (std::vector<std::string>{"seat 1: build_city n12", "seat 1 produced 1 lumber", "seat 1 produced 1 wool",
                                      "seat 1 produced 1 ore"}));
  EXPECT_EQ(s.player(1).hand.Commodities(), 0);
  EXPECT_EQ(s.player(1).hand.Total(), 3);
}

TEST(RulesSetupTest, Set4DesertGivesNothing) {
  // n18 touches hex 4 (mountains), hex 5 (fields) and hex 9, the desert.
  State s = Position(
      "phase=setup current=0 setup=10 actions=10 r0=0 s0=0 r1=5 s1=2 r2=23 s2=21 r3=32,53 s3=26 c3=42 hand3=1o");
  ASSERT_EQ(s.CurrentPlayer(), 2);
  EXPECT_EQ(Play(s, Action::BuildCity(18)),
            (std::vector<std::string>{"seat 2: build_city n18", "seat 2 produced 1 ore", "seat 2 produced 1 grain"}));
  ExpectPosition(s,
                 "phase=setup current=0 setup=11 last=18 actions=11 r0=0 s0=0 r1=5 s1=2 r2=23 s2=21 c2=18 hand2=1g1o "
                 "r3=32,53 s3=26 c3=42 hand3=1o");
}

TEST(RulesSetupTest, Set4FirstRoundSettlementYieldsNothing) {
  State s = FreshGame();
  // n12 touches three producing hexes.
  EXPECT_EQ(Play(s, Action::BuildSettlement(12)), std::vector<std::string>{"seat 0: build_settlement n12"});
  EXPECT_EQ(s.player(0).hand.Total(), 0);
}

// ---- SET-5 / SET-6 ---------------------------------------------------------------

TEST(RulesSetupTest, Set5Set6StateAfterSetup) {
  State s = FreshGame();
  for (const Placement& p : kRound1) {
    Play(s, Action::BuildSettlement(p.node));
    Play(s, Action::BuildRoad(p.edge));
  }
  for (const Placement& p : kRound2) {
    Play(s, Action::BuildCity(p.node));
    Play(s, Action::BuildRoad(p.edge));
  }
  // The whole position: seat 0 to roll on turn 1, robber on the desert (the
  // default), ship at 0, no attack yet, levels 0, full decks, no merchant, no
  // metropolis, no Longest Road, no knights or walls, starting resources only.
  ExpectPosition(s,
                 "phase=before_roll current=0 turn=1 actions=16 r0=0,57 s0=0 c0=40 hand0=1b1g1o r1=5,19 s1=2 c1=12 "
                 "hand1=1l1w1o r2=20,23 s2=21 c2=18 hand2=1g1o r3=32,53 s3=26 c3=42 hand3=1o");
  for (int seat = 0; seat < 4; ++seat) {
    SCOPED_TRACE(seat);
    EXPECT_EQ(s.player(seat).vp, 3);
    EXPECT_EQ(s.ComputeVictoryPoints(seat), 3);
    EXPECT_EQ(s.player(seat).level, (std::array<uint8_t, kNumTracks>{0, 0, 0}));
    EXPECT_EQ(s.player(seat).knights, 0u);
    EXPECT_EQ(s.player(seat).walls_left, 3);
    EXPECT_EQ(s.player(seat).num_progress, 0);
  }
  EXPECT_EQ(s.robber_hex(), 9);
  EXPECT_EQ(s.barbarian_position(), 0);
  EXPECT_FALSE(s.first_attack_done());
  EXPECT_EQ(s.merchant_hex(), -1);
  EXPECT_EQ(s.merchant_owner(), kNoSeat);
  EXPECT_EQ(s.longest_road_holder(), kNoSeat);
  for (int t = 0; t < kNumTracks; ++t) {
    EXPECT_EQ(s.metropolis_owner(t), kNoSeat);
    EXPECT_EQ(s.deck(t).Size(), 18);
  }
  EXPECT_EQ(s.Validate(), "");
}

TEST(RulesSetupTest, Set5NoRollDuringSetup) {
  const State s = FreshGame();
  ExpectRefused(s, Action::Roll(), "SET-2");
  ExpectRefused(s, Action::EndTurn(), "SET-2");
}

}  // namespace
}  // namespace metropolis
