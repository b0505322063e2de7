// The Redis checkpoint store against the real Redis the test command starts
// (label integration): fencing, leases that lapse, takeover, a log that lost
// its last writes, a stored game that can never come back, and the statuses of
// an unreachable Redis and of a failed script.
#include "services/gamehost/redis_checkpoints.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/state.h"
#include "lib/storage/tests/test_redis.h"
#include "services/gamehost/tests/checkpoint_store_contract.h"

namespace metropolis::gamehost {
namespace {

class RedisCheckpointsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    store_ = std::make_unique<RedisCheckpointStore>(address_,
                                                    RedisCheckpointOptions{.pool_size = 2, .prefix = prefix_ + ":"});
    State state{GameConfig{}};
    for (const Action& a : state.LegalActions()) {
      actions_.push_back(a);
      if (actions_.size() == 6) break;
    }
    ASSERT_EQ(actions_.size(), 6u);
  }
  void TearDown() override {
    if (!address_.empty()) storage::testing::DeleteKeys(address_, prefix_);
  }
  std::vector<Action> First(size_t n) const { return {actions_.begin(), actions_.begin() + long(n)}; }

  std::string address_, prefix_;
  std::unique_ptr<RedisCheckpointStore> store_;
  std::vector<Action> actions_;
  std::vector<SeatProgress> seats_ = {{60000, 3, 1, 0, false}, {55000, 2, 2, 1, true}, {0, 0, 0, 0, false}};
};

// The store answered `code`; otherwise the status it gave instead, message included.
::testing::AssertionResult Answers(const grpc::Status& s, grpc::StatusCode code) {
  if (s.error_code() == code) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "code " << s.error_code() << " (" << s.error_message() << "), not " << code;
}

TEST_F(RedisCheckpointsTest, OnlyTheNewestFencingTokenWrites) {
  uint64_t fence_a = 0, fence_b = 0;
  ASSERT_TRUE(Answers(store_->Create("g1", "setup-bytes", "host-a", 60'000, &fence_a), grpc::StatusCode::OK));
  EXPECT_EQ(store_->Create("g1", "other", "host-b", 60'000, &fence_b).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  ASSERT_TRUE(
      Answers(store_->Append("g1", fence_a, "host-a", 60'000, 0, First(3), seats_, true), grpc::StatusCode::OK));
  EXPECT_EQ(store_->Owner("g1"), "host-a");
  EXPECT_EQ(store_->Append("g1", fence_a + 1, "host-b", 60'000, 3, First(4), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);

  // Host A's lease lapses; nothing can take a held game, anyone a lapsed one.
  Checkpoint taken;
  EXPECT_EQ(store_->TakeOver("g1", "host-b", 60'000, &fence_b, &taken).error_code(), grpc::StatusCode::ABORTED);
  ASSERT_TRUE(Answers(store_->Renew("g1", fence_a, "host-a", 50), grpc::StatusCode::OK));
  // Redis expires the 50 ms lease on its own clock: wait for that, bounded.
  for (int i = 0; i < 300 && store_->Owner("g1"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(store_->Owner("g1"), std::nullopt);
  std::vector<std::string> orphans;
  ASSERT_TRUE(Answers(store_->Orphans(10, 60'000, &orphans), grpc::StatusCode::OK));
  EXPECT_EQ(orphans, std::vector<std::string>{"g1"});
  ASSERT_TRUE(Answers(store_->TakeOver("g1", "host-b", 60'000, &fence_b, &taken), grpc::StatusCode::OK));
  EXPECT_GT(fence_b, fence_a);
  EXPECT_EQ(taken.setup, "setup-bytes");
  EXPECT_EQ(taken.actions, First(3));
  EXPECT_EQ(taken.seats, seats_);
  EXPECT_TRUE(taken.started);
  EXPECT_EQ(store_->Owner("g1"), "host-b");

  // Host A comes back from behind a cut cable: every write of its is refused.
  EXPECT_EQ(store_->Append("g1", fence_a, "host-a", 60'000, 3, First(5), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
  EXPECT_EQ(store_->Renew("g1", fence_a, "host-a", 60'000).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(store_->Owner("g1"), "host-b");
  ASSERT_TRUE(
      Answers(store_->Append("g1", fence_b, "host-b", 60'000, 3, First(5), seats_, true), grpc::StatusCode::OK));
}

TEST_F(RedisCheckpointsTest, ALogThatLostItsLastWritesIsWrittenAgain) {
  uint64_t fence = 0;
  ASSERT_TRUE(Answers(store_->Create("g2", "s", "host-a", 60'000, &fence), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Append("g2", fence, "host-a", 60'000, 0, First(4), seats_, true), grpc::StatusCode::OK));
  // As after a restart of Redis that had not yet synced its last second.
  storage::RedisConnection redis(address_, 2000);
  redis.Run({"LTRIM", prefix_ + ":{g2}:log", "0", "0"});
  ASSERT_TRUE(Answers(store_->Append("g2", fence, "host-a", 60'000, 4, First(6), seats_, true), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Renew("g2", fence, "host-a", 1), grpc::StatusCode::OK));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  Checkpoint taken;
  uint64_t next = 0;
  ASSERT_TRUE(Answers(store_->TakeOver("g2", "host-b", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_EQ(taken.actions, First(6));
}

// The checkpoint writer's pipeline (checkpoint_writer.h): one status per game, each
// as Append would answer it, whatever the others' answers in the same round trip.
TEST_F(RedisCheckpointsTest, AppendManyAnswersEachGameOnItsOwn) {
  uint64_t fence_a = 0, fence_b = 0, fence_c = 0, fence_lost = 0;
  ASSERT_TRUE(Answers(store_->Create("m-a", "s", "host-a", 60'000, &fence_a), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Create("m-b", "s", "host-a", 60'000, &fence_b), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Create("m-c", "s", "host-a", 60'000, &fence_c), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Create("m-lost", "s", "host-a", 60'000, &fence_lost), grpc::StatusCode::OK));
  ASSERT_TRUE(
      Answers(store_->Append("m-c", fence_c, "host-a", 60'000, 0, First(4), seats_, true), grpc::StatusCode::OK));
  storage::RedisConnection redis(address_, 2000);
  redis.Run({"LTRIM", prefix_ + ":{m-c}:log", "0", "1"});  // Redis lost m-c's last two entries
  redis.Run({"DEL", prefix_ + ":{m-lost}:fence", prefix_ + ":{m-lost}:setup", prefix_ + ":{m-lost}:owner"});

  auto request = [&](const std::string& id, uint64_t fence, uint32_t from, size_t to) {
    return AppendRequest{.game_id = id,
                         .fence = fence,
                         .host = "host-a",
                         .lease_ms = 60'000,
                         .from = from,
                         .tail = {actions_.begin() + from, actions_.begin() + long(to)},
                         .seats = seats_,
                         .phase = true};
  };
  const std::vector<grpc::Status> answers = store_->AppendMany(
      {request("m-a", fence_a, 0, 3), request("m-b", fence_b + 1, 0, 2),  // a stale token
       request("m-c", fence_c, 4, 6), request("m-lost", fence_lost, 0, 1), request("m-a", fence_a, 3, 5)});
  ASSERT_EQ(answers.size(), 5u);
  EXPECT_TRUE(Answers(answers[0], grpc::StatusCode::OK));
  EXPECT_TRUE(Answers(answers[1], grpc::StatusCode::ABORTED));
  EXPECT_TRUE(Answers(answers[2], grpc::StatusCode::OUT_OF_RANGE));
  EXPECT_TRUE(Answers(answers[3], grpc::StatusCode::NOT_FOUND));
  EXPECT_TRUE(Answers(answers[4], grpc::StatusCode::OK));
  // An answer lost on its way back: the same append again changes nothing.
  EXPECT_TRUE(Answers(store_->AppendMany({request("m-a", fence_a, 3, 5)})[0], grpc::StatusCode::OK));

  Checkpoint taken;
  uint64_t next = 0;
  ASSERT_TRUE(Answers(store_->Reclaim("m-a", "host-a", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_EQ(taken.actions, First(5));
  EXPECT_EQ(taken.seats, seats_);
  ASSERT_TRUE(Answers(store_->Reclaim("m-b", "host-a", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_TRUE(taken.actions.empty());
  // m-c's short log is written back by Append, which holds the whole log.
  ASSERT_TRUE(
      Answers(store_->Append("m-c", fence_c, "host-a", 60'000, 4, First(6), seats_, true), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Reclaim("m-c", "host-a", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_EQ(taken.actions, First(6));
}

TEST_F(RedisCheckpointsTest, AGameWhoseCreationWasLostIsWrittenAgainWholeUnderItsToken) {
  uint64_t fence = 0;
  ASSERT_TRUE(Answers(store_->Create("g4", "setup-4", "host-a", 60'000, &fence), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Append("g4", fence, "host-a", 60'000, 0, First(3), seats_, true), grpc::StatusCode::OK));
  // As after a crash that lost the last second, creation included: nothing of g4 is left.
  storage::RedisConnection redis(address_, 2000);
  for (const char* part : {"fence", "owner", "setup", "log", "seats"}) redis.Run({"DEL", prefix_ + ":{g4}:" + part});
  redis.Run({"SREM", prefix_ + ":live", "g4"});
  EXPECT_EQ(store_->Renew("g4", fence, "host-a", 60'000).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(store_->Append("g4", fence, "host-a", 60'000, 3, First(5), seats_, true).error_code(),
            grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(Answers(store_->Recreate("g4", fence, "host-a", 60'000, "setup-4", First(5), seats_, true),
                      grpc::StatusCode::OK));
  // Once there, it is an ordinary checkpoint: only its token writes, another host takes it over whole.
  EXPECT_EQ(store_->Recreate("g4", fence, "host-a", 60'000, "setup-4", First(5), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
  ASSERT_TRUE(Answers(store_->Append("g4", fence, "host-a", 60'000, 5, First(6), seats_, true), grpc::StatusCode::OK));
  EXPECT_EQ(store_->Append("g4", fence + 1, "host-b", 60'000, 6, First(6), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
  ASSERT_TRUE(Answers(store_->Renew("g4", fence, "host-a", 1), grpc::StatusCode::OK));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::vector<std::string> orphans;
  ASSERT_TRUE(Answers(store_->Orphans(10, 60'000, &orphans), grpc::StatusCode::OK));
  EXPECT_EQ(orphans, std::vector<std::string>{"g4"});
  Checkpoint taken;
  uint64_t next = 0;
  ASSERT_TRUE(Answers(store_->TakeOver("g4", "host-b", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_EQ(taken.setup, "setup-4");
  EXPECT_EQ(taken.actions, First(6));
  EXPECT_EQ(taken.seats, seats_);
  EXPECT_GT(next, fence);
}

TEST_F(RedisCheckpointsTest, AGameThatIsDoneIsNeverWrittenAgain) {
  uint64_t fence = 0;
  ASSERT_TRUE(Answers(store_->Create("g5", "s", "host-a", 60'000, &fence), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Done("g5"), grpc::StatusCode::OK));
  EXPECT_EQ(store_->Append("g5", fence, "host-a", 60'000, 0, First(1), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
  EXPECT_EQ(store_->Recreate("g5", fence, "host-a", 60'000, "s", First(1), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
}

TEST_F(RedisCheckpointsTest, AStoredGameIsGoneForGood) {
  uint64_t fence = 0;
  ASSERT_TRUE(Answers(store_->Create("g3", "s", "host-a", 1, &fence), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Done("g3"), grpc::StatusCode::OK));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::vector<std::string> orphans;
  ASSERT_TRUE(Answers(store_->Orphans(10, 60'000, &orphans), grpc::StatusCode::OK));
  EXPECT_TRUE(orphans.empty());
  Checkpoint taken;
  uint64_t next = 0;
  EXPECT_EQ(store_->TakeOver("g3", "host-b", 60'000, &next, &taken).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(store_->Create("g3", "s", "host-b", 60'000, &next).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(store_->Append("g3", fence, "host-a", 60'000, 0, First(1), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
}

// Takeovers that cannot race (docs/GAMEHOST.md, "Leases on Redis's clock"): after
// a restart or a stall every lease has lapsed on Redis's clock at once; the owners
// get a whole lease of service to renew before any game may move.
TEST_F(RedisCheckpointsTest, ALapsedLeaseWaitsUntilRedisHasServedALeaseSinceItsLastGap) {
  constexpr services::Millis kLease = 2000;
  uint64_t fence = 0, next = 0;
  ASSERT_TRUE(Answers(store_->Create("g6", "s", "host-a", kLease, &fence), grpc::StatusCode::OK));
  // As after a restart or a stall: the clock hash says Redis was last reached long
  // ago, and the lease lapsed meanwhile.
  storage::RedisConnection redis(address_, 2000);
  redis.Run({"HSET", prefix_ + ":clock", "last", "1"});
  redis.Run({"DEL", prefix_ + ":{g6}:owner"});
  Checkpoint taken;
  const grpc::Status not_yet = store_->TakeOver("g6", "host-b", kLease, &next, &taken);
  EXPECT_EQ(not_yet.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << not_yet.error_message();
  EXPECT_NE(not_yet.error_message().find("has served for only"), std::string::npos) << not_yet.error_message();
  // The owner renews in time and keeps its game.
  ASSERT_TRUE(Answers(store_->Renew("g6", fence, "host-a", kLease), grpc::StatusCode::OK));
  EXPECT_EQ(store_->Owner("g6"), "host-a");
  EXPECT_EQ(store_->TakeOver("g6", "host-b", kLease, &next, &taken).error_code(), grpc::StatusCode::ABORTED);

  // A clock hash that Redis lost is a gap too.
  redis.Run({"DEL", prefix_ + ":clock", prefix_ + ":{g6}:owner"});
  EXPECT_EQ(store_->TakeOver("g6", "host-b", kLease, &next, &taken).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  // A lease of service without a gap (hosts reach Redis every tenth of a second
  // here; a gap is half a lease), and a lapsed lease is taken over.
  grpc::Status status = not_yet;
  for (int i = 0; i < 200 && status.error_code() == grpc::StatusCode::FAILED_PRECONDITION; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    status = store_->TakeOver("g6", "host-b", kLease, &next, &taken);
  }
  ASSERT_TRUE(Answers(status, grpc::StatusCode::OK));
  EXPECT_GT(next, fence);
  EXPECT_EQ(store_->Owner("g6"), "host-b");
}

// Negative control of the test above: without the guard the game moves at once.
TEST_F(RedisCheckpointsTest, WithoutTheGuardALapsedLeaseIsTakenOverRightAfterAGap) {
  RedisCheckpointStore unguarded(address_, {.pool_size = 1, .prefix = prefix_ + ":", .takeover_guard = false});
  uint64_t fence = 0, next = 0;
  ASSERT_TRUE(Answers(unguarded.Create("g7", "s", "host-a", 2000, &fence), grpc::StatusCode::OK));
  storage::RedisConnection redis(address_, 2000);
  redis.Run({"HSET", prefix_ + ":clock", "last", "1"});
  redis.Run({"DEL", prefix_ + ":{g7}:owner"});
  Checkpoint taken;
  EXPECT_TRUE(Answers(unguarded.TakeOver("g7", "host-b", 2000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_EQ(store_->Renew("g7", fence, "host-a", 2000).error_code(), grpc::StatusCode::ABORTED);
}

// A host restarted at its address takes its previous run's games back while
// their leases are live; any other host still may not (CheckpointStore::Reclaim).
TEST_F(RedisCheckpointsTest, OnlyTheLeasesOwnAddressReclaimsALiveGame) {
  uint64_t fence = 0, next = 0;
  ASSERT_TRUE(Answers(store_->Create("g8", "s", "host-a:1", 60'000, &fence), grpc::StatusCode::OK));
  ASSERT_TRUE(
      Answers(store_->Append("g8", fence, "host-a:1", 60'000, 0, First(2), seats_, true), grpc::StatusCode::OK));
  Checkpoint taken;
  EXPECT_EQ(store_->TakeOver("g8", "host-a:1", 60'000, &next, &taken).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(store_->Reclaim("g8", "host-b:1", 60'000, &next, &taken).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(store_->Reclaim("g8", "host-a:11", 60'000, &next, &taken).error_code(), grpc::StatusCode::ABORTED);
  ASSERT_TRUE(Answers(store_->Reclaim("g8", "host-a:1", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_GT(next, fence);
  EXPECT_EQ(taken.actions, First(2));
  // The previous run's token writes nothing more.
  EXPECT_EQ(store_->Append("g8", fence, "host-a:1", 60'000, 2, First(3), seats_, true).error_code(),
            grpc::StatusCode::ABORTED);
}

// The end is written with the last step, and a takeover reads it back.
TEST_F(RedisCheckpointsTest, AFinishedGamesEndTimeComesBackWithIt) {
  uint64_t fence = 0, next = 0;
  ASSERT_TRUE(Answers(store_->Create("g9", "s", "host-a", 60'000, &fence), grpc::StatusCode::OK));
  ASSERT_TRUE(
      Answers(store_->Append("g9", fence, "host-a", 60'000, 0, First(3), seats_, GamePhase(true, 1'800'000'123'456)),
              grpc::StatusCode::OK));
  Checkpoint taken;
  ASSERT_TRUE(Answers(store_->Reclaim("g9", "host-a", 60'000, &next, &taken), grpc::StatusCode::OK));
  EXPECT_TRUE(taken.started);
  EXPECT_EQ(taken.finished_unix_ms, 1'800'000'123'456);
  ASSERT_TRUE(Answers(store_->Append("g9", next, "host-a", 60'000, 3, First(3), seats_, true), grpc::StatusCode::OK));
  ASSERT_TRUE(Answers(store_->Reclaim("g9", "host-a", 60'000, &fence, &taken), grpc::StatusCode::OK));
  EXPECT_TRUE(taken.started);
  EXPECT_EQ(taken.finished_unix_ms, 0);
}

// The contract (checkpoint_store_contract.h) over Redis with nothing listening.
class UnreachableRedis : public ::testing::Test {
 protected:
  std::unique_ptr<CheckpointStore> UnreachableStore() {
    return std::make_unique<RedisCheckpointStore>("127.0.0.1:1", RedisCheckpointOptions{.pool_size = 1});
  }
};
INSTANTIATE_TYPED_TEST_SUITE_P(Redis, CheckpointStoreContract, UnreachableRedis);

TEST_F(RedisCheckpointsTest, AnUnreachableRedisIsNamedInTheStatus) {
  RedisCheckpointStore nowhere("127.0.0.1:1", {.pool_size = 1, .prefix = prefix_ + ":"});
  uint64_t fence = 0;
  const grpc::Status s = nowhere.Create("g4", "s", "host-a", 1000, &fence);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  EXPECT_NE(s.error_message().find("127.0.0.1:1"), std::string::npos) << s.error_message();
}

// A script that Redis runs and fails (here on keys of the wrong type, as a key
// clash or a hand edit would leave them) is INTERNAL: a retry would get the same
// answer. Reported as UNAVAILABLE, it would pass for an outage and be retried for ever.
TEST_F(RedisCheckpointsTest, AScriptThatFailsIsInternalNotUnavailable) {
  uint64_t fence = 0, next = 0;
  ASSERT_TRUE(Answers(store_->Create("g10", "s", "host-a", 60'000, &fence), grpc::StatusCode::OK));
  storage::RedisConnection redis(address_, 2000);
  redis.Run({"DEL", prefix_ + ":{g10}:log"});
  redis.Run({"HSET", prefix_ + ":{g10}:log", "not", "a list"});
  const grpc::Status append = store_->Append("g10", fence, "host-a", 60'000, 0, First(2), seats_, true);
  EXPECT_EQ(append.error_code(), grpc::StatusCode::INTERNAL) << append.error_message();
  EXPECT_TRUE(append.error_message().starts_with("checkpoint store failed: ")) << append.error_message();

  // The takeover guard's clock, which Create, Renew, Orphans and TakeOver read first.
  redis.Run({"DEL", prefix_ + ":clock"});
  redis.Run({"SET", prefix_ + ":clock", "not a hash"});
  Checkpoint taken;
  std::vector<std::string> orphans;
  const std::vector<std::pair<std::string, grpc::Status>> answers = {
      {"Create", store_->Create("g11", "s", "host-a", 60'000, &next)},
      {"Renew", store_->Renew("g10", fence, "host-a", 60'000)},
      {"Orphans", store_->Orphans(10, 60'000, &orphans)},
      {"TakeOver", store_->TakeOver("g10", "host-b", 60'000, &next, &taken)}};
  for (const auto& [call, s] : answers)
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INTERNAL) << call << ": " << s.error_message();
  EXPECT_EQ(next, 0u);
}

}  // namespace
}  // namespace metropolis::gamehost
