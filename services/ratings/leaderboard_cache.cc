#include "services/ratings/leaderboard_cache.h"

#include <cstdio>
#include <cstdlib>

namespace metropolis::ratings {
namespace {

using storage::RedisReply;

// KEYS: ranked set, info hash. ARGV: placement games, then per player: id,
// games, mu, sigma, ordinal. A player's game count is the version of its entry.
constexpr char kApply[] = R"lua(
local placement = tonumber(ARGV[1])
local written = 0
for i = 2, #ARGV, 5 do
  local id = ARGV[i]
  local games = tonumber(ARGV[i + 1])
  local current = redis.call('HGET', KEYS[2], id)
  if (not current) or tonumber(string.match(current, '^%d+')) < games then
    redis.call('HSET', KEYS[2], id, ARGV[i + 1] .. ' ' .. ARGV[i + 2] .. ' ' .. ARGV[i + 3])
    if games >= placement then redis.call('ZADD', KEYS[1], ARGV[i + 4], id) end
    written = written + 1
  end
end
return written
)lua";

// KEYS: ranked set, info hash, built marker. ARGV: 'top' offset limit, or
// 'around' id limit. Returns {-1} when not built; {total, -1} when 'around'
// finds no such ranked player; else {total, start, id, score, info, ...}.
constexpr char kPage[] = R"lua(
if redis.call('EXISTS', KEYS[3]) == 0 then return {-1} end
local total = redis.call('ZCARD', KEYS[1])
local limit = tonumber(ARGV[3])
local start
if ARGV[1] == 'around' then
  local r = redis.call('ZREVRANK', KEYS[1], ARGV[2])
  if not r then return {total, -1} end
  start = r - math.floor(limit / 2)
  if start + limit > total then start = total - limit end
  if start < 0 then start = 0 end
else
  start = tonumber(ARGV[2])
end
local out = {total, start}
if limit == 0 or start >= total then return out end
local ids = redis.call('ZREVRANGE', KEYS[1], start, start + limit - 1, 'WITHSCORES')
for i = 1, #ids, 2 do
  out[#out + 1] = ids[i]
  out[#out + 1] = ids[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], ids[i]) or ''
end
return out
)lua";

// KEYS: ranked set, info hash, built marker. ARGV: id. {-1} not built; {0}
// unknown player; {1, info, rank or -1, total}.
constexpr char kLookup[] = R"lua(
if redis.call('EXISTS', KEYS[3]) == 0 then return {-1} end
local info = redis.call('HGET', KEYS[2], ARGV[1])
if not info then return {0} end
local r = redis.call('ZREVRANK', KEYS[1], ARGV[1])
return {1, info, r or -1, redis.call('ZCARD', KEYS[1])}
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
  e->ordinal = e->mu - 3 * e->sigma;
}

RedisReply Eval(storage::RedisPool* redis, storage::RedisCommand command) {
  RedisReply reply;
  redis->With([&](storage::RedisConnection& c) { reply = c.Run(command); });
  if (reply.is_error()) throw storage::RedisUnavailable("redis script failed: " + reply.str);
  return reply;
}

}  // namespace

std::string LeaderboardCache::Key(const Board& board, const char* part) const {
  // The braces keep a board's keys in one Redis Cluster slot, which scripts need.
  return prefix_ + ":lb:{" + board.ladder + "/" + std::to_string(board.season) + "}:" + part;
}

void LeaderboardCache::Apply(const Board& board, const std::vector<StoredRating>& ratings) {
  if (ratings.empty()) return;
  storage::RedisCommand command = {
      "EVAL", kApply, "2", Key(board, "ranked"), Key(board, "info"), std::to_string(board.placement_games)};
  command.reserve(command.size() + ratings.size() * 5);
  for (const StoredRating& r : ratings) {
    command.push_back(std::to_string(r.identity_id));
    command.push_back(std::to_string(r.games));
    command.push_back(Exact(r.mu));
    command.push_back(Exact(r.sigma));
    command.push_back(Exact(r.mu - 3 * r.sigma));
  }
  Eval(redis_, std::move(command));
}

void LeaderboardCache::MarkBuilt(const Board& board) {
  redis_->With([&](storage::RedisConnection& c) {
    const RedisReply reply = c.Run({"SET", Key(board, "built"), "1"});
    if (reply.is_error()) throw storage::RedisUnavailable("redis SET failed: " + reply.str);
  });
}

bool LeaderboardCache::ReadPage(const storage::RedisCommand& command, std::vector<RankedEntry>* out, uint64_t* total,
                                bool* found) {
  const RedisReply reply = Eval(redis_, command);
  out->clear();
  const auto& e = reply.elements;
  if (e.empty() || e[0].integer < 0) return false;
  *total = uint64_t(e[0].integer);
  *found = e.size() >= 2 && e[1].integer >= 0;
  if (!*found) return true;
  uint64_t rank = uint64_t(e[1].integer) + 1;
  for (size_t i = 2; i + 2 < e.size(); i += 3) {
    RankedEntry entry;
    entry.rank = rank++;
    entry.identity_id = std::strtoll(e[i].str.c_str(), nullptr, 10);
    ParseInfo(e[i + 2].str, &entry);
    entry.ordinal = std::strtod(e[i + 1].str.c_str(), nullptr);
    out->push_back(entry);
  }
  return true;
}

bool LeaderboardCache::Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                            uint64_t* total) {
  bool found = false;
  return ReadPage({"EVAL", kPage, "3", Key(board, "ranked"), Key(board, "info"), Key(board, "built"), "top",
                   std::to_string(offset), std::to_string(limit)},
                  out, total, &found);
}

bool LeaderboardCache::Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                              uint64_t* total, bool* found) {
  return ReadPage({"EVAL", kPage, "3", Key(board, "ranked"), Key(board, "info"), Key(board, "built"), "around",
                   std::to_string(identity_id), std::to_string(limit)},
                  out, total, found);
}

bool LeaderboardCache::Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found) {
  const RedisReply reply = Eval(redis_, {"EVAL", kLookup, "3", Key(board, "ranked"), Key(board, "info"),
                                         Key(board, "built"), std::to_string(identity_id)});
  const auto& e = reply.elements;
  if (e.empty() || e[0].integer < 0) return false;
  *found = e[0].integer == 1 && e.size() == 4;
  if (!*found) return true;
  out->identity_id = identity_id;
  ParseInfo(e[1].str, out);
  out->rank = e[2].integer >= 0 ? uint64_t(e[2].integer) + 1 : 0;
  *total = uint64_t(e[3].integer);
  return true;
}

}  // namespace metropolis::ratings
