// Checkpoints, leases and takeover on a fake clock (docs/GAMEHOST.md,
// "Checkpoints and takeover"): two hosts share a store; one stops renewing its
// leases as a dead host would, the other takes its game over at the exact
// position, and the first, fenced off, can no longer write it.
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "metropolis/v1/replays.pb.h"
#include "services/gamehost/results.h"
#include "services/gamehost/tests/checkpoint_store_contract.h"
#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/memory_checkpoints.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr services::Millis kLease = 3000;  // HostOptions' default

class CheckpointTest : public ::testing::Test {
 protected:
  CheckpointTest() : directory(&store), a("host-a:1", &directory), b("host-b:1", &directory) {
    a.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
    b.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
  }
  void CreateOnA(uint64_t seed = 11) {
    v1::CreateGameRequest request;
    for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
    request.set_chance_seed(seed);
    grpc::Status s = a.host->CreateGame(kAdmin, request, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  // Host A stops renewing, as a dead host does; its leases lapse.
  void LeasesLapse() {
    store.Pass(kLease + 1);
    b.timers.AdvanceTo(b.clock.Now() + kLease + 1);
  }
  size_t Logged() {
    std::lock_guard lock(store.mutex);
    return store.games.count(created.game_id()) ? store.games[created.game_id()].log.size() : 0;
  }

  MemoryCheckpointStore store;
  CheckpointDirectory directory;
  TestHost a, b;
  v1::CreateGameResponse created;
};

TEST_F(CheckpointTest, EveryStepIsInTheCheckpointBeforeTheSeatsHearOfIt) {
  CreateOnA();
  Seats seats(&a, &created);
  seats.Connect();
  ASSERT_EQ(seats.Play(150), 150);
  const v1::Decision* pending = seats.streams[seats.Actor()]->PendingDecision();
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(Logged(), pending->step());
  // The setup keeps no seat token, only hashes.
  for (const std::string& token : created.seat_tokens())
    EXPECT_EQ(store.games[created.game_id()].setup.find(token), std::string::npos);
}

// A host dies with a finished game not yet stored (its outbox on a disk that
// went with it): the game's checkpoint holds every step and when it ended. The
// host that takes it over stores it as finished then — not at the takeover, an
// hour later, which would have its players at this table while they played
// their next games (the checker's "at two tables at once").
TEST_F(CheckpointTest, AFinishedGameTakenOverIsStoredAsFinishedWhenItWas) {
  CreateOnA();
  a.sink.Hold(true);  // A never keeps it: it dies first
  Seats on_a(&a, &created);
  on_a.Connect();
  for (int i = 0; i < 100000 && a.sink.waiting() == 0; ++i) on_a.Play(1);
  ASSERT_EQ(a.sink.waiting(), 1u);
  const int64_t ended = a.clock.UnixMillis();
  int64_t written = 0;
  {
    std::lock_guard lock(store.mutex);
    written = store.games[created.game_id()].phase.finished_unix_ms;
  }
  EXPECT_EQ(written, ended);
  const size_t logged = Logged();

  b.clock.Set(a.clock.Now() + 3'600'000);
  LeasesLapse();
  b.host->KeepLeases();
  b.Settle();
  ASSERT_EQ(b.sink.games.size(), 1u);
  EXPECT_EQ(b.sink.games[0].finished_unix_ms, ended);
  EXPECT_LT(b.sink.games[0].finished_unix_ms, b.clock.UnixMillis());
  EXPECT_EQ(b.sink.games[0].record.actions.size(), logged);
  a.sink.Hold(false);
}

// A seat resigns and the host dies before it stores the game: the resignation
// is in the checkpoint with the finish time, and the host that takes the game
// over stores it as resigned then, instead of playing it on.
TEST_F(CheckpointTest, AResignationIsWrittenAndAGameTakenOverIsStoredAsResigned) {
  CreateOnA();
  a.sink.Hold(true);  // A never keeps it: it dies first
  Seats on_a(&a, &created);
  on_a.Connect();
  ASSERT_EQ(on_a.Play(40), 40);
  const size_t logged = Logged();
  v1::PlayAnswer resign;
  resign.set_resign(true);
  on_a.game->Answer(2, on_a.streams[2].get(), resign, a.clock.Now());
  a.Settle();
  ASSERT_EQ(a.sink.waiting(), 1u);
  const int64_t ended = a.clock.UnixMillis();
  {
    std::lock_guard lock(store.mutex);
    EXPECT_EQ(store.games[created.game_id()].phase, GamePhase(true, ended, 2));
  }

  b.clock.Set(a.clock.Now() + 3'600'000);
  LeasesLapse();
  b.host->KeepLeases();
  b.Settle();
  ASSERT_EQ(b.sink.games.size(), 1u);
  const CompletedGame& stored = b.sink.games[0];
  EXPECT_EQ(stored.reason, EndReason::kResigned);
  EXPECT_EQ(stored.resigned_seat, 2);
  EXPECT_TRUE(stored.forfeited[2]);
  EXPECT_EQ(stored.finished_unix_ms, ended);
  EXPECT_EQ(stored.record.actions.size(), logged);
  a.sink.Hold(false);
}

// A host restarted in place (its address kept, as a StatefulSet restarts a pod)
// finds its previous run's games leased to its own address. A seat that
// reconnects gets its game at once, not once the lease lapses: a client that
// retries for a few seconds would have given up by then. Another host may not
// take it while the lease is live: it sends the seat there.
TEST_F(CheckpointTest, AHostRestartedAtItsAddressTakesItsGamesBackAtOnce) {
  CreateOnA();
  Seats on_a(&a, &created);
  on_a.Connect();
  ASSERT_EQ(on_a.Play(50), 50);
  const int actor = on_a.Actor();
  ASSERT_GE(actor, 0);
  const v1::Decision before = *on_a.streams[actor]->PendingDecision();

  TestHost again("host-a:1", &directory);  // the new run, within the old one's lease
  again.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
  Host::Target elsewhere;
  ASSERT_TRUE(b.host->FindSeat(created.seat_tokens(0), created.game_id(), &elsewhere).ok());
  EXPECT_EQ(elsewhere.redirect, "host-a:1");
  Seats on_again(&again, &created);
  on_again.Connect();
  again.Settle();
  ASSERT_EQ(on_again.Actor(), actor);
  EXPECT_EQ(on_again.streams[actor]->PendingDecision()->step(), before.step());
  on_again.Play(100000);
  ASSERT_EQ(again.sink.games.size(), 1u);
  EXPECT_EQ(again.sink.games[0].game_id, created.game_id());
}

TEST_F(CheckpointTest, AnotherHostResumesTheExactPositionAndTheFirstIsFencedOff) {
  CreateOnA();
  Seats on_a(&a, &created);
  on_a.Connect();
  ASSERT_EQ(on_a.Play(200), 200);
  const int actor = on_a.Actor();
  ASSERT_GE(actor, 0);
  const v1::Decision before = *on_a.streams[actor]->PendingDecision();

  LeasesLapse();
  b.host->KeepLeases();
  EXPECT_EQ(b.host->live_games(), 1u);
  Seats on_b(&b, &created);
  on_b.Connect();  // the same tokens work on the new host
  b.Settle();
  ASSERT_EQ(on_b.Actor(), actor);
  const v1::Decision& after = *on_b.streams[actor]->PendingDecision();
  EXPECT_EQ(after.step(), before.step());
  // The same view down to the cards the seat has seen others hold.
  EXPECT_EQ(after.view().SerializeAsString(), before.view().SerializeAsString());
  EXPECT_EQ(after.time_bank_ms_left(), before.time_bank_ms_left());

  // Host A was only cut off: its seat answers, but the write is refused and
  // the game stops there, its streams told to reconnect.
  v1::PlayAnswer answer;
  answer.set_step(before.step());
  answer.mutable_action()->set_code(before.view().legal(0));
  on_a.game->Answer(actor, on_a.streams[actor].get(), answer, a.clock.Now());
  a.Settle();
  EXPECT_TRUE(on_a.game->abandoned());
  EXPECT_EQ(a.host->live_games(), 0u);
  EXPECT_EQ(Logged(), before.step());
  for (const auto& s : on_a.streams) {
    EXPECT_TRUE(s->finished);
    EXPECT_EQ(s->status.error_code(), grpc::StatusCode::UNAVAILABLE);
  }
  Host::Target target;
  ASSERT_TRUE(a.host->FindSeat(created.seat_tokens(0), created.game_id(), &target).ok());
  EXPECT_EQ(target.redirect, "host-b:1");

  // B plays it to the end and stores it once; A stores nothing.
  on_b.Play(100000);
  ASSERT_EQ(b.sink.games.size(), 1u);
  EXPECT_TRUE(a.sink.games.empty());
  EXPECT_EQ(b.sink.games[0].game_id, created.game_id());
  EXPECT_GT(b.sink.games[0].record.actions.size(), before.step());
  EXPECT_TRUE(store.done.count(created.game_id()));
  std::vector<std::string> orphans;
  EXPECT_TRUE(store.Orphans(10, kLease, &orphans).ok());
  EXPECT_TRUE(orphans.empty());
}

// The debug channel lives in the host's memory: a takeover keeps the game and
// says from which step the notes were recorded, rather than pass off the half
// it has as the whole.
TEST_F(CheckpointTest, AGameTakenOverSaysFromWhichStepItsDebugNotesWereRecorded) {
  CreateOnA();
  const auto note = [](int, const v1::Decision& d, v1::PlayAnswer* answer) {
    answer->mutable_debug()->set_note("at " + std::to_string(d.step()));
  };
  Seats on_a(&a, &created);
  on_a.decorate = note;
  on_a.Connect();
  ASSERT_EQ(on_a.Play(120), 120);
  const uint32_t taken_at = uint32_t(Logged());
  LeasesLapse();
  b.host->KeepLeases();
  Seats on_b(&b, &created);
  on_b.decorate = note;
  on_b.Connect();
  on_b.Play(100000);
  ASSERT_EQ(b.sink.games.size(), 1u);
  v1::CompletedGameRecord record;
  CompletedGameToProto(b.sink.games[0], &record);
  ASSERT_EQ(record.debug_size(), 4);
  for (const v1::SeatDebug& d : record.debug()) {
    EXPECT_EQ(d.recorded_from_step(), taken_at);
    ASSERT_GT(d.steps_size(), 0);
    for (const v1::StepDebug& s : d.steps()) {
      EXPECT_GE(s.step(), taken_at);
      EXPECT_EQ(s.note(), "at " + std::to_string(s.step()));
    }
  }
}

TEST_F(CheckpointTest, SeatsGetAFullDecisionLimitToReconnectAfterATakeover) {
  CreateOnA();
  Seats on_a(&a, &created);
  on_a.Connect();
  on_a.Play(60);
  const uint32_t step = on_a.streams[on_a.Actor()]->PendingDecision()->step();
  LeasesLapse();
  b.host->KeepLeases();
  b.Settle();
  v1::GameInfo info;
  ASSERT_TRUE(b.host->GetGame(kAdmin, created.game_id(), &info).ok());
  EXPECT_EQ(info.step(), step) << "a fallback bot played before the seat could come back";
  b.timers.AdvanceTo(b.clock.Now() + 999);
  b.Settle();
  ASSERT_TRUE(b.host->GetGame(kAdmin, created.game_id(), &info).ok());
  EXPECT_EQ(info.step(), step);
  b.timers.AdvanceTo(b.clock.Now() + 1);  // the limit (1000 ms) is over
  b.Settle();
  ASSERT_TRUE(b.host->GetGame(kAdmin, created.game_id(), &info).ok());
  EXPECT_GT(info.step(), step);
}

TEST_F(CheckpointTest, ALogThatDoesNotReplayIsRefusedAsDataLoss) {
  CreateOnA();
  Seats on_a(&a, &created);
  on_a.Connect();
  on_a.Play(80);
  {
    std::lock_guard lock(store.mutex);
    auto& log = store.games[created.game_id()].log;
    ASSERT_GT(log.size(), 10u);
    log[0] = log.back();  // a late-game action as the first step
  }
  LeasesLapse();
  const grpc::Status s = b.host->TakeOver(created.game_id());
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS) << s.error_message();
  EXPECT_NE(s.error_message().find("step 1 of the checkpoint"), std::string::npos) << s.error_message();
  EXPECT_EQ(b.host->live_games(), 0u);
}

TEST_F(CheckpointTest, AGameWhoseCheckpointRedisLostIsWrittenAgainWholeAndPlaysOn) {
  CreateOnA();
  Seats seats(&a, &created);
  seats.Connect();
  seats.Play(20);
  {
    // An acknowledged write lost (a crash under appendfsync everysec): the creation with it.
    std::lock_guard lock(store.mutex);
    store.games.erase(created.game_id());
  }
  EXPECT_EQ(seats.Play(10), 10);
  EXPECT_FALSE(seats.game->abandoned());
  EXPECT_EQ(store.recreated, 1);
  const int actor = seats.Actor();
  ASSERT_GE(actor, 0);
  EXPECT_EQ(Logged(), seats.streams[actor]->PendingDecision()->step());
  // The written-again checkpoint is a whole one: another host resumes it exactly.
  LeasesLapse();
  b.host->KeepLeases();
  EXPECT_EQ(b.host->live_games(), 1u);
}

// Redis lost acknowledged writes (an OS crash under appendfsync everysec, or a
// failover to a replica that was behind) and the game's host died: another host
// takes the game over from a log shorter than what the seats were shown. Playing
// on from there would show them a different game (the chance streams resume at an
// earlier draw). A seat says how far it saw (PlayHello.last_step_seen): the game is
// void ("store lost steps"), never stored or rated; a client that does not say
// (older than the field) is welcomed as before.
class LostStepsTest : public CheckpointTest {
 protected:
  // Seats play on A; the store loses the last `lost` steps; A dies; B takes over.
  void PlayLoseAndTakeOver(TestHost* taker, int lost) {
    CreateOnA();
    on_a = std::make_unique<Seats>(&a, &created);
    on_a->Connect();
    ASSERT_EQ(on_a->Play(120), 120);
    seen = LastStepSeen(*on_a->streams[0]);
    {
      std::lock_guard lock(store.mutex);
      auto& log = store.games[created.game_id()].log;
      ASSERT_GT(log.size(), size_t(lost));
      log.resize(log.size() - lost);
      kept = uint32_t(log.size());
    }
    ASSERT_LT(kept, seen);
    store.Pass(kLease + 1);
    taker->timers.AdvanceTo(taker->clock.Now() + kLease + 1);
    taker->host->KeepLeases();
    ASSERT_EQ(taker->host->live_games(), 1u);
  }
  grpc::Status Hello(TestHost* host, int seat, std::optional<uint32_t> last_step_seen,
                     std::shared_ptr<RecordingSeat>* stream) {
    Host::Target target;
    grpc::Status s = host->host->FindSeat(created.seat_tokens(seat), created.game_id(), &target);
    if (!s.ok()) return s;
    EXPECT_TRUE(target.game);
    v1::PlayHello hello;
    hello.set_game_id(created.game_id());
    if (last_step_seen) hello.set_last_step_seen(*last_step_seen);
    *stream = std::make_shared<RecordingSeat>();
    return target.game->Connect(seat, hello, *stream);
  }

  std::unique_ptr<Seats> on_a;
  uint32_t seen = 0, kept = 0;
};

TEST_F(LostStepsTest, ASeatThatSawStepsTheStoreLostVoidsTheGameInsteadOfRewindingIt) {
  PlayLoseAndTakeOver(&b, 30);
  // An old client (no last_step_seen) is welcomed at the shorter log.
  std::shared_ptr<RecordingSeat> old_client, seat0;
  ASSERT_TRUE(Hello(&b, 1, std::nullopt, &old_client).ok());
  ASSERT_EQ(old_client->Count(v1::PlayUpdate::kWelcome), 1);
  EXPECT_LT(old_client->Last(v1::PlayUpdate::kWelcome)->welcome().step(), seen);
  // A seat that saw further than the log voids it.
  const grpc::Status s = Hello(&b, 0, seen, &seat0);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS) << s.error_message();
  EXPECT_NE(s.error_message().find("void"), std::string::npos) << s.error_message();
  EXPECT_EQ(seat0->Count(v1::PlayUpdate::kWelcome), 0);  // never shown the rewound game
  EXPECT_TRUE(old_client->finished);
  EXPECT_EQ(old_client->status.error_code(), grpc::StatusCode::DATA_LOSS);
  EXPECT_EQ(b.host->live_games(), 0u);
  b.Settle();
  EXPECT_TRUE(b.sink.games.empty());  // never stored, never rated
  // Nobody takes it over again and plays it on.
  store.Pass(kLease + 1);
  a.timers.AdvanceTo(a.clock.Now() + kLease + 1);
  a.host->KeepLeases();
  EXPECT_EQ(a.host->live_games(), 0u);
}

TEST_F(LostStepsTest, ASeatThatSawNoFurtherThanTheLogIsWelcomed) {
  PlayLoseAndTakeOver(&b, 30);
  std::shared_ptr<RecordingSeat> seat0;
  ASSERT_TRUE(Hello(&b, 0, kept, &seat0).ok());
  EXPECT_EQ(seat0->Count(v1::PlayUpdate::kWelcome), 1);
  EXPECT_EQ(b.host->live_games(), 1u);
}

// Negative control: a host without the check (protection "seen_step") welcomes the
// seat at the rewound step, and the seat sees the game go backwards.
TEST_F(LostStepsTest, NegativeControlWithoutTheCheckTheSeatIsShownTheGameRewound) {
  TestHost unchecked("host-c:1", &directory, /*check_seen_step=*/false);
  unchecked.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
  PlayLoseAndTakeOver(&unchecked, 30);
  std::shared_ptr<RecordingSeat> seat0;
  ASSERT_TRUE(Hello(&unchecked, 0, seen, &seat0).ok());
  ASSERT_EQ(seat0->Count(v1::PlayUpdate::kWelcome), 1);
  EXPECT_LT(seat0->Last(v1::PlayUpdate::kWelcome)->welcome().step(), seen);
  EXPECT_EQ(unchecked.host->live_games(), 1u);
}

TEST_F(CheckpointTest, AStoredGameIsNeverTakenOver) {
  CreateOnA();
  Seats on_a(&a, &created);
  on_a.Connect();
  on_a.Play(100000);
  ASSERT_EQ(a.sink.games.size(), 1u);
  LeasesLapse();
  b.host->KeepLeases();
  EXPECT_EQ(b.host->live_games(), 0u);
  Host::Target target;
  EXPECT_EQ(b.host->FindSeat(created.seat_tokens(0), created.game_id(), &target).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

// The fakes behind the contract (checkpoint_store_contract.h): a store that is
// down, and one host's way to a store that works, cut.
class FakeDown : public ::testing::Test {
 protected:
  std::unique_ptr<CheckpointStore> UnreachableStore() {
    auto store = std::make_unique<MemoryCheckpointStore>();
    store->down = true;
    return store;
  }
};

class FakeCutOff : public ::testing::Test {
 protected:
  std::unique_ptr<CheckpointStore> UnreachableStore() {
    auto store = std::make_unique<CuttableStore>(&reached_);
    store->cut = true;
    return store;
  }

 private:
  MemoryCheckpointStore reached_;
};

using Fakes = ::testing::Types<FakeDown, FakeCutOff>;
INSTANTIATE_TYPED_TEST_SUITE_P(Fake, CheckpointStoreContract, Fakes);

}  // namespace
}  // namespace metropolis::gamehost::testing
