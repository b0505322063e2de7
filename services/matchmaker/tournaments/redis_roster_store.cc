#include "services/matchmaker/tournaments/redis_roster_store.h"

#include <cstdlib>

#include "lib/storage/redis_status.h"

namespace metropolis::matchmaker {
namespace {

using storage::RedisReply;

// KEYS: available zset, capacity hash. ARGV: now. Drops lapsed connections and
// returns the rest with their capacities, flat.
constexpr const char* kAvailable = R"lua(
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
for _, member in ipairs(lapsed) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('HDEL', KEYS[2], member)
end
local out = {}
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  out[#out + 1] = member
  out[#out + 1] = redis.call('HGET', KEYS[2], member) or '0'
end
return out
)lua";

// KEYS: lease. ARGV: replica, ttl ms.
constexpr const char* kLead = R"lua(
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
)lua";

// An inbox outlives a bot's absence for this long: a game sent to it is
// played by the host's fallback bot meanwhile, and forfeited if it never comes.
constexpr const char* kInboxTtlSeconds = "86400";

}  // namespace

RedisRosterStore::RedisRosterStore(storage::RedisPool* redis, std::string prefix)
    : redis_(redis), prefix_(std::move(prefix)) {}

grpc::Status RedisRosterStore::Heartbeat(int64_t identity, const std::string& connection, int capacity,
                                         int64_t until_ms) {
  const std::string member = std::to_string(identity) + ":" + connection;
  return storage::RunRedis("roster", [&] {
    redis_->With([&](storage::RedisConnection& c) {
      c.Pipeline({{"HSET", Key("capacity"), member, std::to_string(capacity)},
                  {"ZADD", Key("available"), std::to_string(until_ms), member}});
    });
  });
}

grpc::Status RedisRosterStore::Leave(int64_t identity, const std::string& connection) {
  const std::string member = std::to_string(identity) + ":" + connection;
  return storage::RunRedis("roster", [&] {
    redis_->With([&](storage::RedisConnection& c) {
      c.Pipeline({{"ZREM", Key("available"), member}, {"HDEL", Key("capacity"), member}});
    });
  });
}

grpc::Status RedisRosterStore::Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) {
  RedisReply r;
  if (grpc::Status s = storage::RunRedis(
          "roster",
          [&] {
            redis_->With([&](storage::RedisConnection& c) {
              r = c.Run({"EVAL", kAvailable, "2", Key("available"), Key("capacity"), std::to_string(now_ms)});
            });
            if (r.is_error()) throw storage::RedisCommandError("roster script failed: " + r.str);
          });
      !s.ok())
    return s;
  out->clear();
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    const int64_t identity = std::strtoll(r.elements[i].str.c_str(), nullptr, 10);
    (*out)[identity] += std::atoi(r.elements[i + 1].str.c_str());
  }
  return grpc::Status::OK;
}

grpc::Status RedisRosterStore::Send(int64_t identity, const std::string& assignment) {
  const std::string key = Key("inbox:" + std::to_string(identity));
  return storage::RunRedis("roster", [&] {
    redis_->With([&](storage::RedisConnection& c) {
      c.Pipeline({{"RPUSH", key, assignment}, {"EXPIRE", key, kInboxTtlSeconds}});
    });
  });
}

grpc::Status RedisRosterStore::Receive(int64_t identity, std::string* assignment, bool* found) {
  RedisReply r;
  *found = false;
  if (grpc::Status s = storage::RunRedis("roster",
                                         [&] {
                                           redis_->With([&](storage::RedisConnection& c) {
                                             r = c.Run({"LPOP", Key("inbox:" + std::to_string(identity))});
                                           });
                                         });
      !s.ok())
    return s;
  // An error reply (a key of another type) reads as an empty inbox, as it
  // always has: the stream goes on, and the next heartbeat says whether Redis does.
  if (r.is_nil() || r.is_error()) return grpc::Status::OK;
  *assignment = r.str;
  *found = true;
  return grpc::Status::OK;
}

grpc::Status RedisRosterStore::Lead(const std::string& replica, int64_t ttl_ms, bool* leading) {
  *leading = false;
  return storage::RunRedis("roster", [&] {
    RedisReply r;
    redis_->With([&](storage::RedisConnection& c) {
      r = c.Run({"EVAL", kLead, "1", Key("leader"), replica, std::to_string(ttl_ms)});
    });
    if (r.is_error()) throw storage::RedisCommandError("lease script failed: " + r.str);
    *leading = r.integer == 1;
  });
}

}  // namespace metropolis::matchmaker
