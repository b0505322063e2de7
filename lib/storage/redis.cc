#include "lib/storage/redis.h"

#include <hiredis.h>
#include <sys/time.h>

#include "lib/common/metrics.h"
#include "lib/common/negative_control.h"
#include "lib/storage/redis_sentinel.h"

namespace metropolis::storage {
namespace {

RedisReply Convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
      out.type = RedisReply::Type::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::Type::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.type = RedisReply::Type::kError;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(Convert(r->element[i]));
      break;
    default:
      out.type = RedisReply::Type::kNil;
  }
  return out;
}

timeval Timeval(int ms) { return timeval{ms / 1000, (ms % 1000) * 1000}; }

}  // namespace

RedisConnection::RedisConnection(const std::string& address, int timeout_ms) : address_(address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) throw RedisUnavailable("redis address '" + address + "' is not host:port");
  const std::string host = address.substr(0, colon);
  int port = 0;
  try {
    port = std::stoi(address.substr(colon + 1));
  } catch (...) {
    throw RedisUnavailable("redis address '" + address + "' has no port number");
  }
  context_ = redisConnectWithTimeout(host.c_str(), port, Timeval(timeout_ms));
  if (context_ == nullptr) throw RedisUnavailable("redis " + address + ": out of memory");
  if (context_->err) Fail(("redis " + address).c_str());
  redisSetTimeout(context_, Timeval(timeout_ms));
}

RedisConnection::~RedisConnection() {
  if (context_) redisFree(context_);
}

void RedisConnection::Fail(const char* what) {
  broken_ = true;
  throw RedisUnavailable(std::string(what) + ": " + (context_ ? context_->errstr : "no connection"));
}

RedisReply RedisConnection::Run(const RedisCommand& command) { return std::move(Pipeline({command})[0]); }

std::vector<RedisReply> RedisConnection::Pipeline(const std::vector<RedisCommand>& commands) {
  if (broken_) Fail("redis");
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const RedisCommand& command : commands) {
    argv.clear();
    lengths.clear();
    for (const std::string& arg : command) {
      argv.push_back(arg.data());
      lengths.push_back(arg.size());
    }
    if (redisAppendCommandArgv(context_, int(argv.size()), argv.data(), lengths.data()) != REDIS_OK) Fail("redis send");
  }
  std::vector<RedisReply> replies;
  replies.reserve(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) Fail("redis reply");
    redisReply* reply = static_cast<redisReply*>(raw);
    replies.push_back(Convert(reply));
    freeReplyObject(reply);
  }
  for (const RedisReply& reply : replies) {
    // Negative control only (tests/faults/redis_failover_test.sh): keep a connection
    // to a server that cannot take writes, as a client that never looks again does.
    if (reply.is_error() && ServerCannotWrite(reply.str) && !services::ProtectionRemoved("redis_readonly")) {
      broken_ = true;
      throw RedisUnavailable("redis: the server cannot take writes now: " + reply.str);
    }
  }
  return replies;
}

bool RedisConnection::ServerCannotWrite(const std::string& error) {
  // Also what a script's write on a replica answers ("READONLY ... script: ...").
  // OOM (maxmemory reached) and BUSY (another script still running) pass too:
  // the same command may succeed a moment later, unlike a script's own error.
  for (const char* code : {"READONLY ", "MASTERDOWN ", "LOADING ", "MISCONF ", "NOREPLICAS ", "OOM ", "BUSY "})
    if (error.starts_with(code)) return true;
  return false;
}

RedisPool::RedisPool(std::string address, int size, int timeout_ms, RedisCredentials credentials,
                     services::ProcessMetrics* metrics)
    : address_(std::move(address)),
      timeout_ms_(timeout_ms),
      credentials_(std::move(credentials)),
      free_slots_(size),
      metrics_(metrics) {}

void RedisPool::With(const std::function<void(RedisConnection&)>& fn) {
  std::unique_ptr<RedisConnection> connection;
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !idle_.empty() || free_slots_ > 0; });
    if (!idle_.empty()) {
      connection = std::move(idle_.back());
      idle_.pop_back();
    } else {
      --free_slots_;
    }
  }
  // Gives the slot back whatever happens; a broken connection is not kept.
  struct Return {
    RedisPool* pool;
    std::unique_ptr<RedisConnection>* connection;
    ~Return() {
      std::lock_guard lock(pool->mutex_);
      if (*connection && !(*connection)->broken() && (*connection)->address() == pool->server_) {
        pool->idle_.push_back(std::move(*connection));
      } else {
        ++pool->free_slots_;
      }
      pool->cv_.notify_one();
    }
  } give_back{this, &connection};
  try {
    if (!connection) {
      connection = ConnectRedis(address_, timeout_ms_);
      if (!credentials_.password.empty()) {
        RedisCommand auth = {"AUTH", credentials_.user, credentials_.password};
        if (credentials_.user.empty()) auth.erase(auth.begin() + 1);
        const RedisReply reply = connection->Run(auth);
        if (reply.is_error()) {
          connection.reset();  // not logged in: never handed out
          throw RedisUnavailable("redis AUTH as '" + (credentials_.user.empty() ? "default" : credentials_.user) +
                                 "' refused: " + reply.str);
        }
      }
      std::lock_guard lock(mutex_);
      if (connection->address() != server_) {
        // A new primary: the idle connections to the old one go now, the busy ones
        // when they come back (Return above).
        free_slots_ += int(idle_.size());
        idle_.clear();
        server_ = connection->address();
        cv_.notify_all();
      }
    }
    fn(*connection);
  } catch (const RedisUnavailable& e) {
    if (metrics_) metrics_->RedisError("connection");
    // A server that cannot take writes now is RedisUnavailable too; only a
    // broken (or never made) connection means Redis itself is out of reach.
    if (!connection || connection->broken()) availability_.Failed(e.what());
    throw;
  }
  availability_.Worked();
}

}  // namespace metropolis::storage
