// PlayHello.capabilities (gamehost.proto). A seat that asks for
// CAPABILITY_EVENTS_IN_DECISION hears the same events in the same order and the
// same decisions as one that does not, in fewer messages, and never an Events
// update directly before its decision; a capability the host does not know is
// ignored, and the Welcome says which ones are in use. With
// CAPABILITY_VIEW_DELTAS a seat (or a spectator) that applies each delta to the
// view it acknowledged (or last received) sees exactly the views the default
// protocol sends, including after decisions the fallback bot took.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lib/protocol/view_delta.h"
#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

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

// What a client of the delta protocol keeps: the view of the last decision it
// answered (a seat) or the last view it received (a spectator).
struct DeltaReader {
  v1::View base;
  int64_t base_step = -1;
  int deltas = 0;
  v1::View Read(const v1::View* whole, const v1::ViewDelta* delta) {
    if (!delta) return *whole;
    ++deltas;
    EXPECT_EQ(int64_t(delta->base_step()), base_step) << "a delta against a view this client does not hold";
    v1::View view = base;
    std::string error;
    EXPECT_TRUE(protocol::ApplyViewDelta(*delta, &view, &error)) << error;
    return view;
  }
};

struct ViewsSeen {
  std::vector<std::string> decisions;  // seat, step and the rebuilt view of every decision seen
  std::vector<std::string> spectator;  // every public view the spectator rebuilt
  int seat_deltas = 0, spectator_deltas = 0;
  int before_first_answer = 0;  // decisions a seat got before it had answered one
  size_t decision_bytes = 0;
};

// Plays one game; every `skip`-th decision (0: none) is left to the deadline
// and the fallback bot, so that the seat's next delta is against an older view.
ViewsSeen PlayReadingViews(std::vector<v1::Capability> capabilities, int skip) {
  TestHost t;
  const v1::CreateGameResponse created = CreateGame(&t, 41);
  Seats seats(&t, &created);
  seats.capabilities = capabilities;
  seats.Connect();
  const bool deltas = !capabilities.empty();
  auto spectator = std::make_shared<RecordingSpectator>();
  seats.game->AddSpectator(/*from_start=*/false, spectator, deltas);
  ViewsSeen seen;
  std::vector<DeltaReader> readers(4);
  for (int n = 0; n < 100000; ++n) {
    t.Settle();
    const int actor = seats.Actor();
    if (actor < 0) break;
    const v1::Decision& d = *seats.streams[size_t(actor)]->PendingDecision();
    DeltaReader& reader = readers[size_t(actor)];
    if (reader.base_step < 0) ++seen.before_first_answer;
    const v1::View view = reader.Read(&d.view(), d.has_view_delta() ? &d.view_delta() : nullptr);
    seen.decision_bytes += d.ByteSizeLong();
    seen.decisions.push_back(std::to_string(actor) + "@" + std::to_string(d.step()) + ":" + view.SerializeAsString());
    if (skip > 0 && n % skip == skip - 1) {
      t.timers.AdvanceTo(t.clock.Now() + 3001);  // past the limit and the bank: the fallback bot plays
      continue;
    }
    v1::PlayAnswer answer;
    answer.set_step(d.step());
    answer.mutable_action()->set_code(view.legal(n % view.legal_size()));
    seats.game->Answer(actor, seats.streams[size_t(actor)].get(), answer, t.clock.Now());
    reader.base = view;  // answered: acknowledged
    reader.base_step = d.step();
  }
  EXPECT_EQ(t.sink.games.size(), 1u) << "the game did not end";
  for (const auto& s : seats.streams) {
    const v1::PlayUpdate* welcome = s->Last(v1::PlayUpdate::kWelcome);
    EXPECT_EQ(welcome && welcome->welcome().capabilities_size() > 0, deltas);
  }
  for (auto& r : readers) seen.seat_deltas += r.deltas;
  DeltaReader public_reader;
  for (const auto& u : spectator->updates) {
    if (!u->has_view() && !u->has_view_delta()) continue;
    const v1::View view = public_reader.Read(&u->view(), u->has_view_delta() ? &u->view_delta() : nullptr);
    seen.spectator.push_back(view.SerializeAsString());
    public_reader.base = view;  // a spectator's base is the last view it received
    public_reader.base_step = int64_t(view.position().action_count());  // the game's step
  }
  seen.spectator_deltas = public_reader.deltas;
  return seen;
}

TEST(GameHostCapabilities, ViewDeltasRebuildEveryViewTheDefaultSends) {
  for (const int skip : {0, 7}) {
    SCOPED_TRACE("every " + std::to_string(skip) + "th decision left to the fallback bot");
    const ViewsSeen whole = PlayReadingViews({}, skip);
    const ViewsSeen deltas = PlayReadingViews({v1::CAPABILITY_VIEW_DELTAS}, skip);
    ASSERT_GT(whole.decisions.size(), 100u);
    EXPECT_EQ(whole.seat_deltas, 0);
    EXPECT_EQ(whole.spectator_deltas, 0);
    ASSERT_EQ(deltas.decisions.size(), whole.decisions.size());
    for (size_t i = 0; i < whole.decisions.size(); ++i)
      ASSERT_EQ(deltas.decisions[i], whole.decisions[i]) << "decision " << i;
    ASSERT_EQ(deltas.spectator.size(), whole.spectator.size());
    for (size_t i = 0; i < whole.spectator.size(); ++i)
      ASSERT_EQ(deltas.spectator[i], whole.spectator[i]) << "public view " << i;
    // Every decision after the seat's first answer, and none before; all but
    // the spectator's first two views.
    EXPECT_EQ(deltas.seat_deltas, int(deltas.decisions.size()) - deltas.before_first_answer);
    EXPECT_LE(deltas.before_first_answer, skip == 0 ? 4 : 8);
    EXPECT_EQ(deltas.spectator_deltas, int(deltas.spectator.size()) - 2);
    EXPECT_LT(deltas.decision_bytes * 2, whole.decision_bytes);
  }
}

}  // namespace
}  // namespace metropolis::gamehost::testing
