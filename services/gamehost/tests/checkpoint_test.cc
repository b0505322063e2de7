// Checkpoints, leases and takeover on a fake clock (docs/GAMEHOST.md,
// "Checkpoints and takeover"): two hosts share a store; one stops renewing its
// leases as a dead host would, the other takes its game over at the exact
// position, and the first, fenced off, can no longer write it.
#include <gtest/gtest.h>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/memory_checkpoints.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr Millis kLease = 3000;  // HostOptions' default

class CheckpointTest : public ::testing::Test {
 protected:
  CheckpointTest() : directory(&store), a("host-a:1", &directory), b("host-b:1", &directory) {
    a.host->SetCheckpoints(&store, /*background=*/false);
    b.host->SetCheckpoints(&store, /*background=*/false);
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
  std::string error;
  store.Orphans(10, kLease, &orphans, &error);
  EXPECT_TRUE(orphans.empty());
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

}  // namespace
}  // namespace metropolis::gamehost::testing
