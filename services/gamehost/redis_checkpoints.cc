#include "services/gamehost/redis_checkpoints.h"

#include <algorithm>
#include <string>

#include "lib/common/log.h"
#include "lib/common/negative_control.h"
#include "lib/storage/redis_status.h"

namespace metropolis::gamehost {
namespace {

using storage::RedisReply;

// What the statuses of Redis's failures name (storage::RedisErrorStatus).
constexpr char kWhat[] = "checkpoint store";

// Redis's own account of how long it has served without a break (docs/GAMEHOST.md,
// "Leases on Redis's clock"), on its own clock: the clock hash keeps the last time a host
// reached it and since when it has been reached without a gap of half a lease or
// more. A gap is a restart (the hash comes back from the append-only file with the
// time before it), a stall, a clock that jumped, or every host cut off: a healthy
// owner, which renews every third of a lease, may have let its lease lapse in it,
// so it gets a whole lease of service to renew before anyone may take its games.
// A missing hash (a Redis that lost it) counts as a gap too.
constexpr char kServing[] = R"lua(
local function serving(clock, lease)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local c = redis.call('HMGET', clock, 'last', 'since')
  local last, since = tonumber(c[1]), tonumber(c[2])
  if (not last) or (not since) or now < last or now - last >= lease / 2 then since = now end
  redis.call('HSET', clock, 'last', string.format('%d', now), 'since', string.format('%d', since))
  return now - since
end
)lua";

// KEYS: owner fence setup live done seats clock. ARGV: host lease_ms setup id.
constexpr char kCreate[] = R"lua(
serving(KEYS[7], tonumber(ARGV[2]))
if redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[5]) == 1 then return -1 end
local f = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], f .. ' ' .. ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[3], ARGV[3])
redis.call('HSET', KEYS[6], 'lease', ARGV[2])
redis.call('SADD', KEYS[4], ARGV[4])
return f
)lua";

// KEYS: fence owner log seats setup done. ARGV: fence "fence host" lease_ms from started progress codes...
// Answers the log's new length; -2 when the token is not the game's; {-3, n}
// when the log holds fewer than `from` entries (Redis lost its last writes); -4
// when the game has no checkpoint at all and is not done (Redis lost its creation).
constexpr char kAppend[] = R"lua(
local f = redis.call('GET', KEYS[1])
if (not f) and redis.call('EXISTS', KEYS[5]) == 0 and redis.call('EXISTS', KEYS[6]) == 0 then return -4 end
if (not f) or f ~= ARGV[1] then return -2 end
local n = redis.call('LLEN', KEYS[3])
local from = tonumber(ARGV[4])
if n < from then return {-3, n} end
for i = 7 + (n - from), #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
redis.call('HSET', KEYS[4], 'started', ARGV[5], 'progress', ARGV[6])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return redis.call('LLEN', KEYS[3])
)lua";

// KEYS: fence owner setup log seats done live. ARGV: fence "fence host" lease_ms setup id started progress codes...
// Writes the whole checkpoint again under the token the host holds, only while the
// game has none (no token, no setup) and is not done: -2 otherwise.
constexpr char kRecreate[] = R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[6]) == 1 then
  return -2
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('SET', KEYS[3], ARGV[4])
redis.call('DEL', KEYS[4])
for i = 8, #ARGV do redis.call('RPUSH', KEYS[4], ARGV[i]) end
redis.call('HSET', KEYS[5], 'started', ARGV[6], 'progress', ARGV[7], 'lease', ARGV[3])
redis.call('SADD', KEYS[7], ARGV[5])
return 1
)lua";
// KEYS: fence owner setup done seats clock. ARGV: fence "fence host" lease_ms. -4 as for Append.
// A lapsed lease is renewed too while the token is the game's: nobody took it over.
constexpr char kRenew[] = R"lua(
serving(KEYS[6], tonumber(ARGV[3]))
local f = redis.call('GET', KEYS[1])
if (not f) and redis.call('EXISTS', KEYS[3]) == 0 and redis.call('EXISTS', KEYS[4]) == 0 then return -4 end
if (not f) or f ~= ARGV[1] then return -2 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('HSET', KEYS[5], 'lease', ARGV[3])
return 1
)lua";

// KEYS: owner fence setup seats clock. ARGV: host lease_ms guard reclaim.
// -1 when a host holds the game or it is done; {-5, served, needed} when the lease
// lapsed but Redis has served for less than the owner's lease since its last gap
// (guard "1"): the owner may yet renew it. With reclaim "1", a live lease that
// names ARGV host itself ("fence host") is taken too (Reclaim).
constexpr char kTakeOver[] = R"lua(
local served = serving(KEYS[5], tonumber(ARGV[2]))
if redis.call('EXISTS', KEYS[3]) == 0 then return -1 end
local owner = redis.call('GET', KEYS[1])
if owner then
  local space = string.find(owner, ' ', 1, true)
  if ARGV[4] ~= '1' or not space or string.sub(owner, space + 1) ~= ARGV[1] then return -1 end
else
  local needed = tonumber(redis.call('HGET', KEYS[4], 'lease') or ARGV[2])
  if ARGV[3] == '1' and served < needed then return {-5, served, needed} end
end
local f = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], f .. ' ' .. ARGV[1], 'PX', ARGV[2])
redis.call('HSET', KEYS[4], 'lease', ARGV[2])
return f
)lua";

// KEYS: clock. ARGV: lease_ms. How long Redis has served since its last gap.
constexpr char kServed[] = R"lua(
return serving(KEYS[1], tonumber(ARGV[1]))
)lua";

// The scripts that read or move the clock, with its function in front (built
// once, at start).
const std::string kCreateScript = std::string(kServing) + kCreate;
const std::string kRenewScript = std::string(kServing) + kRenew;
const std::string kTakeOverScript = std::string(kServing) + kTakeOver;
const std::string kServedScript = std::string(kServing) + kServed;

// KEYS: setup log seats owner fence done live. ARGV: id.
constexpr char kDone[] = R"lua(
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('SET', KEYS[6], '1', 'EX', 604800)
redis.call('SREM', KEYS[7], ARGV[1])
return 1
)lua";

}  // namespace

RedisCheckpointStore::RedisCheckpointStore(const std::string& address, RedisCheckpointOptions options)
    : pool_(address, options.pool_size), prefix_(std::move(options.prefix)), takeover_guard_(options.takeover_guard) {}

std::string RedisCheckpointStore::Key(const std::string& game_id, const char* part) const {
  return prefix_ + "{" + game_id + "}:" + part;
}

grpc::Status RedisCheckpointStore::Run(const storage::RedisCommand& command, RedisReply* reply) {
  return storage::RunRedis(kWhat, [&] {
    pool_.With([&](storage::RedisConnection& c) { *reply = c.Run(command); });
    // A reply that says the server cannot take writes (READONLY, LOADING) was
    // thrown as RedisUnavailable already; any other error reply is the script's
    // own (or a refused permission), which no retry fixes: INTERNAL, not UNAVAILABLE.
    if (reply->is_error()) throw storage::RedisCommandError("redis: " + reply->str);
  });
}

grpc::Status RedisCheckpointStore::Create(const std::string& game_id, const std::string& setup, const std::string& host,
                                          services::Millis lease_ms, uint64_t* fence) {
  RedisReply r;
  if (grpc::Status s = Run({"EVAL", kCreateScript, "7", Key(game_id, "owner"), Key(game_id, "fence"),
                            Key(game_id, "setup"), prefix_ + "live", Key(game_id, "done"), Key(game_id, "seats"),
                            prefix_ + "clock", host, std::to_string(lease_ms), setup, game_id},
                           &r);
      !s.ok())
    return s;
  if (r.integer < 0) return {grpc::StatusCode::ALREADY_EXISTS, "game " + game_id + " has a checkpoint already"};
  *fence = uint64_t(r.integer);
  return grpc::Status::OK;
}

storage::RedisCommand RedisCheckpointStore::AppendCommand(const std::string& game_id, uint64_t fence,
                                                          const std::string& host, services::Millis lease_ms,
                                                          uint32_t from, const Action* begin, const Action* end,
                                                          const std::vector<SeatProgress>& seats,
                                                          GamePhase phase) const {
  storage::RedisCommand command = {"EVAL",
                                   kAppend,
                                   "6",
                                   Key(game_id, "fence"),
                                   Key(game_id, "owner"),
                                   Key(game_id, "log"),
                                   Key(game_id, "seats"),
                                   Key(game_id, "setup"),
                                   Key(game_id, "done"),
                                   std::to_string(fence),
                                   std::to_string(fence) + " " + host,
                                   std::to_string(lease_ms),
                                   std::to_string(from),
                                   EncodePhase(phase),
                                   EncodeProgress(seats)};
  command.reserve(command.size() + size_t(end - begin));
  for (const Action* a = begin; a != end; ++a) command.push_back(EncodeLogEntry(*a));
  return command;
}

// The kAppend script's answer as a status; a short log is OUT_OF_RANGE (the caller decides).
grpc::Status RedisCheckpointStore::AppendStatus(const std::string& game_id, uint64_t fence, const RedisReply& r) {
  // As Run's: the same status, and the same log line, as a failed script's anywhere.
  if (r.is_error()) return storage::RedisErrorStatus(kWhat, storage::RedisCommandError("redis: " + r.str));
  if (r.type == RedisReply::Type::kArray && r.elements.size() == 2)
    return {grpc::StatusCode::OUT_OF_RANGE, "game " + game_id + ": the checkpoint's log holds " +
                                                std::to_string(r.elements[1].integer) + " entries, fewer than written"};
  if (r.integer == -2)
    return {grpc::StatusCode::ABORTED,
            "game " + game_id + " is held by a newer fencing token than " + std::to_string(fence)};
  if (r.integer == -4)
    return {grpc::StatusCode::NOT_FOUND, "game " + game_id + " has no checkpoint in Redis (its creation was lost)"};
  return grpc::Status::OK;
}

grpc::Status RedisCheckpointStore::Append(const std::string& game_id, uint64_t fence, const std::string& host,
                                          services::Millis lease_ms, uint32_t from, const std::vector<Action>& actions,
                                          const std::vector<SeatProgress>& seats, GamePhase phase) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const Action* base = actions.data();
    RedisReply r;
    if (grpc::Status s =
            Run(AppendCommand(game_id, fence, host, lease_ms, from, base + std::min<size_t>(from, actions.size()),
                              base + actions.size(), seats, phase),
                &r);
        !s.ok())
      return s;
    if (r.type == RedisReply::Type::kArray && r.elements.size() == 2) {
      // Redis lost its last writes (a restart with append-only fsynced every
      // second, or a failover to a replica that was behind) while this host kept
      // its lease: it holds the whole log, so it writes again from where Redis's ends.
      const uint32_t kept = uint32_t(r.elements[1].integer);
      if (services::ProtectionRemoved("rewrite_lost")) {
        // Negative control only: take a short log for a game that is gone.
        return {grpc::StatusCode::ABORTED, "game " + game_id +
                                               ": the checkpoint's log is shorter than written (protection "
                                               "\"rewrite_lost\" removed)"};
      }
      services::LogWarning("the game's checkpoint lost its last steps in Redis; writing them again",
                           {{"game", game_id}, {"kept", std::to_string(kept)}, {"written", std::to_string(from)}});
      from = kept;
      continue;
    }
    return AppendStatus(game_id, fence, r);
  }
  // Redis lost writes again while this host wrote them back (a failover in the
  // middle): the next write tries again.
  return {grpc::StatusCode::UNAVAILABLE, "game " + game_id + ": the checkpoint's log is shorter than expected twice"};
}

std::vector<grpc::Status> RedisCheckpointStore::AppendMany(const std::vector<AppendRequest>& requests) {
  std::vector<storage::RedisCommand> commands;
  commands.reserve(requests.size());
  for (const AppendRequest& q : requests) {
    commands.push_back(AppendCommand(q.game_id, q.fence, q.host, q.lease_ms, q.from, q.tail.data(),
                                     q.tail.data() + q.tail.size(), q.seats, q.phase));
  }
  std::vector<RedisReply> replies;
  const grpc::Status sent = storage::RunRedis(
      kWhat, [&] { pool_.With([&](storage::RedisConnection& c) { replies = c.Pipeline(commands); }); });
  std::vector<grpc::Status> out;
  out.reserve(requests.size());
  for (size_t i = 0; i < requests.size(); ++i)
    out.push_back(sent.ok() ? AppendStatus(requests[i].game_id, requests[i].fence, replies[i]) : sent);
  return out;
}

grpc::Status RedisCheckpointStore::Recreate(const std::string& game_id, uint64_t fence, const std::string& host,
                                            services::Millis lease_ms, const std::string& setup,
                                            const std::vector<Action>& actions, const std::vector<SeatProgress>& seats,
                                            GamePhase phase) {
  storage::RedisCommand command = {"EVAL",
                                   kRecreate,
                                   "7",
                                   Key(game_id, "fence"),
                                   Key(game_id, "owner"),
                                   Key(game_id, "setup"),
                                   Key(game_id, "log"),
                                   Key(game_id, "seats"),
                                   Key(game_id, "done"),
                                   prefix_ + "live",
                                   std::to_string(fence),
                                   std::to_string(fence) + " " + host,
                                   std::to_string(lease_ms),
                                   setup,
                                   game_id,
                                   EncodePhase(phase),
                                   EncodeProgress(seats)};
  for (const Action& a : actions) command.push_back(EncodeLogEntry(a));
  RedisReply r;
  if (grpc::Status s = Run(command, &r); !s.ok()) return s;
  if (r.integer == -2)
    return {grpc::StatusCode::ABORTED, "game " + game_id + " has a checkpoint or is done: not written again"};
  return grpc::Status::OK;
}

grpc::Status RedisCheckpointStore::Renew(const std::string& game_id, uint64_t fence, const std::string& host,
                                         services::Millis lease_ms) {
  RedisReply r;
  if (grpc::Status s = Run({"EVAL", kRenewScript, "6", Key(game_id, "fence"), Key(game_id, "owner"),
                            Key(game_id, "setup"), Key(game_id, "done"), Key(game_id, "seats"), prefix_ + "clock",
                            std::to_string(fence), std::to_string(fence) + " " + host, std::to_string(lease_ms)},
                           &r);
      !s.ok())
    return s;
  if (r.integer == -4)
    return {grpc::StatusCode::NOT_FOUND, "game " + game_id + " has no checkpoint in Redis (its creation was lost)"};
  if (r.integer == -2)
    return {grpc::StatusCode::ABORTED,
            "game " + game_id + " is held by a newer fencing token than " + std::to_string(fence)};
  return grpc::Status::OK;
}

grpc::Status RedisCheckpointStore::Done(const std::string& game_id) {
  RedisReply r;
  return Run({"EVAL", kDone, "7", Key(game_id, "setup"), Key(game_id, "log"), Key(game_id, "seats"),
              Key(game_id, "owner"), Key(game_id, "fence"), Key(game_id, "done"), prefix_ + "live", game_id},
             &r);
}

grpc::Status RedisCheckpointStore::Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids) {
  ids->clear();
  // The scan also tells Redis it is being reached, so a survivor with no games of
  // its own keeps the clock free of gaps (TakeOver decides per game).
  RedisReply served;
  if (grpc::Status s = Run({"EVAL", kServedScript, "1", prefix_ + "clock", std::to_string(lease_ms)}, &served); !s.ok())
    return s;
  RedisReply members;
  if (grpc::Status s = Run({"SMEMBERS", prefix_ + "live"}, &members); !s.ok()) return s;
  if (members.elements.empty()) return grpc::Status::OK;
  std::vector<storage::RedisCommand> probes;
  for (const RedisReply& m : members.elements) probes.push_back({"EXISTS", Key(m.str, "owner")});
  std::vector<RedisReply> owned;
  if (grpc::Status s = storage::RunRedis(
          kWhat, [&] { pool_.With([&](storage::RedisConnection& c) { owned = c.Pipeline(probes); }); });
      !s.ok())
    return s;
  for (size_t i = 0; i < owned.size() && ids->size() < limit; ++i)
    if (!owned[i].is_error() && owned[i].integer == 0) ids->push_back(members.elements[i].str);
  return grpc::Status::OK;
}

grpc::Status RedisCheckpointStore::TakeOver(const std::string& game_id, const std::string& host,
                                            services::Millis lease_ms, uint64_t* fence, Checkpoint* out) {
  return Take(game_id, host, lease_ms, /*reclaim=*/false, fence, out);
}

grpc::Status RedisCheckpointStore::Reclaim(const std::string& game_id, const std::string& host,
                                           services::Millis lease_ms, uint64_t* fence, Checkpoint* out) {
  return Take(game_id, host, lease_ms, /*reclaim=*/true, fence, out);
}

grpc::Status RedisCheckpointStore::Take(const std::string& game_id, const std::string& host, services::Millis lease_ms,
                                        bool reclaim, uint64_t* fence, Checkpoint* out) {
  RedisReply r;
  if (grpc::Status s = Run({"EVAL", kTakeOverScript, "5", Key(game_id, "owner"), Key(game_id, "fence"),
                            Key(game_id, "setup"), Key(game_id, "seats"), prefix_ + "clock", host,
                            std::to_string(lease_ms), takeover_guard_ ? "1" : "0", reclaim ? "1" : "0"},
                           &r);
      !s.ok())
    return s;
  if (r.type == RedisReply::Type::kArray && r.elements.size() == 3) {
    return {grpc::StatusCode::FAILED_PRECONDITION,
            "game " + game_id + ": its lease lapsed, but Redis has served for only " +
                std::to_string(r.elements[1].integer) +
                " ms since it last could not be reached, less than the owner's " +
                std::to_string(r.elements[2].integer) + " ms lease to renew it"};
  }
  if (r.integer < 0) return {grpc::StatusCode::ABORTED, "game " + game_id + " is held by a host or finished"};
  *fence = uint64_t(r.integer);
  // The game is ours now: nobody else writes it while we read it.
  std::vector<RedisReply> parts;
  if (grpc::Status s = storage::RunRedis(kWhat,
                                         [&] {
                                           pool_.With([&](storage::RedisConnection& c) {
                                             parts = c.Pipeline({{"GET", Key(game_id, "setup")},
                                                                 {"LRANGE", Key(game_id, "log"), "0", "-1"},
                                                                 {"HGET", Key(game_id, "seats"), "started"},
                                                                 {"HGET", Key(game_id, "seats"), "progress"}});
                                           });
                                           for (const RedisReply& part : parts)
                                             if (part.is_error())
                                               throw storage::RedisCommandError("redis: " + part.str);
                                         });
      !s.ok())
    return s;
  out->setup = parts[0].str;
  out->actions.clear();
  for (const RedisReply& e : parts[1].elements) {
    Action action;
    if (!DecodeLogEntry(e.str, &action)) {
      return {grpc::StatusCode::DATA_LOSS, "game " + game_id + ": log entry " + std::to_string(out->actions.size()) +
                                               " ('" + e.str + "') is not an action"};
    }
    out->actions.push_back(action);
  }
  if (!DecodePhase(parts[2].str, out))
    return {grpc::StatusCode::DATA_LOSS, "game " + game_id + ": its phase '" + parts[2].str + "' does not parse"};
  if (!DecodeProgress(parts[3].str, &out->seats)) {
    return {grpc::StatusCode::DATA_LOSS,
            "game " + game_id + ": the seats' progress '" + parts[3].str + "' does not parse"};
  }
  return grpc::Status::OK;
}

std::optional<std::string> RedisCheckpointStore::Owner(const std::string& game_id) {
  RedisReply r;
  if (!Run({"GET", Key(game_id, "owner")}, &r).ok() || r.is_nil()) return std::nullopt;
  const size_t space = r.str.find(' ');
  if (space == std::string::npos) return std::nullopt;
  return r.str.substr(space + 1);
}

}  // namespace metropolis::gamehost
