#include "services/ratings/redis_leaderboard_cache.h"

#include <cstdio>
#include <cstdlib>

#include "lib/storage/redis.h"
#include "lib/storage/redis_status.h"
#include "services/ratings/model/model.h"

namespace metropolis::ratings {
namespace {

using storage::RedisReply;

// KEYS: ranked set, info hash, version, early versions. ARGV: placement games,
// the write's board version (0: a rebuild's batch, which moves no version),
// then per player: id, games, mu, sigma, ordinal. A player's game count is the
// version of its entry; the board's version advances only over consecutive
// versions, so a lost write holds it back.
constexpr char kApply[] = R"lua(
local placement = tonumber(ARGV[1])
local version = tonumber(ARGV[2])
local written = 0
for i = 3, #ARGV, 5 do
  local id = ARGV[i]
  local games = tonumber(ARGV[i + 1])
  local current = redis.call('HGET', KEYS[2], id)
  if (not current) or tonumber(string.match(current, '^%d+')) < games then
    redis.call('HSET', KEYS[2], id, ARGV[i + 1] .. ' ' .. ARGV[i + 2] .. ' ' .. ARGV[i + 3])
    if games >= placement then redis.call('ZADD', KEYS[1], ARGV[i + 4], id) end
    written = written + 1
  end
end
if version > 0 then
  local at = redis.call('GET', KEYS[3])
  if at and tonumber(at) + 1 == version then
    at = version
    while redis.call('ZSCORE', KEYS[4], tostring(at + 1)) do
      redis.call('ZREM', KEYS[4], tostring(at + 1))
      at = at + 1
    end
    redis.call('SET', KEYS[3], tostring(at))
  elseif (not at) or tonumber(at) < version then
    redis.call('ZADD', KEYS[4], version, tostring(version))
  end
end
return written
)lua";

// KEYS: ranked set, info hash, version, early versions. ARGV: the version of
// the snapshot the rebuild wrote. The version never moves back here (a later
// write may have moved it on); Clear drops it first when it must.
constexpr char kBuilt[] = R"lua(
local at = tonumber(ARGV[1])
local current = redis.call('GET', KEYS[3])
if current and tonumber(current) > at then at = tonumber(current) end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', at)
while redis.call('ZSCORE', KEYS[4], tostring(at + 1)) do
  redis.call('ZREM', KEYS[4], tostring(at + 1))
  at = at + 1
end
redis.call('SET', KEYS[3], tostring(at))
return at
)lua";

// KEYS: ranked set, info hash, version. ARGV: 'top' offset limit, or 'around'
// id limit. Returns {-1} when not built; {version, total, -1} when 'around'
// finds no such ranked player; else {version, total, start, id, score, info, ...}.
constexpr char kPage[] = R"lua(
local version = redis.call('GET', KEYS[3])
if not version then return {-1} end
version = tonumber(version)
local total = redis.call('ZCARD', KEYS[1])
local limit = tonumber(ARGV[3])
local start
if ARGV[1] == 'around' then
  local r = redis.call('ZREVRANK', KEYS[1], ARGV[2])
  if not r then return {version, total, -1} end
  start = r - math.floor(limit / 2)
  if start + limit > total then start = total - limit end
  if start < 0 then start = 0 end
else
  start = tonumber(ARGV[2])
end
local out = {version, total, start}
if limit == 0 or start >= total then return out end
local ids = redis.call('ZREVRANGE', KEYS[1], start, start + limit - 1, 'WITHSCORES')
for i = 1, #ids, 2 do
  out[#out + 1] = ids[i]
  out[#out + 1] = ids[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], ids[i]) or ''
end
return out
)lua";

// KEYS: ranked set, info hash, version. ARGV: id. {-1} not built; {version, 0}
// unknown player; {version, 1, info, rank or -1, total}.
constexpr char kLookup[] = R"lua(
local version = redis.call('GET', KEYS[3])
if not version then return {-1} end
version = tonumber(version)
local info = redis.call('HGET', KEYS[2], ARGV[1])
if not info then return {version, 0} end
local r = redis.call('ZREVRANK', KEYS[1], ARGV[1])
return {version, 1, info, r or -1, redis.call('ZCARD', KEYS[1])}
)lua";

std::string Exact(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// "games mu sigma" into an entry.
void ParseInfo(const std::string& info, RankedEntry* e) {
  char* end = nullptr;
  e->games = int(std::strtol(info.c_str(), &end, 10));
  e->mu = std::strtod(end, &end);
  e->sigma = std::strtod(end, &end);
  e->ordinal = Ordinal(e->mu, e->sigma);
}

RedisReply Eval(storage::RedisPool* redis, storage::RedisCommand command) {
  RedisReply reply;
  redis->With([&](storage::RedisConnection& c) { reply = c.Run(command); });
  if (reply.is_error()) throw storage::RedisCommandError("redis refused the leaderboard script: " + reply.str);
  return reply;
}

}  // namespace

std::string RedisLeaderboardCache::Key(const Board& board, const char* part) const {
  // The braces keep a board's keys in one Redis Cluster slot, which scripts need.
  return prefix_ + ":lb:{" + board.ladder + "/" + std::to_string(board.season) + "}:" + part;
}

grpc::Status RedisLeaderboardCache::Apply(const Board& board, const std::vector<StoredRating>& ratings,
                                          int64_t version) {
  if (ratings.empty() && version == 0) return grpc::Status::OK;
  storage::RedisCommand command = {"EVAL",
                                   kApply,
                                   "4",
                                   Key(board, "ranked"),
                                   Key(board, "info"),
                                   Key(board, "version"),
                                   Key(board, "early"),
                                   std::to_string(board.placement_games),
                                   std::to_string(version)};
  command.reserve(command.size() + ratings.size() * 5);
  for (const StoredRating& r : ratings) {
    command.push_back(std::to_string(r.identity_id));
    command.push_back(std::to_string(r.games));
    command.push_back(Exact(r.mu));
    command.push_back(Exact(r.sigma));
    command.push_back(Exact(Ordinal(r.mu, r.sigma)));
  }
  return storage::RunRedis("leaderboard cache", [&] { Eval(redis_, std::move(command)); });
}

grpc::Status RedisLeaderboardCache::Clear(const Board& board) {
  return storage::RunRedis("leaderboard cache", [&] {
    RedisReply reply;
    redis_->With([&](storage::RedisConnection& c) {
      reply = c.Run({"DEL", Key(board, "version"), Key(board, "early"), Key(board, "ranked"), Key(board, "info")});
    });
    if (reply.is_error()) throw storage::RedisCommandError("redis refused DEL: " + reply.str);
  });
}

grpc::Status RedisLeaderboardCache::MarkBuilt(const Board& board, int64_t version) {
  return storage::RunRedis("leaderboard cache", [&] {
    Eval(redis_, {"EVAL", kBuilt, "4", Key(board, "ranked"), Key(board, "info"), Key(board, "version"),
                  Key(board, "early"), std::to_string(version)});
  });
}

grpc::Status RedisLeaderboardCache::ReadPage(const storage::RedisCommand& command, std::vector<RankedEntry>* out,
                                             uint64_t* total, bool* found, int64_t* version) {
  RedisReply reply;
  if (grpc::Status s = storage::RunRedis("leaderboard cache", [&] { reply = Eval(redis_, command); }); !s.ok())
    return s;
  out->clear();
  const auto& e = reply.elements;
  *version = -1;
  if (e.empty() || e[0].integer < 0) return grpc::Status::OK;
  *version = e[0].integer;
  *total = e.size() >= 2 ? uint64_t(e[1].integer) : 0;
  *found = e.size() >= 3 && e[2].integer >= 0;
  if (!*found) return grpc::Status::OK;
  uint64_t rank = uint64_t(e[2].integer) + 1;
  for (size_t i = 3; i + 2 < e.size(); i += 3) {
    RankedEntry entry;
    entry.rank = rank++;
    entry.identity_id = std::strtoll(e[i].str.c_str(), nullptr, 10);
    ParseInfo(e[i + 2].str, &entry);
    entry.ordinal = std::strtod(e[i + 1].str.c_str(), nullptr);
    out->push_back(entry);
  }
  return grpc::Status::OK;
}

grpc::Status RedisLeaderboardCache::Page(const Board& board, uint64_t offset, uint32_t limit,
                                         std::vector<RankedEntry>* out, uint64_t* total, int64_t* version) {
  bool found = false;
  return ReadPage({"EVAL_RO", kPage, "3", Key(board, "ranked"), Key(board, "info"), Key(board, "version"), "top",
                   std::to_string(offset), std::to_string(limit)},
                  out, total, &found, version);
}

grpc::Status RedisLeaderboardCache::Around(const Board& board, int64_t identity_id, uint32_t limit,
                                           std::vector<RankedEntry>* out, uint64_t* total, bool* found,
                                           int64_t* version) {
  return ReadPage({"EVAL_RO", kPage, "3", Key(board, "ranked"), Key(board, "info"), Key(board, "version"), "around",
                   std::to_string(identity_id), std::to_string(limit)},
                  out, total, found, version);
}

grpc::Status RedisLeaderboardCache::Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total,
                                           bool* found, int64_t* version) {
  RedisReply reply;
  if (grpc::Status s =
          storage::RunRedis("leaderboard cache",
                            [&] {
                              reply = Eval(redis_, {"EVAL_RO", kLookup, "3", Key(board, "ranked"), Key(board, "info"),
                                                    Key(board, "version"), std::to_string(identity_id)});
                            });
      !s.ok())
    return s;
  const auto& e = reply.elements;
  *version = -1;
  if (e.empty() || e[0].integer < 0) return grpc::Status::OK;
  *version = e[0].integer;
  *found = e.size() == 5 && e[1].integer == 1;
  if (!*found) return grpc::Status::OK;
  out->identity_id = identity_id;
  ParseInfo(e[2].str, out);
  out->rank = e[3].integer >= 0 ? uint64_t(e[3].integer) + 1 : 0;
  *total = uint64_t(e[4].integer);
  return grpc::Status::OK;
}

grpc::Status RedisLeaderboardCache::Version(const Board& board, int64_t* out) {
  return storage::RunRedis("leaderboard cache", [&] {
    RedisReply reply;
    redis_->With([&](storage::RedisConnection& c) { reply = c.Run({"GET", Key(board, "version")}); });
    if (reply.is_error()) throw storage::RedisCommandError("redis GET failed: " + reply.str);
    *out = reply.is_nil() ? -1 : std::strtoll(reply.str.c_str(), nullptr, 10);
  });
}

}  // namespace metropolis::ratings
