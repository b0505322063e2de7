// The leaderboards' cache (Redis in production, redis_leaderboard_cache.h):
// per board (ladder and season) the ranked players by ordinal, every rated
// player's games, mu and sigma, and the board's version (board_versions in the
// store) that the copy reflects. Every entry is versioned by the player's game
// count and applied only when newer, so a rebuild can run while games are
// rated, replicas can write in any order, and a replay of old writes never moves
// a player back. The board's version advances only over consecutive versions:
// a write carrying version v advances it once every version before v arrived, so
// a write that never arrived holds the version back for good, and a read that
// compares it with the store's sees the loss. No version means the cache lost
// the board or never built it: the caller rebuilds it.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "services/ratings/store.h"

namespace metropolis::ratings {

// Every call answers with a status, as the store's do: UNAVAILABLE when the
// cache cannot be reached or cannot take writes now (a replica, a failover),
// INTERNAL when it answered with an error (NOPERM: a Redis user that may not
// write the keys; OOM): reachable, but a retry would get the same answer.
class LeaderboardCache {
 public:
  virtual ~LeaderboardCache() = default;

  // Writes ratings that are newer than what the board holds; players reach the
  // ranking once they have played the board's placement games. `version`: the
  // board version the write made in the store (0 for a rebuild's batches).
  virtual grpc::Status Apply(const Board& board, const std::vector<StoredRating>& ratings, int64_t version = 0) = 0;
  // Drops the board and its version: before rebuilding a board that the cache
  // holds ahead of the store (restored from a backup), whose newer entries a
  // rebuild would otherwise keep.
  virtual grpc::Status Clear(const Board& board) = 0;
  // The board holds every write up to `version` (the snapshot a rebuild read).
  virtual grpc::Status MarkBuilt(const Board& board, int64_t version) = 0;

  // The reads: *version is the version the board reflects, -1 when the board
  // is not built (the other outputs are then unset). A page by rank (offset 0 =
  // the top).
  virtual grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                            uint64_t* total, int64_t* version) = 0;
  // The page of `limit` around a ranked player (AroundStart); *found false when
  // the player is not ranked.
  virtual grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                              uint64_t* total, bool* found, int64_t* version) = 0;
  // One player; *found false when the player has no rating on the board.
  virtual grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found,
                              int64_t* version) = 0;
  // The version the board reflects; -1 when not built.
  virtual grpc::Status Version(const Board& board, int64_t* out) = 0;
};

}  // namespace metropolis::ratings
