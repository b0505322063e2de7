// RedisGroupCommit against the real Redis the test command starts (label
// integration): callers that arrive while a pipeline is in flight share the next
// one, every caller gets its own reply, and a failed pipeline fails each of its
// callers without wedging the ones after.
#include "services/storage/redis_group.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "services/storage/tests/test_redis.h"

namespace metropolis::storage {
namespace {

class RedisGroupCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    address_ = testing::RedisAddress();
    ASSERT_FALSE(address_.empty());
    prefix_ = testing::UniquePrefix();
  }
  void TearDown() override {
    if (!address_.empty()) testing::DeleteKeys(address_, prefix_);
  }
  std::string address_, prefix_;
};

TEST_F(RedisGroupCommitTest, CallersArrivingDuringARoundTripShareTheNextPipeline) {
  RedisPool pool(address_, 2, 5000);
  RedisGroupCommit group(&pool);
  // BLPOP on an empty list holds the first pipeline for a second.
  std::thread slow([&] { EXPECT_TRUE(group.Run({"BLPOP", prefix_ + ":empty", "1"}).is_nil()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  constexpr int kCallers = 10;
  std::vector<std::string> replies(kCallers);
  std::vector<std::thread> callers;
  for (int i = 0; i < kCallers; ++i)
    callers.emplace_back([&, i] { replies[size_t(i)] = group.Run({"ECHO", "caller " + std::to_string(i)}).str; });
  for (auto& t : callers) t.join();
  slow.join();
  for (int i = 0; i < kCallers; ++i) EXPECT_EQ(replies[size_t(i)], "caller " + std::to_string(i));
  const RedisGroupCommit::Stats stats = group.stats();
  EXPECT_EQ(stats.commands, uint64_t(kCallers + 1));
  EXPECT_EQ(stats.pipelines, 2u);  // the BLPOP alone, then all ten together
}

TEST_F(RedisGroupCommitTest, EveryCallerGetsItsOwnRepliesInOrder) {
  RedisPool pool(address_, 2, 5000);
  RedisGroupCommit group(&pool);
  constexpr int kThreads = 8, kEach = 300;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const std::string key = prefix_ + ":counter" + std::to_string(t);
      for (int i = 1; i <= kEach; ++i)
        if (group.Run({"INCR", key}).integer != i) ++wrong;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  const RedisGroupCommit::Stats stats = group.stats();
  EXPECT_EQ(stats.commands, uint64_t(kThreads * kEach));
  EXPECT_GE(stats.pipelines, 1u);
  EXPECT_LE(stats.pipelines, stats.commands);
}

TEST_F(RedisGroupCommitTest, AnErrorReplyIsOneCallersReply) {
  RedisPool pool(address_, 1, 5000);
  RedisGroupCommit group(&pool);
  ASSERT_EQ(group.Run({"SET", prefix_ + ":text", "not a number"}).str, "OK");
  const RedisReply bad = group.Run({"INCR", prefix_ + ":text"});
  EXPECT_TRUE(bad.is_error());
  EXPECT_EQ(group.Run({"INCR", prefix_ + ":n"}).integer, 1);
}

TEST_F(RedisGroupCommitTest, AnUnreachableServerFailsEachCallAndWedgesNothing) {
  // Port 1 (tcpmux) is privileged and unused: connecting is refused.
  RedisPool pool("127.0.0.1:1", 1, 500);
  RedisGroupCommit group(&pool);
  for (int i = 0; i < 2; ++i) {
    try {
      group.Run({"PING"});
      ADD_FAILURE() << "PING to a closed port answered";
    } catch (const RedisUnavailable& e) {
      EXPECT_NE(std::string(e.what()).find("127.0.0.1:1"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(group.stats().pipelines, 2u);
}

}  // namespace
}  // namespace metropolis::storage
