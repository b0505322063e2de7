// The leaderboards' Redis side: per board (ladder and season) a sorted set of the
// ranked players by ordinal, a hash of every rated player's "games mu sigma", and
// a marker saying the board was built from PostgreSQL. Redis is a cache: every
// write is versioned by the player's game count and applied only when newer, so
// a rebuild can run while games are rated, replicas can write in any order, and a
// replay of old writes never moves a player back. A missing marker means Redis
// lost the board (restart without persistence, eviction, FLUSHALL): the caller
// rebuilds it from PostgreSQL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/storage/redis.h"
#include "services/ratings/store.h"

namespace metropolis::ratings {

struct RankedEntry {
  uint64_t rank = 0;  // 1-based; 0 while provisional
  int64_t identity_id = 0;
  double ordinal = 0, mu = 0, sigma = 0;
  int games = 0;
};

class LeaderboardCache {
 public:
  // Throws storage::RedisUnavailable from every call when Redis is unreachable.
  explicit LeaderboardCache(storage::RedisPool* redis, std::string prefix = "metropolis")
      : redis_(redis), prefix_(std::move(prefix)) {}

  // Writes ratings that are newer than what the board holds; players reach the
  // sorted set once they have played the board's placement games.
  void Apply(const Board& board, const std::vector<StoredRating>& ratings);
  void MarkBuilt(const Board& board);

  // A page by rank (offset 0 = the top). False when the board is not built.
  bool Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out, uint64_t* total);
  // The page of `limit` around a ranked player. False when the board is not
  // built; *found false when the player is not ranked.
  bool Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out, uint64_t* total,
              bool* found);
  // One player. False when the board is not built; *found false when the
  // player has no rating on the board.
  bool Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found);

 private:
  std::string Key(const Board& board, const char* part) const;
  bool ReadPage(const storage::RedisCommand& command, std::vector<RankedEntry>* out, uint64_t* total, bool* found);

  storage::RedisPool* redis_;
  const std::string prefix_;
};

}  // namespace metropolis::ratings
