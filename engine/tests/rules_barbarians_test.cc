// The barbarians, RULES.md section 15 (and EVT-1): the ship, the attack on
// the 7th ship result, Defender and tie rewards, pillaged cities, and the
// Fiesepeter variant. Each scenario starts from a position in the notation
// (docs/NOTATION.md) just before the roll and rolls "1 1 ship": the 2 on hex
// 8 produces nothing for the pieces placed here, so only the attack changes
// the position.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
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

// ---- EVT-1 -----------------------------------------------------------------------

TEST(BarbariansTest, Evt1ShipAdvancesOneSpace) {
  State s = Pos("phase=before_roll current=0 turn=9 barbarians=2 c0=0 k0=3:1a");
  Play(s, "roll");
  std::vector<Event> events;
  Play(s, "dice 1 1 ship", &events);  // 2: hex 8, nobody there
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 barbarians=3 dice=1,1,ship c0=0 k0=3:1ar");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].type, EventType::kBarbariansAdvance);
  EXPECT_EQ(events[1].a, 3);
}

// ---- BAR-2..BAR-5, BAR-9: Catan holds, one Defender ---------------------------------

// Cities: seat 0 on 0 and 10, seat 1's trade metropolis on 46, seat 3 on 13:
// B = 4 (BAR-2 counts the metropolis city). Active knights: seat 0 strong (2),
// seat 1 basic (1), seat 2 basic (1, no city, still counts, BAR-3), seat 3's
// knight inactive: K = 4. The ship stands on 6.
constexpr std::string_view kHold =
    "phase=before_roll current=0 turn=9 barbarians=6 c0=0,10 k0=3:2a c1=46T k1=50:1a lvl1=400 s2=38 k2=43:1a "
    "c3=13 k3=19:3 lvl3=030 ";

TEST(BarbariansTest, Bar2To5TieGoesToCatanAndTheStrongestIsDefender) {
  State s = Pos(kHold);
  Play(s, "roll");
  std::vector<Event> events;
  Play(s, "dice 1 1 ship", &events);
  // BAR-5: +1 VP for seat 0; BAR-9: every knight inactive, ship back to 0,
  // first attack done (so the robber is free, ROB-1).
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 attacks=1 dice=1,1,ship c0=0,10 k0=3:2 def0=1 c1=46T k1=50:1 "
                 "lvl1=400 s2=38 k2=43:1 c3=13 k3=19:3 lvl3=030");
  EXPECT_EQ(s.player(0).vp, 5);
  EXPECT_TRUE(s.first_attack_done());
  ASSERT_EQ(events.size(), 8u);
  EXPECT_EQ(events[1].type, EventType::kBarbariansAdvance);
  EXPECT_EQ(events[1].a, 7);
  EXPECT_EQ(events[2].type, EventType::kBarbarianAttack);
  EXPECT_EQ(events[2].a, 4);  // B
  EXPECT_EQ(events[2].b, 4);  // K
  EXPECT_EQ(events[2].c, 1);  // Catan wins
  // BAR-3: each seat's share of K, in seat order; seat 3's knight is inactive.
  const int shares[] = {2, 1, 1, 0};
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(events[3 + p].type, EventType::kBarbarianShare) << p;
    EXPECT_EQ(events[3 + p].seat, p);
    EXPECT_EQ(events[3 + p].a, shares[p]) << p;
  }
  EXPECT_EQ(events[7].type, EventType::kDefender);
  EXPECT_EQ(events[7].seat, 0);
  EXPECT_EQ(StepEventTexts(events)[3], "seat 0 defended with strength 2");
}

TEST(BarbariansTest, Bar4OneStrengthShortAndTheBarbariansWin) {
  // The same board with seat 2's knight inactive: K = 3 < B = 4. Vulnerable:
  // seat 0 (2) and seat 3 (0, inactive knight); seat 1 owns only a metropolis.
  State s =
      Pos("phase=before_roll current=0 turn=9 barbarians=6 c0=0,10 k0=3:2a c1=46T k1=50:1a lvl1=400 s2=38 "
          "k2=43:1 c3=13 k3=19:3 lvl3=030");
  Play(s, "roll");
  std::vector<Event> events;
  Play(s, "dice 1 1 ship", &events);
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[2].type, EventType::kBarbarianAttack);
  EXPECT_EQ(events[2].c, 0);
  EXPECT_EQ(s.CurrentPlayer(), 3);
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{A("pillage_city n13")});
}

TEST(BarbariansTest, Bar5OptionDefenderByKnightCount) {
  // Seat 0: one mighty knight (3). Seat 3: two basic knights (2). B = 2.
  const std::string board =
      "phase=before_roll current=0 turn=9 barbarians=6 c0=0 k0=3:3a lvl0=030 c3=13 k3=19:1a,24:1a ";
  State by_strength = Pos(board);
  Play(by_strength, "roll");
  Play(by_strength, "dice 1 1 ship");
  EXPECT_EQ(by_strength.player(0).defender, 1);
  EXPECT_EQ(by_strength.player(3).defender, 0);

  State by_count = Pos("opts=[defender_by_knight_count=true] " + board);
  Play(by_count, "roll");
  Play(by_count, "dice 1 1 ship");
  EXPECT_EQ(by_count.player(0).defender, 0);
  EXPECT_EQ(by_count.player(3).defender, 1);
  EXPECT_EQ(by_count.player(3).vp, 3);
}

// ---- BAR-6 tie for the highest contribution ---------------------------------------

TEST(BarbariansTest, Bar6TiedPlayersChooseADeckThenDrawInTurnOrder) {
  // Seat 2 rolls; seats 3 and 0 are tied at strength 2, so seat 3 chooses first.
  State s = Pos("phase=before_roll current=2 turn=9 barbarians=6 c0=0 k0=3:2a c2=38 c3=13 k3=19:1a,24:1a");
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  EXPECT_EQ(s.player(0).defender + s.player(3).defender, 0);  // nobody gets a Defender card
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=2 attacks=1 dice=1,1,ship c0=0 k0=3:2 c2=38 c3=13 "
                 "k3=19:1,24:1 pending=step_production@2/defender_deck@0/defender_deck@3");
  EXPECT_EQ(s.CurrentPlayer(), 3);
  EXPECT_EQ(s.LegalActions(),
            (std::vector<Action>{A("defender_deck trade"), A("defender_deck politics"), A("defender_deck science")}));
  ExpectRefused(s, "end_turn", "19");
  Play(s, "defender_deck science");
  // A chance node over the science deck's unseen cards, weighted by count.
  ASSERT_TRUE(s.IsChanceNode());
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 10u);
  EXPECT_EQ(outcomes[1].action, A("draw crane"));
  EXPECT_DOUBLE_EQ(outcomes[1].probability, 2.0 / 18);
  EXPECT_DOUBLE_EQ(outcomes[2].probability, 1.0 / 18);  // one Engineer
  Play(s, "draw crane");
  EXPECT_EQ(s.CurrentPlayer(), 0);
  Play(s, "defender_deck trade");
  Play(s, "draw merchant");
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=6 attacks=1 dice=1,1,ship c0=0 k0=3:2 prog0=merchant "
                 "c2=38 c3=13 k3=19:1,24:1 prog3=crane deck_trade=225242 deck_science=2112222122");
}

// ---- BAR-7 nobody contributed -----------------------------------------------------

TEST(BarbariansTest, Bar7NoCitiesNoKnightsNothingAwarded) {
  State s = Pos("phase=before_roll current=0 turn=9 barbarians=6 s0=0 s1=13");
  Play(s, "roll");
  std::vector<Event> events;
  Play(s, "dice 1 1 ship", &events);
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 attacks=1 dice=1,1,ship s0=0 s1=13");
  ASSERT_EQ(events.size(), 7u);  // the attack, then each of the four seats' share: 0 (BAR-3)
  EXPECT_EQ(events[2].type, EventType::kBarbarianAttack);
  EXPECT_EQ(events[2].c, 1);
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(events[3 + p].type, EventType::kBarbarianShare);
    EXPECT_EQ(events[3 + p].seat, p);
    EXPECT_EQ(events[3 + p].a, 0);
  }
}

// ---- BAR-8 who loses a city --------------------------------------------------------

// Seat 0: politics metropolis on 0, cities 10 (walled) and 21, a basic knight.
// Seat 1: only the trade metropolis on 46, no knight (immune). Seat 2: a
// settlement, no knight. Seat 3: city 13, a basic knight. B = 5, K = 2. Seat 2
// rolls, so seat 3 chooses before seat 0.
constexpr std::string_view kRaid =
    "phase=before_roll current=2 turn=9 barbarians=6 c0=0P,10w,21 k0=3:1a lvl0=040 c1=46T lvl1=400 s2=38 c3=13 "
    "k3=19:1a ";

TEST(BarbariansTest, Bar8EveryWeakestVulnerablePlayerLosesACityOfHisChoice) {
  State s = Pos(kRaid);
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=2 attacks=1 dice=1,1,ship c0=0P,10w,21 k0=3:1 lvl0=040 "
                 "c1=46T lvl1=400 s2=38 c3=13 k3=19:1 pending=step_production@2/pillage@0/pillage@3");
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{A("pillage_city n13")});
  std::vector<Event> events;
  Play(s, "pillage_city n13", &events);
  EXPECT_EQ(events.back().type, EventType::kCityPillaged);
  EXPECT_EQ(events.back().seat, 3);
  // The metropolis city is never offered.
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{A("pillage_city n10"), A("pillage_city n21")}));
  ExpectRefused(s, "pillage_city n0", "BAR-8");
  // BLD-5: the wall goes back to supply with the city.
  Play(s, "pillage_city n10");
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=4 attacks=1 dice=1,1,ship s0=10 c0=0P,21 k0=3:1 lvl0=040 "
                 "c1=46T lvl1=400 s2=38 s3=13 k3=19:1");
  EXPECT_EQ(s.player(0).walls_left, 3);
  EXPECT_EQ(s.player(0).vp, 1 + 4 + 2);
  EXPECT_EQ(s.player(3).vp, 1);
}

TEST(BarbariansTest, Bar8OptionMinAmongAllSparesEveryoneWhenOnlyImmunePlayersAreWeakest) {
  // The minimum over all players is 0 (seats 1 and 2), and neither is vulnerable.
  State s = Pos(std::string("opts=[barbarian_victims=MIN_AMONG_ALL] ") + std::string(kRaid));
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(s.CurrentPlayer(), 2);
  EXPECT_EQ(s.building(13), kCity);
  EXPECT_EQ(s.building(10), kCity);
}

TEST(BarbariansTest, Bar8NoVulnerablePlayerNothingHappens) {
  State s = Pos("phase=before_roll current=0 turn=9 barbarians=6 c0=0P lvl0=040 s1=13");
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 attacks=1 dice=1,1,ship c0=0P lvl0=040 s1=13");
}

// ---- BAR-10 a sixth settlement ------------------------------------------------------

TEST(BarbariansTest, Bar10SixthSettlementOnTheBoardBlocksSettlementBuilding) {
  // Seat 3: five settlements and a city, no knight; the barbarians take the city.
  State s =
      Pos("phase=before_roll current=3 turn=9 barbarians=6 s3=2,4,7,25,35 c3=13 r3=52,60 "
          "hand3=1b1l1w5g6o");
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  Play(s, "pillage_city n13");
  EXPECT_EQ(std::popcount(s.player(3).settlements), 6);
  EXPECT_EQ(s.player(3).settlements_left, -1);
  EXPECT_EQ(s.Validate(), "");
  // 46 is empty, at his road 36-41-46, away from other buildings.
  ExpectRefused(s, "build_settlement n46", "SUP-1");
  Play(s, "build_city n2");
  EXPECT_EQ(s.player(3).settlements_left, 0);
  ExpectRefused(s, "build_settlement n46", "SUP-1");
  Play(s, "build_city n4");
  EXPECT_EQ(s.player(3).settlements_left, 1);
  Play(s, "build_settlement n46");
}

// ---- BAR-11 Defender on another player's turn ----------------------------------------

TEST(BarbariansTest, Bar11DefenderPointOnAnotherTurnWinsOnlyAtOwnTurn) {
  // Seat 0 has 4 of the 5 VP; seat 1 rolls the landing ship.
  State s =
      Pos("opts=[victory_points=5] phase=before_roll current=1 turn=9 barbarians=6 c0=0,10 k0=3:3a lvl0=030 "
          "s1=13");
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  EXPECT_EQ(s.player(0).vp, 5);
  EXPECT_EQ(s.phase(), Phase::kAction);
  EXPECT_EQ(s.Winner(), kNoSeat);
  Play(s, "end_turn");  // seat 2
  Play(s, "roll");
  Play(s, "dice 1 1 trade");
  Play(s, "end_turn");  // seat 3
  Play(s, "roll");
  Play(s, "dice 1 1 trade");
  std::vector<Event> events;
  Play(s, "end_turn", &events);  // TRN-1: seat 0 wins as his turn starts
  EXPECT_TRUE(s.IsTerminal());
  EXPECT_EQ(s.Winner(), 0);
  EXPECT_EQ(events.back().type, EventType::kGameOver);
  EXPECT_EQ(events.back().seat, 0);
}

// ---- BAR-12 Fiesepeter ---------------------------------------------------------------

TEST(BarbariansTest, Bar12CommittedKnightsOnlyCountAndOnlyTheyAreDeactivated) {
  // Seat 2 rolls: seat 3 commits first, then seat 0 (seat 2 has no active knight).
  State s =
      Pos("opts=[fiesepeter=true] phase=before_roll current=2 turn=9 barbarians=6 c0=0 k0=3:1a,7:2a c3=13 "
          "k3=19:1a");
  Play(s, "roll");
  Play(s, "dice 1 1 ship");
  ExpectPosition(s,
                 "opts=[fiesepeter=true] phase=action current=2 turn=9 actions=2 barbarians=7 dice=1,1,ship c0=0 "
                 "k0=3:1a,7:2a c3=13 k3=19:1a pending=step_production@2/step_attack@2/commit_knights@0/"
                 "commit_knights@3");
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{A("commit_knight n19"), A("commit_done")}));
  ExpectRefused(s, "commit_knight n3", "BAR-12");
  Play(s, "commit_done");  // seat 3 commits nothing
  Play(s, "commit_knight n7");
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{A("commit_knight n3"), A("commit_done")}));
  std::vector<Event> events;
  Play(s, "commit_done", &events);
  // K = 2 (only the committed strong knight) = B: Catan holds, seat 0 defends.
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[1].type, EventType::kBarbarianAttack);
  EXPECT_EQ(events[1].b, 2);
  // The shares count committed knights only: seat 0's uncommitted n3, seat 3's n19 are 0.
  ASSERT_GE(events.size(), 6u);
  const int shares[] = {2, 0, 0, 0};
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(events[2 + p].type, EventType::kBarbarianShare) << p;
    EXPECT_EQ(events[2 + p].a, shares[p]) << p;
  }
  ExpectPosition(s,
                 "opts=[fiesepeter=true] phase=action current=2 turn=9 actions=5 attacks=1 dice=1,1,ship c0=0 "
                 "k0=3:1a,7:2 def0=1 c3=13 k3=19:1a");
}

}  // namespace
}  // namespace metropolis
