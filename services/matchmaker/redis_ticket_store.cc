#include "services/matchmaker/redis_ticket_store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "lib/common/negative_control.h"
#include "lib/common/secret.h"
#include "lib/storage/redis_status.h"

namespace metropolis::matchmaker {
namespace {

using storage::RedisReply;

// The name a failed call's status gives the store ("ticket store unavailable: ...").
constexpr char kWhat[] = "ticket store";

// Finished tickets are kept this long for the streams that still read them.
constexpr char kFinishedTtlSeconds[] = "3600";
// An assigned ticket whose seat no stream has delivered is resumed by its
// identity's next Enqueue for this long.
constexpr char kUndeliveredTtlSeconds[] = "120";

// Every time a script writes or compares is Redis's own (TIME), so that replicas
// whose clocks disagree still agree on which tickets and hosts are alive and which
// claims are stuck: a replica 30 s ahead would otherwise expire live tickets and
// release tables another replica is still placing. `clock(arg)` is that time, or
// the caller's `arg` when the store runs on the caller's clock (tests with
// synthetic times; the negative control "one_clock").
constexpr char kRedisNow[] = R"lua(
local function redis_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function clock(arg)
  if arg ~= nil and arg ~= '' then return tonumber(arg) end
  return redis_now()
end
)lua";

// KEYS: who, ticket, queue. ARGV: id, identity, name, rating, now, ladder.
constexpr char kCreate[] = R"lua(
local current = redis.call('GET', KEYS[1])
if current then
  local state = redis.call('HGET', current, 'state')
  if state == 'queued' or state == 'matched' or state == 'assigned' then return {0, current} end
end
local now = clock(ARGV[5])
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'identity', ARGV[2], 'name', ARGV[3], 'rating', ARGV[4],
           'enqueued', now, 'seen', now, 'state', 'queued', 'ladder', ARGV[6], 'beat', redis_now())
redis.call('ZADD', KEYS[3], now, ARGV[1])
redis.call('SET', KEYS[1], KEYS[2])
return {1, KEYS[2]}
)lua";

// A ticket's heartbeat (when queued) and its fields, for Poll:
// false when there is no such ticket.
constexpr char kPollOne[] = R"lua(
local function poll_one(key, queue, now, beat)
  local state = redis.call('HGET', key, 'state')
  if not state then return false end
  local position, size = -1, 0
  if state == 'queued' then
    redis.call('HSET', key, 'seen', now, 'beat', beat)
    position = redis.call('ZRANK', queue, redis.call('HGET', key, 'id')) or -1
    size = redis.call('ZCARD', queue)
  end
  local f = redis.call('HMGET', key, 'id', 'ladder', 'state', 'name', 'identity', 'rating', 'enqueued', 'seen',
                       'game', 'host', 'token', 'seat', 'commitment')
  for i = 1, #f do if not f[i] then f[i] = '' end end
  f[#f + 1] = tostring(position)
  f[#f + 1] = tostring(size)
  return f
end
)lua";

// KEYS: ticket, queue. ARGV: now. Heartbeat and read.
constexpr char kPoll[] = R"lua(
return poll_one(KEYS[1], KEYS[2], clock(ARGV[1]), redis_now())
)lua";

// KEYS: tickets. ARGV: now, queue key prefix. Poll for each, in fewer calls
// than poll_one makes (it runs for every waiting stream twice a second): one
// HMGET of every field, and for a queued ticket its heartbeat and place, each
// queue's size read once.
constexpr char kPollMany[] = R"lua(
local now, beat, out, sizes = clock(ARGV[1]), redis_now(), {}, {}
for i = 1, #KEYS do
  local f = redis.call('HMGET', KEYS[i], 'id', 'ladder', 'state', 'name', 'identity', 'rating', 'enqueued', 'seen',
                       'game', 'host', 'token', 'seat', 'commitment')
  if not f[3] or not f[2] then
    out[i] = false
  else
    local position, size = -1, 0
    if f[3] == 'queued' then
      redis.call('HSET', KEYS[i], 'seen', now, 'beat', beat)
      f[8] = tostring(now)
      local queue = ARGV[2] .. f[2]
      position = redis.call('ZRANK', queue, f[1]) or -1
      size = sizes[queue]
      if not size then
        size = redis.call('ZCARD', queue)
        sizes[queue] = size
      end
    end
    for j = 1, 13 do if not f[j] then f[j] = '' end end
    f[14] = tostring(position)
    f[15] = tostring(size)
    out[i] = f
  end
end
return out
)lua";

// PollMany's tickets a script: a few milliseconds of Redis's time at most.
constexpr size_t kPollBatch = 256;

// KEYS: ticket, queue, who. Leaves the queue if queued ('ok'); else returns the state.
constexpr char kCancel[] = R"lua(
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return 'missing' end
if state ~= 'queued' then return state end
redis.call('ZREM', KEYS[2], redis.call('HGET', KEYS[1], 'id'))
redis.call('HSET', KEYS[1], 'state', 'cancelled')
redis.call('EXPIRE', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[3]) == KEYS[1] then redis.call('DEL', KEYS[3]) end
return 'ok'
)lua";

// KEYS: queue. ARGV: now, ticket key prefix, who key prefix, ttl, max age (ms).
constexpr char kExpire[] = R"lua(
local expired = 0
local cutoff = clock(ARGV[1]) - tonumber(ARGV[5])
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local key = ARGV[2] .. id
  local seen = tonumber(redis.call('HGET', key, 'seen') or '0')
  if seen < cutoff then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HSET', key, 'state', 'expired')
    redis.call('EXPIRE', key, ARGV[4])
    local who = ARGV[3] .. (redis.call('HGET', key, 'identity') or '')
    if redis.call('GET', who) == key then redis.call('DEL', who) end
    expired = expired + 1
  end
end
return expired
)lua";

// KEYS: queue, matched, ticket keys... ARGV: table id, now, fresh_ms, ids...
// 0 when a ticket is no longer queued; -1 when one has had no heartbeat for
// fresh_ms (by Redis's clock): its client is not waiting on it. That is what a
// ticket looks like that a lost write put back in the queue (a failover to a
// replica that missed its claim): its player is seated elsewhere already.
constexpr char kClaim[] = R"lua(
local fresh, now = tonumber(ARGV[3]), redis_now()
for i = 3, #KEYS do
  local f = redis.call('HMGET', KEYS[i], 'state', 'beat')
  if f[1] ~= 'queued' then return 0 end
  if fresh > 0 and now - tonumber(f[2] or '0') > fresh then return -1 end
end
local since = clock(ARGV[2])
for i = 3, #KEYS do
  redis.call('ZREM', KEYS[1], ARGV[i + 1])
  redis.call('HSET', KEYS[i], 'state', 'matched', 'table', ARGV[1])
  redis.call('ZADD', KEYS[2], since, ARGV[i + 1])
end
return 1
)lua";

// KEYS: matched, then each ticket's key and its identity's, then the stream of
// assignments (AwaitAssigned reads it: the waiting streams hear their seats at
// once instead of at their next poll). ARGV: ttl, the
// identity's resume ttl, the table, then each ticket's game, host, token, seat
// and the game's chance commitment.
// A ticket no longer matched for this table is skipped: its claim lapsed and it
// was released (and perhaps claimed for another table) meanwhile. The table, ''
// when the claim is not checked (the negative control "claimed_table"). The
// identity keeps the ticket until Delivered.
constexpr char kAssign[] = R"lua(
local assigned = 0
for i = 2, #KEYS - 1, 2 do
  local key, who, a = KEYS[i], KEYS[i + 1], 4 + (i - 2) / 2 * 5
  local f = redis.call('HMGET', key, 'state', 'table')
  if f[1] == 'matched' and (ARGV[3] == '' or f[2] == ARGV[3]) then
    redis.call('HSET', key, 'state', 'assigned', 'game', ARGV[a], 'host', ARGV[a + 1], 'token', ARGV[a + 2],
               'seat', ARGV[a + 3], 'commitment', ARGV[a + 4])
    redis.call('ZREM', KEYS[1], redis.call('HGET', key, 'id'))
    redis.call('EXPIRE', key, ARGV[1])
    if redis.call('GET', who) == key then redis.call('EXPIRE', who, ARGV[2]) end
    redis.call('XADD', KEYS[#KEYS], 'MAXLEN', '~', '10000', '*', 't', redis.call('HGET', key, 'id'))
    assigned = assigned + 1
  end
end
return assigned
)lua";

// KEYS: queue, matched. ARGV: ticket key prefix, table ('' for any), ids... A
// ticket claimed since for another table stays with it.
constexpr char kRelease[] = R"lua(
local released = 0
for i = 3, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  local f = redis.call('HMGET', key, 'state', 'table')
  if f[1] == 'matched' and (ARGV[2] == '' or f[2] == ARGV[2]) then
    redis.call('HSET', key, 'state', 'queued')
    redis.call('HDEL', key, 'table')
    redis.call('ZADD', KEYS[1], redis.call('HGET', key, 'enqueued'), ARGV[i])
    redis.call('ZREM', KEYS[2], ARGV[i])
    released = released + 1
  elseif f[1] ~= 'matched' then
    redis.call('ZREM', KEYS[2], ARGV[i])
  end
end
return released
)lua";

// KEYS: queue, matched. ARGV: ticket key prefix, now, timeout (ms). Tickets
// claimed longer ago than the timeout and never assigned (their replica died
// while placing them) go back to the queue with their waiting time.
constexpr char kReleaseStuck[] = R"lua(
local released = 0
local stuck = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (clock(ARGV[2]) - tonumber(ARGV[3])))
for _, id in ipairs(stuck) do
  local key = ARGV[1] .. id
  if redis.call('HGET', key, 'state') == 'matched' then
    redis.call('HSET', key, 'state', 'queued')
    redis.call('HDEL', key, 'table')
    redis.call('ZADD', KEYS[1], redis.call('HGET', key, 'enqueued'), id)
    released = released + 1
  end
  redis.call('ZREM', KEYS[2], id)
end
return released
)lua";

// KEYS: hosts, the host's key. ARGV: address, capacity, live, now.
constexpr char kHostHeartbeat[] = R"lua(
redis.call('HSET', KEYS[2], 'capacity', ARGV[2], 'live', ARGV[3])
redis.call('ZADD', KEYS[1], clock(ARGV[4]), ARGV[1])
return 1
)lua";

// KEYS: hosts. ARGV: now, host key prefix, ttl (ms), places. The host with the
// most room among those heard from within the ttl, if it has room for `places`.
constexpr char kPickHost[] = R"lua(
local best, room = nil, tonumber(ARGV[4]) - 1
for _, address in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], clock(ARGV[1]) - tonumber(ARGV[3]), '+inf')) do
  local h = redis.call('HMGET', ARGV[2] .. address, 'capacity', 'live')
  local free = tonumber(h[1] or '0') - tonumber(h[2] or '0')
  if free > room then best, room = address, free end
end
if not best then return false end
redis.call('HINCRBY', ARGV[2] .. best, 'live', tonumber(ARGV[4]))
return best
)lua";

// KEYS: hosts. ARGV: now, host key prefix, silent (ms). Every host not heard
// from within `silent` leaves the list, its hash with it; their addresses.
constexpr char kForgetHosts[] = R"lua(
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (clock(ARGV[1]) - tonumber(ARGV[3])))
for _, address in ipairs(gone) do
  redis.call('ZREM', KEYS[1], address)
  redis.call('DEL', ARGV[2] .. address)
end
return gone
)lua";

// KEYS: replicas. ARGV: now, replica, ttl (ms). The live replicas.
constexpr char kReplicaHeartbeat[] = R"lua(
local now, ttl = clock(ARGV[1]), tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - 10 * ttl))
return redis.call('ZRANGEBYSCORE', KEYS[1], now - ttl, '+inf')
)lua";

const std::string kCreateScript = std::string(kRedisNow) + kCreate;
const std::string kPollScript = std::string(kRedisNow) + kPollOne + kPoll;
const std::string kPollManyScript = std::string(kRedisNow) + kPollMany;
const std::string kClaimScript = std::string(kRedisNow) + kClaim;
const std::string kExpireScript = std::string(kRedisNow) + kExpire;
const std::string kReleaseStuckScript = std::string(kRedisNow) + kReleaseStuck;
const std::string kHostHeartbeatScript = std::string(kRedisNow) + kHostHeartbeat;
const std::string kPickHostScript = std::string(kRedisNow) + kPickHost;
const std::string kForgetHostsScript = std::string(kRedisNow) + kForgetHosts;
const std::string kReplicaHeartbeatScript = std::string(kRedisNow) + kReplicaHeartbeat;

std::string Exact(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

int64_t ToInt(const std::string& s) { return s.empty() ? 0 : std::strtoll(s.c_str(), nullptr, 10); }

// What poll_one answered: false (nil) when there was no such ticket.
bool ParseTicket(const RedisReply& r, TicketInfo* out) {
  const auto& f = r.elements;
  if (f.size() != 15) return false;
  out->id = f[0].str;
  out->ladder = f[1].str;
  out->state = f[2].str;
  out->name = f[3].str;
  out->identity_id = ToInt(f[4].str);
  out->rating = std::strtod(f[5].str.c_str(), nullptr);
  out->enqueued_ms = ToInt(f[6].str);
  out->seen_ms = ToInt(f[7].str);
  out->game_id = f[8].str;
  out->host = f[9].str;
  out->seat_token = f[10].str;
  out->seat = f[11].str.empty() ? -1 : int(ToInt(f[11].str));
  out->chance_commitment = f[12].str;
  out->position = ToInt(f[13].str);
  out->queue_size = ToInt(f[14].str);
  return true;
}

}  // namespace

RedisTicketStore::RedisTicketStore(storage::RedisPool* redis, std::string prefix, TicketClock clock)
    : redis_(redis),
      prefix_(std::move(prefix)),
      clock_(services::ProtectionRemoved("one_clock") ? TicketClock::kCaller : clock),
      check_table_(!services::ProtectionRemoved("claimed_table")) {}

std::string RedisTicketStore::NowArg(int64_t now_ms) const {
  return clock_ == TicketClock::kRedis ? std::string() : std::to_string(now_ms);
}

grpc::Status RedisTicketStore::Now(int64_t* now_ms) {
  const auto steady = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  if (clock_ == TicketClock::kCaller) {
    *now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
    return grpc::Status::OK;
  }
  // Redis's clock as an offset from this process's monotonic one, measured
  // again every second: the scripts read TIME themselves, this is for the
  // comparisons made here (waiting times, hosts' ages), which a few ms do not
  // change, at one TIME call a second instead of one per heartbeat.
  {
    std::lock_guard lock(clock_mutex_);
    if (offset_measured_ms_ != INT64_MIN && steady() - offset_measured_ms_ < 1000) {
      *now_ms = steady() + offset_ms_;
      return grpc::Status::OK;
    }
  }
  return storage::RunRedis(kWhat, [&] {
    const int64_t before = steady();
    RedisReply t;
    redis_->With([&](storage::RedisConnection& c) { t = c.Run({"TIME"}); });
    const int64_t after = steady();
    if (t.elements.size() != 2) throw storage::RedisUnavailable("matchmaker: TIME returned no time: " + t.str);
    const int64_t redis_ms = ToInt(t.elements[0].str) * 1000 + ToInt(t.elements[1].str) / 1000;
    std::lock_guard lock(clock_mutex_);
    offset_ms_ = redis_ms - (before + after) / 2;
    offset_measured_ms_ = after;
    *now_ms = after + offset_ms_;
  });
}

// One hash tag for all the matchmaker's keys: its scripts touch tickets, queues
// and identities together, which Redis Cluster allows only within one slot.
std::string RedisTicketStore::Key(const std::string& suffix) const { return prefix_ + ":{mm}:" + suffix; }

RedisReply RedisTicketStore::Eval(storage::RedisCommand command) {
  RedisReply reply;
  redis_->With([&](storage::RedisConnection& c) { reply = c.Run(command); });
  if (reply.is_error()) throw storage::RedisCommandError("matchmaker script failed: " + reply.str);
  return reply;
}

grpc::Status RedisTicketStore::Create(const std::string& ladder, int64_t identity_id, const std::string& name,
                                      double rating, int64_t now_ms, std::string* id, std::string* existing,
                                      bool* created) {
  *created = false;
  *id = services::RandomSecretHex(8);
  return storage::RunRedis(kWhat, [&] {
    const RedisReply r = Eval({"EVAL", kCreateScript, "3", WhoKey(identity_id), TicketKey(*id), QueueKey(ladder), *id,
                               std::to_string(identity_id), name, Exact(rating), NowArg(now_ms), ladder});
    if (r.elements.size() == 2 && r.elements[0].integer == 1) {
      *created = true;
      return;
    }
    const std::string key = r.elements.size() == 2 ? r.elements[1].str : "";
    *existing = key.substr(key.rfind(':') + 1);
  });
}

grpc::Status RedisTicketStore::Poll(const std::string& id, int64_t now_ms, TicketInfo* out, bool* found) {
  *found = false;
  return storage::RunRedis(kWhat, [&] {
    // The ladder is needed for the queue's key: read it first (it never changes).
    RedisReply ladder;
    redis_->With([&](storage::RedisConnection& c) { ladder = c.Run({"HGET", TicketKey(id), "ladder"}); });
    if (ladder.is_nil()) return;
    const RedisReply r = Eval({"EVAL", kPollScript, "2", TicketKey(id), QueueKey(ladder.str), NowArg(now_ms)});
    *found = ParseTicket(r, out);
  });
}

grpc::Status RedisTicketStore::PollMany(const std::vector<std::string>& ids, int64_t now_ms,
                                        std::vector<TicketInfo>* out) {
  out->assign(ids.size(), TicketInfo{});
  if (ids.empty()) return grpc::Status::OK;
  std::vector<storage::RedisCommand> scripts;
  for (size_t first = 0; first < ids.size(); first += kPollBatch) {
    const size_t n = std::min(kPollBatch, ids.size() - first);
    storage::RedisCommand command = {"EVAL", kPollManyScript, std::to_string(n)};
    for (size_t i = first; i < first + n; ++i) command.push_back(TicketKey(ids[i]));
    command.push_back(NowArg(now_ms));
    command.push_back(Key("queue:"));
    scripts.push_back(std::move(command));
  }
  return storage::RunRedis(kWhat, [&] {
    std::vector<RedisReply> replies;
    redis_->With([&](storage::RedisConnection& c) { replies = c.Pipeline(scripts); });
    size_t i = 0;
    for (size_t b = 0; b < replies.size(); ++b) {
      const RedisReply& r = replies[b];
      if (r.is_error()) throw storage::RedisCommandError("matchmaker script failed: " + r.str);
      const size_t n = std::min(kPollBatch, ids.size() - b * kPollBatch);
      if (r.elements.size() != n)
        throw storage::RedisCommandError("matchmaker script answered " + std::to_string(r.elements.size()) +
                                         " tickets for " + std::to_string(n));
      for (const RedisReply& ticket : r.elements) {
        if (!ParseTicket(ticket, &(*out)[i])) (*out)[i] = TicketInfo{};
        ++i;
      }
    }
  });
}

grpc::Status RedisTicketStore::AwaitAssigned(int64_t wait_ms, std::string* cursor, std::vector<std::string>* ids) {
  ids->clear();
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) {
      if (cursor->empty()) {
        // From now on: the newest entry's id ("$" in each XREAD would miss what
        // was added between two of them).
        const RedisReply last = c.Run({"XREVRANGE", Key("assigned"), "+", "-", "COUNT", "1"});
        *cursor = last.elements.empty() || last.elements[0].elements.empty() ? "0-0" : last.elements[0].elements[0].str;
      }
      const RedisReply r =
          c.Run({"XREAD", "COUNT", "4096", "BLOCK", std::to_string(std::clamp<int64_t>(wait_ms, 1, 1000)), "STREAMS",
                 Key("assigned"), *cursor});
      if (r.is_error()) throw storage::RedisCommandError("reading the assignments failed: " + r.str);
      // [[stream, [[id, [field, value, ...]], ...]]]; nil when none came.
      for (const RedisReply& stream : r.elements) {
        if (stream.elements.size() != 2) continue;
        for (const RedisReply& entry : stream.elements[1].elements) {
          if (entry.elements.size() != 2) continue;
          *cursor = entry.elements[0].str;
          const auto& fields = entry.elements[1].elements;
          for (size_t f = 0; f + 1 < fields.size(); f += 2) ids->push_back(fields[f + 1].str);
        }
      }
    });
  });
}

grpc::Status RedisTicketStore::Cancel(const std::string& id, std::string* state, bool* cancelled) {
  *cancelled = false;
  return storage::RunRedis(kWhat, [&] {
    RedisReply ladder, who;
    redis_->With([&](storage::RedisConnection& c) {
      auto replies = c.Pipeline({{"HGET", TicketKey(id), "ladder"}, {"HGET", TicketKey(id), "identity"}});
      ladder = replies[0];
      who = replies[1];
    });
    if (ladder.is_nil()) {
      *state = "missing";
      return;
    }
    const RedisReply r =
        Eval({"EVAL", kCancel, "3", TicketKey(id), QueueKey(ladder.str), WhoKey(ToInt(who.str)), kFinishedTtlSeconds});
    *state = r.str == "ok" ? "cancelled" : r.str;
    *cancelled = r.str == "ok";
  });
}

grpc::Status RedisTicketStore::ActiveTicket(int64_t identity_id, std::string* id) {
  id->clear();
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) {
      const RedisReply key = c.Run({"GET", WhoKey(identity_id)});
      if (key.is_nil()) return;
      const RedisReply state = c.Run({"HGET", key.str, "state"});
      if (state.str == "queued" || state.str == "matched") *id = key.str.substr(key.str.rfind(':') + 1);
    });
  });
}

grpc::Status RedisTicketStore::Queue(const std::string& ladder, std::vector<Ticket>* out) {
  out->clear();
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) {
      const RedisReply ids = c.Run({"ZRANGE", QueueKey(ladder), "0", "-1"});
      const size_t n = ids.elements.size();
      out->resize(n);
      std::vector<bool> known(n, false);
      uint64_t pass = 0;
      {
        // A ticket's identity, rating, waiting time and name never change: only
        // the tickets not read before are read.
        std::lock_guard lock(queue_cache_mutex_);
        QueueCache& cache = queue_cache_[ladder];
        pass = ++cache.pass;
        for (size_t i = 0; i < n; ++i) {
          if (auto it = cache.tickets.find(ids.elements[i].str); it != cache.tickets.end()) {
            it->second.pass = pass;
            (*out)[i] = it->second.ticket;
            known[i] = true;
          }
        }
      }
      std::vector<storage::RedisCommand> reads;
      std::vector<size_t> read_index;
      for (size_t i = 0; i < n; ++i) {
        if (known[i]) continue;
        reads.push_back({"HMGET", TicketKey(ids.elements[i].str), "identity", "rating", "enqueued", "name"});
        read_index.push_back(i);
      }
      const auto replies = reads.empty() ? std::vector<RedisReply>{} : c.Pipeline(reads);
      for (size_t r = 0; r < replies.size(); ++r) {
        const auto& f = replies[r].elements;
        if (f.size() != 4 || f[0].is_nil()) continue;  // gone meanwhile
        const size_t i = read_index[r];
        (*out)[i] = {ids.elements[i].str, ToInt(f[0].str), std::strtod(f[1].str.c_str(), nullptr), ToInt(f[2].str),
                     f[3].str};
        known[i] = true;
      }
      {
        // The cache keeps the queue's tickets only.
        std::lock_guard lock(queue_cache_mutex_);
        QueueCache& cache = queue_cache_[ladder];
        for (size_t i : read_index)
          if (known[i]) cache.tickets[(*out)[i].id] = {(*out)[i], pass};
        std::erase_if(cache.tickets, [&](const auto& entry) { return entry.second.pass != pass; });
      }
      // In the queue's order (by waiting time), without the tickets gone meanwhile.
      size_t kept = 0;
      for (size_t i = 0; i < n; ++i) {
        if (!known[i]) continue;
        if (kept != i) (*out)[kept] = std::move((*out)[i]);
        ++kept;
      }
      out->resize(kept);
    });
  });
}

grpc::Status RedisTicketStore::QueueSize(const std::string& ladder, int64_t* size) {
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) { *size = c.Run({"ZCARD", QueueKey(ladder)}).integer; });
  });
}

grpc::Status RedisTicketStore::ExpireStale(const std::string& ladder, int64_t now_ms, int64_t max_age_ms,
                                           int* expired) {
  return storage::RunRedis(kWhat, [&] {
    *expired = int(Eval({"EVAL", kExpireScript, "1", QueueKey(ladder), NowArg(now_ms), Key("t:"), Key("who:"),
                         kFinishedTtlSeconds, std::to_string(max_age_ms)})
                       .integer);
  });
}

grpc::Status RedisTicketStore::Claim(const std::string& ladder, const Table& table, const std::string& table_id,
                                     int64_t now_ms, int64_t fresh_ms, bool* claimed, bool* stale) {
  *claimed = false;
  if (stale) *stale = false;
  storage::RedisCommand command = {"EVAL", kClaimScript, std::to_string(2 + table.tickets.size()), QueueKey(ladder),
                                   MatchedKey(ladder)};
  for (const std::string& id : table.tickets) command.push_back(TicketKey(id));
  command.push_back(table_id);
  command.push_back(NowArg(now_ms));
  command.push_back(std::to_string(fresh_ms));
  for (const std::string& id : table.tickets) command.push_back(id);
  return storage::RunRedis(kWhat, [&] {
    const int64_t r = Eval(std::move(command)).integer;
    if (stale) *stale = r == -1;
    *claimed = r == 1;
  });
}

grpc::Status RedisTicketStore::Assign(const std::string& ladder, const std::string& table_id,
                                      const std::vector<Seating>& seats, int* assigned) {
  *assigned = 0;
  if (seats.empty()) return grpc::Status::OK;
  storage::RedisCommand command = {"EVAL", kAssign, std::to_string(2 + 2 * seats.size()), MatchedKey(ladder)};
  for (const Seating& s : seats) {
    command.push_back(TicketKey(s.ticket));
    command.push_back(WhoKey(s.identity_id));
  }
  command.push_back(Key("assigned"));
  command.push_back(kFinishedTtlSeconds);
  command.push_back(kUndeliveredTtlSeconds);
  command.push_back(check_table_ ? table_id : std::string());
  for (const Seating& s : seats) {
    command.push_back(s.assignment.game_id);
    command.push_back(s.assignment.host);
    command.push_back(s.assignment.seat_token);
    command.push_back(std::to_string(s.assignment.seat));
    command.push_back(s.assignment.chance_commitment);
  }
  return storage::RunRedis(kWhat, [&] { *assigned = int(Eval(std::move(command)).integer); });
}

// KEYS: who, ticket.
constexpr char kDelivered[] = R"lua(
if redis.call('GET', KEYS[1]) == KEYS[2] then redis.call('DEL', KEYS[1]) end
return 1
)lua";

grpc::Status RedisTicketStore::Delivered(const std::string& id, int64_t identity_id) {
  return storage::RunRedis(kWhat, [&] { Eval({"EVAL", kDelivered, "2", WhoKey(identity_id), TicketKey(id)}); });
}

// KEYS: who, ticket. ARGV: game, ttl.
constexpr char kSpend[] = R"lua(
if redis.call('HGET', KEYS[2], 'state') ~= 'assigned' or redis.call('HGET', KEYS[2], 'game') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[2], 'state', 'spent')
redis.call('EXPIRE', KEYS[2], ARGV[2])
if redis.call('GET', KEYS[1]) == KEYS[2] then redis.call('DEL', KEYS[1]) end
return 1
)lua";

grpc::Status RedisTicketStore::Spend(const std::string& id, int64_t identity_id, const std::string& game_id,
                                     bool* spent) {
  *spent = false;
  return storage::RunRedis(kWhat, [&] {
    *spent = Eval({"EVAL", kSpend, "2", WhoKey(identity_id), TicketKey(id), game_id, kFinishedTtlSeconds}).integer == 1;
  });
}

grpc::Status RedisTicketStore::Release(const std::string& ladder, const std::string& table_id,
                                       const std::vector<std::string>& tickets, int* released) {
  *released = 0;
  if (tickets.empty()) return grpc::Status::OK;
  storage::RedisCommand command = {
      "EVAL", kRelease, "2", QueueKey(ladder), MatchedKey(ladder), Key("t:"), check_table_ ? table_id : std::string()};
  for (const std::string& id : tickets) command.push_back(id);
  return storage::RunRedis(kWhat, [&] { *released = int(Eval(std::move(command)).integer); });
}

grpc::Status RedisTicketStore::ReleaseStuck(const std::string& ladder, int64_t now_ms, int64_t timeout_ms,
                                            int* released) {
  return storage::RunRedis(kWhat, [&] {
    *released = int(Eval({"EVAL", kReleaseStuckScript, "2", QueueKey(ladder), MatchedKey(ladder), Key("t:"),
                          NowArg(now_ms), std::to_string(timeout_ms)})
                        .integer);
  });
}

grpc::Status RedisTicketStore::HostHeartbeat(const HostInfo& host) {
  return storage::RunRedis(kWhat, [&] {
    Eval({"EVAL", kHostHeartbeatScript, "2", Key("hosts"), Key("host:" + host.address), host.address,
          std::to_string(host.capacity), std::to_string(host.live), NowArg(host.seen_ms)});
  });
}

grpc::Status RedisTicketStore::PickHost(int64_t now_ms, int64_t ttl_ms, int places, std::string* address,
                                        bool* picked) {
  *picked = false;
  return storage::RunRedis(kWhat, [&] {
    const RedisReply r = Eval({"EVAL", kPickHostScript, "1", Key("hosts"), NowArg(now_ms), Key("host:"),
                               std::to_string(ttl_ms), std::to_string(std::max(places, 1))});
    if (r.is_nil()) return;
    *address = r.str;
    *picked = true;
  });
}

grpc::Status RedisTicketStore::MarkHostDown(const std::string& address) {
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) { c.Run({"ZREM", Key("hosts"), address}); });
  });
}

grpc::Status RedisTicketStore::ForgetHosts(int64_t now_ms, int64_t silent_ms, std::vector<std::string>* forgotten) {
  forgotten->clear();
  return storage::RunRedis(kWhat, [&] {
    const RedisReply r =
        Eval({"EVAL", kForgetHostsScript, "1", Key("hosts"), NowArg(now_ms), Key("host:"), std::to_string(silent_ms)});
    for (const RedisReply& e : r.elements) forgotten->push_back(e.str);
  });
}

grpc::Status RedisTicketStore::Hosts(std::vector<HostInfo>* out) {
  out->clear();
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) {
      const RedisReply hosts = c.Run({"ZRANGE", Key("hosts"), "0", "-1", "WITHSCORES"});
      for (size_t i = 0; i + 1 < hosts.elements.size(); i += 2) {
        HostInfo h;
        h.address = hosts.elements[i].str;
        h.seen_ms = ToInt(hosts.elements[i + 1].str);
        const RedisReply f = c.Run({"HMGET", Key("host:" + h.address), "capacity", "live"});
        if (f.elements.size() == 2) {
          h.capacity = ToInt(f.elements[0].str);
          h.live = ToInt(f.elements[1].str);
        }
        out->push_back(h);
      }
    });
  });
}

grpc::Status RedisTicketStore::ReplicaHeartbeat(const std::string& replica, int64_t now_ms, int64_t ttl_ms,
                                                std::vector<std::string>* live) {
  live->clear();
  return storage::RunRedis(kWhat, [&] {
    const RedisReply r =
        Eval({"EVAL", kReplicaHeartbeatScript, "1", Key("replicas"), NowArg(now_ms), replica, std::to_string(ttl_ms)});
    for (const RedisReply& e : r.elements) live->push_back(e.str);
    std::sort(live->begin(), live->end());
  });
}

grpc::Status RedisTicketStore::ReplicaLeave(const std::string& replica) {
  return storage::RunRedis(kWhat, [&] {
    redis_->With([&](storage::RedisConnection& c) { c.Run({"ZREM", Key("replicas"), replica}); });
  });
}

}  // namespace metropolis::matchmaker
