// The leaderboards' Redis side: per board (ladder and season) a sorted set of the
// ranked players by ordinal, a hash of every rated player's "games mu sigma", and
// the board's version (board_versions in PostgreSQL) that the board reflects.
// Redis is a cache: every entry is versioned by the player's game count and
// applied only when newer, so a rebuild can run while games are rated, replicas
// can write in any order, and a replay of old writes never moves a player back.
// The board's version moves in the same script as the entries: a write carrying
// version v advances it only once every version before v arrived (versions that
// arrive early wait in a sorted set), so a write that never reached Redis holds
// the version back for good, and a read that compares it with PostgreSQL's sees
// the loss. A missing version means Redis lost the board (restart without
// persistence, eviction, FLUSHALL) or never built it: the caller rebuilds it.
// Reads run as EVAL_RO (Redis 7), so a Redis user that may only read the keys
// can still serve them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/storage/redis.h"
#include "services/ratings/store.h"

namespace metropolis::ratings {

// An error reply to a write (e.g. NOPERM: a Redis user that may not write the
// keys, or OOM): Redis is reachable but did not take the write.
class LeaderboardRefused : public storage::RedisCommandError {
 public:
  using storage::RedisCommandError::RedisCommandError;
};

class LeaderboardCache {
 public:
  // Throws storage::RedisUnavailable from every call when Redis is unreachable,
  // LeaderboardRefused from a write Redis answered with an error.
  explicit LeaderboardCache(storage::RedisPool* redis, std::string prefix = "metropolis")
      : redis_(redis), prefix_(std::move(prefix)) {}

  // Writes ratings that are newer than what the board holds; players reach the
  // sorted set once they have played the board's placement games. `version`:
  // the board version the write made in PostgreSQL (0 for a rebuild's batches).
  void Apply(const Board& board, const std::vector<StoredRating>& ratings, int64_t version = 0);
  // Drops the board and its version: before rebuilding a board that Redis
  // holds ahead of PostgreSQL (restored from a backup), whose newer entries a
  // rebuild would otherwise keep.
  void Clear(const Board& board);
  // The board holds every write up to `version` (the snapshot a rebuild read).
  void MarkBuilt(const Board& board, int64_t version);

  // The reads: *version is the version the board reflects. False when the
  // board is not built. A page by rank (offset 0 = the top).
  bool Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out, uint64_t* total,
            int64_t* version);
  // The page of `limit` around a ranked player; *found false when the player is
  // not ranked.
  bool Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out, uint64_t* total,
              bool* found, int64_t* version);
  // One player; *found false when the player has no rating on the board.
  bool Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found,
              int64_t* version);
  // The version the board reflects; -1 when not built.
  int64_t Version(const Board& board);

 private:
  std::string Key(const Board& board, const char* part) const;
  bool ReadPage(const storage::RedisCommand& command, std::vector<RankedEntry>* out, uint64_t* total, bool* found,
                int64_t* version);

  storage::RedisPool* redis_;
  const std::string prefix_;
};

}  // namespace metropolis::ratings
