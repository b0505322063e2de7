#include "engine/event.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/progress.h"

namespace metropolis {
namespace {

// Event has no operator==: compare every field.
void ExpectSameEvent(const Event& x, const Event& y, const std::string& where) {
  EXPECT_EQ(x.type, y.type) << where;
  EXPECT_EQ(x.seat, y.seat) << where;
  EXPECT_EQ(x.other, y.other) << where;
  EXPECT_EQ(x.a, y.a) << where;
  EXPECT_EQ(x.b, y.b) << where;
  EXPECT_EQ(x.c, y.c) << where;
  EXPECT_EQ(x.private_to, y.private_to) << where;
  EXPECT_EQ(x.action, y.action) << where;
}

Event Make(EventType type, int seat, int a = 0, int b = 0, int c = 0, int private_to = 0) {
  Event e;
  e.type = type;
  e.seat = int8_t(seat);
  e.a = uint8_t(a);
  e.b = uint8_t(b);
  e.c = uint8_t(c);
  e.private_to = uint8_t(private_to);
  return e;
}

Event ActionEvent(int seat, const Action& action, int private_to = 0) {
  Event e = Make(EventType::kAction, seat, 0, 0, 0, private_to);
  e.action = action;
  return e;
}

constexpr int kViewers[] = {-1, 0, 1, 2, 3};

TEST(EventTest, PublicEventsAreSeenWhole) {
  const std::vector<Event> events = {
      Make(EventType::kProduced, 2, 2, kOre),
      Make(EventType::kBarbarianAttack, -1, 3, 4, 1),
      Make(EventType::kBarbarianShare, 1, 2),
      Make(EventType::kVictoryCardRevealed, 1, 0, kPrinter),
      ActionEvent(0, Action::BuildRoad(17)),
      ActionEvent(-2, Action::Dice(4, 3, kEventShip)),
      // private_to == 0 means public, even for an event type that can be private.
      Make(EventType::kStole, 1, 0, kOre),
      ActionEvent(-2, Action::Make(ActionType::kChanceSteal, kWool)),
  };
  for (const Event& e : events)
    for (int viewer : kViewers) ExpectSameEvent(MaskEvent(e, viewer), e, EventToString(e));
}

TEST(EventTest, StealIsSeenByThiefAndVictimOnly) {  // RULES.md 18, ROB-3
  Event e = Make(EventType::kStole, 1, 0, kOre, 0, 1 << 1 | 1 << 0);
  e.other = 0;
  for (int viewer : kViewers) {
    Event m = MaskEvent(e, viewer);
    Event expected = e;
    if (viewer != 0 && viewer != 1) expected.b = kHiddenCard;
    ExpectSameEvent(m, expected, "viewer " + std::to_string(viewer));
  }
  EXPECT_EQ(EventToString(e), "seat 1 stole ore from seat 0");
  EXPECT_EQ(EventToString(MaskEvent(e, 2)), "seat 1 stole ? from seat 0");
  EXPECT_EQ(EventToString(MaskEvent(e, -1)), "seat 1 stole ? from seat 0");
}

TEST(EventTest, ProgressDrawIsSeenByTheDrawerOnly) {  // PC-2
  Event e = Make(EventType::kProgressDrawn, 3, kScience, kCrane, 0, 1 << 3);
  for (int viewer : kViewers) {
    Event expected = e;
    if (viewer != 3) expected.b = kHiddenCard;
    ExpectSameEvent(MaskEvent(e, viewer), expected, "viewer " + std::to_string(viewer));
  }
  EXPECT_EQ(EventToString(e), "seat 3 drew crane from the science deck");
  EXPECT_EQ(EventToString(MaskEvent(e, 0)), "seat 3 drew ? from the science deck");
}

TEST(EventTest, HiddenActionsHideOnlyTheirCard) {
  struct Case {
    Action action;
    int private_to;
    std::string seen, hidden;
  };
  const Case cases[] = {
      {Action::Make(ActionType::kChanceSteal, kCoin), 0b0011, "chance: steal coin", "chance: steal ?"},
      {Action::Make(ActionType::kChanceDraw, kSpy), 0b0001, "chance: draw spy", "chance: draw ?"},
      {Action::Make(ActionType::kDiscardProgress, kWarlord), 0b0001, "chance: discard_progress warlord",
       "chance: discard_progress ?"},
  };
  for (const Case& c : cases) {
    Event e = ActionEvent(-2, c.action, c.private_to);
    for (int viewer : kViewers) {
      const bool sees = viewer >= 0 && ((c.private_to >> viewer) & 1);
      Event expected = e;
      if (!sees) expected.action.a = kHiddenCard;
      ExpectSameEvent(MaskEvent(e, viewer), expected, c.seen + " to viewer " + std::to_string(viewer));
      EXPECT_EQ(EventToString(MaskEvent(e, viewer)), sees ? c.seen : c.hidden);
    }
  }
}

TEST(EventTest, PrivateMaskTouchesNothingElse) {
  // A private_to on an event with no hidden card field changes nothing: only
  // the card fields named in event.h are ever masked.
  Event e = ActionEvent(1, Action::Make(ActionType::kDiscard, kWool), 0b0010);
  for (int viewer : kViewers) ExpectSameEvent(MaskEvent(e, viewer), e, "viewer " + std::to_string(viewer));
  Event produced = Make(EventType::kProduced, 1, 2, kOre, 0, 0b0010);
  for (int viewer : kViewers) ExpectSameEvent(MaskEvent(produced, viewer), produced, "produced");
}

TEST(EventTest, OutOfRangeViewerIsASpectator) {
  Event e = Make(EventType::kProgressDrawn, 0, kTrade, kMerchant, 0, 0xFF);
  EXPECT_EQ(MaskEvent(e, -1).b, kHiddenCard);
  EXPECT_EQ(MaskEvent(e, 7).b, kHiddenCard);
  EXPECT_EQ(MaskEvent(e, 0).b, kMerchant);
}

TEST(EventTest, ToString) {
  EXPECT_EQ(EventToString(Make(EventType::kProduced, 2, 2, kOre)), "seat 2 produced 2 ore");
  EXPECT_EQ(EventToString(Make(EventType::kBankShortage, -1, 0, kGrain)), "bank shortage: nobody receives grain");
  EXPECT_EQ(EventToString(Make(EventType::kBarbariansAdvance, -1, 5)), "barbarians advance to 5");
  EXPECT_EQ(EventToString(Make(EventType::kBarbarianAttack, -1, 3, 4, 1)),
            "barbarians attack: barbarians 3 vs Catan 4, Catan wins");
  EXPECT_EQ(EventToString(Make(EventType::kBarbarianAttack, -1, 5, 4, 0)),
            "barbarians attack: barbarians 5 vs Catan 4, barbarians win");
  EXPECT_EQ(EventToString(Make(EventType::kDefender, 0)), "seat 0 receives a Defender of Catan card");
  EXPECT_EQ(EventToString(Make(EventType::kBarbarianShare, 2, 3)), "seat 2 defended with strength 3");
  EXPECT_EQ(EventToString(Make(EventType::kCityPillaged, 3, 12)), "seat 3 lost the city at n12");
  EXPECT_EQ(EventToString(Make(EventType::kMustDiscard, 1, 4)), "seat 1 must discard 4 cards");
  EXPECT_EQ(EventToString(Make(EventType::kMustDiscard, 1, 1)), "seat 1 must discard 1 card");
  EXPECT_EQ(EventToString(Make(EventType::kVictoryCardRevealed, 2, 0, kConstitution)), "seat 2 revealed constitution");
  EXPECT_EQ(EventToString(Make(EventType::kKnightRemoved, 2, 30)), "seat 2's knight at n30 went back to supply");
  EXPECT_EQ(EventToString(Make(EventType::kLongestRoad, 1)), "seat 1 holds Longest Road");
  EXPECT_EQ(EventToString(Make(EventType::kLongestRoad, -1)), "nobody holds Longest Road");
  EXPECT_EQ(EventToString(Make(EventType::kMetropolis, 0, kPolitics, 8)), "seat 0 owns the politics metropolis at n8");
  EXPECT_EQ(EventToString(Make(EventType::kGameOver, 3)), "game over: seat 3 wins");
  EXPECT_EQ(EventToString(Make(EventType::kGameOver, -1)), "game over: action limit reached, nobody wins");
  EXPECT_EQ(EventToString(ActionEvent(2, Action::BuildRoad(17))), "seat 2: build_road e17");
  EXPECT_EQ(EventToString(ActionEvent(-2, Action::Dice(0, 0, kEventTradeGate))), "chance: dice - - trade");

  CardCounts give, want;
  give[kBrick] = 2;
  give[kWool] = 1;
  want[kOre] = 1;
  Event trade = Make(EventType::kTradeExecuted, 0);
  trade.other = 2;
  trade.action = Action::TradeOffer(give, want, 1 << 2);
  EXPECT_EQ(EventToString(trade), "seat 0 gave 2brick 1wool to seat 2 for 1ore");
}

Event Between(EventType type, int seat, int other, int a, int b, int private_to) {
  Event e = Make(type, seat, a, b, 0, private_to);
  e.other = int8_t(other);
  return e;
}

// Seats in `private_to` see the event whole; every other viewer sees it with
// the fields `hide` replaced by kHiddenCard.
void ExpectMasked(const Event& e, bool hide_a, bool hide_b) {
  for (int viewer : kViewers) {
    const bool sees = viewer >= 0 && ((e.private_to >> viewer) & 1);
    Event expected = e;
    if (!sees && hide_a) expected.a = kHiddenCard;
    if (!sees && hide_b) expected.b = kHiddenCard;
    ExpectSameEvent(MaskEvent(e, viewer), expected, EventToString(e) + " to viewer " + std::to_string(viewer));
  }
}

TEST(EventTest, HandedOverCardsAreSeenByBothSeatsOnly) {  // RULES.md 18: Wedding, Commercial Harbor, Master Merchant
  const Event gift = Between(EventType::kCardGiven, 2, 0, 1, kCoin, 0b0101);
  ExpectMasked(gift, false, true);
  EXPECT_EQ(EventToString(gift), "seat 2 gave 1 coin to seat 0");
  EXPECT_EQ(EventToString(MaskEvent(gift, 1)), "seat 2 gave 1 ? to seat 0");
  // Monopolies are public (C-T5, C-T6): private_to == 0.
  const Event monopoly = Between(EventType::kCardGiven, 1, 3, 2, kOre, 0);
  for (int viewer : kViewers) ExpectSameEvent(MaskEvent(monopoly, viewer), monopoly, "monopoly");
}

TEST(EventTest, SpyAndMasterMerchantLooksAreSeenByTheLookerOnly) {  // C-P7, C-T2
  const Event seen = Between(EventType::kProgressSeen, 1, 3, 0, kWarlord, 0b0010);
  ExpectMasked(seen, false, true);
  EXPECT_EQ(EventToString(seen), "seat 1 saw warlord in the progress hand of seat 3");
  EXPECT_EQ(EventToString(MaskEvent(seen, 3)), "seat 1 saw ? in the progress hand of seat 3");
  const Event hand = Between(EventType::kHandSeen, 0, 2, 3, kGrain, 0b0001);
  ExpectMasked(hand, true, true);
  EXPECT_EQ(EventToString(hand), "seat 0 saw 3 grain in the hand of seat 2");
  EXPECT_EQ(EventToString(MaskEvent(hand, 2)), "seat 0 saw ? ? in the hand of seat 2");
  const Event taken = Between(EventType::kProgressTaken, 1, 3, 0, kWarlord, 0b1010);
  ExpectMasked(taken, false, true);
  EXPECT_EQ(EventToString(taken), "seat 1 took warlord from seat 3");
  EXPECT_EQ(EventToString(MaskEvent(taken, -1)), "seat 1 took ? from seat 3");
}

TEST(EventTest, ChosenCardsInActionsAreHidden) {
  struct Case {
    Action action;
    std::string seen, hidden;
  };
  const Case cases[] = {
      {Action::Make(ActionType::kTakeProgress, kSpy), "seat 1: take_progress spy", "seat 1: take_progress ?"},
      {Action::Make(ActionType::kTakeCard, kOre), "seat 1: take_card ore", "seat 1: take_card ?"},
      {Action::Make(ActionType::kGiveCard, kCloth), "seat 1: give_card cloth", "seat 1: give_card ?"},
  };
  for (const Case& c : cases) {
    const Event e = ActionEvent(1, c.action, 0b0110);
    for (int viewer : kViewers) {
      const bool sees = viewer == 1 || viewer == 2;
      Event expected = e;
      if (!sees) expected.action.a = kHiddenCard;
      ExpectSameEvent(MaskEvent(e, viewer), expected, c.seen + " to viewer " + std::to_string(viewer));
      EXPECT_EQ(EventToString(MaskEvent(e, viewer)), sees ? c.seen : c.hidden);
    }
  }
  // Card plays, offers and repairs are public whatever private_to says.
  for (const Action& a : {Action::Play(kSpy, 2), Action::Make(ActionType::kHarborOffer, 2, kBrick),
                          Action::Make(ActionType::kPlaceKnight, 5, 2)}) {
    const Event e = ActionEvent(0, a, 0b0001);
    for (int viewer : kViewers) ExpectSameEvent(MaskEvent(e, viewer), e, ActionToString(a));
  }
}

TEST(EventTest, ProgressEventsToString) {
  EXPECT_EQ(EventToString(Make(EventType::kPaid, 1, 3, kOre)), "seat 1 paid 3 ore");
  EXPECT_EQ(EventToString(Make(EventType::kTokensSwapped, -1, 3, 9)), "the number tokens of h3 and h9 swapped");
  EXPECT_EQ(EventToString(Make(EventType::kKnightDeserted, 2, 30)), "seat 2's knight at n30 deserted to supply");
  EXPECT_EQ(EventToString(Make(EventType::kRoadRemoved, 1, 40)), "seat 1's road at e40 went back to supply");
  EXPECT_EQ(EventToString(Make(EventType::kMerchantPlaced, 0, 7)), "seat 0 owns the merchant on h7");
  EXPECT_EQ(EventToString(Make(EventType::kCitySabotaged, 3, 12, 1)), "seat 3's city at n12 was sabotaged");
  EXPECT_EQ(EventToString(Make(EventType::kCitySabotaged, 3, 12, 0)), "seat 3's city at n12 was repaired");
  // Public events of the cards are never masked.
  for (const Event& e : {Make(EventType::kPaid, 1, 3, kOre, 0, 0b0010), Make(EventType::kTokensSwapped, -1, 3, 9),
                         Make(EventType::kKnightDeserted, 2, 30), Make(EventType::kRoadRemoved, 1, 40),
                         Make(EventType::kMerchantPlaced, 0, 7), Make(EventType::kCitySabotaged, 3, 12, 1)})
    for (int viewer : kViewers) ExpectSameEvent(MaskEvent(e, viewer), e, EventToString(e));
}

// The text of a step's events in the context of the step (issue: events that say who and why).
TEST(EventTest, StepTextsSayWhoDrawsWhoStealsAndWhatIsDiscarded) {
  // A progress-card draw: the chance line names the drawer, also masked for the public.
  Event drawn = Make(EventType::kProgressDrawn, 3, kPolitics, kWarlord, 0, 1 << 3);
  const std::vector<Event> draw = {ActionEvent(-2, Action::Make(ActionType::kChanceDraw, kWarlord), 1 << 3), drawn};
  std::vector<Event> masked;
  for (const Event& e : draw) masked.push_back(MaskEvent(e, kNoSeat));
  EXPECT_EQ(StepEventTexts(masked), (std::vector<std::string>{"chance: draw ? (seat 3 draws from the politics deck)",
                                                              "seat 3 drew ? from the politics deck"}));
  // A random steal: thief and victim.
  Event stole = Make(EventType::kStole, 0, 0, kWool, 0, 0b101);
  stole.other = 2;
  EXPECT_EQ(StepEventTexts({ActionEvent(-2, Action::Make(ActionType::kChanceSteal, kWool), 0b101), stole})[0],
            "chance: steal wool (seat 0 steals from seat 2)");
  // Cards paid for a DISCARD are discarded; for a build they are paid.
  EXPECT_EQ(
      StepEventTexts({ActionEvent(1, Action::Make(ActionType::kDiscard, kOre)), Make(EventType::kPaid, 1, 1, kOre)})[1],
      "seat 1 discarded 1 ore");
  EXPECT_EQ(StepEventTexts({ActionEvent(1, Action::BuildRoad(17)), Make(EventType::kPaid, 1, 1, kBrick)})[1],
            "seat 1 paid 1 brick");
  // A won attack names the defender.
  EXPECT_EQ(StepEventTexts({ActionEvent(-2, Action::Dice(1, 2, 0)), Make(EventType::kBarbarianAttack, -1, 4, 6, 1),
                            Make(EventType::kDefender, 2)})[1],
            "barbarians attack: barbarians 4 vs Catan 6, Catan wins; defended best: seat 2");
}

}  // namespace
}  // namespace metropolis
