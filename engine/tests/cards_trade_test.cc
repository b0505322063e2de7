// Trade progress cards, RULES.md 13.3 (C-T1..C-T6) with the general rules of
// section 12 (PC-5..PC-7): for each card a legal play with its whole effect
// (the position after, in the notation, and the events), each failing
// precondition refused with its rule and nothing changed, the exact lists of
// its sub-decisions, and the interactions the rules call out.
//
// Positions are on the default board (docs/BOARD.md). The trade deck is
// written as copies per kind — commercial_harbor master_merchant merchant
// merchant_fleet resource_monopoly trade_monopoly, full: 226242 — minus the
// cards in hands; after `/` comes the queue of returned cards, where a played
// card goes once its effect is resolved (PC-6).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/progress.h"
#include "engine/state.h"
#include "engine/tests/test_util.h"

namespace metropolis {
namespace {

using test_util::A;
using test_util::ExpectPosition;
using test_util::ExpectRefused;
using test_util::IsLegal;
using test_util::LegalTexts;
using test_util::Play;
using test_util::Pos;
using Texts = std::vector<std::string>;

constexpr uint8_t Seats(int a, int b) { return uint8_t((1u << a) | (1u << b)); }

// ---- C-T1 Commercial Harbor -------------------------------------------------------

// Seat 0 offers brick and wool; seat 1 holds cloth and coin (and a lumber),
// seat 2 no commodity, seat 3 one paper.
constexpr std::string_view kHarbor = "phase=action current=0 turn=8 hand0=1b1w hand1=1l1c1m hand2=1g hand3=1p ";

TEST(TradeCardsTest, Ct1CommercialHarborGoesThroughTheOpponents) {
  State s = Pos(std::string(kHarbor) + "prog0=commercial_harbor deck_trade=126242");
  EXPECT_EQ(Play(s, "play commercial_harbor"), (Texts{"seat 0: play commercial_harbor"}));
  ExpectPosition(
      s, std::string(kHarbor) + "actions=1 deck_trade=126242 pending=step_return_progress@0:19/commercial_harbor@0");
  // Only resources are offered, one to each opponent; he may stop at once.
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "harbor_offer 1 brick", "harbor_offer 1 wool", "harbor_offer 2 brick",
                                  "harbor_offer 2 wool", "harbor_offer 3 brick", "harbor_offer 3 wool"}));

  // Seat 1 must take the brick and return a commodity of his own choice.
  EXPECT_EQ(Play(s, "harbor_offer 1 brick"), (Texts{"seat 0: harbor_offer 1 brick"}));
  ExpectPosition(s, std::string(kHarbor) +
                        "actions=2 harbor_partners=1 deck_trade=126242 "
                        "pending=step_return_progress@0:19/commercial_harbor@0/harbor_return@1");
  ASSERT_EQ(s.CurrentPlayer(), 1);
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card cloth", "give_card coin"}));
  ExpectRefused(s, "give_card lumber", "C-T1");  // only commodities come back
  std::vector<Event> events;
  EXPECT_EQ(Play(s, "give_card coin", &events),
            (Texts{"seat 1: give_card coin", "seat 0 gave 1 brick to seat 1", "seat 1 gave 1 coin to seat 0"}));
  // The resource was named in the public offer; the commodity is seen by the
  // two players only (section 18).
  EXPECT_EQ(events[1].private_to, 0);
  EXPECT_EQ(events[2].private_to, Seats(0, 1));
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "harbor_offer 2 wool", "harbor_offer 3 wool"}));

  // Seat 2 holds no commodity: nothing changes hands, the wool stays [1998en],
  // and seat 2 is dealt with for this turn.
  EXPECT_EQ(Play(s, "harbor_offer 2 wool"), (Texts{"seat 0: harbor_offer 2 wool"}));
  ExpectPosition(s,
                 "phase=action current=0 turn=8 actions=4 harbor_partners=12 hand0=1w1m hand1=1b1l1c hand2=1g "
                 "hand3=1p deck_trade=126242 pending=step_return_progress@0:19/commercial_harbor@0");
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "harbor_offer 3 wool"}));

  // Seat 3's only choice is his paper; then no opponent is left, so the card
  // ends by itself and goes under the trade deck.
  Play(s, "harbor_offer 3 wool");
  EXPECT_EQ(LegalTexts(s), (Texts{"give_card paper"}));
  Play(s, "give_card paper");
  ExpectPosition(s,
                 "phase=action current=0 turn=8 actions=6 harbor_partners=123 hand0=1m1p hand1=1b1l1c hand2=1g "
                 "hand3=1w deck_trade=126242/commercial_harbor");
}

TEST(TradeCardsTest, Ct1CommercialHarborRefusals) {
  State s = Pos(std::string(kHarbor) + "prog0=commercial_harbor deck_trade=126242");
  Play(s, "play commercial_harbor");
  ExpectRefused(s, "harbor_offer 1 ore", "C-T1");    // not held
  ExpectRefused(s, "harbor_offer 0 brick", "C-T1");  // not an opponent
  ExpectRefused(s, "end_turn", "19");                // the card's step first
  // A commodity is never offered: no such action exists.
  State with_cloth = Pos("phase=action current=0 turn=8 hand0=1b1c hand1=1c prog0=commercial_harbor deck_trade=126242");
  Play(with_cloth, "play commercial_harbor");
  // Seats 2 and 3 hold no commodity; they may be offered to all the same.
  EXPECT_EQ(LegalTexts(with_cloth),
            (Texts{"stop", "harbor_offer 1 brick", "harbor_offer 2 brick", "harbor_offer 3 brick"}));
  ExpectRefused(with_cloth, Action::Make(ActionType::kHarborOffer, 1, kCloth), "malformed action");
}

TEST(TradeCardsTest, Ct1CommercialHarborMayStopAtOnce) {
  State s = Pos(std::string(kHarbor) + "prog0=commercial_harbor deck_trade=125242/merchant@2");
  Play(s, "play commercial_harbor");
  Play(s, "stop");
  // Behind the card already in the queue (PC-8).
  ExpectPosition(s, std::string(kHarbor) + "actions=2 deck_trade=125242/merchant@2,commercial_harbor");
}

TEST(TradeCardsTest, Ct1OneExchangePerOpponentPerTurnEvenWithTwoCards) {
  // E11: seat 1 was dealt with by a first Commercial Harbor this turn.
  State s = Pos(std::string(kHarbor) + "harbor_partners=1 prog0=commercial_harbor deck_trade=026242/commercial_harbor");
  Play(s, "play commercial_harbor");
  EXPECT_EQ(LegalTexts(s), (Texts{"stop", "harbor_offer 2 brick", "harbor_offer 2 wool", "harbor_offer 3 brick",
                                  "harbor_offer 3 wool"}));
  ExpectRefused(s, "harbor_offer 1 brick", "C-T1");
  // With every opponent dealt with, the card does nothing and goes back.
  State done =
      Pos(std::string(kHarbor) + "harbor_partners=123 prog0=commercial_harbor deck_trade=026242/commercial_harbor");
  Play(done, "play commercial_harbor");
  ExpectPosition(done, std::string(kHarbor) +
                           "actions=1 harbor_partners=123 deck_trade=026242/commercial_harbor,commercial_harbor");
  // A new turn forgets the partners.
  Play(done, "end_turn");
  ExpectPosition(done,
                 "phase=before_roll current=1 turn=9 actions=2 hand0=1b1w hand1=1l1c1m hand2=1g hand3=1p "
                 "deck_trade=026242/commercial_harbor,commercial_harbor");
}

// ---- C-T2 Master Merchant ---------------------------------------------------------

// VP: seat 0 1 (settlement 13), seat 1 2 (city 41), seat 2 1 (settlement 2), seat 3 0.
constexpr std::string_view kRich = "s0=13 r0=20 c1=41 r1=59 s2=2 r2=5 ";

TEST(TradeCardsTest, Ct2MasterMerchantTakesTwoCardsOfHisChoice) {
  State s = Pos(std::string("phase=action current=0 turn=8 ") + std::string(kRich) +
                "hand1=2b1c1p hand2=3o hand3=2g prog0=master_merchant deck_trade=216242");
  // Only against a player with more VP.
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play master_merchant 1"}));
  ExpectRefused(s, "play master_merchant 2", "C-T2");  // as many VP
  ExpectRefused(s, "play master_merchant 3", "C-T2");  // fewer VP
  std::vector<Event> events;
  EXPECT_EQ(Play(s, "play master_merchant 1", &events),
            // The whole hand, every card type, so others learn nothing from the count of events.
            (Texts{"seat 0: play master_merchant 1", "seat 0 saw 2 brick in the hand of seat 1",
                   "seat 0 saw 0 lumber in the hand of seat 1", "seat 0 saw 0 wool in the hand of seat 1",
                   "seat 0 saw 0 grain in the hand of seat 1", "seat 0 saw 0 ore in the hand of seat 1",
                   "seat 0 saw 1 cloth in the hand of seat 1", "seat 0 saw 0 coin in the hand of seat 1",
                   "seat 0 saw 1 paper in the hand of seat 1"}));
  for (size_t i = 1; i < events.size(); ++i) EXPECT_EQ(events[i].private_to, 1u << 0);
  ExpectPosition(s, std::string("phase=action current=0 turn=8 actions=1 ") + std::string(kRich) +
                        "hand1=2b1c1p hand2=3o hand3=2g deck_trade=216242 "
                        "pending=step_return_progress@0:20/master_merchant_take@0:1,2");
  EXPECT_EQ(LegalTexts(s), (Texts{"take_card brick", "take_card cloth", "take_card paper"}));
  ExpectRefused(s, "take_card ore", "C-T2");  // seat 2's, not seat 1's
  EXPECT_EQ(Play(s, "take_card paper", &events), (Texts{"seat 0: take_card paper", "seat 1 gave 1 paper to seat 0"}));
  EXPECT_EQ(events[1].private_to, Seats(0, 1));
  EXPECT_EQ(LegalTexts(s), (Texts{"take_card brick", "take_card cloth"}));
  Play(s, "take_card brick");
  ExpectPosition(s, std::string("phase=action current=0 turn=8 actions=3 ") + std::string(kRich) +
                        "hand0=1b1p hand1=1b1c hand2=3o hand3=2g deck_trade=216242/master_merchant");
}

TEST(TradeCardsTest, Ct2MasterMerchantTakesAllOfASmallerHand) {
  State s = Pos(std::string("phase=action current=0 turn=8 ") + std::string(kRich) +
                "hand1=1c prog0=master_merchant deck_trade=216242");
  Play(s, "play master_merchant 1");
  EXPECT_EQ(LegalTexts(s), (Texts{"take_card cloth"}));
  Play(s, "take_card cloth");
  ExpectPosition(s, std::string("phase=action current=0 turn=8 actions=2 ") + std::string(kRich) +
                        "hand0=1c deck_trade=216242/master_merchant");
  // An empty hand gives nothing; the play is still allowed (VP only).
  State empty = Pos(std::string("phase=action current=0 turn=8 ") + std::string(kRich) +
                    "prog0=master_merchant deck_trade=216242");
  EXPECT_EQ(Play(empty, "play master_merchant 1").size(), 1u + kNumCardTypes);  // the play, then the empty hand seen
  ExpectPosition(empty, std::string("phase=action current=0 turn=8 actions=1 ") + std::string(kRich) +
                            "deck_trade=216242/master_merchant");
}

TEST(TradeCardsTest, Ct2OptionProgressTakesResourcesOnly) {
  const std::string head =
      std::string("opts=[progress_takes_resources_only=true] phase=action current=0 turn=8 ") + std::string(kRich);
  State s = Pos(head + "hand1=1b2c prog0=master_merchant deck_trade=216242");
  Play(s, "play master_merchant 1");
  // One resource only: a single pick, and commodities are never offered.
  EXPECT_EQ(LegalTexts(s), (Texts{"take_card brick"}));
  ExpectRefused(s, "take_card cloth", "C-T2");
  Play(s, "take_card brick");
  ExpectPosition(s, head + "actions=2 hand0=1b hand1=2c deck_trade=216242/master_merchant");
  // Commodities only: nothing to take.
  State none = Pos(head + "hand1=2c prog0=master_merchant deck_trade=216242");
  Play(none, "play master_merchant 1");
  ExpectPosition(none, head + "actions=1 hand1=2c deck_trade=216242/master_merchant");
}

// ---- C-T3 Merchant ------------------------------------------------------------------

// Seat 0: settlement 18 (hexes 4 M6, 5 G4, 9 desert), city 45 (14 G8, 17 M5,
// 18 G11). Seat 1: settlement 8 (hexes 0, 1, 4) and the merchant on hex 4.
constexpr std::string_view kMerchant = "s0=18 c0=45 r0=27,58 s1=8 r1=12 ";

TEST(TradeCardsTest, Ct3MerchantMovesFromThePreviousOwnerWithVpAndRate) {
  State s = Pos(std::string("phase=action current=0 turn=8 merchant=4@1 ") + std::string(kMerchant) +
                "hand0=2g prog0=merchant deck_trade=225242");
  // Hexes next to seat 0's buildings, the desert excepted (E08).
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play merchant h4", "play merchant h5", "play merchant h14",
                                          "play merchant h17", "play merchant h18"}));
  ExpectRefused(s, "play merchant h9", "C-T3");         // the desert
  ExpectRefused(s, "play merchant h0", "C-T3");         // not next to seat 0
  ExpectRefused(s, "bank_trade grain brick", "TRD-2");  // 4:1 without it
  EXPECT_EQ(s.player(0).vp, 3);
  EXPECT_EQ(s.player(1).vp, 2);
  EXPECT_EQ(Play(s, "play merchant h5"), (Texts{"seat 0: play merchant h5", "seat 0 owns the merchant on h5"}));
  ExpectPosition(s, std::string("phase=action current=0 turn=8 actions=1 merchant=5@0 ") + std::string(kMerchant) +
                        "hand0=2g deck_trade=225242/merchant");
  EXPECT_EQ(s.player(0).vp, 4);
  EXPECT_EQ(s.player(1).vp, 1);
  // TRD-2: 2:1 for the hex's resource, grain.
  EXPECT_EQ(LegalTexts(s, "bank_trade").size(), 7u);  // 2 grain for any other card
  Play(s, "bank_trade grain brick");
  ExpectPosition(s, std::string("phase=action current=0 turn=8 actions=2 merchant=5@0 ") + std::string(kMerchant) +
                        "hand0=1b deck_trade=225242/merchant");
}

TEST(TradeCardsTest, Ct3MerchantPointCanWinTheGame) {
  // 12 VP: three cities, one with the trade metropolis, four settlements.
  State s =
      Pos("phase=action current=0 turn=8 c0=0T,2,20 s0=13,30,38,51 r0=20 lvl0=400 prog0=merchant "
          "deck_trade=225242");
  ASSERT_EQ(s.player(0).vp, 12);
  EXPECT_EQ(Play(s, "play merchant h0"),
            (Texts{"seat 0: play merchant h0", "seat 0 owns the merchant on h0", "game over: seat 0 wins"}));
  ExpectPosition(s,
                 "phase=over current=0 winner=0 turn=8 actions=1 merchant=0@0 c0=0T,2,20 s0=13,30,38,51 r0=20 "
                 "lvl0=400 deck_trade=225242/merchant");
}

TEST(TradeCardsTest, Ct3PreviousOwnerLosesTheRate) {
  // Seat 1 on his turn: with the merchant on the mountains 4 he trades ore 2:1;
  // once seat 0 owns it, 4:1 again.
  const std::string tail = std::string(kMerchant) + "hand1=2o";
  EXPECT_TRUE(IsLegal(Pos("phase=action current=1 turn=9 merchant=4@1 " + tail), A("bank_trade ore brick")));
  ExpectRefused(Pos("phase=action current=1 turn=9 merchant=4@0 " + tail), "bank_trade ore brick", "TRD-2");
}

TEST(TradeCardsTest, Ct3MerchantOnItsOwnHexAgainAndUnderTheRobber) {
  // The same hex is allowed (E08); VP do not change.
  State s = Pos(std::string("phase=action current=0 turn=8 attacks=1 robber=5 merchant=5@0 ") + std::string(kMerchant) +
                "hand0=2g prog0=merchant deck_trade=225242");
  EXPECT_EQ(s.player(0).vp, 4);
  // The robber on the merchant's hex does not affect the rate [ENG].
  EXPECT_TRUE(IsLegal(s, A("bank_trade grain ore")));
  Play(s, "play merchant h5");
  ExpectPosition(s, std::string("phase=action current=0 turn=8 actions=1 attacks=1 robber=5 merchant=5@0 ") +
                        std::string(kMerchant) + "hand0=2g deck_trade=225242/merchant");
  EXPECT_EQ(s.player(0).vp, 4);
}

TEST(TradeCardsTest, Ct3OptionMerchantAdjacencySettlementOnly) {
  const State s = Pos(std::string("opts=[merchant_adjacency=SETTLEMENT_ONLY] phase=action current=0 turn=8 ") +
                      std::string(kMerchant) + "prog0=merchant deck_trade=225242");
  EXPECT_EQ(LegalTexts(s, "play"), (Texts{"play merchant h4", "play merchant h5"}));
  ExpectRefused(s, "play merchant h17", "C-T3");  // next to the city only
  // Without buildings there is nowhere to put it.
  ExpectRefused(Pos("phase=action current=0 turn=8 prog0=merchant deck_trade=225242"), "play merchant h5", "C-T3");
}

// ---- C-T4 Merchant Fleet ------------------------------------------------------------

TEST(TradeCardsTest, Ct4MerchantFleetTwoForOneThisTurnOnly) {
  State s = Pos("phase=action current=0 turn=8 hand0=5c prog0=merchant_fleet deck_trade=226142");
  EXPECT_EQ(LegalTexts(s, "play"),
            (Texts{"play merchant_fleet brick", "play merchant_fleet lumber", "play merchant_fleet wool",
                   "play merchant_fleet grain", "play merchant_fleet ore", "play merchant_fleet cloth",
                   "play merchant_fleet coin", "play merchant_fleet paper"}));
  EXPECT_EQ(Play(s, "play merchant_fleet cloth"), (Texts{"seat 0: play merchant_fleet cloth"}));
  ExpectPosition(s, "phase=action current=0 turn=8 actions=1 fleet_cards=c hand0=5c deck_trade=226142/merchant_fleet");
  // As often as he likes, for any other card type.
  Play(s, "bank_trade cloth ore");
  Play(s, "bank_trade cloth paper");
  ExpectPosition(s,
                 "phase=action current=0 turn=8 actions=3 fleet_cards=c hand0=1c1o1p "
                 "deck_trade=226142/merchant_fleet");
  ExpectRefused(s, "bank_trade cloth ore", "TRD-2");  // one cloth left
  Play(s, "end_turn");
  ExpectPosition(s, "phase=before_roll current=1 turn=9 actions=4 hand0=1c1o1p deck_trade=226142/merchant_fleet");
}

TEST(TradeCardsTest, Ct4MerchantFleetIsTheCurrentTurnsEffect) {
  // The rate comes from the turn's effect only: the same hand on another
  // turn without it trades 4:1.
  ExpectRefused(Pos("phase=action current=0 turn=10 hand0=3w"), "bank_trade wool ore", "TRD-2");
  EXPECT_TRUE(IsLegal(Pos("phase=action current=0 turn=10 fleet_cards=w hand0=3w"), A("bank_trade wool ore")));
}

// ---- C-T5 Resource Monopoly, C-T6 Trade Monopoly --------------------------------------

TEST(TradeCardsTest, Ct5ResourceMonopolyTwoFromEachOrWhatHeHas) {
  State s =
      Pos("phase=action current=0 turn=8 hand0=1o hand1=3o1b hand2=1o hand3=1b prog0=resource_monopoly "
          "deck_trade=226232");
  EXPECT_EQ(LegalTexts(s, "play"),
            (Texts{"play resource_monopoly brick", "play resource_monopoly lumber", "play resource_monopoly wool",
                   "play resource_monopoly grain", "play resource_monopoly ore"}));
  std::vector<Event> events;
  EXPECT_EQ(
      Play(s, "play resource_monopoly ore", &events),
      (Texts{"seat 0: play resource_monopoly ore", "seat 1 gave 2 ore to seat 0", "seat 2 gave 1 ore to seat 0"}));
  // Monopoly quantities are public (section 18).
  EXPECT_EQ(events[1].private_to, 0);
  EXPECT_EQ(events[2].private_to, 0);
  ExpectPosition(s,
                 "phase=action current=0 turn=8 actions=1 hand0=4o hand1=1b1o hand3=1b "
                 "deck_trade=226232/resource_monopoly");
  // A commodity is not a resource: no such play.
  State copy = Pos("phase=action current=0 turn=8 prog0=resource_monopoly deck_trade=226232");
  ExpectRefused(copy, Action::Play(kResourceMonopoly, kCloth), "malformed action");
}

TEST(TradeCardsTest, Ct6TradeMonopolyOneFromEachWhoHasIt) {
  State s = Pos("phase=action current=0 turn=8 hand1=3c hand2=1c1m hand3=1b prog0=trade_monopoly deck_trade=226241");
  EXPECT_EQ(LegalTexts(s, "play"),
            (Texts{"play trade_monopoly cloth", "play trade_monopoly coin", "play trade_monopoly paper"}));
  std::vector<Event> events;
  EXPECT_EQ(
      Play(s, "play trade_monopoly cloth", &events),
      (Texts{"seat 0: play trade_monopoly cloth", "seat 1 gave 1 cloth to seat 0", "seat 2 gave 1 cloth to seat 0"}));
  EXPECT_EQ(events[1].private_to, 0);
  ExpectPosition(s,
                 "phase=action current=0 turn=8 actions=1 hand0=2c hand1=2c hand2=1m hand3=1b "
                 "deck_trade=226241/trade_monopoly");
  // Nobody holds paper: the card is still playable and gives nothing.
  State t = Pos("phase=action current=0 turn=8 hand1=3c prog0=trade_monopoly deck_trade=226241");
  EXPECT_EQ(Play(t, "play trade_monopoly paper"), (Texts{"seat 0: play trade_monopoly paper"}));
  ExpectRefused(Pos("phase=action current=0 turn=8 prog0=trade_monopoly deck_trade=226241"),
                Action::Play(kTradeMonopoly, kOre), "malformed action");
}

// ---- PC-5 and PC-7 for the trade deck ---------------------------------------------------

TEST(TradeCardsTest, Pc5OnlyTheCurrentPlayerInHisActionPhase) {
  // Not held.
  ExpectRefused(Pos("phase=action current=0 turn=8 prog0=merchant_fleet deck_trade=226142"),
                "play resource_monopoly ore", "PC-5");
  // Before the roll (TRN-2).
  ExpectRefused(Pos("phase=before_roll current=0 turn=8 prog0=resource_monopoly deck_trade=226232"),
                "play resource_monopoly ore", "TRN-2");
  // Seat 1, answering seat 0's trade offer, is not the current player.
  const State s =
      Pos("phase=action current=0 turn=8 offers=1 hand0=1b hand1=1l prog1=resource_monopoly "
          "deck_trade=226232 trade=1b:1l:1 pending=trade_close@0/trade_answer@1");
  ASSERT_EQ(s.CurrentPlayer(), 1);
  ExpectRefused(s, "play resource_monopoly ore", "19");
}

}  // namespace
}  // namespace metropolis
