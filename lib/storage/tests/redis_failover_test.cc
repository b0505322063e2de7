// A Redis that cannot take writes (docs/FAILURES.md, partial failures): after a
// failover a pooled connection may still talk to the demoted primary, which answers
// every write with READONLY. Such replies — READONLY, MASTERDOWN, LOADING, MISCONF —
// must drop the connection so that the next one finds the primary; any other error
// reply is the command's own and keeps it. The test runs its own real redis-server
// as a replica of nothing (read-only, like a demoted primary) and promotes it.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "lib/storage/redis.h"

namespace metropolis::storage {
namespace {

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    close(fd);
    return 0;
  }
  close(fd);
  return ntohs(addr.sin_port);
}

// A redis-server of the test's own: a replica of a port nobody listens on.
class ReadOnlyRedis {
 public:
  ReadOnlyRedis() {
    port_ = FreePort();
    const int nobody = FreePort();
    pid_ = fork();
    if (pid_ == 0) {
      const std::string port = std::to_string(port_), primary = std::to_string(nobody);
      execlp("redis-server", "redis-server", "--bind", "127.0.0.1", "--port", port.c_str(), "--save", "",
             "--appendonly", "no", "--replicaof", "127.0.0.1", primary.c_str(), "--loglevel", "warning",
             static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~ReadOnlyRedis() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  // Waits until it answers PING (a few seconds at most).
  bool Up() const {
    for (int i = 0; i < 200; ++i) {
      try {
        RedisConnection c(address(), 500);
        if (c.Run({"PING"}).str == "PONG") return true;
      } catch (const RedisUnavailable&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return false;
  }

 private:
  int port_ = 0;
  pid_t pid_ = -1;
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
                        "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist"})
    EXPECT_TRUE(RedisConnection::ServerCannotWrite(e)) << e;
  for (const char* e : {"WRONGTYPE Operation against a key holding the wrong kind of value",
                        "ERR wrong number of arguments for 'get' command", "NOSCRIPT No matching script",
                        "ERR Error running script: user_script:1: READONLY-ish text in a message"})
    EXPECT_FALSE(RedisConnection::ServerCannotWrite(e)) << e;
}

}  // namespace
}  // namespace metropolis::storage
