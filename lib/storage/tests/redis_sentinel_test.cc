// Finding the primary through Redis Sentinel (docs/FAILURES.md, "Redis failover"):
// a real primary, a real replica and a real sentinel of the test's own; a failover
// the sentinel carries out; a pool that must write to the new primary on its next
// connection. The same pool given the old primary's plain address is the negative
// control: it keeps failing, because nothing tells it where the primary went.
#include "lib/storage/redis_sentinel.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "lib/storage/tests/redis_process.h"

namespace metropolis::storage {
namespace {

using testing::FreePort;
using testing::RedisProcess;

TEST(RedisSentinelAddressTest, ParsesTheSentinelFormAndRejectsMalformedOnes) {
  EXPECT_FALSE(ParseSentinelAddress("127.0.0.1:6379").has_value());
  const auto parsed = ParseSentinelAddress("sentinel:games@10.0.0.1:26379,sentinel-b:26380");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->primary_name, "games");
  EXPECT_EQ(parsed->sentinels, (std::vector<std::string>{"10.0.0.1:26379", "sentinel-b:26380"}));

  for (const char* good : {"127.0.0.1:6379", "redis:6379", "sentinel:m@a:1", "sentinel:m@a:1,b:2,c:65535"})
    EXPECT_EQ(RedisAddressError(good), "") << good;
  for (const char* bad : {"", "localhost", "redis:", "redis:port", ":6379", "redis:70000", "sentinel:", "sentinel:@a:1",
                          "sentinel:m", "sentinel:m@", "sentinel:m@a", "sentinel:m@a:1,", "sentinel:m@a:1,,b:2"})
    EXPECT_NE(RedisAddressError(bad), "") << "'" << bad << "' was accepted";
  EXPECT_THROW(ConnectRedis("sentinel:m@nowhere", 200), RedisUnavailable);
}

// A primary, a replica of it and one sentinel watching them (quorum 1), each a
// redis-server of the test's own. The sentinel's config file must be writable.
class SentinelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("metropolis-sentinel-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    primary_ = std::make_unique<RedisProcess>(std::vector<std::string>{"--save", "", "--appendonly", "no"});
    ASSERT_TRUE(primary_->Up()) << "redis-server did not start (scripts/setup.sh installs it)";
    replica_ = std::make_unique<RedisProcess>(std::vector<std::string>{
        "--save", "", "--appendonly", "no", "--replicaof", "127.0.0.1", std::to_string(primary_->port())});
    ASSERT_TRUE(replica_->Up());
    const std::string config = (dir_ / "sentinel.conf").string();
    std::ofstream(config) << "sentinel monitor games 127.0.0.1 " << primary_->port() << " 1\n"
                          << "sentinel down-after-milliseconds games 1000\n"
                          << "sentinel failover-timeout games 5000\n";
    sentinel_ = std::make_unique<RedisProcess>(std::vector<std::string>{config, "--sentinel"});
    ASSERT_TRUE(sentinel_->Up()) << "redis-server --sentinel did not start";
    ASSERT_TRUE(WaitFor([&] { return Role(*replica_) == "slave" && ReplicaSeenBySentinel(); }))
        << "the replica never joined, or the sentinel never saw it";
  }
  void TearDown() override {
    sentinel_.reset();
    replica_.reset();
    primary_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string address() const { return "sentinel:games@" + sentinel_->address(); }

  static std::string Role(const RedisProcess& server) {
    try {
      RedisConnection c(server.address(), 1000);
      const RedisReply role = c.Run({"ROLE"});
      return role.elements.empty() ? "" : role.elements[0].str;
    } catch (const RedisUnavailable&) {
      return "";
    }
  }
  bool ReplicaSeenBySentinel() const {
    try {
      RedisConnection c(sentinel_->address(), 1000);
      return !c.Run({"SENTINEL", "replicas", "games"}).elements.empty();
    } catch (const RedisUnavailable&) {
      return false;
    }
  }
  template <typename Condition>
  static bool WaitFor(Condition condition, int seconds = 30) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      if (condition()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  // One write through the pool: true when it went through, false when it threw.
  static bool Write(RedisPool& pool, const std::string& key, std::string* why = nullptr) {
    try {
      pool.With([&](RedisConnection& c) {
        const RedisReply r = c.Run({"SET", key, "1"});
        if (r.is_error()) throw RedisUnavailable(r.str);
      });
      return true;
    } catch (const RedisUnavailable& e) {
      if (why) *why = e.what();
      return false;
    }
  }
  // Sentinel's forced failover: promotes the replica without waiting for the
  // primary to look down. Returns once the replica is the primary and the old one
  // follows it, as the sentinel reconfigures it.
  void FailOver() {
    RedisConnection c(sentinel_->address(), 2000);
    // NOGOODSLAVE until the sentinel has the replica's own INFO (it asks every 10 s
    // at first): asked again until then.
    RedisReply reply;
    ASSERT_TRUE(WaitFor([&] {
      reply = c.Run({"SENTINEL", "failover", "games"});
      return !reply.is_error() || !reply.str.starts_with("NOGOODSLAVE");
    })) << reply.str;
    ASSERT_FALSE(reply.is_error()) << reply.str;
    ASSERT_TRUE(WaitFor([&] { return Role(*replica_) == "master" && Role(*primary_) == "slave"; }))
        << "the failover did not finish: replica " << Role(*replica_) << ", old primary " << Role(*primary_);
  }

  std::filesystem::path dir_;
  std::unique_ptr<RedisProcess> primary_, replica_, sentinel_;
};

TEST_F(SentinelTest, APoolFindsTheNewPrimaryOnTheConnectionAfterAFailover) {
  RedisPool pool(address(), 1);
  ASSERT_TRUE(Write(pool, "before"));
  RedisConnection replica(replica_->address(), 2000);
  ASSERT_TRUE(WaitFor([&] { return replica.Run({"EXISTS", "before"}).integer == 1; })) << "the replica never had it";

  FailOver();

  // The pooled connection was to the old primary: the sentinel closes the clients
  // of a server it demotes, and a client it missed gets READONLY. Either way the
  // first write may fail and drops the connection; the next connection asks the
  // sentinel and must reach the new primary.
  std::string why;
  if (!Write(pool, "after", &why)) {
    ASSERT_TRUE(Write(pool, "after", &why))
        << "the connection after a failed write did not find the new primary: " << why;
  }
  RedisConnection promoted(replica_->address(), 2000);
  EXPECT_EQ(promoted.Run({"EXISTS", "before"}).integer, 1) << "the write from before the failover is gone";
  EXPECT_EQ(promoted.Run({"EXISTS", "after"}).integer, 1) << "the write after the failover is not on the new primary";
}

TEST_F(SentinelTest, NegativeControlAPlainAddressStaysWithTheDemotedPrimary) {
  RedisPool pool(primary_->address(), 1);
  ASSERT_TRUE(Write(pool, "before"));
  FailOver();
  // Without the sentinel nothing tells the pool where the primary went: every
  // connection lands on the demoted server and every write is refused (the first
  // may find its connection closed by the sentinel instead).
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::string why;
    EXPECT_FALSE(Write(pool, "after", &why)) << "attempt " << attempt << " wrote to a replica";
    if (attempt > 0) {
      EXPECT_NE(why.find("READONLY"), std::string::npos) << why;
    }
  }
}

TEST_F(SentinelTest, SentinelsAreAskedInTurnAndEveryFailureIsNamed) {
  const std::string nobody = "127.0.0.1:" + std::to_string(FreePort());
  // The first sentinel is down: the second one answers.
  RedisPool pool("sentinel:games@" + nobody + "," + sentinel_->address(), 1);
  EXPECT_TRUE(Write(pool, "k"));

  // No sentinel knows the name, or none answers: the error says what each said.
  try {
    ConnectRedis("sentinel:unknown@" + sentinel_->address() + "," + nobody, 500);
    ADD_FAILURE() << "connected to a primary no sentinel monitors";
  } catch (const RedisUnavailable& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("does not monitor a primary named 'unknown'"), std::string::npos) << what;
    EXPECT_NE(what.find(nobody), std::string::npos) << what;
  }
}

TEST_F(SentinelTest, APrimaryTheSentinelNamesMustSayItIsOne) {
  // A sentinel's answer can be stale; ROLE on the server is what counts. Demote the
  // primary behind the sentinel's back (it still names it until it notices).
  RedisConnection old(primary_->address(), 2000);
  ASSERT_EQ(old.Run({"REPLICAOF", "127.0.0.1", std::to_string(replica_->port())}).str, "OK");
  try {
    ConnectRedis(address(), 1000);
    // The sentinel may already have noticed and named the replica: then that one
    // must be a primary. It is not (nobody promoted it), so this cannot succeed.
    ADD_FAILURE() << "connected to a server that is not a primary";
  } catch (const RedisUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("which is not a primary"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace metropolis::storage
