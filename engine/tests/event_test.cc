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

}  // namespace
}  // namespace metropolis
