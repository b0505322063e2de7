// Actions, events and results on the wire: every action listed (or drawn by
// chance) in random games and every event as each seat sees it round-trips
// through the bytes, by code and by text; hand-built trade offers too; and
// malformed codes, texts and events are refused with a precise error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/event.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/tests/random_games.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

template <typename Message>
Message ThroughBytes(const Message& m) {
  Message parsed;
  EXPECT_TRUE(parsed.ParseFromString(m.SerializeAsString()));
  return parsed;
}

void CheckAction(const Action& a) {
  v1::Action msg;
  ActionToProto(a, &msg, {.want_text = true});
  ASSERT_EQ(msg.code(), Encode(a));
  ASSERT_EQ(msg.text(), ActionToString(a));
  Action back;
  std::string error;
  ASSERT_TRUE(ActionFromProto(ThroughBytes(msg), &back, &error)) << error;
  ASSERT_EQ(back, a) << msg.text();
  // The text alone (code 0) says the same, except for the one action whose
  // code is 0 and which therefore needs no text.
  v1::Action text_only;
  text_only.set_text(msg.text());
  ASSERT_TRUE(ActionFromProto(text_only, &back, &error)) << error;
  ASSERT_EQ(back, a) << msg.text();
}

struct EventCoverage {
  int events = 0, hidden_cards = 0, trades = 0;
};

void CheckEvent(const Event& e, int viewer, EventCoverage* c) {
  Event masked = MaskEvent(e, viewer);
  v1::Event msg;
  EventToProto(masked, &msg, {.want_text = viewer % 2 == 0});
  Event back;
  std::string error;
  ASSERT_TRUE(EventFromProto(ThroughBytes(msg), &back, &error)) << error << ": " << EventToString(masked);
  masked.private_to = 0;  // not on the wire: the event is already masked
  ASSERT_EQ(back.type, masked.type);
  ASSERT_EQ(back.seat, masked.seat);
  ASSERT_EQ(back.other, masked.other);
  ASSERT_EQ(back.a, masked.a);
  ASSERT_EQ(back.b, masked.b);
  ASSERT_EQ(back.c, masked.c);
  ASSERT_EQ(back.private_to, masked.private_to);
  ASSERT_EQ(back.action, masked.action) << EventToString(masked);
  ++c->events;
  c->hidden_cards += masked.type == EventType::kAction && masked.action.a == kHiddenCard;
  c->trades += masked.type == EventType::kTradeExecuted;
}

TEST(ActionsAndEvents, RoundTripOverRandomGames) {
  EventCoverage coverage;
  int actions = 0;
  uint64_t seed = 500;
  for (const GameConfig& config : testing::TestConfigs()) {
    for (int g = 0; g < 4; ++g, ++seed) {
      testing::PlayRandomGame(config, seed,
                              [&](const State& s, const Action* applied, const std::vector<Event>& events) {
                                if (applied != nullptr) CheckAction(*applied);  // trade offers and counters included
                                if (s.IsChanceNode()) {
                                  for (const ChanceOutcome& o : s.ChanceOutcomes()) CheckAction(o.action);
                                } else {
                                  for (const Action& a : s.LegalActions()) CheckAction(a);
                                }
                                actions += int(s.LegalActions().size());
                                for (const Event& e : events)
                                  for (int viewer = kNoSeat; viewer < s.num_seats(); ++viewer)
                                    CheckEvent(e, viewer, &coverage);
                              });
    }
  }
  EXPECT_GT(actions, 10000);
  EXPECT_GT(coverage.hidden_cards, 0);
  EXPECT_GT(coverage.trades, 0);
}

TEST(ActionsAndEvents, HandBuiltTradeOffers) {
  for (int k = 0; k < 200; ++k) {
    CardCounts give, want;
    for (int c = 0; c < kNumCardTypes; ++c) {
      give[c] = uint8_t((k + c) % (kMaxCardsPerTypeInOffer + 1));
      want[c] = uint8_t((k * 3 + c * 5) % (kMaxCardsPerTypeInOffer + 1));
    }
    CheckAction(Action::TradeOffer(give, want, k % 16));
    CheckAction(Action::TradeCounter(give, want));
  }
  // What a bot builds by hand, in the engine's text form (game.proto's
  // example "trade_offer give 1b want 1o to 1,2" is not that form).
  v1::Action msg;
  msg.set_text("offer give 1brick want 1ore to 1,2");
  Action a;
  std::string error;
  ASSERT_TRUE(ActionFromProto(msg, &a, &error)) << error;
  CardCounts give, want;
  give[kBrick] = 1;
  want[kOre] = 1;
  EXPECT_EQ(a, Action::TradeOffer(give, want, 0b0110));
}

// A bot's answer of 900 KiB gets an error of a few dozen bytes, not its own text
// back: the host sends the error in its Rejected message (docs/SECURITY.md).
TEST(ActionsAndEvents, ALongTextIsQuotedInPart) {
  v1::Action msg;
  msg.set_text("build_road " + std::string(900 * 1024, 'e'));
  Action a;
  std::string error;
  EXPECT_FALSE(ActionFromProto(msg, &a, &error));
  EXPECT_LE(error.size(), 120u) << error.substr(0, 200);
  EXPECT_NE(error.find("(921600 bytes)"), std::string::npos) << error;
}

TEST(ActionsAndEvents, CodeWinsOverText) {
  v1::Action msg;
  msg.set_code(Encode(Action::BuildRoad(17)));
  msg.set_text("end_turn");
  Action a;
  std::string error;
  ASSERT_TRUE(ActionFromProto(msg, &a, &error)) << error;
  EXPECT_EQ(a, Action::BuildRoad(17));
  // An empty message is code 0: the start player roll for seat 0.
  ASSERT_TRUE(ActionFromProto(v1::Action(), &a, &error)) << error;
  EXPECT_EQ(a, Action::Make(ActionType::kChanceStartPlayer, 0));
}

TEST(ActionsAndEvents, MalformedActionsAreRefused) {
  const uint64_t kType = uint64_t(1) << 56;
  const struct {
    uint64_t code;
    std::string error;
  } codes[] = {
      {9 * kType, "action: code 0x0900000000000000 names no action of rules version 1"},
      {255 * kType, "action: code 0xff00000000000000 names no action of rules version 1"},
      {12 * kType | 72 << 16, "action: code 0x0c00000000480000 names no action of rules version 1"},  // edge 72
      {12 * kType | 17 << 16 | 1, "action: code 0x0c00000000110001 names no action of rules version 1"},
      {13 * kType | uint64_t(kHiddenCard) << 16, "action: code 0x0d00000000fe0000 names no action of rules version 1"},
      {40 * kType | uint64_t(1) << 55, "action: code 0x2880000000000000 names no action of rules version 1"},
  };
  for (const auto& c : codes) {
    v1::Action msg;
    msg.set_code(c.code);
    msg.set_text("end_turn");  // ignored: the code is set
    Action a = Action::Roll();
    std::string error;
    EXPECT_FALSE(ActionFromProto(msg, &a, &error));
    EXPECT_EQ(error, c.error);
    EXPECT_EQ(a, Action::Roll()) << "*out changed on error";
  }
  for (const char* text : {"build_road e99", "fly_away", "build_road", "offer give 9brick want 1ore to 1", " "}) {
    v1::Action msg;
    msg.set_text(text);
    std::string expected;
    ASSERT_FALSE(ParseAction(text, &expected).has_value()) << text;
    Action a = Action::Roll();
    std::string error;
    EXPECT_FALSE(ActionFromProto(msg, &a, &error)) << text;
    EXPECT_EQ(error, "action: " + expected);
    EXPECT_EQ(a, Action::Roll());
  }
}

TEST(ActionsAndEvents, MalformedEventsAreRefused) {
  v1::Event valid;
  EventToProto(Event{.type = EventType::kAction, .seat = 1, .action = Action::BuildRoad(3)}, &valid);
  const struct {
    const char* name;
    void (*Break)(v1::Event*);
    std::string error;
  } cases[] = {
      // The first number past the last event type (kNumEventTypes is 29 with the barbarian share).
      {"type", [](v1::Event* m) { m->set_type(v1::EventType(kNumEventTypes)); },
       "event.type: " + std::to_string(kNumEventTypes) + " is not one of 0.." + std::to_string(kNumEventTypes - 1)},
      {"seat", [](v1::Event* m) { m->set_seat(4); }, "event.seat: 4 is not a seat (-2..3)"},
      {"seat below", [](v1::Event* m) { m->set_seat(-3); }, "event.seat: -3 is not a seat (-2..3)"},
      {"other", [](v1::Event* m) { m->set_other(-2); }, "event.other: -2 is not a seat (-1..3)"},
      {"a", [](v1::Event* m) { m->set_a(256); }, "event.a: 256 is not one of 0..255"},
      {"c", [](v1::Event* m) { m->set_c(1000); }, "event.c: 1000 is not one of 0..255"},
      {"no action", [](v1::Event* m) { m->clear_action(); }, "event.action: missing"},
      {"bad code", [](v1::Event* m) { m->mutable_action()->set_code(uint64_t(9) << 56); },
       "event.action: code 0x0900000000000000 names no action of rules version 1"},
      // Only a card MaskEvent hides may read 254.
      {"hidden node",
       [](v1::Event* m) { m->mutable_action()->set_code(Encode(Action::BuildSettlement(0)) | uint64_t(254) << 16); },
       "event.action: code 0x0d00000000fe0000 names no action of rules version 1"},
      {"trade as roll",
       [](v1::Event* m) {
         m->set_type(v1::EVENT_TRADE_EXECUTED);
         m->mutable_action()->set_code(Encode(Action::Roll()));
       },
       "event.action: a trade's cards travel as a counter, got roll"},
  };
  for (const auto& c : cases) {
    v1::Event msg = valid;
    c.Break(&msg);
    Event e;
    e.type = EventType::kGameOver;
    std::string error;
    EXPECT_FALSE(EventFromProto(msg, &e, &error)) << c.name;
    EXPECT_EQ(error, c.error) << c.name;
    EXPECT_EQ(e.type, EventType::kGameOver) << c.name << ": *out changed on error";
  }
}

TEST(Results, WonCappedAndAborted) {
  int won = 0, capped = 0;
  uint64_t seed = 77;
  for (GameConfig config : testing::TestConfigs()) {
    for (int g = 0; g < 3; ++g, ++seed) {
      if (g == 2) config.options.max_actions = 300;  // certainly capped
      State last;
      testing::PlayRandomGame(config, seed,
                              [&](const State& s, const Action*, const std::vector<Event>&) { last = s; });
      v1::GameResult r;
      ResultToProto(last, &r);
      ASSERT_TRUE(last.IsTerminal());
      EXPECT_EQ(r.winner(), last.Winner());
      EXPECT_EQ(r.reason(), last.Winner() != kNoSeat ? v1::END_REASON_WON : v1::END_REASON_LENGTH_CAP);
      ASSERT_EQ(r.vp_size(), config.num_seats);
      for (int p = 0; p < config.num_seats; ++p) EXPECT_EQ(int(r.vp(p)), last.ComputeVictoryPoints(p));
      if (last.Winner() != kNoSeat) {
        EXPECT_GE(int(r.vp(last.Winner())), int(config.options.victory_points));
      }
      EXPECT_EQ(r.actions(), last.action_count());
      EXPECT_EQ(int(r.turns()), last.turn_number());
      won += r.reason() == v1::END_REASON_WON;
      capped += r.reason() == v1::END_REASON_LENGTH_CAP;
    }
  }
  EXPECT_GT(won, 0);
  EXPECT_GT(capped, 0);
  v1::GameResult r;
  ResultToProto(State(), &r);
  EXPECT_EQ(r.reason(), v1::END_REASON_ABORTED);
  EXPECT_EQ(r.winner(), -1);
}

}  // namespace
}  // namespace metropolis::protocol
