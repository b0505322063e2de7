// The ratings service's logic, apart from its gRPC wiring: rating the results
// the game hosts send once Replays confirms their digest (StoredGames), on the
// ladders' parameters from Accounts (LadderDirectory), in PostgreSQL
// (RatingStore), mirroring the new ratings into the Redis leaderboards
// (LeaderboardCache), and serving reads from Redis, rebuilding a board from
// PostgreSQL whenever Redis has lost it or missed a write.
#pragma once

#include <grpcpp/support/status.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "metropolis/v1/ratings.pb.h"
#include "services/ratings/leaderboard_cache.h"
#include "services/ratings/peers.h"
#include "services/ratings/store.h"

namespace metropolis::ratings {

class Ratings {
 public:
  Ratings(RatingStore* store, LeaderboardCache* cache, StoredGames* replays, LadderDirectory* accounts);

  // ratings.proto: nothing is written unless Replays confirmed the digest (or
  // the same result was decided before); a different result for a decided
  // game is ALREADY_EXISTS and counted.
  grpc::Status RateGame(const v1::RateGameRequest& request, v1::RateGameResponse* out);
  grpc::Status GetLeaderboard(const v1::GetLeaderboardRequest& request, v1::Leaderboard* out);
  grpc::Status GetPlayerRating(const v1::GetPlayerRatingRequest& request, v1::PlayerRating* out);
  grpc::Status GetRatingHistory(const v1::GetRatingHistoryRequest& request, v1::RatingHistory* out);

  // Copies a board (or every board) from PostgreSQL into Redis and marks it
  // built. Safe while games are rated: only newer entries are written.
  grpc::Status Rebuild(const Board& board, uint64_t* players);
  grpc::Status RebuildAll(uint64_t* players);

  uint64_t rebuilds() const;

 private:
  grpc::Status Resolve(const std::string& ladder, uint32_t season, Board* out);
  // A ladder from Accounts, reused for a few seconds: NOT_FOUND for an unknown
  // ladder, UNAVAILABLE when Accounts did not answer.
  grpc::Status LadderOf(const std::string& ladder, LadderInfo* out);
  // The checked request as the store takes it; INVALID_ARGUMENT when malformed.
  grpc::Status Prepare(const v1::RateGameRequest& request, ResultToRate* out) const;
  // Runs `read` against Redis; when the board is not built (or this process
  // missed a write to it) rebuilds it and reads again.
  grpc::Status ReadBuilt(const Board& board, const std::function<bool()>& read);
  std::shared_ptr<std::mutex> RebuildLock(const std::string& key);

  RatingStore* store_;
  LeaderboardCache* cache_;
  StoredGames* replays_;
  LadderDirectory* accounts_;
  mutable std::mutex mutex_;
  struct CachedLadder {
    LadderInfo info;
    std::chrono::steady_clock::time_point until;
  };
  std::map<std::string, CachedLadder> ladders_;
  std::set<std::string> stale_;  // boards whose Redis write failed: rebuilt on next use
  std::map<std::string, std::shared_ptr<std::mutex>> rebuild_locks_;
  uint64_t rebuilds_ = 0;
};

}  // namespace metropolis::ratings
