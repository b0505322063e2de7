// PC-7 and RULES.md section 13: a refused progress-card play names the card's
// id and the condition that fails, not only that "the preconditions" do not
// hold. One refused play per card; the scenario tests of each card
// (cards_*_test.cc) check the other conditions by their rule id.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "engine/notation.h"
#include "engine/progress.h"
#include "engine/state.h"
#include "engine/tests/test_util.h"

namespace metropolis {
namespace {

using test_util::A;
using test_util::IsLegal;
using test_util::Pos;

struct Refusal {
  std::string_view card;    // held by seat 0 (a VP card is shown, vpc0)
  std::string_view fields;  // the rest of the position
  std::string_view action;
  std::string_view error;  // the whole message
};

// Full decks in the notation's order (1.7); the held card is taken out of its deck.
std::string Deck(int card) {
  const int track = ProgressTrack(card);
  std::string deck = track == kScience ? "2212222122" : track == kPolitics ? "212222322" : "226242";
  deck[card - TrackFirstCard(track)]--;
  return std::string(track == kScience    ? "deck_science="
                     : track == kPolitics ? "deck_politics="
                                          : "deck_trade=") +
         deck;
}

constexpr Refusal kRefusals[] = {
    {"alchemist", "phase=action current=0 turn=8 s0=45 r0=58", "play alchemist 2 3",
     "C-S1: the Alchemist is played before the roll only"},
    {"crane", "phase=action current=0 turn=8 s0=20 r0=31", "play crane", "C-S2: Crane needs a city of yours"},
    {"engineer", "phase=action current=0 turn=8 c0=20w,45 r0=31,58", "play engineer n20",
     "C-S3: the city on n20 already has a wall"},
    {"inventor", "phase=action current=0 turn=8", "play inventor h0 h7",
     "C-S4: Inventor cannot move a 6 (the token on h7)"},
    {"irrigation", "phase=before_roll current=0 turn=8 s0=0 r0=0", "play irrigation",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Irrigation (C-S5) is played after it (PC-5)"},
    {"medicine", "phase=action current=0 turn=8 s0=13 r0=20 hand0=1o5g", "play medicine n13",
     "C-S6: Medicine costs 2 ore + 1 grain (you hold 1 ore, 5 grain)"},
    {"mining", "phase=before_roll current=0 turn=8 s0=0 r0=0", "play mining",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Mining (C-S7) is played after it (PC-5)"},
    {"printer", "phase=action current=0 turn=8 c0=2 r0=5", "play printer",
     "PD-4: the Printer (C-S8) is a victory point card, never played"},
    {"road_building", "phase=action current=0 turn=8 longest=0 s0=0 r0=0,1,2,3,4,5,6,9,10,17,18,22,23,32,33",
     "play road_building", "C-S9: Road Building needs a road in your supply (SUP-1)"},
    {"smith", "phase=action current=0 turn=8 s0=21 c0=45 r0=23,24,33,58", "play smith",
     "C-S10: Smith needs a knight of yours on the board"},
    {"bishop", "phase=action current=0 turn=9 attacks=1 robber=7 s0=0 r0=0", "play bishop h7",
     "C-P1: Bishop needs the robber to move to another hex (it stands on h7)"},
    {"constitution", "phase=action current=0 turn=8 c0=2 r0=5", "play constitution",
     "PD-4: the Constitution (C-P2) is a victory point card, never played"},
    {"deserter", "phase=action current=0 turn=9 s0=0 r0=0", "play deserter 2",
     "C-P3: Deserter needs an opponent's knight, and seat 2 has none"},
    {"diplomat", "phase=action current=0 turn=9 s0=0 r0=0,6 k0=7:1", "play diplomat e10",
     "C-P4: Diplomat needs an open road (DEF-8), and no road on the board is open"},
    {"intrigue", "phase=action current=0 turn=9 s0=0 r0=0", "play intrigue n39", "C-P5: n39 holds no knight"},
    {"saboteur", "opts=[saboteur=SABOTAGE_CITY] phase=action current=0 turn=9 s0=0 r0=0 s1=38 r1=49",
     "play saboteur n38", "C-P6: n38 holds no city"},
    {"spy", "phase=action current=0 turn=9 s0=0 r0=0", "play spy 3",
     "C-P7: Spy needs a progress card to take, and seat 3 holds none (VP cards excepted)"},
    {"warlord", "phase=before_roll current=0 turn=9 s0=0 r0=0", "play warlord",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Warlord (C-P8) is played after it (PC-5)"},
    {"wedding", "phase=before_roll current=0 turn=9 s0=0 r0=0", "play wedding",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Wedding (C-P9) is played after it (PC-5)"},
    {"commercial_harbor", "phase=before_roll current=0 turn=9 s0=0 r0=0", "play commercial_harbor",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Commercial Harbor (C-T1) is played after it "
     "(PC-5)"},
    {"master_merchant", "phase=action current=0 turn=9 s0=0 r0=0 s1=38 r1=49", "play master_merchant 1",
     "C-T2: Master Merchant needs an opponent with more VP, and seat 1 has 1 to your 1"},
    {"merchant", "phase=action current=0 turn=9 s0=0 r0=0", "play merchant h9",
     "C-T3: the merchant cannot go to the desert (h9)"},
    {"merchant_fleet", "phase=before_roll current=0 turn=9 s0=0 r0=0", "play merchant_fleet brick",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Merchant Fleet (C-T4) is played after it "
     "(PC-5)"},
    {"resource_monopoly", "phase=before_roll current=0 turn=9 s0=0 r0=0", "play resource_monopoly ore",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Resource Monopoly (C-T5) is played after it "
     "(PC-5)"},
    {"trade_monopoly", "phase=before_roll current=0 turn=9 s0=0 r0=0", "play trade_monopoly coin",
     "TRN-2: before the roll you may only roll (or play an Alchemist); Trade Monopoly (C-T6) is played after it "
     "(PC-5)"},
};

TEST(ProgressRefusalsTest, Pc7EachCardNamesItsIdAndTheFailingCondition) {
  int seen = 0;
  for (const Refusal& r : kRefusals) {
    const int card = ProgressCardFromName(r.card);
    ASSERT_GE(card, 0) << r.card;
    EXPECT_EQ(card, seen++) << "the table follows the cards' order";
    const std::string held = std::string(IsVictoryPointCard(card) ? "vpc0=" : "prog0=") + std::string(r.card);
    const State s = Pos(std::string(r.fields) + " " + held + " " + Deck(card));
    const Action a = A(r.action);
    EXPECT_FALSE(IsLegal(s, a)) << r.action;
    State copy = s;
    const std::string error = copy.Apply(a);
    EXPECT_EQ(error, r.error) << r.card;
    EXPECT_NE(error.find(ProgressCardRule(card)), std::string::npos) << error;
    EXPECT_EQ(error.find("preconditions of"), std::string::npos) << error;
    EXPECT_TRUE(copy == s) << r.action << " changed the state";
  }
  EXPECT_EQ(seen, kNumProgressKinds);
}

}  // namespace
}  // namespace metropolis
