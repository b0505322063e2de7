// The reference generator's progress cards against small positions reasoned
// out by hand (RULES.md sections 12-13), so that agreement with the engine in
// perft_test.cc means that both read the cards right. Nodes and edges are
// those of the centre (desert) hex 9 and its ring: nodes 18-24-30-35-29-23
// joined by edges 28, 36, 44, 43, 35, 27 (docs/BOARD.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "engine/progress.h"
#include "engine/state_editor.h"
#include "engine/tests/reference_legal.h"
#include "engine/topology.h"

namespace metropolis {
namespace {

constexpr int kDesertHex = 9;

State ActionPhase(const std::string& options = "") {
  GameConfig config;
  config.board = DefaultBoard();
  std::istringstream in(options);
  std::string token;
  while (in >> token) EXPECT_EQ(ParseOption(token, &config.options), "") << token;
  State s(config);
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  StateEditor e(&s);
  e.phase() = Phase::kAction;
  e.current() = 0;
  e.setup_step() = 16;
  e.turn() = 1;
  e.pending_size() = 0;
  return s;
}

void Put(State* s, int seat, int node, Building b) {
  StateEditor e(s);
  e.building_owner()[node] = int8_t(seat);
  e.building()[node] = b;
}
void PutKnight(State* s, int seat, int node, int level) {
  StateEditor e(s);
  e.knight_owner()[node] = int8_t(seat);
  e.knight_level()[node] = uint8_t(level);
}
void Roads(State* s, int seat, std::initializer_list<int> edges) {
  for (int edge : edges) StateEditor(s).road_owner()[edge] = int8_t(seat);
}
void Hold(State* s, int seat, std::initializer_list<int> cards) {
  PlayerState& ps = StateEditor(s).player(seat);
  for (int card : cards) ps.progress[ps.num_progress++] = uint8_t(card);
  std::sort(ps.progress.begin(), ps.progress.begin() + ps.num_progress);
}
void Push(State* s, PendingKind kind, int seat, int a = 0, int b = 0) {
  StateEditor e(s);
  e.pending()[e.pending_size()++] = Pending{kind, int8_t(seat), uint8_t(a), uint8_t(b), 0};
}

std::vector<Action> OfType(const std::vector<Action>& all, ActionType t, int card = -1) {
  std::vector<Action> out;
  for (const Action& a : all)
    if (a.type == t && (card < 0 || a.a == card)) out.push_back(a);
  return out;
}
std::vector<Action> Plays(const State& s, int card) {
  return OfType(reference::LegalActions(s), ActionType::kPlayProgress, card);
}

TEST(ReferenceProgress, AlchemistOnlyBeforeTheRoll) {
  State s = ActionPhase();
  Hold(&s, 0, {kAlchemist});
  EXPECT_TRUE(Plays(s, kAlchemist).empty());  // TRN-6: never after the roll
  StateEditor(&s).phase() = Phase::kBeforeRoll;
  const std::vector<Action> legal = reference::LegalActions(s);
  EXPECT_EQ(OfType(legal, ActionType::kRoll).size(), 1u);
  EXPECT_EQ(OfType(legal, ActionType::kPlayProgress, kAlchemist).size(), 36u);  // C-S1: every (yellow, red)
}

TEST(ReferenceProgress, BishopWaitsForTheFirstAttackAndMayPickTheDesert) {
  State s = ActionPhase();
  Hold(&s, 0, {kBishop});
  StateEditor(&s).robber() = 3;
  EXPECT_TRUE(Plays(s, kBishop).empty());  // ROB-1
  StateEditor(&s).first_attack_done() = true;
  const std::vector<Action> plays = Plays(s, kBishop);
  EXPECT_EQ(plays.size(), size_t(kNumHexes - 1));  // ROB-2: every other hex
  EXPECT_TRUE(std::any_of(plays.begin(), plays.end(), [](const Action& a) { return a.b == kDesertHex; }));
}

TEST(ReferenceProgress, CraneNeedsACityAndItsDiscountBuysAFreeFirstLevel) {
  State s = ActionPhase("crane_limit=ONE_PER_TURN");
  Hold(&s, 0, {kCrane});
  Put(&s, 0, 18, kSettlement);
  EXPECT_TRUE(Plays(s, kCrane).empty());  // C-S2: a city is needed
  Put(&s, 0, 18, kCity);
  EXPECT_EQ(Plays(s, kCrane).size(), 1u);
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kBuyImprovement).empty());  // no commodity
  StateEditor(&s).effects().crane_discounts = 1;
  StateEditor(&s).effects().cranes_played = 1;
  EXPECT_TRUE(Plays(s, kCrane).empty());                                                  // D19 ONE_PER_TURN
  EXPECT_EQ(OfType(reference::LegalActions(s), ActionType::kBuyImprovement).size(), 3u);  // IMP-1: level 1 free
}

TEST(ReferenceProgress, MerchantFleetTradesItsTypeTwoForOne) {
  State s = ActionPhase();
  StateEditor e(&s);
  e.player(0).hand[kCoin] = 2;
  e.bank()[kCoin] -= 2;
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kBankTrade).empty());
  e.effects().fleet_cards = 1 << kCoin;  // C-T4, for a commodity too
  EXPECT_EQ(OfType(reference::LegalActions(s), ActionType::kBankTrade).size(), size_t(kNumCardTypes - 1));
  EXPECT_EQ(reference::BankRate(s, 0, kCoin, kBrick), 2);
  EXPECT_EQ(reference::BankRate(s, 0, kBrick, kCoin), 4);
}

TEST(ReferenceProgress, DiplomatTakesOnlyOpenRoads) {
  State s = ActionPhase();
  Hold(&s, 0, {kDiplomat});
  Put(&s, 1, 18, kSettlement);
  Roads(&s, 1, {28, 36});  // 18-24-30: 36 ends at 30 with nothing of seat 1 there
  std::vector<Action> plays = Plays(s, kDiplomat);
  ASSERT_EQ(plays.size(), 1u);  // DEF-8: 28 is closed at 18 (settlement) and at 24 (road 36)
  EXPECT_EQ(plays[0].b, 36);
  PutKnight(&s, 1, 30, 1);  // an own knight closes the end too
  EXPECT_TRUE(Plays(s, kDiplomat).empty());
}

TEST(ReferenceProgress, IntrigueRelocationLeavesTheIntersection) {
  State s = ActionPhase();
  Roads(&s, 1, {28, 36, 44, 43, 35, 27});  // the whole ring around the desert
  Put(&s, 1, 35, kSettlement);
  // The knight from 18 goes anywhere along seat 1's ring, except back to 18 round the cycle
  // (KN-8 step 2 as C-P5 uses it), and not onto the settlement.
  Push(&s, PendingKind::kRelocateKnight, 1, 18, 1);
  std::vector<int> to;
  for (const Action& a : reference::LegalActions(s)) to.push_back(a.a);
  EXPECT_EQ(to, (std::vector<int>{23, 24, 29, 30}));
}

TEST(ReferenceProgress, PlayOrDiscardAllowsNothingElse) {
  State s = ActionPhase("progress_hand_limit=PLAY_OR_DISCARD");
  Hold(&s, 0, {kWarlord, kWedding, kSpy, kIrrigation, kAlchemist});
  const std::vector<Action> legal = reference::LegalActions(s);
  EXPECT_TRUE(OfType(legal, ActionType::kEndTurn).empty());  // D10
  EXPECT_EQ(OfType(legal, ActionType::kDiscardProgress).size(), 5u);
  // Warlord, Wedding and Irrigation; no Spy target, and never the Alchemist after the roll.
  EXPECT_EQ(OfType(legal, ActionType::kPlayProgress).size(), 3u);
  EXPECT_EQ(legal.size(), 8u);
}

TEST(ReferenceProgress, DeserterPlacesTheHighestLevelLeft) {
  State s = ActionPhase();
  Roads(&s, 0, {28});
  PutKnight(&s, 0, 0, 3);
  PutKnight(&s, 0, 1, 3);
  Push(&s, PendingKind::kDeserterPlace, 0, 3, 1);  // a mighty knight was removed
  std::vector<Action> legal = reference::LegalActions(s);
  // C-P3 step 2: no mighty piece left, so a strong one, at 18 or 24; or nothing.
  ASSERT_EQ(legal.size(), 3u);
  EXPECT_EQ(legal[0].type, ActionType::kProgressStop);
  EXPECT_EQ(legal[1], Action::Make(ActionType::kPlaceKnight, 18, 2));
  EXPECT_EQ(legal[2], Action::Make(ActionType::kPlaceKnight, 24, 2));
}

TEST(ReferenceProgress, SmithMayStopOnlyAfterTheFirstPromotion) {
  State s = ActionPhase();
  PutKnight(&s, 0, 18, 1);
  Push(&s, PendingKind::kSmith, 0, 2);
  EXPECT_EQ(reference::LegalActions(s), std::vector<Action>{Action::Make(ActionType::kPromoteKnight, 18)});
  StateEditor(&s).pending()[0].a = 1;
  EXPECT_EQ(reference::LegalActions(s).size(), 2u);
}

TEST(ReferenceProgress, BishopStealsResourcesOnlyUnderTheOption) {
  State s = ActionPhase();
  StateEditor e(&s);
  e.player(1).hand[kBrick] = 1;
  e.player(1).hand[kCloth] = 3;
  Push(&s, PendingKind::kSteal, 0, 1, 1);  // b = 1: resources only (D15)
  const std::vector<ChanceOutcome> outcomes = reference::ChanceOutcomes(s);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].action.a, kBrick);
  EXPECT_DOUBLE_EQ(outcomes[0].probability, 1.0);
}

}  // namespace
}  // namespace metropolis
