// A small Redis client over hiredis for the services' worker threads: commands
// as argument vectors (binary-safe, nothing is ever formatted into a command
// string), pipelines, and a bounded pool whose broken connections are replaced on
// their next use, so a service rides out a Redis restart the way PgPool rides out
// a PostgreSQL one.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/storage/availability.h"
#include "lib/storage/redis_errors.h"

struct redisContext;

namespace metropolis::services {
class ProcessMetrics;
}

namespace metropolis::storage {

struct RedisReply {
  enum class Type { kNil, kInteger, kString, kStatus, kArray, kError };
  Type type = Type::kNil;
  int64_t integer = 0;
  std::string str;  // kString, kStatus, kError
  std::vector<RedisReply> elements;

  bool is_nil() const { return type == Type::kNil; }
  bool is_error() const { return type == Type::kError; }
};

using RedisCommand = std::vector<std::string>;

class RedisConnection {
 public:
  // "host:port". Throws RedisUnavailable when it cannot connect.
  RedisConnection(const std::string& address, int timeout_ms);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  RedisReply Run(const RedisCommand& command);
  // Sends every command before reading any reply: one round trip.
  std::vector<RedisReply> Pipeline(const std::vector<RedisCommand>& commands);
  bool broken() const { return broken_; }
  const std::string& address() const { return address_; }

  // Whether an error reply means "this server cannot take writes now".
  static bool ServerCannotWrite(const std::string& error);

 private:
  [[noreturn]] void Fail(const char* what);
  std::string address_;
  redisContext* context_ = nullptr;
  bool broken_ = false;
};

// Who a pool's connections log in as (AUTH): a Redis ACL user and its password,
// or only a password (the default user's, requirepass). Empty: no AUTH.
struct RedisCredentials {
  std::string user, password;
};

class RedisPool {
 public:
  // `address` is "host:port" or "sentinel:NAME@HOST:PORT,..." (redis_sentinel.h):
  // then every new connection asks the sentinels where the primary is now.
  // Every new connection sends AUTH with `credentials` when they have a
  // password; a refused AUTH is RedisUnavailable naming the user. Failures are
  // counted in `metrics` (metropolis_redis_errors_total); null: not counted.
  RedisPool(std::string address, int size, int timeout_ms = 2000, RedisCredentials credentials = {},
            services::ProcessMetrics* metrics = nullptr);

  // Runs `fn` with a connection, waiting for a free one; connects on demand.
  // RedisUnavailable and other exceptions from `fn` pass through; a broken
  // connection is dropped and replaced next time.
  void With(const std::function<void(RedisConnection&)>& fn);
  const std::string& address() const { return address_; }

 private:
  const std::string address_;
  const int timeout_ms_;
  const RedisCredentials credentials_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<RedisConnection>> idle_;
  // With Sentinel, the server the newest connection reached. A pool never keeps
  // connections to two servers: after a failover the old primary may still take
  // writes for a while (until the sentinels demote it), and a process that wrote to
  // both would act on answers from two different histories.
  std::string server_;
  int free_slots_;
  services::ProcessMetrics* const metrics_;
  Availability availability_{"redis"};
};

}  // namespace metropolis::storage
