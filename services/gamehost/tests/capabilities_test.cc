// PlayHello.capabilities (gamehost.proto). A seat that asks for
// CAPABILITY_EVENTS_IN_DECISION hears the same events in the same order and the
// same decisions as one that does not, in fewer messages, and never an Events
// update directly before its decision; a capability the host does not know is
// ignored, and the Welcome says which ones are in use.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

v1::CreateGameResponse CreateGame(TestHost* t, uint64_t seed) {
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
  request.set_chance_seed(seed);
  v1::CreateGameResponse created;
  const grpc::Status s = t->host->CreateGame(kAdmin, request, &created);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return created;
}

// What one seat's stream carried, read as a client reads it.
struct Heard {
  std::vector<std::string> events;     // every event, from Events updates and decisions, in order
  std::vector<std::string> decisions;  // step and view of each decision
  std::vector<int> capabilities;       // the Welcome's
  int messages = 0;
  int events_then_decision = 0;  // an Events update of a decision's step directly before it
  int decision_events_off_step = 0;
};

Heard Listen(const RecordingSeat& seat) {
  Heard h;
  int64_t last_events_step = -1;  // of the update just before, if it was an Events update
  for (const auto& u : seat.updates) {
    ++h.messages;
    if (u->has_welcome()) h.capabilities.assign(u->welcome().capabilities().begin(), u->welcome().capabilities().end());
    if (u->has_events()) {
      for (const auto& e : u->events().events()) h.events.push_back(e.SerializeAsString());
    }
    if (u->has_decision()) {
      const v1::Decision& d = u->decision();
      if (last_events_step == int64_t(d.step())) ++h.events_then_decision;
      if (d.has_events() && d.events().step() != d.step()) ++h.decision_events_off_step;
      for (const auto& e : d.events().events()) h.events.push_back(e.SerializeAsString());
      h.decisions.push_back(std::to_string(d.step()) + ":" + d.view().SerializeAsString());
    }
    last_events_step = u->has_events() ? int64_t(u->events().step()) : -1;
  }
  return h;
}

struct Played {
  std::vector<Heard> seats;
  int answers = 0;
};

Played PlayOne(services::Millis coalesce_ms, std::vector<v1::Capability> capabilities) {
  TestHost t("host-a:1", nullptr, true, false, {}, coalesce_ms);
  const v1::CreateGameResponse created = CreateGame(&t, 31);
  Seats seats(&t, &created);
  seats.capabilities = std::move(capabilities);
  seats.Connect();
  Played p;
  p.answers = seats.Play(100000);
  EXPECT_EQ(t.sink.games.size(), 1u) << "the game did not end";
  for (const auto& s : seats.streams) p.seats.push_back(Listen(*s));
  return p;
}

TEST(GameHostCapabilities, EventsInDecisionCarryTheSameGameInFewerMessages) {
  for (const services::Millis coalesce_ms : {0, 20}) {
    SCOPED_TRACE("coalesce_events_ms " + std::to_string(coalesce_ms));
    const Played plain = PlayOne(coalesce_ms, {});
    const Played folded = PlayOne(coalesce_ms, {v1::CAPABILITY_EVENTS_IN_DECISION});
    ASSERT_EQ(folded.answers, plain.answers);
    ASSERT_GT(plain.answers, 100);
    int plain_messages = 0, folded_messages = 0;
    for (int seat = 0; seat < 4; ++seat) {
      SCOPED_TRACE("seat " + std::to_string(seat));
      const Heard& a = plain.seats[size_t(seat)];
      const Heard& b = folded.seats[size_t(seat)];
      EXPECT_TRUE(a.capabilities.empty());
      EXPECT_EQ(b.capabilities, std::vector<int>{v1::CAPABILITY_EVENTS_IN_DECISION});
      EXPECT_EQ(b.events.size(), a.events.size());
      EXPECT_TRUE(b.events == a.events) << "other events, or in another order";
      EXPECT_TRUE(b.decisions == a.decisions) << "other decisions";
      // Without the capability the events that lead to a decision come just before it ...
      EXPECT_GT(a.events_then_decision, 0);
      // ... with it, inside it, at the decision's step.
      EXPECT_EQ(b.events_then_decision, 0);
      EXPECT_EQ(b.decision_events_off_step, 0);
      plain_messages += a.messages;
      folded_messages += b.messages;
    }
    EXPECT_LT(folded_messages, plain_messages);
  }
}

TEST(GameHostCapabilities, ACapabilityTheHostDoesNotKnowIsIgnored) {
  const Played plain = PlayOne(0, {});
  const Played unknown = PlayOne(0, {static_cast<v1::Capability>(977)});
  ASSERT_EQ(unknown.answers, plain.answers);
  for (int seat = 0; seat < 4; ++seat) {
    const Heard& a = plain.seats[size_t(seat)];
    const Heard& b = unknown.seats[size_t(seat)];
    EXPECT_TRUE(b.capabilities.empty()) << "seat " << seat;
    EXPECT_EQ(b.messages, a.messages) << "seat " << seat;
    EXPECT_TRUE(b.events == a.events && b.decisions == a.decisions) << "seat " << seat;
  }
}

}  // namespace
}  // namespace metropolis::gamehost::testing
