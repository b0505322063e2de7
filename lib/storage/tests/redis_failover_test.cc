// A Redis that cannot take writes (docs/FAILURES.md, partial failures): after a
// failover a pooled connection may still talk to the demoted primary, which answers
// every write with READONLY. Such replies — READONLY, MASTERDOWN, LOADING, MISCONF, NOREPLICAS —
// must drop the connection so that the next one finds the primary; any other error
// reply is the command's own and keeps it. The test runs its own real redis-server
// as a replica of nothing (read-only, like a demoted primary) and promotes it.
#include <gtest/gtest.h>

#include <string>

#include "lib/storage/redis.h"
#include "lib/storage/tests/redis_process.h"

namespace metropolis::storage {
namespace {

// A redis-server of the test's own: a replica of a port nobody listens on.
class ReadOnlyRedis : public testing::RedisProcess {
 public:
  ReadOnlyRedis()
      : RedisProcess(
            {"--save", "", "--appendonly", "no", "--replicaof", "127.0.0.1", std::to_string(testing::FreePort())}) {}
};

int64_t ClientId(RedisPool& pool) {
  int64_t id = -1;
  pool.With([&](RedisConnection& c) { id = c.Run({"CLIENT", "ID"}).integer; });
  return id;
}

TEST(RedisFailoverTest, AServerThatCannotTakeWritesDropsTheConnectionAndOtherErrorsKeepIt) {
  ReadOnlyRedis redis;
  ASSERT_TRUE(redis.Up()) << "redis-server did not start (is it installed? scripts/setup.sh installs it)";
  RedisPool pool(redis.address(), 1);
  const int64_t first = ClientId(pool);
  ASSERT_GT(first, 0);

  // An error that is the command's own: the connection stays.
  pool.With([](RedisConnection& c) {
    const RedisReply r = c.Run({"GET"});
    EXPECT_TRUE(r.is_error());
    EXPECT_FALSE(c.broken());
  });
  EXPECT_EQ(ClientId(pool), first) << "an ordinary error reply dropped the connection";

  // A write to a replica, plain and from a script: unavailable, and the connection goes.
  for (const RedisCommand& write : {RedisCommand{"SET", "failover-test", "1"},
                                    RedisCommand{"EVAL", "return redis.call('SET', KEYS[1], '1')", "1", "k"}}) {
    const int64_t before = ClientId(pool);
    try {
      pool.With([&](RedisConnection& c) { c.Run(write); });
      ADD_FAILURE() << write[0] << " on a replica did not throw";
    } catch (const RedisUnavailable& e) {
      EXPECT_NE(std::string(e.what()).find("cannot take writes now: READONLY"), std::string::npos) << e.what();
    }
    EXPECT_NE(ClientId(pool), before) << write[0] << ": the connection to the read-only server was kept";
  }

  // Promoted (what a failover does to the replica that wins): writes go through.
  RedisConnection admin(redis.address(), 2000);
  ASSERT_EQ(admin.Run({"REPLICAOF", "NO", "ONE"}).str, "OK");
  pool.With([](RedisConnection& c) { EXPECT_EQ(c.Run({"SET", "failover-test", "1"}).str, "OK"); });
}

TEST(RedisFailoverTest, RepliesThatMeanTheServerCannotWriteAreRecognised) {
  for (const char* e : {"READONLY You can't write against a read only replica.",
                        "READONLY You can't write against a read only replica. script: 88c9, on @user_script:1.",
                        "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
                        "LOADING Redis is loading the dataset in memory",
                        "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist",
                        "NOREPLICAS Not enough good replicas to write."})
    EXPECT_TRUE(RedisConnection::ServerCannotWrite(e)) << e;
  for (const char* e : {"WRONGTYPE Operation against a key holding the wrong kind of value",
                        "ERR wrong number of arguments for 'get' command", "NOSCRIPT No matching script",
                        "ERR Error running script: user_script:1: READONLY-ish text in a message"})
    EXPECT_FALSE(RedisConnection::ServerCannotWrite(e)) << e;
}

}  // namespace
}  // namespace metropolis::storage
