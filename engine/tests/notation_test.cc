#include "engine/notation.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/progress.h"
#include "engine/splitmix.h"
#include "engine/state.h"
#include "engine/state_editor.h"
#include "engine/topology.h"

namespace metropolis {
namespace {

GameConfig Config(int seats = 4, RulesOptions options = {}) {
  GameConfig c;
  c.num_seats = seats;
  c.board = DefaultBoard();
  c.options = options;
  return c;
}

State Fresh(int seats = 4, RulesOptions options = {}) {
  State s(Config(seats, options));
  std::string error;
  EXPECT_TRUE(NewGame(Config(seats, options), &s, &error)) << error;
  return s;
}

// The two round trips the notation promises, with the text in the failure message.
void ExpectRoundTrip(const State& s) {
  ASSERT_EQ(s.Validate(), "") << "the hand-built state itself is inconsistent";
  const std::string text = ToNotation(s);
  State back = Fresh();
  std::string error;
  ASSERT_TRUE(FromNotation(text, &back, &error)) << text << "\n" << error;
  EXPECT_TRUE(back == s) << text << "\nre-written: " << ToNotation(back);
  EXPECT_EQ(ToNotation(back), text);
}

// The parse error of `text`, or "" if it parsed.
std::string ParseError(const std::string& text) {
  State s = Fresh();
  std::string error;
  return FromNotation(text, &s, &error) ? "" : error;
}

// A mid-game position built through the editor: two seats with roads,
// settlements, cities (one walled, one a metropolis) and knights, seat 2 with
// cards and progress, the merchant and Longest Road placed.
State MidGame(RulesOptions options = {}) {
  State s = Fresh(4, options);
  StateEditor ed(&s);
  ed.phase() = Phase::kAction;
  ed.current() = 1;
  ed.setup_step() = 16;
  ed.turn() = 23;
  ed.actions() = 412;
  ed.barbarians() = 4;
  ed.attacks() = 1;
  ed.first_attack_done() = true;
  ed.dice_yellow() = 5;
  ed.dice_red() = 2;
  ed.dice_event() = kEventPoliticsGate;
  ed.robber() = 4;
  ed.merchant_hex() = 13;
  ed.merchant_owner() = 2;
  ed.offers_this_turn() = 2;
  const Topology& t = GetTopology();
  // Seat 0: a five-road trail from node 0 with a settlement at each end.
  int v = 0;
  ed.building_owner()[v] = 0;
  ed.building()[v] = kCity;
  ed.node_flags()[v] = kWall;
  ed.metropolis_node()[kScience] = int8_t(v);
  ed.metropolis_owner()[kScience] = 0;
  int prev = -1;
  for (int i = 0; i < 5; ++i) {
    int next = -1;
    for (int j = 0; j < 3 && next < 0; ++j) {
      const int n = t.node_nodes[v][j];
      if (n >= 0 && n != prev) next = n;
    }
    ed.road_owner()[EdgeBetween(v, next)] = 0;
    prev = v;
    v = next;
  }
  ed.building_owner()[v] = 0;
  ed.building()[v] = kSettlement;
  ed.longest_road() = 0;
  ed.player(0).level = {0, 0, 4};  // MET-1: the science metropolis needs level 4
  // Seat 1: a knight of every flag combination that matters.
  ed.building_owner()[40] = 1;
  ed.building()[40] = kCity;
  ed.road_owner()[EdgeBetween(40, t.node_nodes[40][0])] = 1;
  ed.knight_owner()[t.node_nodes[40][0]] = 1;
  ed.knight_level()[t.node_nodes[40][0]] = 3;
  ed.knight_flags()[t.node_nodes[40][0]] = kKnightActive | kKnightReady | kKnightPromoted | kKnightCommitted;
  ed.knight_owner()[t.node_nodes[40][1]] = 1;
  ed.knight_level()[t.node_nodes[40][1]] = 1;
  ed.knight_flags()[t.node_nodes[40][1]] = 0;
  ed.player(1).level = {1, 0, 3};
  ed.player(1).defender = 2;
  // Seat 2: cards of every kind, progress cards and a revealed Printer.
  ed.building_owner()[20] = 2;
  ed.building()[20] = kSettlement;
  ed.player(2).hand = CardCounts{{2, 0, 1, 3, 1, 1, 2, 0}};
  auto give_progress = [&](int seat, int card) {
    PlayerState& p = ed.player(seat);
    p.progress[p.num_progress++] = uint8_t(card);
    ProgressDeck& d = ed.deck(ProgressTrack(card));
    --d.unseen[card - TrackFirstCard(ProgressTrack(card))];
    --d.unseen_total;
  };
  give_progress(2, kCrane);
  give_progress(2, kSpy);
  give_progress(2, kMerchant);
  ed.player(2).vp_cards = 1;  // Printer
  --ed.deck(kScience).unseen[kPrinter - TrackFirstCard(kScience)];
  --ed.deck(kScience).unseen_total;
  ed.RecomputeDerived();
  for (int c = 0; c < kNumCardTypes; ++c) ed.bank()[c] = int16_t(ed.bank()[c] - s.player(2).hand[c]);
  return s;
}

// Moves one card of `card` from the unseen part of its deck to the returned
// queue, face down for `hidden_seat` (or public with kNoSeat).
void ReturnCard(State* s, int card, int hidden_seat) {
  StateEditor ed(s);
  ProgressDeck& d = ed.deck(ProgressTrack(card));
  --d.unseen[card - TrackFirstCard(ProgressTrack(card))];
  --d.unseen_total;
  const int slot = (d.head + d.size) % ProgressDeck::kCapacity;
  d.returned[slot] = uint8_t(card);
  d.returned_hidden[slot] = uint8_t(hidden_seat + 1);
  ++d.size;
}

TEST(NotationTest, FreshGameRoundTrips) {
  for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) ExpectRoundTrip(Fresh(seats));
  RulesOptions o;
  o.victory_points = 10;
  o.fiesepeter = true;
  o.green_engineer_count = 2;
  o.red_die_table = {1, 2, 3, 4, 6};
  ExpectRoundTrip(Fresh(3, o));
}

TEST(NotationTest, FreshGameTextIsShortAndFixed) {
  const std::string text = ToNotation(Fresh());
  EXPECT_TRUE(text.starts_with("v1 cak seats=4 board=")) << text;
  EXPECT_NE(text.find(" phase=setup current=0"), std::string::npos) << text;
  EXPECT_LT(text.size(), 120u) << text;
}

TEST(NotationTest, MidGameRoundTrips) {
  State s = MidGame();
  ExpectRoundTrip(s);
  const std::string text = ToNotation(s);
  for (std::string_view part : {" phase=action current=1", " turn=23", " actions=412", " offers=2", " robber=4",
                                " merchant=13@2", " barbarians=4", " attacks=1", " dice=5,2,politics", " longest=0",
                                " c0=0wS", " lvl1=103", " def1=2", " hand2=2b1w3g1o1c2m", " vpc2=printer"})
    EXPECT_NE(text.find(part), std::string::npos) << part << " missing in " << text;
  EXPECT_NE(text.find(":3arpx"), std::string::npos) << text;
}

TEST(NotationTest, SetupPositionRoundTrips) {
  State s = Fresh(3);
  StateEditor ed(&s);
  ed.setup_step() = 3;
  ed.last_setup_node() = 12;
  ed.building_owner()[12] = 1;
  ed.building()[12] = kSettlement;
  ed.building_owner()[3] = 0;
  ed.building()[3] = kSettlement;
  ed.road_owner()[GetTopology().node_edges[3][0]] = 0;
  ed.RecomputeDerived();
  ExpectRoundTrip(s);
  EXPECT_NE(ToNotation(s).find(" setup=3 last=12"), std::string::npos) << ToNotation(s);
}

TEST(NotationTest, DecksWithReturnedAndHiddenCardsRoundTrip) {
  State s = MidGame();
  ReturnCard(&s, kMerchant, kNoSeat);
  ReturnCard(&s, kMasterMerchant, 3);
  ReturnCard(&s, kBishop, 0);
  ExpectRoundTrip(s);
  const std::string text = ToNotation(s);
  EXPECT_NE(text.find(" deck_trade=214242/merchant,master_merchant@3"), std::string::npos) << text;
  EXPECT_NE(text.find(" deck_politics="), std::string::npos) << text;
}

TEST(NotationTest, WrappedReturnedQueueIsReadInQueueOrder) {
  // The returned queue is a ring buffer; the text gives it from its head.
  State s = MidGame();
  StateEditor(&s).deck(kTrade).head = ProgressDeck::kCapacity - 1;
  ReturnCard(&s, kMerchant, kNoSeat);
  ReturnCard(&s, kResourceMonopoly, 1);
  const std::string text = ToNotation(s);
  EXPECT_NE(text.find("/merchant,resource_monopoly@1"), std::string::npos) << text;
  State back = Fresh();
  std::string error;
  ASSERT_TRUE(FromNotation(text, &back, &error)) << error;
  EXPECT_EQ(ToNotation(back), text);
}

TEST(NotationTest, SabotagedCityAndSixthSettlementRoundTrip) {
  RulesOptions o;
  o.saboteur = Saboteur::kSabotageCity;
  State s = MidGame(o);
  StateEditor ed(&s);
  ed.node_flags()[40] |= kSabotaged;
  // BAR-10: a sixth settlement after a pillage leaves the supply at -1.
  for (int v = 0, placed = 0; v < kNumNodes && placed < 6; ++v) {
    bool free = s.building_owner(v) == kNoSeat && s.knight_owner(v) == kNoSeat;
    for (int n : GetTopology().node_nodes[v]) free &= n < 0 || s.building_owner(n) == kNoSeat;
    // Off every road, so that no trail (and so Longest Road) changes.
    for (int e : GetTopology().node_edges[v]) free &= e < 0 || s.road_owner(e) == kNoSeat;
    if (!free) continue;
    ed.building_owner()[v] = 3;
    ed.building()[v] = kSettlement;
    ++placed;
  }
  ed.RecomputeDerived();
  ASSERT_EQ(s.player(3).settlements_left, -1);
  ExpectRoundTrip(s);
  EXPECT_NE(ToNotation(s).find(" c1=40x"), std::string::npos) << ToNotation(s);
}

TEST(NotationTest, OpenTradeWithAnswersAndCountersRoundTrips) {
  State s = MidGame();
  StateEditor ed(&s);
  ed.player(1).hand = CardCounts{{0, 2, 0, 0, 0, 0, 0, 0}};
  ed.player(3).hand = CardCounts{{0, 0, 0, 0, 2, 0, 0, 0}};
  for (int c = 0; c < kNumCardTypes; ++c)
    ed.bank()[c] = int16_t((IsResource(c) ? 19 : 12) - s.player(1).hand[c] - s.player(2).hand[c] - s.player(3).hand[c]);
  TradeState& tr = ed.trade();
  tr.open = true;
  tr.give.Set(kLumber, 2);
  tr.want.Set(kOre, 1);
  tr.addressees = 0b1101;
  tr.answer[0] = kDeclined;
  tr.answer[3] = kCountered;
  tr.counter_give[3].Set(kOre, 1);
  tr.counter_want[3].Set(kLumber, 1);
  ed.pending()[0] = Pending{PendingKind::kTradeClose, 1, 0, 0, 0};
  ed.pending()[1] = Pending{PendingKind::kTradeAnswer, 2, 0, 0, 0};
  ed.pending_size() = 2;
  ExpectRoundTrip(s);
  const std::string text = ToNotation(s);
  EXPECT_NE(text.find(" trade=2l:1o:023 answers=d,-,-,c:1o:1l pending=trade_close@1/trade_answer@2"), std::string::npos)
      << text;
}

// Every PendingKind with parameters in every slot. Validate() insists that the
// entry on top can be decided, so each kind sits under a fiesepeter commitment,
// which always can (COMMIT_DONE).
TEST(NotationTest, EveryPendingKindRoundTrips) {
  for (int kind = 0; kind <= int(PendingKind::kStepReturnProgress); ++kind) {
    SCOPED_TRACE(kind);
    State s = MidGame();
    StateEditor ed(&s);
    ed.pending()[0] = Pending{PendingKind(kind), int8_t(kind % 4), uint8_t(kind), 2, 1};
    ed.pending()[1] = Pending{PendingKind::kCommitKnights, 1, 0, 0, 0};
    ed.pending_size() = 2;
    if (PendingKind(kind) == PendingKind::kTradeClose) {
      ed.trade().open = true;
      ed.trade().give.Set(kBrick, 1);
      ed.trade().want.Set(kOre, 1);
      ed.trade().addressees = 0b0100;
    }
    const std::string text = ToNotation(s);
    State back = Fresh();
    std::string error;
    ASSERT_TRUE(FromNotation(text, &back, &error)) << text << "\n" << error;
    EXPECT_TRUE(back == s) << text;
    EXPECT_EQ(ToNotation(back), text);
  }
}

TEST(NotationTest, ProgressCardStepsAreNamed) {
  State s = MidGame();
  StateEditor ed(&s);
  const std::pair<Pending, std::string> entries[] = {
      {Pending{PendingKind::kRoadBuilding, 1, 2, 0, 0}, "road_building@1:2"},
      {Pending{PendingKind::kSmith, 1, 1, 0, 0}, "smith@1:1"},
      {Pending{PendingKind::kDiplomatReplace, 1, 1, 0, 0}, "diplomat_replace@1:1"},
      {Pending{PendingKind::kDeserterRemove, 2, 1, 0, 0}, "deserter_remove@2:1"},
      {Pending{PendingKind::kDeserterPlace, 1, 2, 1, 0}, "deserter_place@1:2,1"},
      {Pending{PendingKind::kSpyTake, 1, 3, 0, 0}, "spy_take@1:3"},
      {Pending{PendingKind::kMasterMerchantTake, 1, 2, 2, 0}, "master_merchant_take@1:2,2"},
      {Pending{PendingKind::kWeddingGive, 3, 1, 2, 0}, "wedding_give@3:1,2"},
      {Pending{PendingKind::kCommercialHarbor, 1, 0, 0, 0}, "commercial_harbor@1"},
      {Pending{PendingKind::kHarborReturn, 0, 1, 0, 0}, "harbor_return@0:1"},
      {Pending{PendingKind::kDefenderTake, 2, kScience, 0, 0}, "defender_take@2:2"},
      {Pending{PendingKind::kStepReturnProgress, 1, kSpy, 0, 0}, "step_return_progress@1:16"},
  };
  for (const auto& [entry, text] : entries) {
    ed.pending()[0] = entry;
    ed.pending()[1] = Pending{PendingKind::kCommitKnights, 1, 0, 0, 0};  // a decidable top (Validate)
    ed.pending_size() = 2;
    if (entry.kind == PendingKind::kStepReturnProgress) {
      // The card being played is out of the hand and not yet under its deck.
      ProgressDeck& politics = ed.deck(kPolitics);
      --politics.unseen[kSpy - TrackFirstCard(kPolitics)];
      --politics.unseen_total;
    }
    const std::string notation = ToNotation(s);
    EXPECT_NE(notation.find(" pending=" + text + "/commit_knights@1"), std::string::npos) << notation;
    State back = Fresh();
    std::string error;
    ASSERT_TRUE(FromNotation(notation, &back, &error)) << notation << "\n" << error;
    EXPECT_TRUE(back.pending(0) == entry) << notation;
  }
}

// C-S2, C-T4, C-T1: what the cards played this turn leave behind until TRN-7.
TEST(NotationTest, TurnEffectsRoundTrip) {
  State s = MidGame();
  StateEditor ed(&s);
  EXPECT_EQ(ToNotation(s).find("crane_discounts"), std::string::npos);
  ed.effects().crane_discounts = 1;
  ed.effects().cranes_played = 2;
  ed.effects().fleet_cards = uint8_t(1 << kWool | 1 << kCoin);
  ed.effects().harbor_partners = 0b1001;
  const std::string text = ToNotation(s);
  EXPECT_NE(text.find(" offers=2 crane_discounts=1 cranes_played=2 fleet_cards=wm harbor_partners=03 "),
            std::string::npos)
      << text;
  ExpectRoundTrip(s);
  // Each alone, so that none depends on another.
  for (int field = 0; field < 4; ++field) {
    State one = MidGame();
    TurnEffects& e = StateEditor(&one).effects();
    if (field == 0) e.crane_discounts = 3;
    if (field == 1) e.cranes_played = 1;
    if (field == 2) e.fleet_cards = 1 << kBrick;
    if (field == 3) e.harbor_partners = 1 << 2;
    ExpectRoundTrip(one);
  }
}

TEST(NotationTest, RejectsMalformedTurnEffects) {
  const std::string good = ToNotation(MidGame());
  EXPECT_NE(ParseError(good + " fleet_cards=wz").find("fleet_cards: 'wz' \u2014 unknown card letter 'z'"),
            std::string::npos);
  EXPECT_NE(ParseError(good + " fleet_cards=ww").find("card 'w' given twice"), std::string::npos);
  EXPECT_NE(ParseError(good + " fleet_cards=").find("expected card letters"), std::string::npos);
  EXPECT_NE(ParseError(good + " harbor_partners=4").find("harbor_partners: '4' \u2014 '4' is not a seat"),
            std::string::npos);
  EXPECT_NE(ParseError(good + " harbor_partners=11").find("seat 1 given twice"), std::string::npos);
  EXPECT_NE(ParseError(good + " crane_discounts=x").find("crane_discounts: 'x'"), std::string::npos);
  EXPECT_NE(ParseError(good + " cranes_played=256").find("out of range 0..255"), std::string::npos);
}

TEST(NotationTest, PendingDiscardAndDisplacedKnight) {
  State s = MidGame();
  StateEditor ed(&s);
  ed.pending()[0] = Pending{PendingKind::kStepRobberAfterSeven, 1, 0, 0, 0};
  ed.pending()[1] = Pending{PendingKind::kDiscard, 2, 5, 0, 0};
  ed.pending()[2] = Pending{PendingKind::kRelocateKnight, 1, 19, 2, 1};
  ed.pending_size() = 3;
  const std::string text = ToNotation(s);
  EXPECT_NE(text.find(" pending=step_robber_after_seven@1/discard@2:5/relocate_knight@1:19,2,1"), std::string::npos)
      << text;
}

TEST(NotationTest, BankIsWrittenOnlyWhenItDiffersFromTheHands) {
  State s = MidGame();
  EXPECT_EQ(ToNotation(s).find(" bank="), std::string::npos);
  StateEditor(&s).bank()[kBrick] = 3;
  const std::string text = ToNotation(s);
  EXPECT_NE(text.find(" bank=3,19,18,16,18,11,10,12"), std::string::npos) << text;
}

TEST(NotationTest, FieldsMayComeInAnyOrder) {
  const std::string text = ToNotation(MidGame());
  // Move the first field after the ruleset to the end.
  const size_t a = text.find(' ', text.find(' ') + 1);
  const size_t b = text.find(' ', a + 1);
  const std::string shuffled = text.substr(0, a) + text.substr(b) + text.substr(a, b - a);
  State back = Fresh();
  std::string error;
  ASSERT_TRUE(FromNotation(shuffled, &back, &error)) << error;
  EXPECT_EQ(ToNotation(back), text);
}

TEST(NotationTest, FailedParseLeavesTheOutputAlone) {
  State s = MidGame();
  const State before = s;
  std::string error;
  EXPECT_FALSE(FromNotation("v1 cak seats=9", &s, &error));
  EXPECT_TRUE(s == before);
}

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(NotationTest, RejectsMalformedInput) {
  const std::string good = ToNotation(MidGame());
  const std::string cut = good.substr(0, good.find(" harbors="));
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"", "empty text"},
      {"x1 cak", "version: 'x1' \u2014 expected the rules version first"},
      {"v7 cak", "version: 'v7' \u2014 rules version 7 is not supported"},
      {"v1", "ruleset: missing after the version"},
      {"v1 chess", "ruleset: 'chess' \u2014 expected cak or base"},
      {cut, "missing field 'harbors' (truncated text?)"},
      {good.substr(0, good.size() - 3), ""},  // checked below: a cut inside the last field
      {Replace(good, "seats=4", "seats=5"), "seats: '5' \u2014 seats 5 out of range 3..4"},
      {Replace(good, "seats=4", "seats=four"), "seats: 'four' \u2014 expected seats 3..4"},
      {good + " colour=red", "unknown field 'colour'"},
      {good + " turn=3", "field 'turn' given twice"},
      {good + " hand3", "expected a field name=value"},
      {Replace(good, "phase=action", "phase=lunch"),
       "phase: 'lunch' \u2014 expected setup, before_roll, action or over"},
      {Replace(good, "robber=4", "robber=19"), "robber: '19' \u2014 hex 19 out of range 0..18"},
      {Replace(good, "current=1", "current=-1"), "current: '-1' \u2014 seat -1 out of range 0..3"},
      {Replace(good, "lvl1=103", "lvl1=1034"), "lvl1: '1034' \u2014 expected 3 digits"},
      {Replace(good, "lvl1=103", "lvl1=106"), "lvl1: '106' \u2014 level '6' out of range 0..5"},
      {Replace(good, "hand2=2b1w3g1o1c2m", "hand2=2b1z"), "hand2: '2b1z' \u2014 unknown card letter 'z'"},
      {Replace(good, "hand2=2b1w3g1o1c2m", "hand2=2b3b"), "hand2: '2b3b' \u2014 card 'b' given twice"},
      {Replace(good, "hand2=2b1w3g1o1c2m", "hand2=bb"), "hand2: 'bb' \u2014 expected count+letter pairs"},
      {Replace(good, "vpc2=printer", "vpc2=spy"), "vpc2: 'spy' \u2014 expected printer or constitution"},
      {Replace(good, "prog2=crane", "prog2=cranes"), "prog2: 'cranes' \u2014 unknown progress card"},
      {Replace(good, "dice=5,2,politics", "dice=5,9,politics"),
       "dice: '5,9,politics' \u2014 red die 9 out of range 0..6"},
      {Replace(good, "dice=5,2,politics", "dice=5,2,storm"), "event face must be ship, trade, politics or science"},
      {Replace(good, "c0=0wS", "c0=0wQ"), "c0: '0wQ' \u2014 unknown mark 'Q'"},
      {Replace(good, "c0=0wS", "c0=60w"), "c0: '60w' \u2014 node 60 out of range 0..53"},
      {Replace(good, "merchant=13@2", "merchant=13@7"), "merchant: '13@7' \u2014 seat 7 out of range 0..3"},
      {Replace(good, " hand2=", " hand5=1b hand2="), "hand5: '1b' \u2014 seat 5 out of range 0..3"},
      {good + " pending=discard@2:5/flood@1", "pending: 'flood@1' \u2014 unknown kind 'flood'"},
      {good + " pending=discard@2:300", "pending: 'discard@2:300' \u2014 parameter 300 out of range 0..255"},
      {good + " opts=[victory_points=0]", "opts: 'victory_points=0' \u2014 option 'victory_points': bad value"},
      {good + " opts=[victory_points=10", "missing ']' (truncated text?)"},
      {good + " opts=[ruleset=base]", "the ruleset is the second word"},
      {good + " trade=2l:1o", "trade: '2l:1o' \u2014 expected give:want:addressees"},
      {good + " answers=a,d", "answers: 'a,d' \u2014 expected one answer per seat"},
      {Replace(good, "deck_trade=225242", "deck_trade=22524"), "deck_trade: '22524' \u2014 expected 6 digits"},
      {Replace(good, "deck_trade=225242", "deck_trade=224242/spy"),
       "deck_trade: 'spy' \u2014 not a trade progress card"},
      {Replace(good, "board=", "board=D"), "board: 'DF4P9F11' \u2014 row 1 has 4 hexes, expected 3"},
      {Replace(good, "board=F", "board=X"), "board: 'X4P9F11' \u2014 unknown terrain letter 'X'"},
      {Replace(good, "harbors=", "harbors=3"), "harbors: '3"},
  };
  for (const Case& c : cases) {
    const std::string error = ParseError(c.text);
    EXPECT_NE(error, "") << "accepted: " << c.text;
    EXPECT_NE(error.find(c.error), std::string::npos)
        << "text: " << c.text << "\nerror: " << error << "\nexpected: " << c.error;
  }
}

TEST(NotationTest, RejectsInconsistentPieceCounts) {
  const std::string good = ToNotation(MidGame());
  const std::string five_cities = ParseError(Replace(good, "c0=0wS", "c0=0wS,45,48,50,52"));
  EXPECT_NE(five_cities.find("c0: '0wS,45,48,50,52' \u2014 5 cities, a seat has 4"), std::string::npos) << five_cities;
  EXPECT_NE(ParseError(Replace(good, "c0=0wS", "c0=0wS,45w,48w,50w")).find("4 walls, a seat has 3"), std::string::npos);
  EXPECT_NE(ParseError(good + " k3=2:1,4:1,6:1").find("3 knights of level 1, a seat has 2"), std::string::npos);
  EXPECT_NE(ParseError(Replace(good, "c0=0wS", "c0=0wS s3=0")).find("node 0 already has a building"),
            std::string::npos);
  const State s = MidGame();
  std::string roads = "r3=";
  for (int e = 0, n = 0; e < kNumEdges && n < 16; ++e) {
    if (s.road_owner(e) != kNoSeat) continue;
    roads += (n++ ? "," : "") + std::to_string(e);
  }
  EXPECT_NE(ParseError(good + " " + roads).find("16 roads, a seat has 15"), std::string::npos);
}

TEST(NotationTest, RejectsStatesThatFailValidate) {
  // Cards in a hand that the bank field says are still in the bank.
  const std::string text = Replace(ToNotation(MidGame()), "hand2=", "bank=19,19,19,19,19,12,12,12 hand2=");
  const std::string error = ParseError(text);
  EXPECT_NE(error, "") << "accepted: " << text;
  EXPECT_TRUE(error.starts_with("inconsistent position: ")) << error;
}

TEST(NotationTest, BoardPictureShowsEveryPiece) {
  const State s = MidGame();
  const std::string picture = BoardPicture(s);
  EXPECT_NE(picture.find("M0s"), std::string::npos) << picture;  // science metropolis of seat 0
  EXPECT_NE(picture.find("S0"), std::string::npos) << picture;
  EXPECT_NE(picture.find("C1"), std::string::npos) << picture;
  EXPECT_NE(picture.find("K13"), std::string::npos) << picture;  // active mighty knight
  EXPECT_NE(picture.find("k11"), std::string::npos) << picture;  // inactive basic knight
  EXPECT_NE(picture.find("S2"), std::string::npos) << picture;
  EXPECT_NE(picture.find('$'), std::string::npos) << picture;
  EXPECT_NE(picture.find('R'), std::string::npos) << picture;
  int node_marks = 0;
  for (int v = 0; v < kNumNodes; ++v) node_marks += s.building_owner(v) != kNoSeat || s.knight_owner(v) != kNoSeat;
  EXPECT_EQ(node_marks, 6);
}

// The examples of docs/NOTATION.md, produced from seeded games: canonical
// text parses and is written back unchanged.
TEST(NotationTest, DocumentedExamplesAreCanonical) {
  const char* const kExamples[] = {
      // fresh
      "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 "
      "phase=setup current=0",
      // mid-setup
      "v1 cak seats=3 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 "
      "phase=setup current=0 setup=5 last=13 actions=5 r0=23 s0=21 r1=11 s1=12 s2=13",
      // action
      "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 "
      "phase=action current=3 turn=20 actions=98 robber=10 barbarians=2 attacks=1 dice=6,3,ship "
      "r0=23,58 s0=21,45 hand0=1b1w3g1o lvl0=010 r1=11,62 s1=12,47 hand1=2w3o1p r2=10,13 s2=13 c2=11 "
      "k2=7:1a,8:1a hand2=1w1g r3=51,56 s3=35,44 k3=39:1 hand3=3g2o",
      // discard
      "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 "
      "phase=action current=0 turn=17 actions=80 barbarians=1 attacks=1 dice=5,2,trade r0=23,58 "
      "s0=21,45 hand0=2b2g3o1c lvl0=010 r1=11,62 s1=12,47 hand1=2l2w3o r2=10,13 s2=13 c2=11 "
      "k2=7:1,8:1a hand2=2g r3=51,56 s3=35,44 k3=39:1 hand3=1w3g2o "
      "pending=step_robber_after_seven@0/discard@0:4",
      // relocate
      "v1 cak seats=3 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 "
      "phase=action current=2 turn=78 actions=356 robber=12 barbarians=3 attacks=6 dice=4,6,ship "
      "r0=8,43,44,45,52 s0=9,36 k0=35:1a hand0=1l2o1c "
      "prog0=wedding,master_merchant,merchant,resource_monopoly lvl0=100 r1=40,54,62 s1=28,47 k1=43:1a "
      "hand1=2c1p prog1=alchemist,commercial_harbor,commercial_harbor,resource_monopoly vpc1=printer "
      "lvl1=101 r2=39,59,60 s2=27,45 k2=41:2 hand2=1b2g2o "
      "prog2=road_building,spy,merchant,merchant_fleet def2=3 lvl2=110 "
      "deck_trade=012122/merchant@1,merchant@0 deck_politics=212222221 deck_science=1212222011/smith@1 "
      "pending=relocate_knight@0:41,1",
      // trade
      "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 "
      "phase=action current=3 turn=12 actions=63 offers=1 attacks=1 dice=3,1,ship r0=23,58 s0=21,45 "
      "hand0=2b2g2o1c lvl0=010 r1=11,62 s1=12,47 hand1=2l1w2o r2=10,13 s2=13 c2=11 k2=7:1,8:1 hand2=1g "
      "r3=51,56 s3=35,44 hand3=4b3g2o trade=2b:1l:012 answers=d,-,-,- "
      "pending=trade_close@3/trade_answer@2/trade_answer@1",
      // wedding
      "v1 cak seats=4 board=F4P9F11/P10M6G4P5/H6F2DH3F8/G9H10G8M3/P12M5G11 harbors=3o3bg3lw3 "
      "phase=action current=2 turn=35 actions=168 robber=18 merchant=5@3 barbarians=3 attacks=2 "
      "dice=3,6,politics r0=59,66 s0=45,51 hand0=1l2g3o1c r1=5,9,42,50,56 s1=6,39 hand1=2w2g r2=11,49 s2=12 "
      "c2=38 k2=7:1,33:1 hand2=1w2g2o1m lvl2=010 r3=20,27,32 s3=13,20 k3=18:2,23:2a hand3=2l1g2p def3=1 "
      "lvl3=101 deck_trade=225232/merchant,resource_monopoly deck_politics=211222321/deserter "
      "deck_science=1211222122/inventor,alchemist pending=step_return_progress@2:18/wedding_give@3:2,1",
  };
  for (const char* text : kExamples) {
    State s = Fresh();
    std::string error;
    ASSERT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
    EXPECT_EQ(ToNotation(s), text);
  }
}

// ---------------------------------------------------------------------------
// Every state along random games round-trips. Chance is sampled with a fixed
// splitmix64 stream; now and then a seat makes or counters a one-for-one trade
// offer, which LegalActions never lists, so that open trades are covered too.

class TestRng {
 public:
  explicit TestRng(uint64_t seed) : state_(seed) {}
  uint64_t Next() { return SplitMixNext(&state_); }
  double Uniform() { return double(Next() >> 11) * 0x1.0p-53; }
  int Below(int n) { return int(Next() % uint64_t(n)); }

 private:
  uint64_t state_;
};

// A one-card-for-one-card offer or counter the seat could afford, or nothing.
bool TryTrade(State* s, TestRng* rng) {
  const int seat = s->CurrentPlayer();
  const CardCounts& hand = s->player(seat).hand;
  int give = rng->Below(kNumCardTypes), want = rng->Below(kNumCardTypes);
  if (hand[give] == 0 || give == want) return false;
  CardCounts g, w;
  g[give] = 1;
  w[want] = 1;
  const bool answering = s->pending_size() > 0 && s->pending(s->pending_size() - 1).kind == PendingKind::kTradeAnswer;
  const Action a =
      answering ? Action::TradeCounter(g, w) : Action::TradeOffer(g, w, ((1 << s->num_seats()) - 1) & ~(1 << seat));
  return s->Apply(a).empty();
}

TEST(NotationTest, RandomGamesRoundTripAtEveryStep) {
  constexpr int kGames = 200;
  int states = 0, trades = 0, mid_decision = 0, card_steps = 0, with_effects = 0;
  for (int game = 0; game < kGames; ++game) {
    TestRng rng(uint64_t(game) * 7919 + 1);
    RulesOptions o;
    o.max_actions = 400;
    if (game % 4 == 1) o.fiesepeter = true;
    if (game % 4 == 2) o.saboteur = Saboteur::kSabotageCity;
    if (game % 4 == 3) o.start_player = StartPlayer::kRoll;
    GameConfig config = Config(3 + game % 2, o);
    if (game % 3 == 0) config.board = RandomBoard(uint64_t(game));
    State s = Fresh();
    std::string error;
    ASSERT_TRUE(NewGame(config, &s, &error)) << error;
    while (!s.IsTerminal()) {
      const std::string text = ToNotation(s);
      if (std::string invalid = s.Validate(); !invalid.empty()) {
        // Not the notation's fault: the rules reached a state their own check rejects.
        ADD_FAILURE() << "game " << game << ": Validate() rejects a reachable state: " << invalid << "\n" << text;
        break;
      }
      State back = Fresh();
      ASSERT_TRUE(FromNotation(text, &back, &error)) << "game " << game << ": " << text << "\n" << error;
      ASSERT_TRUE(back == s) << "game " << game << ": " << text << "\nre-written: " << ToNotation(back);
      ASSERT_EQ(ToNotation(back), text);
      ++states;
      mid_decision += s.pending_size() > 0;
      for (int i = 0; i < s.pending_size(); ++i)
        if (s.pending(i).kind >= PendingKind::kRoadBuilding) {
          ++card_steps;
          break;
        }
      with_effects += !(s.effects() == TurnEffects{});
      if (s.IsChanceNode()) {
        s.ApplyUnchecked(s.SampleChance(rng.Uniform()));
        continue;
      }
      if (rng.Below(8) == 0 && TryTrade(&s, &rng)) {
        ++trades;
        continue;
      }
      const std::vector<Action> legal = s.LegalActions();
      ASSERT_FALSE(legal.empty()) << text;
      s.ApplyUnchecked(legal[rng.Below(int(legal.size()))]);
    }
  }
  EXPECT_GT(states, 10000);
  EXPECT_GT(trades, 0);
  EXPECT_GT(mid_decision, 0);
  // Progress cards are played (they are in LegalActions), so their steps and
  // effects are carried too.
  EXPECT_GT(card_steps, 0);
  EXPECT_GT(with_effects, 0);
}

}  // namespace
}  // namespace metropolis
