// Politics progress cards, RULES.md 13.2 (C-P1..C-P9) with the general rules
// of section 12 (PC-5 timing, PC-6 the card under its deck, PC-7
// preconditions) and the options of section 20 that change them.
//
// For every card: a legal play with its whole effect (the position after, in
// the notation, and the events); each precondition failing (not listed,
// refused by Apply naming the rule, state unchanged); the exact legal actions
// of every decision the card raises; the interactions RULES.md calls out.
//
// Positions are on the default board (docs/BOARD.md has the numbers). Most
// scenarios sit around hex 7 (hills 6), whose corners are 16 22 28 33 27 21:
//
//          16 --e24-- 22
//    e23 /               \ e34
//      21       h7        28
//    e33 \               / e40
//          27 --e39-- 33 --e49-- 38 --e54-- 43 --e55-- 39
//
// Deck fields list the unseen politics cards in the order bishop,
// constitution, deserter, diplomat, intrigue, saboteur, spy, warlord, wedding
// (a full deck is 212222322); after '/' come the cards returned under the
// deck (PC-6, PC-8).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/notation.h"
#include "engine/state.h"
#include "engine/tests/test_util.h"

namespace metropolis {
namespace {

using namespace test_util;  // Pos, A, Play, ExpectRefused, ExpectPosition, LegalTexts

using Texts = std::vector<std::string>;

// The chance outcomes as (action text, probability), in the engine's order.
void ExpectOutcomes(const State& s, const std::vector<std::pair<std::string, double>>& want) {
  ASSERT_TRUE(s.IsChanceNode()) << ToNotation(s);
  const std::vector<ChanceOutcome> got = s.ChanceOutcomes();
  ASSERT_EQ(got.size(), want.size()) << ToNotation(s);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(ActionToString(got[i].action), want[i].first);
    EXPECT_DOUBLE_EQ(got[i].probability, want[i].second) << want[i].first;
  }
}

// ---- General: timing (PC-5, TRN-2), holding the card, decisions first (19) ----

TEST(PoliticsCardsTest, Pc5PlaysOnlyInOwnActionPhaseAndOnlyHeldCards) {
  const std::string hand =
      "prog0=bishop,saboteur,warlord,wedding attacks=1 deck_politics=112221211 k1=3:1 prog1=spy s2=0 r2=0,6 hand2=2b ";
  // TRN-2: before the roll nothing but the roll (or an Alchemist).
  const State before = Pos("phase=before_roll current=0 turn=9 " + hand);
  EXPECT_EQ(LegalTexts(before), (Texts{"roll"}));
  ExpectRefused(before, "play bishop h7", "TRN-2");
  ExpectRefused(before, "play saboteur", "TRN-2");
  ExpectRefused(before, "play warlord", "TRN-2");
  ExpectRefused(before, "play wedding", "TRN-2");
  // PC-5: only cards the player holds.
  const State after = Pos("phase=action current=0 turn=9 " + hand);
  ExpectRefused(after, "play spy 1", "PC-5");
  ExpectRefused(after, "play deserter 1", "PC-5");
  ExpectRefused(after, "play diplomat e0", "PC-5");
  ExpectRefused(after, "play intrigue n3", "PC-5");
  // TRN-9/19: while another seat decides (a Saboteur discard here), nothing
  // else happens, not even another card.
  State pending = after;
  Play(pending, "play saboteur");
  ASSERT_EQ(pending.CurrentPlayer(), 2);  // seat 2 (1 VP, 2 cards) discards one
  ExpectRefused(pending, "play warlord", "19");
}

// ---- C-P1 Bishop ------------------------------------------------------------------

// The robber is unlocked (one attack done). On hex 7: seat 1 has two
// settlements (16, 27), seat 2 a city (28). Seat 3 (38) is not on the hex.
constexpr std::string_view kBishop =
    "phase=action current=0 turn=9 attacks=1 s0=0 r0=0 prog0=bishop s1=16,27 r1=23,33 hand1=2b1c c2=28 r2=34 "
    "hand2=1w2m s3=38 r3=49 hand3=5o deck_politics=112222322 ";

TEST(PoliticsCardsTest, Cp1BishopRobsOneRandomCardFromEachOpponentOnTheHex) {
  State s = Pos(kBishop);
  // ROB-2: any land hex but the robber's own (the desert, hex 9).
  Texts hexes;
  for (int h = 0; h < 19; ++h)
    if (h != 9) hexes.push_back("play bishop h" + std::to_string(h));
  EXPECT_EQ(LegalTexts(s, "play"), hexes);

  EXPECT_EQ(Play(s, "play bishop h7"), (Texts{"seat 0: play bishop h7"}));
  // One steal per opponent with a building there, however many he has, in
  // turn order from the player: seat 1 first. PC-6: the card waits on the
  // stack until the steals are done.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 attacks=1 robber=7 s0=0 r0=0 s1=16,27 r1=23,33 hand1=2b1c "
                 "c2=28 r2=34 hand2=1w2m s3=38 r3=49 hand3=5o deck_politics=112222322 "
                 "pending=step_return_progress@0:10/steal@0:2/steal@0:1");
  // Chance: a card of seat 1's hand, each with probability count / hand size.
  ExpectOutcomes(s, {{"steal brick", 2.0 / 3}, {"steal cloth", 1.0 / 3}});
  EXPECT_EQ(Play(s, "steal brick"), (Texts{"chance: steal brick", "seat 0 stole brick from seat 1"}));
  ExpectOutcomes(s, {{"steal wool", 1.0 / 3}, {"steal coin", 2.0 / 3}});
  std::vector<Event> events;
  EXPECT_EQ(Play(s, "steal coin", &events), (Texts{"chance: steal coin", "seat 0 stole coin from seat 2"}));
  EXPECT_EQ(events[1].private_to, (1u << 0) | (1u << 2));  // section 18: thief and victim only
  // PC-6: now the Bishop goes under the politics deck.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 attacks=1 robber=7 s0=0 r0=0 hand0=1b1m s1=16,27 r1=23,33 "
                 "hand1=1b1c c2=28 r2=34 hand2=1w1m s3=38 r3=49 hand3=5o deck_politics=112222322/bishop");
}

TEST(PoliticsCardsTest, Cp1BishopResourcesOnlyUnderProgressTakesResourcesOnly) {
  // D15: seat 2 holds only commodities, so he gives nothing; seat 1's cloth
  // cannot be taken.
  State s =
      Pos("opts=[progress_takes_resources_only=true] phase=action current=0 turn=9 attacks=1 s0=0 r0=0 prog0=bishop "
          "s1=16,27 r1=23,33 hand1=2b1c c2=28 r2=34 hand2=2m deck_politics=112222322");
  Play(s, "play bishop h7");
  ExpectPosition(s,
                 "opts=[progress_takes_resources_only=true] phase=action current=0 turn=9 actions=1 attacks=1 "
                 "robber=7 s0=0 r0=0 s1=16,27 r1=23,33 hand1=2b1c c2=28 r2=34 hand2=2m deck_politics=112222322 "
                 "pending=step_return_progress@0:10/steal@0:1,1");
  ExpectOutcomes(s, {{"steal brick", 1.0}});
  ExpectRefused(s, "steal cloth", "0.4");
  Play(s, "steal brick");
  ExpectPosition(s,
                 "opts=[progress_takes_resources_only=true] phase=action current=0 turn=9 actions=2 attacks=1 "
                 "robber=7 s0=0 r0=0 hand0=1b s1=16,27 r1=23,33 hand1=1b1c c2=28 r2=34 hand2=2m "
                 "deck_politics=112222322/bishop");
}

TEST(PoliticsCardsTest, Cp1BishopToTheDesertAndNeverOntoTheRobbersHex) {
  // ROB-2: the desert is allowed for the Bishop; nobody lives there.
  State s = Pos(std::string(kBishop) + "robber=7");
  ExpectRefused(s, "play bishop h7", "C-P1");
  EXPECT_EQ(Play(s, "play bishop h9"), (Texts{"seat 0: play bishop h9"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 attacks=1 s0=0 r0=0 s1=16,27 r1=23,33 hand1=2b1c c2=28 "
                 "r2=34 hand2=1w2m s3=38 r3=49 hand3=5o deck_politics=112222322/bishop");
}

TEST(PoliticsCardsTest, Cp1BishopOnAHexWhereOpponentsHoldNoCards) {
  // Opponents with empty hands give nothing: no chance node at all.
  State s =
      Pos("phase=action current=0 turn=9 attacks=1 s0=0 r0=0 prog0=bishop s1=16,27 r1=23,33 c2=28 r2=34 "
          "deck_politics=112222322");
  Play(s, "play bishop h7");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 attacks=1 robber=7 s0=0 r0=0 s1=16,27 r1=23,33 c2=28 r2=34 "
                 "deck_politics=112222322/bishop");
}

// ---- ROB-1: Intrigue is fine while the robber is locked, the Bishop is not --------

// Seat 0: settlement 21, roads 21-27-33, an own knight on 27. Seat 1: a strong
// active knight on 33 (where seat 0 has a road), roads 33-38-43-39 and a
// settlement on 43. Seat 2: a knight on 12, far from seat 0's roads. No
// barbarian attack yet, so the robber is locked.
constexpr std::string_view kIntrigue =
    "phase=action current=0 turn=9 s0=21 r0=33,39 k0=27:1 prog0=bishop,intrigue s1=43 r1=49,54,55 k1=33:2a s2=8 "
    "r2=12 k2=12:1 deck_politics=112212322 ";

TEST(PoliticsCardsTest, Rob1IntriguePlayableButBishopNotWhileTheRobberIsLocked) {
  const State s = Pos(kIntrigue);
  ASSERT_FALSE(s.first_attack_done());
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play intrigue n33"}));
  ExpectRefused(s, "play bishop h7", "C-P1");
  ExpectRefused(s, "play bishop h9", "C-P1");
  // The lock lifts with the first attack (ROB-1).
  const State unlocked = Pos(std::string(kIntrigue) + "attacks=1");
  EXPECT_EQ(LegalTexts(unlocked, "play").size(), 18u + 1u);
}

TEST(PoliticsCardsTest, Rob1BishopNotUnderTheLockButFreeWithTheOptionOff) {
  const std::string fields = "phase=action current=0 turn=9 prog0=bishop c1=28 hand1=1b deck_politics=112222322";
  ExpectRefused(Pos(fields), "play bishop h7", "C-P1");
  // robber_locked_until_first_attack=false (D01): the Bishop is playable at once.
  State s = Pos("opts=[robber_locked_until_first_attack=false] " + fields);
  Play(s, "play bishop h7");
  Play(s, "steal brick");
  ExpectPosition(s,
                 "opts=[robber_locked_until_first_attack=false] phase=action current=0 turn=9 actions=2 robber=7 "
                 "hand0=1b c1=28 deck_politics=112222322/bishop");
}

// ---- C-P2 Constitution ------------------------------------------------------------

TEST(PoliticsCardsTest, Cp2ConstitutionRevealedAtOnceNeverInTheHandNeverPlayed) {
  // Seat 1 (politics 3) already holds 4 progress cards and draws on seat 0's
  // roll: the Constitution is revealed at once, +1 VP, outside the hand limit
  // (PD-4, PC-3), so no discard is due.
  State s =
      Pos("phase=before_roll current=0 turn=9 prog1=bishop,deserter,diplomat,intrigue lvl1=030 "
          "deck_politics=111112322");
  Play(s, "roll");
  Play(s, "dice 1 3 politics");
  ExpectOutcomes(s, {{"draw bishop", 1.0 / 14},
                     {"draw constitution", 1.0 / 14},
                     {"draw deserter", 1.0 / 14},
                     {"draw diplomat", 1.0 / 14},
                     {"draw intrigue", 1.0 / 14},
                     {"draw saboteur", 2.0 / 14},
                     {"draw spy", 3.0 / 14},
                     {"draw warlord", 2.0 / 14},
                     {"draw wedding", 2.0 / 14}});
  EXPECT_EQ(Play(s, "draw constitution"),
            (Texts{"chance: draw constitution", "seat 1 drew constitution from the politics deck",
                   "seat 1 revealed constitution"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 dice=1,3,politics prog1=bishop,deserter,diplomat,intrigue "
                 "vpc1=constitution lvl1=030 deck_politics=101112322");
  EXPECT_EQ(s.player(1).vp, 1);
  EXPECT_EQ(s.player(1).num_progress, 4);

  // Never played, even by its owner on his turn (PD-4).
  const State own = Pos("phase=action current=1 turn=10 vpc1=constitution deck_politics=202222322");
  EXPECT_EQ(LegalTexts(own, "play"), Texts{});
  ExpectRefused(own, "play constitution", "PD-4");
}

// ---- C-P3 Deserter ----------------------------------------------------------------

// Seat 0: settlement 0, roads 0-3-7 (free road nodes 3 and 7). Seat 1: a basic
// inactive knight on 27 and a strong active one on 33. Seat 2 has no knight;
// seat 3 a basic knight on 46.
constexpr std::string_view kDeserter =
    "phase=action current=0 turn=9 s0=0 r0=0,6 prog0=deserter s1=38 r1=39,49 k1=27:1,33:2a s2=45 r2=58 s3=50 r3=65 "
    "k3=46:1 deck_politics=211222322 ";

TEST(PoliticsCardsTest, Cp3DeserterVictimChoosesThenSameLevelSameStateNotReady) {
  State s = Pos(kDeserter);
  // PC-7: an opponent with a knight on the board.
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play deserter 1", "play deserter 3"}));
  ExpectRefused(s, "play deserter 2", "C-P3");  // no knight
  ExpectRefused(s, "play deserter 0", "C-P3");  // not an opponent

  EXPECT_EQ(Play(s, "play deserter 1"), (Texts{"seat 0: play deserter 1"}));
  // Step 1: seat 1 chooses which of his knights deserts (section 19).
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=0 r0=0,6 s1=38 r1=39,49 k1=27:1,33:2a s2=45 r2=58 "
                 "s3=50 r3=65 k3=46:1 deck_politics=211222322 pending=step_return_progress@0:12/deserter_remove@1");
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(LegalTexts(s), (Texts{"remove_knight n27", "remove_knight n33"}));
  ExpectRefused(s, "remove_knight n46", "C-P3");  // seat 3's knight
  ExpectRefused(s, "end_turn", "19");

  EXPECT_EQ(Play(s, "remove_knight n33"),
            (Texts{"seat 1: remove_knight n33", "seat 1's knight at n33 deserted to supply"}));
  // Step 2: seat 0 places a strong knight (the removed level), active like
  // the removed one, on an empty intersection at his roads (KN-3), or not.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 s0=0 r0=0,6 s1=38 r1=39,49 k1=27:1 s2=45 r2=58 s3=50 "
                 "r3=65 k3=46:1 deck_politics=211222322 pending=step_return_progress@0:12/deserter_place@0:2,1");
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "place_knight n3 2", "place_knight n7 2"}));
  ExpectRefused(s, "place_knight n7 1", "C-P3");   // not the level the card allows
  ExpectRefused(s, "place_knight n7 3", "C-P3");   // nor a higher one
  ExpectRefused(s, "place_knight n12 2", "C-P3");  // no road of seat 0 there
  ExpectRefused(s, "place_knight n0 2", "C-P3");   // not empty

  EXPECT_EQ(Play(s, "place_knight n7 2"), (Texts{"seat 0: place_knight n7 2"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 s0=0 r0=0,6 k0=7:2a s1=38 r1=39,49 k1=27:1 s2=45 r2=58 "
                 "s3=50 r3=65 k3=46:1 deck_politics=211222322/deserter");
  // E07/KN-6: active, but placed this turn, so it cannot act.
  EXPECT_FALSE(s.knight_flags(7) & kKnightReady);
  ExpectRefused(s, "move_knight n7 n3", "KN-6");
}

TEST(PoliticsCardsTest, Cp3DeserterPlacementMayBeDeclined) {
  State s =
      Pos("phase=action current=0 turn=9 s0=0 r0=0,6 s1=38 r1=39,49 k1=27:1 deck_politics=211222322 "
          "pending=step_return_progress@0:12/deserter_place@0:2,1");
  EXPECT_EQ(Play(s, "stop"), (Texts{"seat 0: stop"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=0 r0=0,6 s1=38 r1=39,49 k1=27:1 "
                 "deck_politics=211222322/deserter");
}

// C-P3 step 2 under the default SAME_LEVEL_SAME_STATE, from the moment the
// victim's knight has left: the removed level and state are on the stack.
constexpr std::string_view kPlace = "phase=action current=0 turn=9 s0=0 r0=0,1,6 s1=38 r1=39,49 ";
constexpr std::string_view kPlaceDeck = "deck_politics=211222322 ";

TEST(PoliticsCardsTest, Cp3DeserterLowerLevelWhenTheSameIsNotInSupply) {
  // A strong knight deserted; both of seat 0's strong knights are on the
  // board, so he places the highest lower level he has: a basic one, active.
  State s = Pos(std::string(kPlace) + std::string(kPlaceDeck) +
                "k0=3:2,4:2 pending=step_return_progress@0:12/deserter_place@0:2,1");
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "place_knight n7 1"}));
  ExpectRefused(s, "place_knight n7 2", "C-P3");
  Play(s, "place_knight n7 1");
  ExpectPosition(s, std::string(kPlace) + "actions=1 k0=3:2,4:2,7:1a deck_politics=211222322/deserter");
}

TEST(PoliticsCardsTest, Cp3DeserterStrongWhenNoMightyLeftInSupply) {
  // A mighty knight deserted; both of seat 0's mighty knights are on the
  // board (he has the Fortress): a strong one comes instead.
  State s = Pos(std::string(kPlace) + std::string(kPlaceDeck) +
                "k0=3:3,4:3 lvl0=030 pending=step_return_progress@0:12/deserter_place@0:3");
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "place_knight n7 2"}));
  Play(s, "place_knight n7 2");
  // Inactive, as the removed knight was.
  ExpectPosition(s, std::string(kPlace) + "actions=1 k0=3:3,4:3,7:2 lvl0=030 deck_politics=211222322/deserter");
}

TEST(PoliticsCardsTest, Cp3DeserterPlacesAMightyKnightWithoutAFortress) {
  // KN-5: the Deserter is the only way to a mighty knight without the Fortress.
  State s =
      Pos(std::string(kPlace) + std::string(kPlaceDeck) + "pending=step_return_progress@0:12/deserter_place@0:3,1");
  ASSERT_EQ(s.player(0).level[kPolitics], 0);
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "place_knight n3 3", "place_knight n4 3", "place_knight n7 3"}));
  Play(s, "place_knight n4 3");
  ExpectPosition(s, std::string(kPlace) + "actions=1 k0=4:3a deck_politics=211222322/deserter");
}

TEST(PoliticsCardsTest, Cp3DeserterNoPieceNothingPlacedButTheVictimStillLosesHisKnight) {
  // Seat 0's two basic knights are on the board and a basic knight deserts:
  // nothing can be placed, the step ends by itself, seat 1's knight is gone.
  State s =
      Pos("phase=action current=0 turn=9 s0=0 r0=0,1,6 k0=3:1,4:1 prog0=deserter s1=38 r1=39,49 k1=27:1a "
          "deck_politics=211222322");
  Play(s, "play deserter 1");
  EXPECT_EQ(LegalTexts(s), (Texts{"remove_knight n27"}));
  EXPECT_EQ(Play(s, "remove_knight n27"),
            (Texts{"seat 1: remove_knight n27", "seat 1's knight at n27 deserted to supply"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 s0=0 r0=0,1,6 k0=3:1,4:1 s1=38 r1=39,49 "
                 "deck_politics=211222322/deserter");
}

TEST(PoliticsCardsTest, Cp3DeserterNoFreeIntersectionNothingPlaced) {
  // C-P3.3: no legal intersection (seat 0 has no road) — step 1 still happens.
  State s = Pos("phase=action current=0 turn=9 s0=0 prog0=deserter s1=38 r1=39,49 k1=27:2a deck_politics=211222322");
  Play(s, "play deserter 1");
  Play(s, "remove_knight n27");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 s0=0 s1=38 r1=39,49 deck_politics=211222322/deserter");
}

TEST(PoliticsCardsTest, Cp3DeserterAnyLevelInactiveOption) {
  // D08 ANY_LEVEL_INACTIVE: any knight from supply, always inactive; a
  // mighty one even without the Fortress.
  const std::string opts = "opts=[deserter_placement=ANY_LEVEL_INACTIVE] ";
  State s = Pos(opts + std::string(kPlace) + std::string(kPlaceDeck) +
                "pending=step_return_progress@0:12/deserter_place@0:1,1");
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "place_knight n3 1", "place_knight n3 2", "place_knight n3 3",
                                  "place_knight n4 1", "place_knight n4 2", "place_knight n4 3", "place_knight n7 1",
                                  "place_knight n7 2", "place_knight n7 3"}));
  Play(s, "place_knight n7 3");
  ExpectPosition(s, opts + std::string(kPlace) + "actions=1 k0=7:3 deck_politics=211222322/deserter");

  // Only the levels left in supply are offered.
  State few = Pos(opts + std::string(kPlace) + std::string(kPlaceDeck) +
                  "k0=3:1,4:1 pending=step_return_progress@0:12/deserter_place@0:1,1");
  EXPECT_EQ(LegalTexts(few), (Texts{"stop", "place_knight n7 2", "place_knight n7 3"}));
}

TEST(PoliticsCardsTest, Cp3DeserterWholePlayUnderAnyLevelInactive) {
  State s = Pos("opts=[deserter_placement=ANY_LEVEL_INACTIVE] " + std::string(kDeserter));
  Play(s, "play deserter 1");
  Play(s, "remove_knight n33");  // strong and active
  Play(s, "place_knight n3 1");
  ExpectPosition(s,
                 "opts=[deserter_placement=ANY_LEVEL_INACTIVE] phase=action current=0 turn=9 actions=3 s0=0 r0=0,6 "
                 "k0=3:1 s1=38 r1=39,49 k1=27:1 s2=45 r2=58 s3=50 r3=65 k3=46:1 deck_politics=211222322/deserter");
}

TEST(PoliticsCardsTest, Lr3DeserterPlacedKnightCutsAnOpponentsLongestRoad) {
  // Seat 1's trail 38-33-27-21-16-11 (5 roads) holds Longest Road. Seat 0's
  // road e40 ends at 33, so the deserter may stand there (KN-3) and cut the
  // trail (KN-10): 4 left, nobody holds the card (LR-4).
  State s =
      Pos("phase=action current=0 turn=9 s0=28 r0=40 prog0=deserter s1=38 r1=18,23,33,39,49 k1=11:1 longest=1 "
          "deck_politics=211222322");
  Play(s, "play deserter 1");
  Play(s, "remove_knight n11");
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "place_knight n33 1"}));
  EXPECT_EQ(Play(s, "place_knight n33 1"), (Texts{"seat 0: place_knight n33 1", "nobody holds Longest Road"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 s0=28 r0=40 k0=33:1 s1=38 r1=18,23,33,39,49 "
                 "deck_politics=211222322/deserter");
  EXPECT_EQ(s.player(1).road_length, 4);
  EXPECT_EQ(s.player(1).vp, 1);
}

// ---- C-P4 Diplomat ----------------------------------------------------------------

// Open roads (DEF-8): seat 0's e6 (3-7: nothing of seat 0 at 7) and seat 2's
// e57 (40-44: nothing of seat 2 at 44). Closed: seat 0's e0 (settlement at 0,
// road at 3); seat 1's e39 (own knight at 27, road at 33) and e49; seat 2's
// e58 (settlement at 45, road at 40).
constexpr std::string_view kDiplomat =
    "phase=action current=0 turn=9 s0=0 r0=0,6 prog0=diplomat s1=38 r1=39,49 k1=27:1 s2=45 r2=57,58 "
    "deck_politics=212122322 ";

TEST(PoliticsCardsTest, Cp4DiplomatOnlyOpenRoads) {
  const State s = Pos(kDiplomat);
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play diplomat e6", "play diplomat e57"}));
  ExpectRefused(s, "play diplomat e0", "C-P4");   // closed at both ends
  ExpectRefused(s, "play diplomat e39", "C-P4");  // closed by an own knight (DEF-8)
  ExpectRefused(s, "play diplomat e49", "C-P4");
  ExpectRefused(s, "play diplomat e58", "C-P4");
  ExpectRefused(s, "play diplomat e10", "C-P4");  // no road at all
  // Nobody has an open road: no Diplomat.
  ExpectRefused(Pos("phase=action current=0 turn=9 s0=0 r0=0,6 k0=7:1 prog0=diplomat deck_politics=212122322"),
                "play diplomat e0", "C-P4");
}

TEST(PoliticsCardsTest, Cp4DiplomatRemovesAnOpponentsRoad) {
  State s = Pos(kDiplomat);
  EXPECT_EQ(Play(s, "play diplomat e57"),
            (Texts{"seat 0: play diplomat e57", "seat 2's road at e57 went back to supply"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=0 r0=0,6 s1=38 r1=39,49 k1=27:1 s2=45 r2=58 "
                 "deck_politics=212122322/diplomat");
  EXPECT_EQ(s.player(2).roads_left, 14);
}

TEST(PoliticsCardsTest, Cp4DiplomatOwnRoadMayBePlacedAgainForFree) {
  State s = Pos(std::string(kDiplomat) + "hand0=1o");
  EXPECT_EQ(Play(s, "play diplomat e6"),
            (Texts{"seat 0: play diplomat e6", "seat 0's road at e6 went back to supply"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=0 r0=0 hand0=1o s1=38 r1=39,49 k1=27:1 s2=45 r2=57,58 "
                 "deck_politics=212122322 pending=step_return_progress@0:13/diplomat_replace@0:1");
  // Any edge legal under BLD-1 after the removal (its old place included),
  // without paying; or keep it in supply.
  EXPECT_EQ(LegalTexts(s), (Texts{"build_road e1", "build_road e6", "stop"}));
  ExpectRefused(s, "build_road e10", "BLD-1");
  ExpectRefused(s, "end_turn", "19");
  EXPECT_EQ(Play(s, "build_road e1"), (Texts{"seat 0: build_road e1"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 s0=0 r0=0,1 hand0=1o s1=38 r1=39,49 k1=27:1 s2=45 "
                 "r2=57,58 deck_politics=212122322/diplomat");
}

TEST(PoliticsCardsTest, Cp4DiplomatLongestRoadRecomputed) {
  // Seats 0 and 1 both have 5-road trails; seat 1 holds Longest Road (LR-4).
  // The Diplomat takes seat 1's open end road e18 (11-16): seat 1 falls to 4,
  // seat 0 alone has the longest, so he takes the card.
  State s =
      Pos("phase=action current=0 turn=9 s0=2 r0=4,8,15,21,29 prog0=diplomat s1=38 r1=18,23,33,39,49 longest=1 "
          "deck_politics=212122322");
  ASSERT_EQ(s.player(1).vp, 3);
  EXPECT_EQ(
      Play(s, "play diplomat e18"),
      (Texts{"seat 0: play diplomat e18", "seat 1's road at e18 went back to supply", "seat 0 holds Longest Road"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=2 r0=4,8,15,21,29 s1=38 r1=23,33,39,49 longest=0 "
                 "deck_politics=212122322/diplomat");
  EXPECT_EQ(s.player(0).vp, 3);
  EXPECT_EQ(s.player(1).vp, 1);
  EXPECT_EQ(s.player(1).road_length, 4);
}

TEST(PoliticsCardsTest, Cp4DiplomatAllOpenRoadsOption) {
  // D11 ALL_OPEN_ROADS: one play ("e0" is the only encoding) removes every
  // road open at that moment; e0 and e58 become open by it but stay.
  const std::string opts = "opts=[diplomat_scope=ALL_OPEN_ROADS] ";
  State s = Pos(opts + std::string(kDiplomat));
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play diplomat e0"}));
  ExpectRefused(s, "play diplomat e6", "C-P4");
  EXPECT_EQ(Play(s, "play diplomat e0"), (Texts{"seat 0: play diplomat e0", "seat 0's road at e6 went back to supply",
                                                "seat 2's road at e57 went back to supply"}));
  ExpectPosition(s, opts +
                        "phase=action current=0 turn=9 actions=1 s0=0 r0=0 s1=38 r1=39,49 k1=27:1 s2=45 r2=58 "
                        "deck_politics=212122322 pending=step_return_progress@0:13/diplomat_replace@0:1");
  EXPECT_EQ(LegalTexts(s), (Texts{"build_road e1", "build_road e6", "stop"}));
  Play(s, "stop");
  ExpectPosition(s, opts +
                        "phase=action current=0 turn=9 actions=2 s0=0 r0=0 s1=38 r1=39,49 k1=27:1 s2=45 r2=58 "
                        "deck_politics=212122322/diplomat");
}

TEST(PoliticsCardsTest, Kn13DiplomatLeavesAnIsolatedKnightStanding) {
  // E18: seat 1's road e62 (43-47) is open at 43; his knight on 47 stays
  // when it goes, and can no longer move.
  State s = Pos("phase=action current=0 turn=9 prog0=diplomat s1=0 r1=62 k1=47:1a deck_politics=212122322");
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play diplomat e62"}));
  Play(s, "play diplomat e62");
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s1=0 k1=47:1a deck_politics=212122322/diplomat");
}

// ---- C-P5 Intrigue ----------------------------------------------------------------

TEST(PoliticsCardsTest, Cp5IntrigueOwnerRelocatesAlongHisRoads) {
  State s = Pos(kIntrigue);
  // Only an opponent's knight on an intersection where seat 0 has a road.
  ExpectRefused(s, "play intrigue n27", "C-P5");  // seat 0's own knight
  ExpectRefused(s, "play intrigue n12", "C-P5");  // seat 2's knight, no road of seat 0 there
  ExpectRefused(s, "play intrigue n39", "C-P5");  // no knight

  EXPECT_EQ(Play(s, "play intrigue n33"), (Texts{"seat 0: play intrigue n33"}));
  // KN-8 step 2: seat 1 moves it along his roads (past his own settlement on
  // 43) to an empty intersection, keeping level and state.
  ExpectPosition(
      s,
      "phase=action current=0 turn=9 actions=1 s0=21 r0=33,39 k0=27:1 prog0=bishop s1=43 r1=49,54,55 "
      "s2=8 r2=12 k2=12:1 deck_politics=112212322 pending=step_return_progress@0:14/relocate_knight@1:33,2,1");
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(LegalTexts(s), (Texts{"relocate_knight n38", "relocate_knight n39"}));
  ExpectRefused(s, "relocate_knight n33", "KN-8");  // it must leave
  ExpectRefused(s, "relocate_knight n22", "KN-8");  // not along seat 1's roads
  Play(s, "relocate_knight n39");
  // The player does not occupy the freed intersection.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 s0=21 r0=33,39 k0=27:1 prog0=bishop s1=43 r1=49,54,55 "
                 "k1=39:2a s2=8 r2=12 k2=12:1 deck_politics=112212322/intrigue");
}

TEST(PoliticsCardsTest, Cp5IntrigueRemovesTheKnightWithNoRoomToGo) {
  // KN-8 step 3: seat 1's only road leads to his own settlement.
  State s =
      Pos("phase=action current=0 turn=9 s0=21 r0=33,39 prog0=intrigue s1=38 r1=49 k1=33:2a "
          "deck_politics=212212322");
  EXPECT_EQ(Play(s, "play intrigue n33"),
            (Texts{"seat 0: play intrigue n33", "seat 1's knight at n33 went back to supply"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=21 r0=33,39 s1=38 r1=49 deck_politics=212212322/intrigue");
  EXPECT_EQ(s.player(1).knights_left[1], 2);
}

TEST(PoliticsCardsTest, Lr3IntrigueFreedIntersectionJoinsThePlayersRoads) {
  // Seat 1's knight on 33 splits seat 0's roads 16-21-27-33-28-22 into 3 + 2.
  // The Intrigue sends it home (no room: KN-8 step 3); the trail is whole
  // again, 5 long, and seat 0 takes Longest Road.
  State s =
      Pos("phase=action current=0 turn=9 s0=16 r0=23,33,34,39,40 prog0=intrigue s1=38 r1=49 k1=33:1 "
          "deck_politics=212212322");
  ASSERT_EQ(s.player(0).road_length, 3);
  EXPECT_EQ(Play(s, "play intrigue n33"), (Texts{"seat 0: play intrigue n33", "seat 0 holds Longest Road",
                                                 "seat 1's knight at n33 went back to supply"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=16 r0=23,33,34,39,40 s1=38 r1=49 longest=0 "
                 "deck_politics=212212322/intrigue");
  EXPECT_EQ(s.player(0).vp, 3);
}

// ---- C-P6 Saboteur ----------------------------------------------------------------

// VP: seat 0 2 (a city), seat 1 2 (equal), seat 2 1 (fewer), seat 3 3 (more).
// Hands: seat 0 9 cards, seat 1 5, seat 2 8, seat 3 3.
constexpr std::string_view kSaboteur =
    "phase=action current=0 turn=9 c0=0 hand0=4b5w prog0=saboteur s1=38,45 hand1=2b2w1m s2=50 hand2=8o c3=12 s3=47 "
    "hand3=1g2c deck_politics=212221322 ";

TEST(PoliticsCardsTest, Cp6SaboteurEqualOrMoreVpDiscardHalfRoundedDown) {
  State s = Pos(kSaboteur);
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play saboteur"}));
  ExpectRefused(s, "play saboteur n12", "C-P6");  // a city is named only under SABOTAGE_CITY
  // Seat 1 (equal): 5 cards, discards 2; seat 3 (more): 3 cards, discards 1;
  // seat 2 (fewer) and the player himself, never.
  EXPECT_EQ(Play(s, "play saboteur"),
            (Texts{"seat 0: play saboteur", "seat 1 must discard 2 cards", "seat 3 must discard 1 card"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 c0=0 hand0=4b5w s1=38,45 hand1=2b2w1m s2=50 hand2=8o c3=12 "
                 "s3=47 hand3=1g2c deck_politics=212221322 pending=step_return_progress@0:15/discard@3:1/discard@1:2");
  // In turn order after the player; each victim chooses, commodities too.
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(LegalTexts(s), (Texts{"discard brick", "discard wool", "discard coin"}));
  ExpectRefused(s, "discard ore", "SEV-2");
  std::vector<Event> events;
  Play(s, "discard coin", &events);
  EXPECT_EQ(events[0].private_to, 0);  // E19: Saboteur discards are public
  Play(s, "discard wool");
  EXPECT_EQ(s.CurrentPlayer(), 3);
  EXPECT_EQ(LegalTexts(s), (Texts{"discard grain", "discard cloth"}));
  Play(s, "discard cloth");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=4 c0=0 hand0=4b5w s1=38,45 hand1=2b1w s2=50 hand2=8o c3=12 "
                 "s3=47 hand3=1g1c deck_politics=212221322/saboteur");
}

TEST(PoliticsCardsTest, Cp6SaboteurStrictlyMoreVpOption) {
  // D02 HALF_HAND_VP_GT: seat 1 (equal VP) is spared.
  const std::string opts = "opts=[saboteur=HALF_HAND_VP_GT] ";
  State s = Pos(opts + std::string(kSaboteur));
  EXPECT_EQ(Play(s, "play saboteur"), (Texts{"seat 0: play saboteur", "seat 3 must discard 1 card"}));
  ExpectPosition(s, opts +
                        "phase=action current=0 turn=9 actions=1 c0=0 hand0=4b5w s1=38,45 hand1=2b2w1m s2=50 hand2=8o "
                        "c3=12 s3=47 hand3=1g2c deck_politics=212221322 "
                        "pending=step_return_progress@0:15/discard@3:1");
}

TEST(PoliticsCardsTest, Cp6SaboteurOneCardIsNoDiscardAndTheCardIsAlwaysPlayable) {
  // floor(1/2) = 0: nobody is hit, the card still may be played (PC-7: no
  // precondition) and goes under its deck.
  State s = Pos("phase=action current=0 turn=9 prog0=saboteur s1=38 hand1=1o s2=50 deck_politics=212221322");
  EXPECT_EQ(Play(s, "play saboteur"), (Texts{"seat 0: play saboteur"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s1=38 hand1=1o s2=50 deck_politics=212221322/saboteur");
}

// SABOTAGE_CITY (the 1998 card): seat 1's walled city on 12 is the only
// target; seat 2's city carries the politics metropolis (E20), seat 3's is
// already sabotaged, seat 0's is his own, seat 1's 38 is a settlement.
constexpr std::string_view kSabotage =
    "opts=[saboteur=SABOTAGE_CITY] phase=action current=0 turn=9 c0=0 prog0=saboteur c1=12w s1=38 c2=40P lvl2=040 "
    "c3=50x deck_politics=212221322 ";

TEST(PoliticsCardsTest, Cp6SabotageCityTargets) {
  const State s = Pos(kSabotage);
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play saboteur n12"}));
  ExpectRefused(s, "play saboteur n40", "C-P6");  // a metropolis (E20)
  ExpectRefused(s, "play saboteur n50", "C-P6");  // already sabotaged
  ExpectRefused(s, "play saboteur n38", "C-P6");  // a settlement
  ExpectRefused(s, "play saboteur", "C-P6");      // n0: his own city
}

TEST(PoliticsCardsTest, Cp6SabotageCityKeepsItsVpAndWall) {
  State s = Pos(kSabotage);
  ASSERT_EQ(s.player(1).vp, 3);
  EXPECT_EQ(Play(s, "play saboteur n12"), (Texts{"seat 0: play saboteur n12", "seat 1's city at n12 was sabotaged"}));
  ExpectPosition(s,
                 "opts=[saboteur=SABOTAGE_CITY] phase=action current=0 turn=9 actions=1 c0=0 c1=12wx s1=38 c2=40P "
                 "lvl2=040 c3=50x deck_politics=212221322/saboteur");
  EXPECT_EQ(s.player(1).vp, 3);
  EXPECT_EQ(s.HandLimit(1), 9);  // the wall still counts
}

TEST(PoliticsCardsTest, Cp6SabotagedCityYieldsAsASettlement) {
  // PRD-1: a 6 on the mountains (hex 4): the sabotaged city on 12 yields 1
  // ore, seat 2's sound city on 18 yields 1 ore + 1 coin.
  State s = Pos("opts=[saboteur=SABOTAGE_CITY] phase=before_roll current=1 turn=10 c1=12x c2=18");
  Play(s, "roll");
  EXPECT_EQ(Play(s, "dice 3 3 trade"), (Texts{"chance: dice 3 3 trade", "seat 1 produced 1 ore",
                                              "seat 2 produced 1 ore", "seat 2 produced 1 coin"}));
  ExpectPosition(
      s,
      "opts=[saboteur=SABOTAGE_CITY] phase=action current=1 turn=10 actions=2 dice=3,3,trade c1=12x hand1=1o "
      "c2=18 hand2=1o1m");
}

TEST(PoliticsCardsTest, Cp6SabotagedCityRepairedForOneLumberOneOre) {
  const std::string opts = "opts=[saboteur=SABOTAGE_CITY] ";
  State s = Pos(opts + "phase=action current=1 turn=10 c1=12x,45 hand1=1l1o");
  EXPECT_EQ(LegalTexts(s, "repair_city"), (Texts{"repair_city n12"}));
  ExpectRefused(s, "repair_city n45", "C-P6");  // not sabotaged
  EXPECT_EQ(Play(s, "repair_city n12"), (Texts{"seat 1: repair_city n12", "seat 1 paid 1 lumber", "seat 1 paid 1 ore",
                                               "seat 1's city at n12 was repaired"}));
  ExpectPosition(s, opts + "phase=action current=1 turn=10 actions=1 c1=12,45");
  // Without the cards; on someone else's city; outside SABOTAGE_CITY.
  ExpectRefused(Pos(opts + "phase=action current=1 turn=10 c1=12x hand1=1l"), "repair_city n12", "COST-1");
  ExpectRefused(Pos(opts + "phase=action current=0 turn=10 c1=12x hand0=1l1o"), "repair_city n12", "C-P6");
  ExpectRefused(Pos("phase=action current=1 turn=10 c1=12 hand1=1l1o"), "repair_city n12", "C-P6");
}

TEST(PoliticsCardsTest, Cp6SabotagedCityCountsForTheBarbariansAndIsPillagedToASettlement) {
  // BAR-2: the sabotaged city is one of the barbarians' strength; nobody has
  // a knight, so they win, and seat 1 loses it: a plain settlement, its wall
  // back in supply (BAR-8, BLD-5), no sabotaged mark left.
  State s = Pos("opts=[saboteur=SABOTAGE_CITY] phase=before_roll current=0 turn=9 barbarians=6 c1=12wx s1=38");
  Play(s, "roll");
  EXPECT_EQ(Play(s, "dice 1 1 ship"), (Texts{"chance: dice 1 1 ship", "barbarians advance to 7",
                                             "barbarians attack: barbarians 1 vs Catan 0, barbarians win",
                                             "seat 0 defended with strength 0", "seat 1 defended with strength 0",
                                             "seat 2 defended with strength 0", "seat 3 defended with strength 0"}));
  EXPECT_EQ(LegalTexts(s), (Texts{"pillage_city n12"}));
  EXPECT_EQ(Play(s, "pillage_city n12"), (Texts{"seat 1: pillage_city n12", "seat 1 lost the city at n12"}));
  ExpectPosition(s,
                 "opts=[saboteur=SABOTAGE_CITY] phase=action current=0 turn=9 actions=3 attacks=1 dice=1,1,ship "
                 "s1=12,38");
  EXPECT_EQ(s.player(1).walls_left, 3);
  EXPECT_EQ(s.node_flags(12), 0);
}

// ---- C-P7 Spy ---------------------------------------------------------------------

// Seat 1 holds a Warlord and a Wedding and has revealed the Constitution;
// seat 2 only the Printer (revealed); seat 3 nothing. Seat 0 has an inactive
// knight on 27.
constexpr std::string_view kSpy =
    "phase=action current=0 turn=9 s0=21 r0=33,39 k0=27:1 prog0=spy prog1=warlord,wedding vpc1=constitution "
    "vpc2=printer deck_politics=202222211 deck_science=2212222022 ";

TEST(PoliticsCardsTest, Cp7SpySeesTheCardsAndTakesOneVpCardsOutOfReach) {
  State s = Pos(kSpy);
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play spy 1"}));
  ExpectRefused(s, "play spy 2", "C-P7");  // only a revealed VP card (PC-3)
  ExpectRefused(s, "play spy 3", "C-P7");  // no progress card
  ExpectRefused(s, "play spy 0", "C-P7");  // not an opponent

  std::vector<Event> events;
  EXPECT_EQ(Play(s, "play spy 1", &events),
            (Texts{"seat 0: play spy 1", "seat 0 saw warlord in the progress hand of seat 1",
                   "seat 0 saw wedding in the progress hand of seat 1"}));
  EXPECT_EQ(events[1].private_to, 1u << 0);  // section 18: shown to the Spy's player only
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=21 r0=33,39 k0=27:1 prog1=warlord,wedding "
                 "vpc1=constitution vpc2=printer deck_politics=202222211 deck_science=2212222022 "
                 "pending=step_return_progress@0:16/spy_take@0:1");
  EXPECT_EQ(LegalTexts(s), (Texts{"take_progress warlord", "take_progress wedding"}));
  ExpectRefused(s, "take_progress constitution", "C-P7");
  ExpectRefused(s, "take_progress spy", "C-P7");
  EXPECT_EQ(Play(s, "take_progress warlord", &events),
            (Texts{"seat 0: take_progress warlord", "seat 0 took warlord from seat 1"}));
  EXPECT_EQ(events[1].private_to, (1u << 0) | (1u << 1));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 s0=21 r0=33,39 k0=27:1 prog0=warlord prog1=wedding "
                 "vpc1=constitution vpc2=printer deck_politics=202222211/spy deck_science=2212222022");
  // PC-5: a card taken this turn may be played at once.
  Play(s, "play warlord");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 s0=21 r0=33,39 k0=27:1a prog1=wedding vpc1=constitution "
                 "vpc2=printer deck_politics=202222211/spy,warlord deck_science=2212222022");
}

TEST(PoliticsCardsTest, Cp7SpyTakenAlchemistNotPlayableAfterTheRoll) {
  State s =
      Pos("phase=action current=0 turn=9 prog0=spy prog1=alchemist deck_politics=212222222 deck_science=1212222122");
  Play(s, "play spy 1");
  Play(s, "take_progress alchemist");
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 prog0=alchemist deck_politics=212222222/spy "
                 "deck_science=1212222122");
  EXPECT_EQ(LegalTexts(s, "play"), Texts{});
  ExpectRefused(s, "play alchemist 3 4", "C-S1");
}

TEST(PoliticsCardsTest, Pc4AppliesToTheSpysPlayer) {
  // Seat 0 holds five cards on his own turn (allowed, PC-4.2); after the Spy
  // he holds five again, and must give one back at the end of his turn
  // (PC-4.3).
  const std::string fields = "turn=9 prog0=bishop,deserter,diplomat,intrigue,spy prog1=warlord deck_politics=111112212";
  State s = Pos("phase=action current=0 " + fields);
  Play(s, "play spy 1");
  Play(s, "take_progress warlord");
  EXPECT_EQ(s.player(0).num_progress, 5);
  EXPECT_EQ(s.pending_size(), 0);
  Play(s, "end_turn");
  EXPECT_EQ(LegalTexts(s), (Texts{"discard_progress bishop", "discard_progress deserter", "discard_progress diplomat",
                                  "discard_progress intrigue", "discard_progress warlord"}));
  Play(s, "discard_progress intrigue");
  ExpectPosition(s,
                 "phase=before_roll current=1 turn=10 actions=4 prog0=bishop,deserter,diplomat,warlord "
                 "deck_politics=111112212/spy,intrigue@0");

  // D10 PLAY_OR_DISCARD: with five again, he must play or discard one before
  // anything else.
  const std::string opts = "opts=[progress_hand_limit=PLAY_OR_DISCARD] ";
  State strict = Pos(opts + "phase=action current=0 " + fields);
  Play(strict, "play spy 1");
  Play(strict, "take_progress warlord");
  EXPECT_EQ(LegalTexts(strict),
            (Texts{"discard_progress bishop", "discard_progress deserter", "discard_progress diplomat",
                   "discard_progress intrigue", "discard_progress warlord", "play warlord"}));
  ExpectRefused(strict, "end_turn", "PC-4");
}

// ---- C-P8 Warlord -----------------------------------------------------------------

TEST(PoliticsCardsTest, Cp8WarlordActivatesEveryKnightNotReady) {
  // Seat 0: inactive basics on 27 and 28, an active ready strong knight on 33.
  const std::string_view fields = "turn=9 s0=21 r0=33,34,39,40 prog0=warlord deck_politics=212222312 ";
  State s = Pos("phase=action current=0 " + std::string(fields) + "k0=27:1,28:1,33:2ar");
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play warlord"}));
  EXPECT_EQ(Play(s, "play warlord"), (Texts{"seat 0: play warlord"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 s0=21 r0=33,34,39,40 k0=27:1a,28:1a,33:2ar "
                 "deck_politics=212222312/warlord");
  // E07/KN-6: the knights it activated cannot act this turn; the one that was
  // ready still can.
  ExpectRefused(s, "move_knight n28 n22", "KN-6");
  ExpectRefused(s, "move_knight n27 n22", "KN-6");
  EXPECT_TRUE(IsLegal(s, A("move_knight n33 n22")));
}

TEST(PoliticsCardsTest, Cp8WarlordWithoutKnightsStillPlayable) {
  // No precondition (docs/PROGRESS_CARDS.md): with no knight it does nothing.
  State s = Pos("phase=action current=0 turn=9 prog0=warlord deck_politics=212222312");
  EXPECT_EQ(Play(s, "play warlord"), (Texts{"seat 0: play warlord"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 deck_politics=212222312/warlord");
}

// ---- C-P9 Wedding -----------------------------------------------------------------

// VP: seat 0 2, seat 1 3 (more), seat 2 2 (equal), seat 3 4 (more).
constexpr std::string_view kWedding =
    "phase=action current=0 turn=9 c0=0 prog0=wedding c1=12 s1=38 hand1=1b1w1c c2=45 hand2=3o c3=26,50 hand3=1g "
    "deck_politics=212222321 ";

TEST(PoliticsCardsTest, Cp9WeddingRicherOpponentsGiveTwoCardsOfTheirChoice) {
  State s = Pos(kWedding);
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play wedding"}));
  EXPECT_EQ(Play(s, "play wedding"), (Texts{"seat 0: play wedding"}));
  // Seat 1 gives 2, then seat 3 his whole hand of 1; seat 2 (equal) nothing.
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=1 c0=0 c1=12 s1=38 hand1=1b1w1c c2=45 hand2=3o c3=26,50 "
                 "hand3=1g deck_politics=212222321 "
                 "pending=step_return_progress@0:18/wedding_give@3:0,1/wedding_give@1:0,2");
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card brick", "give_card wool", "give_card cloth"}));
  ExpectRefused(s, "give_card ore", "C-P9");
  ExpectRefused(s, "end_turn", "19");
  std::vector<Event> events;
  EXPECT_EQ(Play(s, "give_card wool", &events), (Texts{"seat 1: give_card wool", "seat 1 gave 1 wool to seat 0"}));
  EXPECT_EQ(events[1].private_to, (1u << 0) | (1u << 1));  // section 18: the two players only
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card brick", "give_card cloth"}));
  Play(s, "give_card cloth");
  EXPECT_EQ(s.CurrentPlayer(), 3);
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card grain"}));
  EXPECT_EQ(Play(s, "give_card grain"), (Texts{"seat 3: give_card grain", "seat 3 gave 1 grain to seat 0"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=4 c0=0 hand0=1w1g1c c1=12 s1=38 hand1=1b c2=45 hand2=3o "
                 "c3=26,50 deck_politics=212222321/wedding");
}

TEST(PoliticsCardsTest, Cp9WeddingGiftsInTurnOrderFromThePlayer) {
  // Seat 2 (2 VP) plays it: the richer seats give in turn order after him,
  // seat 3 (3 VP) first, then seat 0 (4 VP); seat 1 (2 VP) gives nothing.
  State s =
      Pos("phase=action current=2 turn=9 c0=0,26 hand0=2o c1=12 hand1=2w c2=45 prog2=wedding c3=50 s3=38 hand3=1b1g "
          "deck_politics=212222321");
  Play(s, "play wedding");
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=1 c0=0,26 hand0=2o c1=12 hand1=2w c2=45 c3=50 s3=38 "
                 "hand3=1b1g deck_politics=212222321 "
                 "pending=step_return_progress@2:18/wedding_give@0:2,2/wedding_give@3:2,2");
  EXPECT_EQ(s.CurrentPlayer(), 3);
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card brick", "give_card grain"}));
  Play(s, "give_card grain");
  Play(s, "give_card brick");
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card ore"}));
  Play(s, "give_card ore");
  Play(s, "give_card ore");
  ExpectPosition(s,
                 "phase=action current=2 turn=9 actions=5 c0=0,26 c1=12 hand1=2w c2=45 hand2=1b1g2o c3=50 s3=38 "
                 "deck_politics=212222321/wedding");
}

TEST(PoliticsCardsTest, Cp9WeddingResourcesOnlyOption) {
  // D15: seat 1 has one resource (the brick) among commodities, so he gives
  // just that; seat 3 holds only commodities and gives nothing.
  const std::string opts = "opts=[progress_takes_resources_only=true] ";
  State s = Pos(opts +
                "phase=action current=0 turn=9 c0=0 prog0=wedding c1=12 s1=38 hand1=1b3c c3=26,50 hand3=2m "
                "deck_politics=212222321");
  Play(s, "play wedding");
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card brick"}));
  ExpectRefused(s, "give_card cloth", "C-P9");
  Play(s, "give_card brick");
  ExpectPosition(s, opts +
                        "phase=action current=0 turn=9 actions=2 c0=0 hand0=1b c1=12 s1=38 hand1=3c c3=26,50 hand3=2m "
                        "deck_politics=212222321/wedding");
}

TEST(PoliticsCardsTest, Cp9WeddingWithNobodyRicherDoesNothing) {
  // Equal VP or an empty hand: no gift; the card is still playable.
  State s = Pos("phase=action current=0 turn=9 c0=0 prog0=wedding c1=12 hand1=2o c2=26,50 deck_politics=212222321");
  EXPECT_EQ(Play(s, "play wedding"), (Texts{"seat 0: play wedding"}));
  ExpectPosition(
      s, "phase=action current=0 turn=9 actions=1 c0=0 c1=12 hand1=2o c2=26,50 deck_politics=212222321/wedding");
}

}  // namespace
}  // namespace metropolis
