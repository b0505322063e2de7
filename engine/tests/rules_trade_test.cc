// Trading (RULES.md section 11): TRD-1 .. TRD-4. Positions are written in the
// notation (docs/NOTATION.md) on the default board; docs/BOARD.md has the
// harbor slots: slot 0 (n0, n3) is 3:1, slot 1 (n1, n5) is 2:1 ore.
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
#include "engine/state_editor.h"

namespace metropolis {
namespace {

constexpr std::string_view kBoard = "board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

State PositionWith(int seats, std::string_view fields) {
  State s;
  std::string error;
  const std::string text = "v1 cak seats=" + std::to_string(seats) + " " + std::string(kBoard) + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  return s;
}

// A 4-seat position on the default board.
State Position(std::string_view fields) { return PositionWith(4, fields); }

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

bool IsLegal(const State& s, const Action& a) {
  const std::vector<Action> legal = s.LegalActions();
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// Cards from notation letters, e.g. Cards("1b2o").
CardCounts Cards(std::string_view text) {
  CardCounts c;
  int n = 0;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      n = 10 * n + (ch - '0');
    } else {
      c[CardFromLetter(ch)] = uint8_t(n);
      n = 0;
    }
  }
  return c;
}

Action BankTrade(int give, int take) { return Action::Make(ActionType::kBankTrade, give, take); }
Action Offer(std::string_view give, std::string_view want, int addressees) {
  return Action::TradeOffer(Cards(give), Cards(want), addressees);
}
Action Counter(std::string_view give, std::string_view want) { return Action::TradeCounter(Cards(give), Cards(want)); }
Action Accept() { return Action::Make(ActionType::kTradeAccept); }
Action Decline() { return Action::Make(ActionType::kTradeDecline); }
Action Confirm(int seat) { return Action::Make(ActionType::kTradeConfirm, seat); }
Action Cancel() { return Action::Make(ActionType::kTradeCancel); }

// ---- TRD-1 ------------------------------------------------------------------------------

TEST(RulesTradeTest, Trd1NoTradingBeforeTheRoll) {
  const State s = Position("phase=before_roll current=0 turn=9 s0=40 hand0=4b s1=8 hand1=1o");
  ExpectRefused(s, Offer("1b", "1o", 0b0010), "TRD-1");
  ExpectRefused(s, BankTrade(kBrick, kOre), "TRN-2");
}

TEST(RulesTradeTest, Trd1NoTradingWhileADecisionIsPending) {
  // Seat 0 must still discard 4 after a 7.
  const State s = Position(
      "phase=action current=0 turn=9 dice=3,4,ship s0=40 hand0=8b s1=8 hand1=1o "
      "pending=step_robber_after_seven@0/discard@0:4");
  ExpectRefused(s, Offer("1b", "1o", 0b0010), "TRD-1");
  ExpectRefused(s, BankTrade(kBrick, kOre), "19");
}

// ---- TRD-2 bank trades ------------------------------------------------------------------------

TEST(RulesTradeTest, Trd2FourToOneWithoutHarbor) {
  State s = Position("phase=action current=0 turn=9 s0=40 hand0=4b1w");
  EXPECT_TRUE(IsLegal(s, BankTrade(kBrick, kOre)));  // bank trades are listed, at the best rate
  EXPECT_EQ(Play(s, BankTrade(kBrick, kOre)),
            (std::vector<std::string>{"seat 0: bank_trade brick ore", "seat 0 paid 4 brick"}));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 s0=40 hand0=1w1o");
  EXPECT_EQ(s.bank()[kBrick], 19);
  EXPECT_EQ(s.bank()[kOre], 18);
}

TEST(RulesTradeTest, Trd2FourToOneCommoditiesForAnyCard) {
  State s = Position("phase=action current=0 turn=9 s0=40 hand0=8c");
  Play(s, BankTrade(kCloth, kCoin));
  Play(s, BankTrade(kCloth, kGrain));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 s0=40 hand0=1g1m");
}

TEST(RulesTradeTest, Trd2RateNotMetOrMixedSetsAreRefused) {
  ExpectRefused(Position("phase=action current=0 turn=9 s0=40 hand0=3b"), BankTrade(kBrick, kOre), "TRD-2");
  // Two brick and two lumber are four cards, but not of one type.
  ExpectRefused(Position("phase=action current=0 turn=9 s0=40 hand0=2b2l"), BankTrade(kBrick, kOre), "TRD-2");
  ExpectRefused(Position("phase=action current=0 turn=9 s0=40 hand0=2b2l"), BankTrade(kLumber, kOre), "TRD-2");
  // The bank gives a card of another type.
  ExpectRefused(Position("phase=action current=0 turn=9 s0=40 hand0=4b"), BankTrade(kBrick, kBrick), "TRD-2");
}

TEST(RulesTradeTest, Trd2GenericHarborThreeToOne) {
  // Seat 0's settlement n0 is on slot 0 (3:1).
  State s = Position("phase=action current=0 turn=9 s0=0 hand0=3b3c");
  Play(s, BankTrade(kBrick, kWool));
  Play(s, BankTrade(kCloth, kPaper));  // D18 default ANY_CARD: commodities buy commodities too
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 s0=0 hand0=1w1p");
  ExpectRefused(Position("phase=action current=0 turn=9 s0=0 hand0=2b"), BankTrade(kBrick, kWool), "TRD-2");
}

TEST(RulesTradeTest, Trd2D18ResourceOnlyHarborCommodities) {
  const std::string opts = "opts=[harbor3_commodity_output=RESOURCE_ONLY] ";
  const State s = Position(opts + "phase=action current=0 turn=9 s0=0 hand0=3c");
  ExpectRefused(s, BankTrade(kCloth, kPaper), "TRD-2");
  State legal = s;
  Play(legal, BankTrade(kCloth, kOre));
  ExpectPosition(legal, opts + "phase=action current=0 turn=9 actions=1 s0=0 hand0=1o");
  // At 4:1 a commodity still buys a commodity.
  State four = Position(opts + "phase=action current=0 turn=9 s0=0 hand0=4c");
  Play(four, BankTrade(kCloth, kPaper));
}

TEST(RulesTradeTest, Trd2ResourceHarborTwoToOneForItsResourceOnly) {
  // Seat 0's city n1 is on slot 1 (2:1 ore).
  State s = Position("phase=action current=0 turn=9 c0=1 hand0=2o3b");
  Play(s, BankTrade(kOre, kBrick));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 c0=1 hand0=4b");
  ExpectRefused(Position("phase=action current=0 turn=9 c0=1 hand0=3b"), BankTrade(kBrick, kOre), "TRD-2");
}

TEST(RulesTradeTest, Trd2MerchantGuildTwoCommoditiesForAnyCard) {
  // Trade level 3: 2:1 for commodities, not for resources.
  State s = Position("phase=action current=0 turn=9 c0=40 lvl0=300 hand0=2c2m3b");
  Play(s, BankTrade(kCloth, kOre));
  Play(s, BankTrade(kCoin, kPaper));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=2 c0=40 lvl0=300 hand0=3b1o1p");
  ExpectRefused(s, BankTrade(kBrick, kOre), "TRD-2");
  ExpectRefused(Position("phase=action current=0 turn=9 c0=40 lvl0=200 hand0=2c"), BankTrade(kCloth, kOre), "TRD-2");
}

TEST(RulesTradeTest, Trd2MerchantOwnerTwoToOneForTheMerchantHexResource) {
  // Seat 0 (settlement n12, next to hex 4, mountains) owns the merchant on
  // hex 4: 2 ore buy any card; wool stays at 4:1.
  State s = Position("phase=action current=0 turn=9 s0=12 hand0=2o3w");
  StateEditor editor(&s);
  editor.merchant_hex() = 4;
  editor.merchant_owner() = 0;
  editor.RecomputeDerived();
  ASSERT_EQ(s.Validate(), "");
  EXPECT_EQ(s.player(0).vp, 2);  // the settlement and the merchant
  ExpectRefused(s, BankTrade(kWool, kGrain), "TRD-2");
  Play(s, BankTrade(kOre, kGrain));
  ExpectPosition(s, "phase=action current=0 turn=9 actions=1 merchant=4@0 s0=12 hand0=3w1g");
  // Another seat does not get the rate from seat 0's merchant.
  ExpectRefused(Position("phase=action current=1 turn=9 merchant=4@0 s0=12 s1=18 hand1=2o"), BankTrade(kOre, kGrain),
                "TRD-2");
}

TEST(RulesTradeTest, Trd2BankMustHoldTheCard) {
  // Seat 3 holds all 19 ore.
  const State s = Position("phase=action current=0 turn=9 s0=40 hand0=4b s3=26 hand3=19o");
  ExpectRefused(s, BankTrade(kBrick, kOre), "TRD-2");
  State other = s;
  Play(other, BankTrade(kBrick, kGrain));
  // An unlimited bank always pays.
  State unlimited = Position("opts=[bank_limited=false] phase=action current=0 turn=9 s0=40 hand0=4b s3=26 hand3=19o");
  Play(unlimited, BankTrade(kBrick, kOre));
  EXPECT_EQ(unlimited.player(0).hand[kOre], 1);
}

// ---- TRD-3 player trades --------------------------------------------------------------------------

// Seat 0 to act: 2 brick, 1 lumber. Seat 1: 1 ore, 1 wool. Seat 2: 2 ore.
// Seat 3: nothing.
constexpr std::string_view kMarket =
    "phase=action current=0 turn=9 s0=40 hand0=2b1l s1=8 hand1=1w1o s2=14 hand2=2o s3=26 ";

TEST(RulesTradeTest, Trd3OfferIsParameterisedAndOpensTheAnswers) {
  State s = Position(kMarket);
  const std::vector<Action> legal = s.LegalActions();
  EXPECT_EQ(std::count_if(legal.begin(), legal.end(), [](const Action& a) { return IsParameterised(a.type); }), 0);
  EXPECT_EQ(Play(s, Offer("1b", "1o", 0b1110)),
            std::vector<std::string>{"seat 0: offer give 1brick want 1ore to 1,2,3"});
  ExpectPosition(s, std::string(kMarket) +
                        "actions=1 offers=1 trade=1b:1o:123 "
                        "pending=trade_close@0/trade_answer@3/trade_answer@2/trade_answer@1");
  EXPECT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{Accept(), Decline()}));
}

TEST(RulesTradeTest, Trd3OfferChecks) {
  const State s = Position(kMarket);
  ExpectRefused(s, Offer("3b", "1o", 0b0010), "TRD-3");    // holds only 2 brick
  ExpectRefused(s, Offer("1w", "1o", 0b0010), "TRD-3");    // holds no wool
  ExpectRefused(s, Offer("", "1o", 0b0010), "TRD-3");      // gives nothing
  ExpectRefused(s, Offer("1b", "", 0b0010), "TRD-3");      // wants nothing
  ExpectRefused(s, Offer("1b", "1b1o", 0b0010), "TRD-3");  // a type on both sides
  ExpectRefused(s, Offer("1b", "1o", 0b0011), "TRD-3");    // seat 0 addresses himself
  ExpectRefused(s, Offer("1b", "1o", 0), "TRD-3");         // nobody
  // Seat 3 does not exist in a 3-seat game.
  ExpectRefused(PositionWith(3, "phase=action current=0 turn=9 s0=40 hand0=2b s1=8 hand1=1o"),
                Offer("1b", "1o", 0b1010), "TRD-3");
}

TEST(RulesTradeTest, Trd3AtMostMaxOffersPerTurn) {
  // Default 3 per turn; the count resets when the turn ends (TRN-7).
  const State s = Position(std::string(kMarket) + "offers=3");
  ExpectRefused(s, Offer("1b", "1o", 0b0010), "TRD-3");
  State next = s;
  Play(next, Action::EndTurn());
  EXPECT_EQ(next.offers_this_turn(), 0);
  ExpectRefused(Position(std::string("opts=[max_trade_offers_per_turn=1] ") + std::string(kMarket) + "offers=1"),
                Offer("1b", "1o", 0b0010), "TRD-3");
  State one = Position(std::string("opts=[max_trade_offers_per_turn=1] ") + std::string(kMarket));
  Play(one, Offer("1b", "1o", 0b0010));
}

TEST(RulesTradeTest, Trd3ZeroOffersDisablesPlayerTrades) {
  ExpectRefused(Position(std::string("opts=[max_trade_offers_per_turn=0] ") + std::string(kMarket)),
                Offer("1b", "1o", 0b0010), "TRD-3");
}

TEST(RulesTradeTest, Trd3AnswersInTurnOrderAfterTheCurrentPlayer) {
  // Seat 2 offers to seats 0, 1 and 3: they answer 3, 0, 1.
  State s = Position("phase=action current=2 turn=9 s0=40 hand0=1b s1=8 hand1=1b s2=14 hand2=2o s3=26 hand3=1b");
  Play(s, Offer("1o", "1b", 0b1011));
  std::vector<int> order;
  while (s.pending(s.pending_size() - 1).kind == PendingKind::kTradeAnswer) {
    order.push_back(s.CurrentPlayer());
    Play(s, Decline());
  }
  EXPECT_EQ(order, (std::vector<int>{3, 0, 1}));
  EXPECT_EQ(s.CurrentPlayer(), 2);
}

TEST(RulesTradeTest, Trd3AcceptOnlyHoldingTheWantedCards) {
  // Offer to seat 3 alone, who holds no ore.
  State s = Position(kMarket);
  Play(s, Offer("1b", "1o", 0b1000));
  ASSERT_EQ(s.CurrentPlayer(), 3);
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{Decline()});
  ExpectRefused(s, Accept(), "TRD-3");
}

TEST(RulesTradeTest, Trd3CounterChecks) {
  State s = Position(kMarket);
  Play(s, Offer("1b", "1o", 0b0110));
  ASSERT_EQ(s.CurrentPlayer(), 1);
  ExpectRefused(s, Counter("1o", "1b"), "TRD-3");    // the offer itself: accept it instead
  ExpectRefused(s, Counter("2o", "1b"), "TRD-3");    // seat 1 holds one ore
  ExpectRefused(s, Counter("1o", "1b1o"), "TRD-3");  // ore on both sides
  ExpectRefused(s, Counter("", "1b"), "TRD-3");      // gives nothing
  ExpectRefused(s, Counter("1w", ""), "TRD-3");      // wants nothing
  // Nothing but an answer while seat 1 is to answer.
  ExpectRefused(s, Action::EndTurn(), "19");
  ExpectRefused(s, Confirm(1), "19");
  // A counter answers an open offer only.
  ExpectRefused(Position(kMarket), Counter("1b", "1o"), "TRD-3");
}

TEST(RulesTradeTest, Trd3ConfirmWithAnAcceptorExecutesExactly) {
  State s = Position(kMarket);
  Play(s, Offer("1b", "1o", 0b1110));
  EXPECT_EQ(Play(s, Accept()), std::vector<std::string>{"seat 1: accept"});
  Play(s, Counter("2o", "1b1l"));
  Play(s, Decline());
  // Every addressee answered: seat 0 closes.
  ExpectPosition(
      s, std::string(kMarket) + "actions=4 offers=1 trade=1b:1o:123 answers=-,a,c:2o:1b1l,d pending=trade_close@0");
  ASSERT_EQ(s.CurrentPlayer(), 0);
  EXPECT_EQ(s.LegalActions(), (std::vector<Action>{Confirm(1), Confirm(2), Cancel()}));
  ExpectRefused(s, Confirm(3), "TRD-3");  // declined
  ExpectRefused(s, Confirm(0), "TRD-3");  // himself
  // Nothing else while the offer is open.
  ExpectRefused(s, Action::EndTurn(), "19");
  ExpectRefused(s, Action::BuildRoad(57), "19");
  ExpectRefused(s, BankTrade(kBrick, kOre), "19");
  ExpectRefused(s, Offer("1l", "1w", 0b0010), "TRD-1");

  EXPECT_EQ(Play(s, Confirm(1)),
            (std::vector<std::string>{"seat 0: confirm 1", "seat 0 gave 1brick to seat 1 for 1ore"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=5 offers=1 s0=40 hand0=1b1l1o s1=8 hand1=1b1w s2=14 hand2=2o "
                 "s3=26");
}

TEST(RulesTradeTest, Trd3ConfirmACounterExecutesTheCounter) {
  State s = Position(kMarket);
  Play(s, Offer("1b", "1o", 0b0110));
  Play(s, Decline());
  Play(s, Counter("2o", "1b1l"));
  EXPECT_EQ(Play(s, Confirm(2)),
            (std::vector<std::string>{"seat 0: confirm 2", "seat 0 gave 1brick 1lumber to seat 2 for 2ore"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=9 actions=4 offers=1 s0=40 hand0=1b2o s1=8 hand1=1w1o s2=14 "
                 "hand2=1b1l s3=26");
}

TEST(RulesTradeTest, Trd3CancelChangesNoCards) {
  State s = Position(kMarket);
  Play(s, Offer("1b", "1o", 0b0110));
  Play(s, Accept());
  Play(s, Accept());
  EXPECT_EQ(Play(s, Cancel()), std::vector<std::string>{"seat 0: cancel"});
  // The offer still counts toward the limit.
  ExpectPosition(s, std::string(kMarket) + "actions=4 offers=1");
}

TEST(RulesTradeTest, Trd3OfferNeedsNoAcceptorToClose) {
  // Everyone declines: only cancel is left.
  State s = Position(kMarket);
  Play(s, Offer("1b", "1o", 0b0010));
  Play(s, Decline());
  EXPECT_EQ(s.LegalActions(), std::vector<Action>{Cancel()});
  ExpectRefused(s, Confirm(1), "TRD-3");
}

// ---- TRD-4 ----------------------------------------------------------------------------------

TEST(RulesTradeTest, Trd4OnlyHandCardsChangeHands) {
  // Seat 0 holds progress cards and a revealed Printer; a player trade moves
  // only the resources named in it. A side of a trade is a count per hand
  // card type (8 types): progress cards, VP cards and pieces cannot be named.
  State s = Position(
      "phase=action current=0 turn=9 s0=40 hand0=1b prog0=crane,smith vpc0=printer "
      "deck_science=2112222021 s1=8 hand1=1o");
  const int vp0 = s.player(0).vp;
  Play(s, Offer("1b", "1o", 0b0010));
  Play(s, Accept());
  Play(s, Confirm(1));
  EXPECT_EQ(s.player(0).num_progress, 2);
  EXPECT_EQ(s.player(0).vp_cards, 1);
  EXPECT_EQ(s.player(0).vp, vp0);
  EXPECT_EQ(s.player(0).hand, Cards("1o"));
  EXPECT_EQ(s.player(1).hand, Cards("1b"));
  // With no hand cards at all, nothing can be offered.
  ExpectRefused(Position("phase=action current=0 turn=9 s0=40 prog0=crane deck_science=2112222122 s1=8 hand1=1o"),
                Offer("1b", "1o", 0b0010), "TRD-3");
}

}  // namespace
}  // namespace metropolis
