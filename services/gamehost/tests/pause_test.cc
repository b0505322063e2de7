// Pause, don't diverge (docs/FAILURES.md, "A host cut off from Redis"): a game
// whose checkpoint cannot be written releases nothing more and stops its
// clocks; it goes on where its seats left it when the store answers again, stops
// and sends its seats on when another host took it over meanwhile, and is void
// after the pause limit. Host A reaches the shared store through a link the test
// cuts; host B reaches it directly.
#include <gtest/gtest.h>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/memory_checkpoints.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr services::Millis kLease = 3000;          // HostOptions' default
constexpr services::Millis kPauseLimit = 600'000;  // HostOptions' default

class PauseTest : public ::testing::Test {
 public:
  PauseTest() : a_link(&store), directory(&store), a("host-a:1", &directory), b("host-b:1", &directory) {
    a.host->SetCheckpoints(&a_link, Host::LeaseKeeping::kCallerDrives);
    b.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
  }
  void CreateOnA() {
    v1::CreateGameRequest request;
    for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
    request.set_chance_seed(23);
    grpc::Status s = a.host->CreateGame(kAdmin, request, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  size_t Logged() {
    std::lock_guard lock(store.mutex);
    return store.games.count(created.game_id()) ? store.games[created.game_id()].log.size() : 0;
  }
  // The seats, connected on A, play 20 decisions; then A's link is cut, and the
  // next answer is applied on A but never released. Returns the steps written.
  size_t PlayThenCut(Seats& seats) {
    seats.Connect();
    seats.Play(20);
    const size_t logged = Logged();
    a_link.cut = true;
    EXPECT_EQ(seats.Play(5), 1);
    return logged;
  }
  void Wait(TestHost& host, services::Millis ms) {
    host.timers.AdvanceTo(host.clock.Now() + ms);
    host.Settle();
  }

  MemoryCheckpointStore store;
  CuttableStore a_link;
  CheckpointDirectory directory;
  TestHost a, b;
  v1::CreateGameResponse created;
};

const v1::Paused* LastPaused(const RecordingSeat& seat) {
  const v1::PlayUpdate* u = seat.Last(v1::PlayUpdate::kPaused);
  return u ? &u->paused() : nullptr;
}

TEST_F(PauseTest, NothingIsReleasedWhileTheStoreCannotBeWrittenAndTheGameGoesOnWhereItStopped) {
  CreateOnA();
  Seats seats(&a, &created);
  seats.Connect();
  seats.Play(20);
  const size_t logged = Logged();
  ASSERT_GT(logged, 0u);

  a_link.cut = true;
  // The answer is taken, but its step is not written, so nobody hears of it.
  EXPECT_EQ(seats.Play(5), 1);
  EXPECT_TRUE(seats.game->paused());
  for (const auto& s : seats.streams) {
    EXPECT_LE(LastStepSeen(*s), logged);
    const v1::Paused* p = LastPaused(*s);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->paused());
    EXPECT_NE(p->reason().find("cut off from the store"), std::string::npos) << p->reason();
    EXPECT_GT(p->since_unix_ms(), 0);
  }

  // The clocks stop: a minute later no fallback bot has played and nothing was released.
  const int decisions_before =
      seats.streams[0]->Count(v1::PlayUpdate::kDecision) + seats.streams[1]->Count(v1::PlayUpdate::kDecision) +
      seats.streams[2]->Count(v1::PlayUpdate::kDecision) + seats.streams[3]->Count(v1::PlayUpdate::kDecision);
  Wait(a, 60'000);
  EXPECT_TRUE(seats.game->paused());
  EXPECT_EQ(Logged(), logged);
  int decisions_after = 0;
  for (const auto& s : seats.streams) {
    EXPECT_LE(LastStepSeen(*s), logged);
    EXPECT_FALSE(s->finished);
    decisions_after += s->Count(v1::PlayUpdate::kDecision);
  }
  EXPECT_EQ(decisions_after, decisions_before);
  v1::GameInfo info;
  seats.game->Info(&info);
  for (const auto& p : info.players()) EXPECT_EQ(p.fallback_decisions(), 0u) << "seat " << p.seat();

  // A spectator who comes now sees what was released and hears of the pause.
  auto spectator = std::make_shared<RecordingSpectator>();
  seats.game->AddSpectator(/*from_start=*/true, spectator);
  ASSERT_FALSE(spectator->updates.empty());
  EXPECT_EQ(spectator->updates.front()->welcome().step(), logged);
  for (const auto& u : spectator->updates) {
    if (u->has_events()) {
      EXPECT_LE(u->events().step(), logged);
    }
    EXPECT_FALSE(u->has_view()) << "the view of an unreleased step";
  }
  EXPECT_TRUE(spectator->updates.back()->has_paused());
  // Answers while paused are refused, and change nothing.
  v1::PlayAnswer answer;
  answer.set_step(uint32_t(logged));
  seats.game->Answer(0, seats.streams[0].get(), answer, a.clock.Now());
  const v1::PlayUpdate* rejected = seats.streams[0]->Last(v1::PlayUpdate::kRejected);
  ASSERT_NE(rejected, nullptr);
  EXPECT_NE(rejected->rejected().error().find("paused"), std::string::npos);

  // The store answers again: the held steps are written, then released.
  a_link.cut = false;
  Wait(a, kLease);
  EXPECT_FALSE(seats.game->paused());
  EXPECT_GT(Logged(), logged);
  const int actor = seats.Actor();
  ASSERT_GE(actor, 0);
  const v1::Decision& again = *seats.streams[actor]->PendingDecision();
  EXPECT_EQ(again.step(), Logged());
  EXPECT_EQ(again.decision_ms_left(), 1000u) << "the decision comes again with its full limit";
  for (const auto& s : seats.streams) {
    ASSERT_NE(LastPaused(*s), nullptr);
    EXPECT_FALSE(LastPaused(*s)->paused());
  }
  EXPECT_FALSE(spectator->updates.back()->has_paused());  // the view of the step, after the notice
  seats.Play(100000);
  ASSERT_EQ(a.sink.games.size(), 1u);
  // The stored game holds every step, the one answered during the pause included.
  EXPECT_GT(a.sink.games[0].record.actions.size(), logged);

  // A game that cannot be checkpointed is refused rather than played unprotected.
  a_link.cut = true;
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) request.add_seats();
  v1::CreateGameResponse response;
  EXPECT_EQ(a.host->CreateGame(kAdmin, request, &response).error_code(), grpc::StatusCode::UNAVAILABLE);
}

// A seat whose client reconnects while the game is paused is welcomed at the last
// released step, and hears the events of the steps held back when they are
// released: its old stream's events and its new one's are every event, as a seat
// connected throughout hears them. (Before, the new stream started from the
// game's own step, and never heard the held steps' events.)
TEST_F(PauseTest, ASeatThatReconnectsDuringAPauseHearsTheHeldStepsOnceReleased) {
  CreateOnA();
  Seats seats(&a, &created);
  const size_t logged = PlayThenCut(seats);
  ASSERT_TRUE(seats.game->paused());
  const int seat = (seats.Actor() + 1) % 4;
  const std::shared_ptr<RecordingSeat> old = seats.streams[seat];
  auto fresh = std::make_shared<RecordingSeat>();
  v1::PlayHello hello;
  hello.set_game_id(created.game_id());
  hello.set_take_over(true);
  ASSERT_TRUE(seats.game->Connect(seat, hello, fresh).ok());
  ASSERT_FALSE(fresh->updates.empty());
  EXPECT_EQ(fresh->updates.front()->welcome().step(), logged);
  EXPECT_TRUE(old->finished);
  seats.streams[seat] = fresh;

  a_link.cut = false;
  Wait(a, kLease);
  ASSERT_FALSE(seats.game->paused());
  seats.Play(100000);
  ASSERT_EQ(a.sink.games.size(), 1u);
  const auto events = [](const RecordingSeat& s) {
    int n = 0;
    for (const auto& u : s.updates)
      if (u->has_events()) n += u->events().events_size();
    return n;
  };
  const int other = (seat + 1) % 4;
  EXPECT_GT(events(*old), 0);
  EXPECT_EQ(events(*old) + events(*fresh), events(*seats.streams[other]));
  // The first events the new stream hears are those of the first step it was not
  // welcomed at.
  for (const auto& u : fresh->updates) {
    if (!u->has_events()) continue;
    EXPECT_GT(u->events().step(), logged);
    break;
  }
}

TEST_F(PauseTest, ACutOffHostWhoseGameWasTakenOverStopsAndNoSeatSawAStepTheNewHostLacks) {
  CreateOnA();
  Seats on_a(&a, &created);
  const size_t logged = PlayThenCut(on_a);  // the last answer applied on A, never released

  // A's lease lapses unrenewed; B takes the game over from the written log.
  store.Pass(kLease + 1);
  b.timers.AdvanceTo(b.clock.Now() + kLease + 1);
  b.host->KeepLeases();
  ASSERT_EQ(b.host->live_games(), 1u);

  // The link comes back: A's write is refused (the token moved on), so A stops
  // and sends its seats on.
  a_link.cut = false;
  Wait(a, kLease);
  EXPECT_TRUE(on_a.game->abandoned());
  for (const auto& s : on_a.streams) {
    EXPECT_TRUE(s->finished);
    EXPECT_EQ(s->status.error_code(), grpc::StatusCode::UNAVAILABLE);
    EXPECT_LE(LastStepSeen(*s), logged) << "a seat saw a step that B does not have";
  }
  Seats on_b(&b, &created);
  on_b.Connect();
  EXPECT_EQ(on_b.streams[0]->updates.front()->welcome().step(), logged);
  on_b.Play(100000);
  EXPECT_EQ(b.sink.games.size(), 1u);
  EXPECT_EQ(a.sink.games.size(), 0u);
}

TEST_F(PauseTest, ALeaseThatCannotBeRenewedStopsTheDecisionClock) {
  CreateOnA();
  Seats seats(&a, &created);
  seats.Connect();
  seats.Play(10);
  const int actor = seats.Actor();
  ASSERT_GE(actor, 0);
  const uint32_t step = seats.streams[actor]->PendingDecision()->step();

  a_link.cut = true;
  a.host->KeepLeases();  // the renewal fails
  EXPECT_TRUE(seats.game->paused());
  Wait(a, 1000 + 2000 + 10'000);  // past the decision limit and the whole bank
  EXPECT_EQ(seats.Actor(), -1);
  v1::GameInfo info;
  seats.game->Info(&info);
  EXPECT_EQ(info.step(), step);
  EXPECT_EQ(info.players(actor).fallback_decisions(), 0u);

  a_link.cut = false;
  a.host->KeepLeases();
  EXPECT_FALSE(seats.game->paused());
  ASSERT_EQ(seats.Actor(), actor);
  const v1::Decision& again = *seats.streams[actor]->PendingDecision();
  EXPECT_EQ(again.step(), step);
  EXPECT_EQ(again.decision_ms_left(), 1000u);
  EXPECT_EQ(again.time_bank_ms_left(), 2000u) << "the bank did not run while paused";
}

TEST_F(PauseTest, AGamePausedLongerThanTheLimitIsVoidAndNeverTakenOver) {
  CreateOnA();
  Seats seats(&a, &created);
  seats.Connect();
  seats.Play(10);
  a_link.cut = true;
  seats.Play(1);
  ASSERT_TRUE(seats.game->paused());
  Wait(a, kPauseLimit + 2 * kLease);
  EXPECT_EQ(a.host->live_games(), 0u);
  for (const auto& s : seats.streams) {
    EXPECT_TRUE(s->finished);
    EXPECT_EQ(s->status.error_code(), grpc::StatusCode::UNAVAILABLE);
    EXPECT_NE(s->status.error_message().find("is void"), std::string::npos) << s->status.error_message();
  }
  // Until its checkpoint is dropped the host keeps its lease, so nobody plays it.
  a_link.cut = false;
  a.host->KeepLeases();
  EXPECT_EQ(store.done.count(created.game_id()), 1u);
  store.Pass(kLease + 1);
  b.host->KeepLeases();
  EXPECT_EQ(b.host->live_games(), 0u);
  EXPECT_TRUE(a.sink.games.empty());
}

// Takeovers that cannot race (docs/GAMEHOST.md, "Leases on Redis's clock"): the
// store stalls (or restarts) for two leases, so every lease lapses on its clock
// while no owner could renew; the other host reaches it first. Answers whether
// the game moved to that host.
bool MovesAfterAStall(PauseTest* t, bool guard) {
  t->store.takeover_guard = guard;
  t->CreateOnA();
  Seats seats(&t->a, &t->created);
  seats.Connect();
  seats.Play(10);
  t->store.down = true;
  t->a.host->KeepLeases();
  EXPECT_TRUE(seats.game->paused());
  t->store.now += 2 * kLease;
  t->store.down = false;
  t->b.host->KeepLeases();
  if (t->b.host->live_games() > 0) return true;
  EXPECT_GT(t->store.guarded, 0);
  // A seat that comes to B meanwhile is told to try again, not that there is no such game.
  Host::Target target;
  const grpc::Status found = t->b.host->FindSeat(t->created.seat_tokens(0), t->created.game_id(), &target);
  EXPECT_EQ(found.error_code(), grpc::StatusCode::UNAVAILABLE) << found.error_message();
  // The owner renews within its lease and plays on where it paused; B, which keeps
  // scanning, never gets it.
  t->a.host->KeepLeases();
  EXPECT_FALSE(seats.game->paused());
  for (int i = 0; i < 9; ++i) {
    t->store.Pass(kLease / 3);
    t->a.host->KeepLeases();
    t->b.host->KeepLeases();
  }
  EXPECT_EQ(t->b.host->live_games(), 0u);
  seats.Play(100000);
  EXPECT_EQ(t->a.sink.games.size(), 1u);
  EXPECT_TRUE(t->b.sink.games.empty());
  return t->b.host->live_games() > 0;
}

TEST_F(PauseTest, AStoreThatStalledLongerThanTheLeaseMovesNoGame) { EXPECT_FALSE(MovesAfterAStall(this, true)); }

// Negative control of the test above: without the guard the game moves at once.
TEST_F(PauseTest, WithoutTheTakeoverGuardAStallMovesTheGame) { EXPECT_TRUE(MovesAfterAStall(this, false)); }

}  // namespace
}  // namespace metropolis::gamehost::testing
