// The turn up to the roll and its resolution (RULES.md sections 5, 6 and 14):
// TRN-2/TRN-3, the order of section 6, PRD-1..PRD-5, SEV-1..SEV-3 and
// ROB-1..ROB-3. Positions are written in the notation (docs/NOTATION.md);
// docs/BOARD.md has the numbers. The default board's tokens, by hex:
//   0 F4, 1 P9, 2 F11, 3 P3, 4 M6, 5 G4, 6 P5, 7 H6, 8 F2, 9 desert,
//   10 H3, 11 F8, 12 G9, 13 H10, 14 G8, 15 M10, 16 P12, 17 M5, 18 G11.
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

constexpr std::string_view kHeader = "v1 cak seats=4 ";
constexpr std::string_view kDefaultBoard = "board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

State PositionOn(std::string_view board, std::string_view fields) {
  State s;
  std::string error;
  const std::string text = std::string(kHeader) + std::string(board) + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  return s;
}

// A position on the default board.
State Position(std::string_view fields) { return PositionOn(kDefaultBoard, fields); }

// Applies an action that must be legal; returns the events as text.
std::vector<std::string> Play(State& s, const Action& a) {
  const std::string before = ToNotation(s);
  std::vector<Event> events;
  const std::string error = s.Apply(a, &events);
  EXPECT_EQ(error, "") << ActionToString(a) << " refused in\n" << before;
  std::vector<std::string> texts;
  for (const Event& e : events) texts.push_back(EventToString(e));
  return texts;
}

// The current player rolls and the dice show (yellow, red, face): the events
// of the dice outcome.
std::vector<std::string> Roll(State& s, int yellow, int red, int face) {
  Play(s, Action::Roll());
  EXPECT_TRUE(s.IsChanceNode());
  return Play(s, Action::Dice(yellow, red, face));
}

// The whole state equals the position `fields` (canonical texts compared, so
// a failure shows both positions).
void ExpectPosition(const State& s, std::string_view fields) { EXPECT_EQ(ToNotation(s), ToNotation(Position(fields))); }

// An illegal action: never listed, refused by Apply with an error citing
// `rule`, and the state is unchanged.
void ExpectRefused(const State& s, const Action& a, std::string_view rule) {
  State copy = s;
  const std::string error = copy.Apply(a);
  EXPECT_TRUE(error.starts_with(std::string(rule) + ":"))
      << "expected a " << rule << " error for " << ActionToString(a) << ", got '" << error << "' in\n"
      << ToNotation(s);
  EXPECT_TRUE(copy == s) << "a refused action changed the state:\n" << ToNotation(s) << "\n" << ToNotation(copy);
  if (IsParameterised(a.type)) return;
  const std::vector<Action> legal = s.LegalActions();
  EXPECT_EQ(std::find(legal.begin(), legal.end(), a), legal.end()) << ActionToString(a) << " is listed as legal";
}

std::vector<Action> AqueductChoices(std::vector<int> resources) {
  std::vector<Action> out;
  for (int r : resources) out.push_back(Action::Make(ActionType::kAqueduct, r));
  return out;
}

Action Discard(int card) { return Action::Make(ActionType::kDiscard, card); }

// ---- TRN-2 / TRN-3 ---------------------------------------------------------------------

TEST(RulesRollTest, Trn2BeforeTheRollOnlyTheRoll) {
  const State s = Position("phase=before_roll current=0 turn=9 s0=12 r0=19 c0=40 hand0=4b2l2w2g3o");
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{Action::Roll()});
  ExpectRefused(s, Action::BuildRoad(25), "TRN-2");
  ExpectRefused(s, Action::BuildSettlement(17), "TRN-2");
  ExpectRefused(s, Action::BuildCity(12), "TRN-2");
  ExpectRefused(s, Action::Make(ActionType::kBankTrade, kBrick, kOre), "TRN-2");
  ExpectRefused(s, Action::EndTurn(), "TRN-2");
  CardCounts give, want;
  give[kBrick] = 1;
  want[kOre] = 1;
  ExpectRefused(s, Action::TradeOffer(give, want, 0b0010), "TRD-1");
}

TEST(RulesRollTest, Trn3TheRollIsAChanceNodeOverBothDiceAndTheEventDie) {
  State s = Position("phase=before_roll current=0 turn=9");
  EXPECT_EQ(Play(s, Action::Roll()), std::vector<std::string>{"seat 0: roll"});
  ASSERT_TRUE(s.IsChanceNode());
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 6u * 6u * 4u);
  double total = 0;
  for (const ChanceOutcome& o : outcomes) {
    total += o.probability;
    // 1.3: three ship faces, one gate per colour.
    EXPECT_DOUBLE_EQ(o.probability, o.action.c == kEventShip ? 1.0 / 72 : 1.0 / 216) << ActionToString(o.action);
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  // Nobody decides while the dice are rolling.
  ExpectRefused(s, Action::EndTurn(), "0.4");
  State rolled = Position("phase=before_roll current=0 turn=9");
  Roll(rolled, 2, 2, kEventShip);
  ExpectRefused(rolled, Action::Roll(), "TRN-3");  // once per turn
}

// ---- Section 6: event die, then draws, then production ------------------------------------------

TEST(RulesRollTest, Section6DrawsComeBeforeProduction) {
  // Seat 0 has science level 1 (red 1..2 draws) and a settlement on n19 (next
  // to hex 10, H3). A green gate with red 1 and a total of 3: the draw is a
  // chance node, and production waits for it.
  State s = Position("phase=before_roll current=0 turn=9 s0=19 lvl0=001");
  EXPECT_EQ(Roll(s, 2, 1, kEventScienceGate), std::vector<std::string>{"chance: dice 2 1 science"});
  ASSERT_TRUE(s.IsChanceNode());
  EXPECT_EQ(s.player(0).hand.Total(), 0);  // not produced yet
  const Action draw = s.ChanceOutcomes().front().action;
  const std::vector<std::string> events = Play(s, draw);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_TRUE(events[1].starts_with("seat 0 drew ")) << events[1];
  EXPECT_EQ(events[2], "seat 0 produced 1 brick");
  EXPECT_EQ(s.player(0).num_progress, 1);
}

TEST(RulesRollTest, Section6ShipMovesBeforeProduction) {
  State s = Position("phase=before_roll current=0 turn=9 barbarians=3 s0=19");
  EXPECT_EQ(Roll(s, 1, 2, kEventShip),
            (std::vector<std::string>{"chance: dice 1 2 ship", "barbarians advance to 4", "seat 0 produced 1 brick"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 barbarians=4 dice=1,2,ship s0=19 hand0=1b");
}

// ---- PRD-1 .. PRD-3 ------------------------------------------------------------------------

TEST(RulesRollTest, Prd1ForestCityYieldsLumberAndPaperFieldsCityTwoGrain) {
  // 4: hex 0 (forest) and hex 5 (fields). Seat 0's city n8 is on hex 0,
  // seat 1's city n14 on hex 5, seat 2's settlement n3 on hex 0; seat 3's
  // settlement n40 has no 4.
  State s = Position("phase=before_roll current=0 turn=9 c0=8 c1=14 s2=3 s3=40");
  EXPECT_EQ(
      Roll(s, 1, 3, kEventShip),
      (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 0 produced 1 lumber",
                                "seat 2 produced 1 lumber", "seat 1 produced 2 grain", "seat 0 produced 1 paper"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 barbarians=1 dice=1,3,ship c0=8 hand0=1l1p c1=14 hand1=2g "
                 "s2=3 hand2=1l s3=40");
}

TEST(RulesRollTest, Prd1PastureCityYieldsClothMountainsCityCoin) {
  // 5: hex 6 (pasture) and hex 17 (mountains). A yellow gate draws nothing
  // for players at trade level 0.
  State s = Position("phase=before_roll current=0 turn=9 c0=15 c1=52 s2=45");
  EXPECT_EQ(Roll(s, 2, 3, kEventTradeGate),
            (std::vector<std::string>{"chance: dice 2 3 trade", "seat 0 produced 1 wool", "seat 1 produced 1 ore",
                                      "seat 2 produced 1 ore", "seat 0 produced 1 cloth", "seat 1 produced 1 coin"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 dice=2,3,trade c0=15 hand0=1w1c c1=52 hand1=1o1m s2=45 "
                 "hand2=1o");
}

TEST(RulesRollTest, Prd1HillsCityYieldsTwoBrickNoCommodity) {
  // 6: hex 4 (mountains) and hex 7 (hills). Seat 0's city n27 is on hex 7
  // only; seat 1's settlement n13 touches hex 4.
  State s = Position("phase=before_roll current=0 turn=9 c0=27 s1=13");
  EXPECT_EQ(Roll(s, 3, 3, kEventShip), (std::vector<std::string>{"chance: dice 3 3 ship", "barbarians advance to 1",
                                                                 "seat 0 produced 2 brick", "seat 1 produced 1 ore"}));
  EXPECT_EQ(s.player(0).hand.Commodities(), 0);
}

TEST(RulesRollTest, Prd3BuildingOnTwoProducingHexesCollectsFromBoth) {
  // Tokens of hexes 3 and 7 swapped (as after an Inventor): hexes 3 (pasture)
  // and 4 (mountains) both carry a 6, and seat 0's city n12 touches both.
  State s = PositionOn("board=F4P9F11/P6M6G4P5/H3F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ",
                       "phase=before_roll current=0 turn=9 c0=12");
  EXPECT_EQ(Roll(s, 3, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 3 3 ship", "barbarians advance to 1", "seat 0 produced 1 wool",
                                      "seat 0 produced 1 ore", "seat 0 produced 1 cloth", "seat 0 produced 1 coin"}));
}

TEST(RulesRollTest, Prd2RobberHexYieldsNothing) {
  // As the forest/fields 4 above with the robber on hex 0 (forest).
  State s = Position("phase=before_roll current=0 turn=9 first_attack=yes attacks=1 robber=0 c0=8 c1=14 s2=3");
  EXPECT_EQ(Roll(s, 1, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 1 produced 2 grain"}));
  EXPECT_EQ(s.player(0).hand.Total(), 0);
  EXPECT_EQ(s.player(2).hand.Total(), 0);
}

// ---- PRD-4 bank shortage -------------------------------------------------------------------

TEST(RulesRollTest, Prd4TwoClaimantsAndTooFewCardsGetNothingOfThatType) {
  // Seat 3 holds 17 grain: the bank has 2. A 4 claims 2 grain for seat 0's
  // city n14 and 1 for seat 1's settlement n24; lumber (seat 2 on n3) is
  // paid as usual.
  State s = Position("phase=before_roll current=0 turn=9 c0=14 s1=24 s2=3 s3=40 hand3=17g");
  EXPECT_EQ(Roll(s, 1, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 2 produced 1 lumber",
                                      "bank shortage: nobody receives grain"}));
  EXPECT_EQ(s.player(0).hand.Total(), 0);
  EXPECT_EQ(s.player(1).hand.Total(), 0);
  EXPECT_EQ(s.bank()[kGrain], 2);
}

TEST(RulesRollTest, Prd4SingleClaimantTakesWhatIsLeft) {
  State s = Position("phase=before_roll current=0 turn=9 c0=14 s3=40 hand3=18g");
  EXPECT_EQ(Roll(s, 1, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 0 produced 1 grain"}));
  EXPECT_EQ(s.bank()[kGrain], 0);
  // Nothing left at all: nothing, and the shortage is announced.
  State empty = Position("phase=before_roll current=0 turn=9 c0=14 s3=40 hand3=19g");
  EXPECT_EQ(Roll(empty, 1, 3, kEventShip), (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1",
                                                                     "bank shortage: nobody receives grain"}));
}

TEST(RulesRollTest, Prd4CommodityShortageIsSeparateFromItsResource) {
  // Seat 3 holds all 12 paper: seat 0's forest city n8 gets its lumber only.
  State s = Position("phase=before_roll current=0 turn=9 c0=8 s3=40 hand3=12p");
  EXPECT_EQ(Roll(s, 1, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 0 produced 1 lumber",
                                      "bank shortage: nobody receives paper"}));
}

TEST(RulesRollTest, Prd4UnlimitedBankPaysEveryClaim) {
  State s = Position("opts=[bank_limited=false] phase=before_roll current=0 turn=9 c0=14 s1=24 s3=40 hand3=19g");
  EXPECT_EQ(Roll(s, 1, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 0 produced 2 grain",
                                      "seat 1 produced 1 grain"}));
  EXPECT_EQ(s.bank()[kGrain], -3);
}

// ---- PRD-5 Aqueduct --------------------------------------------------------------------------

TEST(RulesRollTest, Prd5NumberNotRolledGivesAResourceOfChoice) {
  // Seat 0 (science 3) sits on n40 (10, 8, 5); a 4 gives him nothing.
  State s = Position("phase=before_roll current=0 turn=9 s0=40 lvl0=003 c1=14");
  EXPECT_EQ(Roll(s, 1, 3, kEventShip),
            (std::vector<std::string>{"chance: dice 1 3 ship", "barbarians advance to 1", "seat 1 produced 2 grain"}));
  ASSERT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions(), AqueductChoices({kBrick, kLumber, kWool, kGrain, kOre}));  // resources only
  ExpectRefused(s, Action::EndTurn(), "19");
  EXPECT_EQ(Play(s, Action::Make(ActionType::kAqueduct, kOre)),
            (std::vector<std::string>{"seat 0: aqueduct ore", "seat 0 produced 1 ore"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 barbarians=1 dice=1,3,ship s0=40 hand0=1o lvl0=003 c1=14 "
                 "hand1=2g");
}

TEST(RulesRollTest, Prd5RobberBlockedCountsAsReceivedNothing) {
  // An 8 with the robber on hex 14 (G8), seat 0's only 8.
  State s = Position("phase=before_roll current=0 turn=9 attacks=1 robber=14 s0=40 lvl0=003");
  Roll(s, 4, 4, kEventShip);
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.pending_size(), 1);
  EXPECT_EQ(s.LegalActions(), AqueductChoices({kBrick, kLumber, kWool, kGrain, kOre}));
}

TEST(RulesRollTest, Prd5BankShortageCountsAsReceivedNothing) {
  // An 8: seat 0 (n40) and seat 1 (n36) both claim grain from hex 14, the bank
  // has none. The Aqueduct cannot give grain either.
  State s = Position("phase=before_roll current=0 turn=9 s0=40 lvl0=003 s1=36 s3=2 hand3=19g");
  Roll(s, 4, 4, kEventShip);
  ASSERT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions(), AqueductChoices({kBrick, kLumber, kWool, kOre}));
  ExpectRefused(s, Action::Make(ActionType::kAqueduct, kGrain), "PRD-5");
}

TEST(RulesRollTest, Prd5NoAqueductAfterReceivingACard) {
  // A 10: hex 13 (hills) gives seat 0 a brick.
  State s = Position("phase=before_roll current=0 turn=9 s0=40 lvl0=003");
  Roll(s, 5, 5, kEventShip);
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(s.player(0).hand.Total(), 1);
}

TEST(RulesRollTest, Prd5Sev1NeverOnASeven) {
  State s = Position("phase=before_roll current=0 turn=9 s0=40 lvl0=003");
  Roll(s, 3, 4, kEventShip);
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.player(0).hand.Total(), 0);
}

TEST(RulesRollTest, Prd5OnEveryPlayersRollInTurnOrder) {
  // Seat 1 rolls a 4; seats 0 and 2 both have the Aqueduct and receive
  // nothing. Seat 2 (next after seat 1) chooses first, then seat 0.
  State s = Position("phase=before_roll current=1 turn=10 s0=40 lvl0=003 s1=14 s2=2 lvl2=003");
  Roll(s, 1, 3, kEventShip);
  ASSERT_EQ(s.CurrentPlayer(), 2);
  ExpectRefused(s, Action::EndTurn(), "19");
  Play(s, Action::Make(ActionType::kAqueduct, kWool));
  ASSERT_EQ(s.CurrentPlayer(), 0);
  Play(s, Action::Make(ActionType::kAqueduct, kBrick));
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(s.pending_size(), 0);
  ExpectPosition(s,
                 "phase=action current=1 turn=10 actions=4 barbarians=1 dice=1,3,ship s0=40 hand0=1b lvl0=003 s1=14 "
                 "hand1=1g s2=2 hand2=1w lvl2=003");
}

TEST(RulesRollTest, Prd5NoAdjacentNumberOption) {
  // aqueduct_trigger=NO_ADJACENT_NUMBER: a robber-blocked 8 next to seat 0's
  // settlement is "having the number": no Aqueduct.
  State blocked = Position(
      "opts=[aqueduct_trigger=NO_ADJACENT_NUMBER] phase=before_roll current=0 turn=9 attacks=1 robber=14 s0=40 "
      "lvl0=003");
  Roll(blocked, 4, 4, kEventShip);
  EXPECT_EQ(blocked.pending_size(), 0);
  // The same for a bank shortage on his number.
  State shortage = Position(
      "opts=[aqueduct_trigger=NO_ADJACENT_NUMBER] phase=before_roll current=0 turn=9 s0=40 lvl0=003 s1=36 s3=2 "
      "hand3=19g");
  Roll(shortage, 4, 4, kEventShip);
  EXPECT_EQ(shortage.pending_size(), 0);
  // No building next to a 4: the Aqueduct applies.
  State none = Position("opts=[aqueduct_trigger=NO_ADJACENT_NUMBER] phase=before_roll current=0 turn=9 s0=40 lvl0=003");
  Roll(none, 1, 3, kEventShip);
  EXPECT_EQ(none.CurrentPlayer(), 0);
  EXPECT_EQ(none.LegalActions(), AqueductChoices({kBrick, kLumber, kWool, kGrain, kOre}));
}

// ---- SEV-1 .. SEV-3 ------------------------------------------------------------------------------

TEST(RulesRollTest, Sev1SevenProducesNothing) {
  // Seat 0 has cities everywhere a 7 could never matter; nothing is produced.
  State s = Position("phase=before_roll current=0 turn=9 c0=8 c1=14");
  EXPECT_EQ(Roll(s, 3, 4, kEventShip), (std::vector<std::string>{"chance: dice 3 4 ship", "barbarians advance to 1"}));
  EXPECT_EQ(s.player(0).hand.Total() + s.player(1).hand.Total(), 0);
}

TEST(RulesRollTest, Sev2DiscardHalfIncludingCommoditiesInTurnOrder) {
  // Seat 2 rolls a 7. Seat 2: 10 cards, limit 7, discards 5. Seat 3: 9 cards
  // but one wall (limit 9). Seat 0: 5 resources and 4 commodities (9), two
  // progress cards that do not count: discards 4. Seat 1: 12 cards, two walls
  // (limit 11), discards 6. Order: 2, 0, 1.
  State s = Position(
      "phase=before_roll current=2 turn=11 c0=8 hand0=2b3o2c2m prog0=bishop,spy deck_politics=112222222 "
      "c1=14w,40w hand1=4g4l4w c2=3 hand2=5b5l c3=26w hand3=9o");
  const std::vector<std::string> events = Roll(s, 3, 4, kEventShip);
  std::vector<std::string> sorted = events;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted,
            (std::vector<std::string>{"barbarians advance to 1", "chance: dice 3 4 ship", "seat 0 must discard 4 cards",
                                      "seat 1 must discard 6 cards", "seat 2 must discard 5 cards"}));
  std::vector<int> order;
  while (!s.IsChanceNode() && s.pending_size() > 0) {
    const int seat = s.CurrentPlayer();
    order.push_back(seat);
    // Discard the first card type held, one card at a time.
    const CardCounts& hand = s.player(seat).hand;
    int card = 0;
    while (hand[card] == 0) ++card;
    Play(s, Discard(card));
  }
  std::vector<int> by_seat;
  for (int seat : order)
    if (by_seat.empty() || by_seat.back() != seat) by_seat.push_back(seat);
  EXPECT_EQ(by_seat, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(order.size(), 15u);
  EXPECT_EQ(s.player(0).hand.Total(), 5);
  EXPECT_EQ(s.player(0).num_progress, 2);  // never discarded
  EXPECT_EQ(s.player(1).hand.Total(), 6);
  EXPECT_EQ(s.player(2).hand.Total(), 5);
  EXPECT_EQ(s.player(3).hand.Total(), 9);
  // ROB-1 (default): the robber is locked, so after the discards the turn
  // simply goes on.
  EXPECT_EQ(s.CurrentPlayer(), 2);
  EXPECT_EQ(s.robber_hex(), 9);
}

TEST(RulesRollTest, Sev2DiscardIsOneCardOfTheDiscardersChoice) {
  State s = Position("phase=before_roll current=0 turn=9 hand0=4b4g1c");
  EXPECT_EQ(Roll(s, 3, 4, kEventShip), (std::vector<std::string>{"chance: dice 3 4 ship", "barbarians advance to 1",
                                                                 "seat 0 must discard 4 cards"}));
  ASSERT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{Discard(kBrick), Discard(kGrain), Discard(kCloth)}));
  ExpectRefused(s, Discard(kOre), "SEV-2");
  ExpectRefused(s, Action::EndTurn(), "19");
  ExpectRefused(s, Action::BuildRoad(0), "19");
  EXPECT_EQ(Play(s, Discard(kCloth)), (std::vector<std::string>{"seat 0: discard cloth", "seat 0 paid 1 cloth"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=3 barbarians=1 dice=3,4,ship hand0=4b4g "
                 "pending=step_robber_after_seven@0/discard@0:3");
  Play(s, Discard(kBrick));
  Play(s, Discard(kBrick));
  Play(s, Discard(kGrain));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=6 barbarians=1 dice=3,4,ship hand0=2b3g");
}

TEST(RulesRollTest, Sev2LimitsAreSevenNineElevenThirteen) {
  // For 0..3 walls: a hand at the limit keeps everything, one more discards.
  const char* cities[] = {"c0=8,14,40", "c0=8w,14,40", "c0=8w,14w,40", "c0=8w,14w,40w"};
  for (int walls = 0; walls <= 3; ++walls) {
    SCOPED_TRACE(walls);
    const int limit = 7 + 2 * walls;
    State at = Position(std::string("phase=before_roll current=0 turn=9 ") + cities[walls] +
                        " hand0=" + std::to_string(limit) + "o");
    Roll(at, 3, 4, kEventShip);
    EXPECT_EQ(at.pending_size(), 0);
    State over = Position(std::string("phase=before_roll current=0 turn=9 ") + cities[walls] +
                          " hand0=" + std::to_string(limit + 1) + "o");
    Roll(over, 3, 4, kEventShip);
    ASSERT_EQ(over.CurrentPlayer(), 0);
    ASSERT_GT(over.pending_size(), 0);
    EXPECT_EQ(over.pending(over.pending_size() - 1).a, (limit + 1) / 2);
  }
}

// ---- ROB-1 .. ROB-3 -----------------------------------------------------------------------------

TEST(RulesRollTest, Rob1LockedRobberStaysAfterASeven) {
  State s = Position("phase=before_roll current=0 turn=9 s0=8 s1=14 hand1=2b");
  Roll(s, 3, 4, kEventShip);
  EXPECT_EQ(s.pending_size(), 0);
  const std::vector<Action> legal = s.LegalActions();
  EXPECT_EQ(
      std::count_if(legal.begin(), legal.end(), [](const Action& a) { return a.type == ActionType::kMoveRobber; }), 0);
  ExpectRefused(s, Action::MoveRobber(4, 1), "19");
}

TEST(RulesRollTest, Rob1OptionOffRobberMovesFromTheFirstSeven) {
  State s = Position("opts=[robber_locked_until_first_attack=false] phase=before_roll current=0 turn=9 s0=8");
  Roll(s, 3, 4, kEventShip);
  ASSERT_EQ(s.CurrentPlayer(), 0);
  ExpectPosition(s,
                 "opts=[robber_locked_until_first_attack=false] phase=action current=0 turn=9 actions=2 "
                 "barbarians=1 dice=3,4,ship s0=8 pending=move_robber@0");
}

TEST(RulesRollTest, Rob1E04LockLiftsInTheRollOfTheFirstAttack) {
  // The ship lands with this 7: the attack is resolved first (no cities: 0
  // against 0, Catan holds), and the same 7 already moves the robber.
  State s = Position("phase=before_roll current=0 turn=9 barbarians=6 s0=8 s1=14 hand1=1w");
  EXPECT_EQ(Roll(s, 3, 4, kEventShip),
            (std::vector<std::string>{"chance: dice 3 4 ship", "barbarians advance to 7",
                                      "barbarians attack: barbarians 0 vs Catan 0, Catan wins",
                                      "seat 0 defended with strength 0", "seat 1 defended with strength 0",
                                      "seat 2 defended with strength 0", "seat 3 defended with strength 0"}));
  EXPECT_TRUE(s.first_attack_done());
  ASSERT_EQ(s.CurrentPlayer(), 0);
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=2 attacks=1 dice=3,4,ship s0=8 s1=14 hand1=1w "
                 "pending=move_robber@0");
}

// After the first attack: seat 0 rolls a 7 with the robber on hex 4.
// Hex 1 (P9): seat 1's settlement n8 (3 cards) and seat 2's n5 (no cards).
constexpr std::string_view kRobberScene =
    "phase=before_roll current=0 turn=20 attacks=1 robber=4 s0=40 hand0=1g s1=8 hand1=2b1w s2=5 s3=26 hand3=2o";

TEST(RulesRollTest, Rob2RobberMustLeaveItsHexDesertAllowed) {
  State s = Position(kRobberScene);
  Roll(s, 3, 4, kEventShip);
  ASSERT_EQ(s.CurrentPlayer(), 0);
  ExpectRefused(s, Action::MoveRobber(4, -1), "ROB-2");
  ExpectRefused(s, Action::MoveRobber(4, 1), "ROB-2");
  ExpectRefused(s, Action::EndTurn(), "19");
  // Every other land hex is a destination, the desert included.
  const std::vector<Action> legal = s.LegalActions();
  std::vector<int> hexes;
  for (const Action& a : legal)
    if (hexes.empty() || hexes.back() != a.a) hexes.push_back(a.a);
  EXPECT_EQ(hexes, (std::vector<int>{0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}));
  EXPECT_EQ(Play(s, Action::MoveRobber(9, -1)), std::vector<std::string>{"seat 0: move_robber h9"});
  ExpectPosition(s,
                 "phase=action current=0 turn=20 actions=3 attacks=1 barbarians=1 dice=3,4,ship s0=40 hand0=1g "
                 "s1=8 hand1=2b1w s2=5 s3=26 hand3=2o");
}

TEST(RulesRollTest, Rob3VictimNeedsABuildingOnTheHexAndACard) {
  State s = Position(kRobberScene);
  Roll(s, 3, 4, kEventShip);
  // On hex 1 only seat 1 can be robbed.
  std::vector<Action> on_hex1;
  for (const Action& a : s.LegalActions())
    if (a.a == 1) on_hex1.push_back(a);
  EXPECT_EQ(on_hex1, std::vector<Action>{Action::MoveRobber(1, 1)});
  ExpectRefused(s, Action::MoveRobber(1, 2), "ROB-3");   // building, but no card
  ExpectRefused(s, Action::MoveRobber(1, 3), "ROB-3");   // cards, but no building on hex 1
  ExpectRefused(s, Action::MoveRobber(1, 0), "ROB-3");   // never oneself
  ExpectRefused(s, Action::MoveRobber(1, -1), "ROB-3");  // a victim exists: he must be robbed
  // Hex 17 (n40 is seat 0's own): nobody to rob.
  const std::vector<Action> legal = s.LegalActions();
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::MoveRobber(17, -1)), legal.end());
}

TEST(RulesRollTest, Rob3RandomStealIsAChanceNodeWeightedByTheHand) {
  State s = Position(kRobberScene);
  Roll(s, 3, 4, kEventShip);
  EXPECT_EQ(Play(s, Action::MoveRobber(1, 1)), std::vector<std::string>{"seat 0: move_robber h1 rob 1"});
  ASSERT_TRUE(s.IsChanceNode());
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].action, Action::Make(ActionType::kChanceSteal, kBrick));
  EXPECT_DOUBLE_EQ(outcomes[0].probability, 2.0 / 3);
  EXPECT_EQ(outcomes[1].action, Action::Make(ActionType::kChanceSteal, kWool));
  EXPECT_DOUBLE_EQ(outcomes[1].probability, 1.0 / 3);
  ExpectRefused(s, Action::Make(ActionType::kChanceSteal, kOre), "0.4");  // seat 1 holds no ore
  std::vector<Event> events;
  ASSERT_EQ(s.Apply(Action::Make(ActionType::kChanceSteal, kWool), &events), "");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(EventToString(events[1]), "seat 0 stole wool from seat 1");
  EXPECT_EQ(events[1].private_to, 0b0011);  // thief and victim only
  ExpectPosition(s,
                 "phase=action current=0 turn=20 actions=4 attacks=1 barbarians=1 dice=3,4,ship robber=1 s0=40 "
                 "hand0=1w1g s1=8 hand1=2b s2=5 s3=26 hand3=2o");
}

TEST(RulesRollTest, Rob3NoVictimNoSteal) {
  State s = Position(kRobberScene);
  Roll(s, 3, 4, kEventShip);
  // Hex 2 (F11): seat 2's n5 touches it, but seat 2 has no card.
  EXPECT_EQ(Play(s, Action::MoveRobber(2, -1)), std::vector<std::string>{"seat 0: move_robber h2"});
  EXPECT_FALSE(s.IsChanceNode());
  EXPECT_EQ(s.pending_size(), 0);
  EXPECT_EQ(s.robber_hex(), 2);
}

TEST(RulesRollTest, Sev3DiscardsComeBeforeTheRobber) {
  // Unlocked robber and a discard due: seat 1 discards first, then seat 0
  // moves the robber.
  State s = Position("phase=before_roll current=0 turn=20 attacks=1 robber=4 s0=40 s1=8 hand1=8b");
  Roll(s, 3, 4, kEventShip);
  ASSERT_EQ(s.CurrentPlayer(), 1);
  for (int i = 0; i < 4; ++i) Play(s, Discard(kBrick));
  ASSERT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions().front().type, ActionType::kMoveRobber);
}

}  // namespace
}  // namespace metropolis
