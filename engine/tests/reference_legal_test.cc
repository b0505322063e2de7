// The reference generator against small positions reasoned out by hand, so that
// the cross-check in perft_test.cc compares the engine with something known to
// read the rules right. Node and edge numbers are those of the centre (desert)
// hex 9 and its neighbours; see docs/BOARD.md.
#include "engine/tests/reference_legal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "engine/state_editor.h"
#include "engine/topology.h"

namespace metropolis {
namespace {

// The ring around the desert (hex 9): nodes 18-24-30-35-29-23 joined by edges
// 28, 36, 44, 43, 35, 27.
constexpr int kDesert = 9;

State NewState(const std::string& options = "", int seats = 4) {
  GameConfig config;
  config.num_seats = seats;
  config.board = DefaultBoard();
  std::istringstream in(options);
  std::string token;
  while (in >> token) EXPECT_EQ(ParseOption(token, &config.options), "") << token;
  State s(config);
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  return s;
}

// An empty board in seat 0's action phase.
State ActionPhase(const std::string& options = "") {
  State s = NewState(options);
  StateEditor e(&s);
  e.phase() = Phase::kAction;
  e.current() = 0;
  e.setup_step() = 16;
  e.turn() = 1;
  e.pending_size() = 0;
  return s;
}

void PutBuilding(State* s, int seat, int node, Building b) {
  StateEditor e(s);
  e.building_owner()[node] = int8_t(seat);
  e.building()[node] = b;
}
void PutKnight(State* s, int seat, int node, int level, uint8_t flags) {
  StateEditor e(s);
  e.knight_owner()[node] = int8_t(seat);
  e.knight_level()[node] = uint8_t(level);
  e.knight_flags()[node] = flags;
}
void PutRoads(State* s, int seat, std::initializer_list<int> edges) {
  StateEditor e(s);
  for (int edge : edges) e.road_owner()[edge] = int8_t(seat);
}
void Give(State* s, int seat, std::initializer_list<std::pair<int, int>> cards) {
  StateEditor e(s);
  for (auto [card, n] : cards) {
    e.player(seat).hand[card] = uint8_t(e.player(seat).hand[card] + n);
    e.bank()[card] = int16_t(e.bank()[card] - n);
  }
}
void Push(State* s, PendingKind kind, int seat, int a = 0, int b = 0, int c = 0) {
  StateEditor e(s);
  e.pending()[e.pending_size()++] = Pending{kind, int8_t(seat), uint8_t(a), uint8_t(b), uint8_t(c)};
}
void Recompute(State* s) { StateEditor(s).RecomputeDerived(); }

std::vector<Action> OfType(const std::vector<Action>& all, ActionType t) {
  std::vector<Action> out;
  for (const Action& a : all)
    if (a.type == t) out.push_back(a);
  return out;
}
std::vector<int> Params(const std::vector<Action>& all, ActionType t, bool second = false) {
  std::vector<int> out;
  for (const Action& a : OfType(all, t)) out.push_back(second ? a.b : a.a);
  return out;
}

TEST(ReferenceLegal, SetupSnakeOrderAndPlacements) {
  State s = NewState();
  EXPECT_EQ(reference::CurrentPlayer(s), 0);
  std::vector<Action> legal = reference::LegalActions(s);
  EXPECT_EQ(legal.size(), 54u);
  EXPECT_EQ(OfType(legal, ActionType::kBuildSettlement).size(), 54u);  // SET-2: no road needed

  PutBuilding(&s, 0, 18, kSettlement);
  StateEditor e(&s);
  e.setup_step() = 1;
  e.last_setup_node() = 18;
  Recompute(&s);
  legal = reference::LegalActions(s);
  std::vector<int> expected;
  for (int e2 : GetTopology().node_edges[18])
    if (e2 >= 0) expected.push_back(e2);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Params(legal, ActionType::kBuildRoad), expected);  // SET-2: touching the new settlement

  e.setup_step() = 2;
  EXPECT_EQ(reference::CurrentPlayer(s), 1);
  EXPECT_EQ(reference::LegalActions(s).size(), 54u - 1 - 3);  // distance rule
  e.setup_step() = 6;
  EXPECT_EQ(reference::CurrentPlayer(s), 3);
  e.setup_step() = 8;  // SET-3: the second round starts with the last player, and places cities
  EXPECT_EQ(reference::CurrentPlayer(s), 3);
  EXPECT_EQ(OfType(reference::LegalActions(s), ActionType::kBuildCity).size(), 50u);
  e.setup_step() = 14;
  EXPECT_EQ(reference::CurrentPlayer(s), 0);
}

TEST(ReferenceLegal, RoadsAnchorOnRoadsUnlessAnOpponentPieceSitsThere) {
  State s = ActionPhase();
  PutBuilding(&s, 0, 18, kSettlement);
  PutRoads(&s, 0, {28});  // 18-24
  PutKnight(&s, 1, 24, 1, 0);
  Recompute(&s);
  Give(&s, 0, {{kBrick, 1}, {kLumber, 1}});
  // BLD-1: from the settlement at 18 only; 24 holds an opponent's knight.
  std::vector<int> expected;
  for (int e : GetTopology().node_edges[18])
    if (e >= 0 && e != 28) expected.push_back(e);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Params(reference::LegalActions(s), ActionType::kBuildRoad), expected);

  PutKnight(&s, 0, 24, 1, 0);  // own knight: passable, still anchored by the road
  Recompute(&s);
  for (int e : GetTopology().node_edges[24])
    if (e >= 0 && e != 28) expected.push_back(e);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Params(reference::LegalActions(s), ActionType::kBuildRoad), expected);
}

TEST(ReferenceLegal, OwnKnightIsNotAnAnchor) {  // E09
  State s = ActionPhase();
  PutKnight(&s, 0, 30, 1, 0);
  Recompute(&s);
  Give(&s, 0, {{kBrick, 1}, {kLumber, 1}});
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kBuildRoad).empty());
}

TEST(ReferenceLegal, KnightMovesStopAtOpponentsPieces) {
  for (bool through : {false, true}) {
    State s = ActionPhase(through ? "knight_path_through_opponents=true" : "");
    PutRoads(&s, 0, {28, 36, 44, 43});  // 18-24-30-35-29
    PutKnight(&s, 0, 18, 1, kKnightActive | kKnightReady);
    PutBuilding(&s, 1, 30, kSettlement);
    Recompute(&s);
    // KN-7 with DEF-5: 30 is blocked for seat 0, so 35 and 29 lie behind it.
    const std::vector<int> targets = Params(reference::LegalActions(s), ActionType::kMoveKnight, true);
    EXPECT_EQ(targets, through ? std::vector<int>({24, 29, 35}) : std::vector<int>({24})) << through;
  }
}

TEST(ReferenceLegal, KnightNeedsToBeReadyAndActive) {  // KN-6
  State s = ActionPhase();
  PutRoads(&s, 0, {28});
  PutKnight(&s, 0, 18, 1, kKnightActive);  // activated this turn: not ready
  Recompute(&s);
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kMoveKnight).empty());
}

TEST(ReferenceLegal, DisplaceNeedsStrictlyStrongerAndConnection) {
  for (bool connection : {true, false}) {
    State s = ActionPhase(connection ? "" : "displace_requires_connection=false");
    PutRoads(&s, 0, {28, 36});  // 18-24-30
    PutKnight(&s, 0, 18, 2, kKnightActive | kKnightReady);
    PutKnight(&s, 1, 30, 1, kKnightActive);
    PutKnight(&s, 2, 24, 2, 0);  // same strength: never displaced; it also blocks the way to 30
    Recompute(&s);
    const std::vector<Action> displace = OfType(reference::LegalActions(s), ActionType::kDisplaceKnight);
    // KN-8: with the connection rule 30 lies behind the knight at 24; without it a road at 30 is enough.
    if (connection) {
      EXPECT_TRUE(displace.empty());
    } else {
      ASSERT_EQ(displace.size(), 1u);
      EXPECT_EQ(displace[0].a, 18);
      EXPECT_EQ(displace[0].b, 30);
    }
  }
}

TEST(ReferenceLegal, ChaseRobberOnlyWhenUnlocked) {  // ROB-1, KN-9
  for (bool locked : {true, false}) {
    State s = ActionPhase(locked ? "" : "robber_locked_until_first_attack=false");
    PutRoads(&s, 0, {28});
    PutKnight(&s, 0, 18, 1, kKnightActive | kKnightReady);  // 18 is a corner of the desert
    Recompute(&s);
    EXPECT_EQ(Params(reference::LegalActions(s), ActionType::kChaseRobber),
              locked ? std::vector<int>{} : std::vector<int>{18});
  }
}

TEST(ReferenceLegal, BankRates) {  // TRD-2
  State s = ActionPhase();
  EXPECT_EQ(reference::BankRate(s, 0, kBrick, kOre), 4);
  EXPECT_EQ(reference::BankRate(s, 0, kBrick, kBrick), 0);
  EXPECT_EQ(reference::BankRate(s, 0, kCloth, kOre), 4);
  PutBuilding(&s, 0, 0, kSettlement);  // harbor 0: generic
  Recompute(&s);
  EXPECT_EQ(reference::BankRate(s, 0, kBrick, kOre), 3);
  EXPECT_EQ(reference::BankRate(s, 0, kCloth, kCoin), 3);
  PutBuilding(&s, 0, 5, kSettlement);  // harbor 1: ore 2:1
  Recompute(&s);
  EXPECT_EQ(reference::BankRate(s, 0, kOre, kBrick), 2);
  EXPECT_EQ(reference::BankRate(s, 0, kWool, kBrick), 3);
  StateEditor(&s).player(0).level[kTrade] = 3;  // IMP-6
  EXPECT_EQ(reference::BankRate(s, 0, kPaper, kBrick), 2);
  StateEditor(&s).merchant_hex() = 1;  // pasture: wool
  StateEditor(&s).merchant_owner() = 0;
  EXPECT_EQ(reference::BankRate(s, 0, kWool, kBrick), 2);
  EXPECT_EQ(reference::BankRate(s, 1, kWool, kBrick), 4);

  State r = ActionPhase("harbor3_commodity_output=RESOURCE_ONLY");  // D18
  PutBuilding(&r, 0, 0, kSettlement);
  Recompute(&r);
  EXPECT_EQ(reference::BankRate(r, 0, kCloth, kCoin), 4);
  EXPECT_EQ(reference::BankRate(r, 0, kCloth, kBrick), 3);

  Give(&s, 0, {{kOre, 2}});
  const std::vector<Action> trades = OfType(reference::LegalActions(s), ActionType::kBankTrade);
  ASSERT_EQ(trades.size(), 7u);  // 2 ore at 2:1 for each other card type
  for (const Action& a : trades) EXPECT_EQ(a.a, kOre);
}

TEST(ReferenceLegal, MoveRobberMustRobWhenSomeoneCanBeRobbed) {  // ROB-2, ROB-3
  State s = ActionPhase("robber_locked_until_first_attack=false");
  PutBuilding(&s, 1, 0, kSettlement);   // a corner of hex 0
  PutBuilding(&s, 2, 12, kSettlement);  // a corner of hexes 0, 3 and 4; empty hand
  Recompute(&s);
  Give(&s, 1, {{kWool, 1}});
  Push(&s, PendingKind::kMoveRobber, 0, 0);
  const std::vector<Action> legal = reference::LegalActions(s);
  EXPECT_EQ(legal.size(), 18u);
  for (const Action& a : legal) {
    EXPECT_NE(a.a, kDesert);
    EXPECT_EQ(a.b, a.a == 0 ? 2 : 0) << ActionToString(a);  // victim + 1
  }
  // After a knight chase the desert is no destination (KN-9).
  StateEditor(&s).robber() = 4;
  StateEditor(&s).pending()[0].a = 1;
  for (const Action& a : reference::LegalActions(s)) EXPECT_NE(a.a, kDesert);
  EXPECT_EQ(reference::LegalActions(s).size(), 17u);
}

TEST(ReferenceLegal, ImprovementsNeedCitiesAndAFreeCityAtLevelFour) {  // IMP-2, IMP-3
  State s = ActionPhase();
  Give(&s, 0, {{kCoin, 4}});
  StateEditor(&s).player(0).level[kPolitics] = 3;
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kBuyImprovement).empty());
  PutBuilding(&s, 0, 18, kCity);
  Recompute(&s);
  EXPECT_EQ(Params(reference::LegalActions(s), ActionType::kBuyImprovement), std::vector<int>{kPolitics});
  StateEditor(&s).metropolis_owner()[kTrade] = 0;
  StateEditor(&s).metropolis_node()[kTrade] = 18;
  Recompute(&s);
  ASSERT_EQ(s.metropolis_at(18), kTrade);
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kBuyImprovement).empty());
}

TEST(ReferenceLegal, PromotionNeedsFortressForMighty) {  // KN-5
  State s = ActionPhase();
  PutRoads(&s, 0, {28});
  PutKnight(&s, 0, 18, 2, 0);
  PutKnight(&s, 0, 24, 1, kKnightPromoted);
  Recompute(&s);
  Give(&s, 0, {{kWool, 2}, {kOre, 2}});
  EXPECT_TRUE(OfType(reference::LegalActions(s), ActionType::kPromoteKnight).empty());
  StateEditor(&s).player(0).level[kPolitics] = 3;
  EXPECT_EQ(Params(reference::LegalActions(s), ActionType::kPromoteKnight), std::vector<int>{18});
}

TEST(ReferenceLegal, ChanceOutcomes) {
  State s = ActionPhase();
  StateEditor(&s).phase() = Phase::kBeforeRoll;
  EXPECT_EQ(reference::LegalActions(s), std::vector<Action>{Action::Roll()});
  Push(&s, PendingKind::kDice, 0, 0);
  EXPECT_EQ(reference::CurrentPlayer(s), kChancePlayer);
  std::vector<ChanceOutcome> dice = reference::ChanceOutcomes(s);
  ASSERT_EQ(dice.size(), 144u);
  double total = 0, ship = 0;
  for (const ChanceOutcome& o : dice) {
    total += o.probability;
    if (o.action.c == kEventShip) ship += o.probability;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_NEAR(ship, 0.5, 1e-12);
  StateEditor(&s).pending()[0].a = 1;  // an Alchemist fixed the production dice
  dice = reference::ChanceOutcomes(s);
  ASSERT_EQ(dice.size(), 4u);
  EXPECT_EQ(dice[0].action, Action::Dice(0, 0, kEventShip));

  StateEditor(&s).pending()[0] = Pending{PendingKind::kSteal, 0, 1, 0, 0};
  Give(&s, 1, {{kBrick, 2}, {kCoin, 1}});
  const std::vector<ChanceOutcome> steal = reference::ChanceOutcomes(s);
  ASSERT_EQ(steal.size(), 2u);
  EXPECT_EQ(steal[0].action.a, kBrick);
  EXPECT_NEAR(steal[0].probability, 2.0 / 3, 1e-12);

  StateEditor(&s).pending()[0] = Pending{PendingKind::kDraw, 1, kPolitics, 0, 0};
  const std::vector<ChanceOutcome> draw = reference::ChanceOutcomes(s);
  ASSERT_EQ(draw.size(), 9u);  // every politics kind is in a full deck
  EXPECT_EQ(draw[0].action.a, kBishop);
  EXPECT_NEAR(draw[0].probability, 2.0 / 18, 1e-12);
}

// The chance outcomes of a draw trust the deck's unseen counts, so the decks a
// new game starts with are checked against RULES.md 1.7 here.
TEST(ReferenceLegal, NewGameDecksHoldTheRulebookCounts) {
  for (int engineers : {1, 2}) {
    const State s = NewState(engineers == 2 ? "green_engineer_count=2" : "");
    const std::vector<int> science = {2, 2, engineers, 2, 2, 2, 2, 1, 2, 2};  // Alchemist .. Smith
    const std::vector<int> politics = {2, 1, 2, 2, 2, 2, 3, 2, 2};            // Bishop .. Wedding
    const std::vector<int> trade = {2, 2, 6, 2, 4, 2};                        // Commercial Harbor .. Trade Monopoly
    const std::vector<int>* expected[kNumTracks] = {&trade, &politics, &science};
    for (int t = 0; t < kNumTracks; ++t) {
      const ProgressDeck& d = s.deck(t);
      EXPECT_EQ(d.size, 0);
      int total = 0;
      for (int i = 0; i < TrackNumKinds(t); ++i) {
        EXPECT_EQ(d.unseen[i], (*expected[t])[i])
            << "track " << t << " card " << ProgressCardName(TrackFirstCard(t) + i);
        total += (*expected[t])[i];
      }
      EXPECT_EQ(d.unseen_total, total) << "track " << t;
    }
  }
}

}  // namespace
}  // namespace metropolis
