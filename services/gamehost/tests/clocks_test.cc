// Every seat's clock (CAPABILITY_CLOCKS, gamehost.proto's Clocks): a seat that
// asks hears, with its welcome and with every Events update, each seat's bank
// and whose clock runs; a seat that does not ask hears none of it; spectators
// hear it without asking. The banks are the host's own: what a seat used past
// its per-decision limit is gone from its bank in every seat's clocks.
// Test host: decisions of 1000 ms and banks of 2000 ms (fakes.h).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr uint32_t kDecisionMs = 1000, kBankMs = 2000;

// Every Clocks a stream carried, in order, with the update's step.
struct ClocksSeen {
  std::vector<std::pair<uint32_t, v1::Clocks>> events;
  bool welcome_has_clocks = false;
  v1::Clocks welcome;
};

ClocksSeen Read(const RecordingSeat& seat) {
  ClocksSeen seen;
  for (const auto& u : seat.updates) {
    if (u->has_welcome() && u->welcome().has_clocks()) {
      seen.welcome_has_clocks = true;
      seen.welcome = u->welcome().clocks();
    }
    if (u->has_events() && u->events().has_clocks()) seen.events.emplace_back(u->events().step(), u->events().clocks());
    if (u->has_decision() && u->decision().events().has_clocks())
      seen.events.emplace_back(u->decision().events().step(), u->decision().events().clocks());
  }
  return seen;
}

// Plays a game to its end; the first time each seat decides, it thinks 1500 ms
// (500 past its limit: its bank falls to 1500).
struct SlowFirstDecisions {
  std::vector<bool> slowed = std::vector<bool>(4, false);
  void Install(Seats* seats, TestHost* t) {
    seats->decorate = [this, t](int seat, const v1::Decision&, v1::PlayAnswer*) {
      if (slowed[size_t(seat)]) return;
      slowed[size_t(seat)] = true;
      t->clock.Advance(kDecisionMs + 500);
    };
  }
};

// A seat's page reloaded: a new stream with the clocks takes the seat over.
std::shared_ptr<RecordingSeat> Reload(Seats* seats, int seat) {
  v1::PlayHello hello;
  hello.set_game_id(seats->created->game_id());
  hello.set_take_over(true);
  hello.add_capabilities(v1::CAPABILITY_CLOCKS);
  auto stream = std::make_shared<RecordingSeat>();
  const grpc::Status status = seats->game->Connect(seat, hello, stream);
  EXPECT_TRUE(status.ok()) << status.error_message();
  seats->host->Settle();
  return stream;
}

// A game whose seats ask for the clocks or not, on a test host.
class GameHostClocks : public ::testing::Test {
 protected:
  Seats& Game(uint64_t seed, bool clocks) {
    created_ = CreateGame(&t, seed);
    seats_ = std::make_unique<Seats>(&t, &created_);
    if (clocks) seats_->capabilities = {v1::CAPABILITY_CLOCKS};
    return *seats_;
  }
  // Connects the seats and plays `steps` steps (more than steps - 10 taken):
  // the seat to act then.
  int ActorAfter(int steps) {
    seats_->Connect();
    EXPECT_GT(seats_->Play(steps), steps - 10);
    return seats_->Actor();
  }

  TestHost t;

 private:
  v1::CreateGameResponse created_;
  std::unique_ptr<Seats> seats_;
};

TEST_F(GameHostClocks, EverySeatHearsEveryClockWithItsEvents) {
  Seats& seats = Game(7, /*clocks=*/true);
  SlowFirstDecisions slow;
  slow.Install(&seats, &t);
  seats.Connect();
  ASSERT_GT(seats.Play(100000), 100);
  ASSERT_EQ(t.sink.games.size(), 1u);

  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("seat " + std::to_string(i));
    const RecordingSeat& stream = *seats.streams[size_t(i)];
    ASSERT_TRUE(stream.updates.front()->has_welcome());
    EXPECT_EQ(stream.updates.front()->welcome().capabilities().size(), 1);
    const ClocksSeen seen = Read(stream);
    // Seats connect one by one: at each welcome the game has not started.
    ASSERT_TRUE(seen.welcome_has_clocks);
    EXPECT_EQ(seen.welcome.running(), -1);
    ASSERT_EQ(seen.welcome.time_bank_ms_left_size(), 4);
    for (uint32_t bank : seen.welcome.time_bank_ms_left()) EXPECT_EQ(bank, kBankMs);

    int events = 0, running_self = 0;
    for (const auto& u : stream.updates) events += u->has_events() ? 1 : 0;
    EXPECT_EQ(int(seen.events.size()), events) << "an Events update without the clocks";
    for (const auto& [step, clocks] : seen.events) {
      ASSERT_EQ(clocks.time_bank_ms_left_size(), 4);
      if (clocks.running() == i) ++running_self;
      if (clocks.running() >= 0) {
        // Sent as the running seat's decision starts: its limit is whole.
        EXPECT_EQ(clocks.decision_ms_left(), kDecisionMs) << "step " << step;
      }
    }
    EXPECT_GT(running_self, 0) << "never told its own clock runs";
    // After every seat was slow once, every seat's clocks say so for every seat.
    const v1::Clocks& last = seen.events.back().second;
    for (int j = 0; j < 4; ++j) EXPECT_EQ(last.time_bank_ms_left(j), kBankMs - 500) << "seat " << j << "'s bank";
  }
}

TEST_F(GameHostClocks, TheRunningSeatIsTheOneWhoseDecisionFollows) {
  Seats& seats = Game(8, /*clocks=*/true);
  seats.Connect();
  ASSERT_GT(seats.Play(300), 100);
  // Every decision of a seat, its first (at the game's start, with no events
  // before it) included, comes right after an Events update with its step
  // that names that seat's clock running, its limit whole.
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("seat " + std::to_string(i));
    int decisions = 0, announced = 0;
    const auto& updates = seats.streams[size_t(i)]->updates;
    for (size_t k = 1; k < updates.size(); ++k) {
      if (!updates[k]->has_decision()) continue;
      ++decisions;
      const v1::PlayUpdate& before = *updates[k - 1];
      if (!before.has_events() || before.events().step() != updates[k]->decision().step()) continue;
      if (before.events().clocks().running() != i) continue;
      EXPECT_EQ(before.events().clocks().decision_ms_left(), kDecisionMs);
      ++announced;
    }
    EXPECT_GT(decisions, 10);
    EXPECT_EQ(announced, decisions) << "a decision whose clock was not announced running just before it";
  }
}

TEST_F(GameHostClocks, ASeatThatDoesNotAskHearsNoClocks) {
  Seats& seats = Game(9, /*clocks=*/false);
  seats.Connect();
  ASSERT_GT(seats.Play(200), 100);
  for (const auto& stream : seats.streams) {
    const ClocksSeen seen = Read(*stream);
    EXPECT_FALSE(seen.welcome_has_clocks);
    EXPECT_TRUE(seen.events.empty());
  }
}

TEST_F(GameHostClocks, SpectatorsHearTheClocksAndTheRunningClockAsItStands) {
  Seats& seats = Game(10, /*clocks=*/false);
  const int actor = ActorAfter(60);
  ASSERT_GE(actor, 0);
  // The actor has thought 1200 ms so far: its limit is spent and 200 ms of its bank.
  t.clock.Advance(kDecisionMs + 200);
  auto late = std::make_shared<RecordingSpectator>();
  seats.game->AddSpectator(/*from_start=*/true, late, false);
  ASSERT_TRUE(late->updates.front()->has_welcome());
  const v1::Clocks& now = late->updates.front()->welcome().clocks();
  EXPECT_EQ(now.running(), actor);
  EXPECT_EQ(now.decision_ms_left(), 0u);
  EXPECT_EQ(now.time_bank_ms_left(actor), kBankMs - 200);
  // The catch-up from the start carries no clocks (they would be today's, not then).
  bool catch_up_clocks = false;
  for (const auto& u : late->updates)
    if (u->has_events() && u->events().has_clocks()) catch_up_clocks = true;
  EXPECT_FALSE(catch_up_clocks);

  ASSERT_GT(seats.Play(40), 20);
  int live = 0;
  for (const auto& u : late->updates) {
    if (!u->has_events() || !u->events().has_clocks()) continue;
    ++live;
    EXPECT_EQ(u->events().clocks().time_bank_ms_left_size(), 4);
  }
  EXPECT_GT(live, 10) << "the live events carried no clocks";
}

TEST_F(GameHostClocks, AReconnectionLeavesTheRunningClockWhereItStands) {
  Seats& seats = Game(11, /*clocks=*/true);
  const int actor = ActorAfter(60);
  ASSERT_GE(actor, 0);
  t.clock.Advance(700);
  std::vector<size_t> heard;
  for (const auto& s : seats.streams) heard.push_back(s->updates.size());
  // Another seat reloads its page: a new stream takes its seat over.
  const int other = (actor + 1) % 4;
  const auto again = Reload(&seats, other);
  ASSERT_FALSE(again->updates.empty());
  ASSERT_TRUE(again->updates.front()->has_welcome());
  const v1::Clocks& told = again->updates.front()->welcome().clocks();
  EXPECT_EQ(told.running(), actor);
  EXPECT_EQ(told.decision_ms_left(), kDecisionMs - 700) << "the new stream is told the clock as it stands";
  for (size_t i = 0; i < seats.streams.size(); ++i) {
    if (int(i) == other) continue;
    const auto& updates = seats.streams[i]->updates;
    for (size_t k = heard[i]; k < updates.size(); ++k)
      EXPECT_FALSE(updates[k]->has_events()) << "seat " << i << " was told the clocks again, with no news";
  }
  for (size_t k = 1; k < again->updates.size(); ++k) {
    const auto& u = again->updates[k];
    if (u->has_events() && u->events().has_clocks()) {
      EXPECT_EQ(u->events().clocks().decision_ms_left(), kDecisionMs - 700) << "a clock restarted by a reconnection";
    }
  }
}

// GAMEHOST.md, "Deadlines and fallback": a seat that reconnects while to act
// gets the decision again with the deadline where it stands, so a reload is
// no way to a fresh limit.
TEST_F(GameHostClocks, TheSeatToActReconnectingKeepsItsClockWhereItStands) {
  Seats& seats = Game(13, /*clocks=*/true);
  const int actor = ActorAfter(60);
  ASSERT_GE(actor, 0);
  t.clock.Advance(700);
  const auto again = Reload(&seats, actor);
  const v1::Decision* d = again->PendingDecision();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->decision_ms_left(), kDecisionMs - 700) << "a reload restarted the decision's limit";
  EXPECT_EQ(d->time_bank_ms_left(), kBankMs);
  for (const auto& u : again->updates) {
    if (u->has_events() && u->events().clocks().running() == actor) {
      EXPECT_EQ(u->events().clocks().decision_ms_left(), kDecisionMs - 700);
    }
  }
  // 500 ms more: 200 past the limit come out of the bank.
  t.clock.Advance(500);
  v1::PlayAnswer answer;
  answer.set_step(d->step());
  answer.mutable_action()->set_code(d->view().legal(0));
  seats.game->Answer(actor, again.get(), answer, t.clock.Now());
  t.Settle();
  auto spectator = std::make_shared<RecordingSpectator>();
  seats.game->AddSpectator(/*from_start=*/false, spectator, false);
  EXPECT_EQ(spectator->updates.front()->welcome().clocks().time_bank_ms_left(actor), kBankMs - 200);
}

TEST_F(GameHostClocks, ASeatWhoseStreamIsGoneHasNoClockRunning) {
  Seats& seats = Game(12, /*clocks=*/false);
  const int actor = ActorAfter(30);
  ASSERT_GE(actor, 0);
  seats.game->Disconnect(actor, seats.streams[size_t(actor)].get());
  auto spectator = std::make_shared<RecordingSpectator>();
  seats.game->AddSpectator(/*from_start=*/false, spectator, false);
  EXPECT_EQ(spectator->updates.front()->welcome().clocks().running(), -1)
      << "its fallback bot decides: no clock of a person runs";
}

}  // namespace
}  // namespace metropolis::gamehost::testing
