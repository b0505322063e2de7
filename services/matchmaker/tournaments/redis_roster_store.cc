#include "services/matchmaker/tournaments/redis_roster_store.h"

#include <algorithm>
#include <cstdlib>

#include "lib/storage/redis_status.h"

namespace metropolis::matchmaker {
namespace {

using storage::RedisReply;

// A function the scripts below start with: moves what is left in a connection's
// inbox ahead of its identity's, in order, when the connection goes.
constexpr const char* kHandOn = R"lua(
local function hand_on(from, to, ttl)
  local moved = false
  while redis.call('LMOVE', from, to, 'RIGHT', 'LEFT') do moved = true end
  if moved then redis.call('EXPIRE', to, ttl) end
end
)lua";

// KEYS: available zset, capacity hash. ARGV: now, the inboxes' key prefix, inbox
// ttl. Drops lapsed connections, handing their inboxes on (keys built here: the
// lapsed are known only here, and share the hash tag), and returns the rest with
// their capacities, flat.
constexpr const char* kSweep = R"lua(
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
for _, member in ipairs(lapsed) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('HDEL', KEYS[2], member)
  hand_on(ARGV[2] .. member, ARGV[2] .. string.match(member, '^[^:]*'), ARGV[3])
end
local out = {}
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  out[#out + 1] = member
  out[#out + 1] = redis.call('HGET', KEYS[2], member) or '0'
end
return out
)lua";

// KEYS: available zset, capacity hash, the connection's inbox, the identity's.
// ARGV: member, inbox ttl.
constexpr const char* kLeave = R"lua(
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
hand_on(KEYS[3], KEYS[4], ARGV[2])
)lua";

// KEYS: available zset, the connection's inbox, the identity's. ARGV: member,
// assignment, inbox ttl. Checked and appended at once, so a Leave or a sweep
// cannot come between and strand the game.
constexpr const char* kSendTo = R"lua(
local inbox = KEYS[3]
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then inbox = KEYS[2] end
redis.call('RPUSH', inbox, ARGV[2])
redis.call('EXPIRE', inbox, ARGV[3])
)lua";

// KEYS: the connection's inbox, the identity's.
constexpr const char* kReceive = R"lua(
local message = redis.call('LPOP', KEYS[1])
if message then return message end
return redis.call('LPOP', KEYS[2])
)lua";

const std::string kSweepScript = std::string(kHandOn) + kSweep;
const std::string kLeaveScript = std::string(kHandOn) + kLeave;

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

RedisReply RedisRosterStore::Eval(const storage::RedisCommand& command) {
  RedisReply r;
  redis_->With([&](storage::RedisConnection& c) { r = c.Run(command); });
  if (r.is_error()) throw storage::RedisCommandError("roster script failed: " + r.str);
  return r;
}

grpc::Status RedisRosterStore::Leave(int64_t identity, const std::string& connection) {
  const std::string member = std::to_string(identity) + ":" + connection;
  return storage::RunRedis("roster", [&] {
    Eval({"EVAL", kLeaveScript, "4", Key("available"), Key("capacity"), Inbox(identity, connection), Inbox(identity),
          member, kInboxTtlSeconds});
  });
}

grpc::Status RedisRosterStore::Connections(int64_t now_ms,
                                           std::unordered_map<int64_t, std::vector<RosterConnection>>* out) {
  RedisReply r;
  if (grpc::Status s = storage::RunRedis("roster",
                                         [&] {
                                           r = Eval({"EVAL", kSweepScript, "2", Key("available"), Key("capacity"),
                                                     std::to_string(now_ms), Key("inbox:"), kInboxTtlSeconds});
                                         });
      !s.ok())
    return s;
  out->clear();
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    const std::string& member = r.elements[i].str;
    const size_t colon = member.find(':');
    if (colon == std::string::npos) continue;
    const int64_t identity = std::strtoll(member.c_str(), nullptr, 10);
    (*out)[identity].push_back({member.substr(colon + 1), std::atoi(r.elements[i + 1].str.c_str())});
  }
  for (auto& [identity, connections] : *out)
    std::sort(connections.begin(), connections.end(),
              [](const RosterConnection& a, const RosterConnection& b) { return a.connection < b.connection; });
  return grpc::Status::OK;
}

grpc::Status RedisRosterStore::Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) {
  std::unordered_map<int64_t, std::vector<RosterConnection>> connections;
  if (grpc::Status s = Connections(now_ms, &connections); !s.ok()) return s;
  out->clear();
  for (const auto& [identity, list] : connections)
    for (const RosterConnection& c : list) (*out)[identity] += c.capacity;
  return grpc::Status::OK;
}

grpc::Status RedisRosterStore::Send(int64_t identity, const std::string& assignment) {
  const std::string key = Inbox(identity);
  return storage::RunRedis("roster", [&] {
    redis_->With([&](storage::RedisConnection& c) {
      c.Pipeline({{"RPUSH", key, assignment}, {"EXPIRE", key, kInboxTtlSeconds}});
    });
  });
}

grpc::Status RedisRosterStore::SendTo(int64_t identity, const std::string& connection, const std::string& assignment) {
  return storage::RunRedis("roster", [&] {
    Eval({"EVAL", kSendTo, "3", Key("available"), Inbox(identity, connection), Inbox(identity),
          std::to_string(identity) + ":" + connection, assignment, kInboxTtlSeconds});
  });
}

grpc::Status RedisRosterStore::Receive(int64_t identity, const std::string& connection, std::string* assignment,
                                       bool* found) {
  RedisReply r;
  *found = false;
  if (grpc::Status s =
          storage::RunRedis("roster",
                            [&] {
                              redis_->With([&](storage::RedisConnection& c) {
                                r = c.Run({"EVAL", kReceive, "2", Inbox(identity, connection), Inbox(identity)});
                              });
                            });
      !s.ok())
    return s;
  // An error reply (a key of another type) reads as empty inboxes, as it
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
