// The ratings service's logic, apart from its gRPC wiring: rating games in
// PostgreSQL (RatingStore), mirroring the new ratings into the Redis
// leaderboards (LeaderboardCache), and serving reads from Redis, rebuilding a
// board from PostgreSQL whenever Redis has lost it or missed a write.
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
#include "services/ratings/store.h"

namespace metropolis::ratings {

class Ratings {
 public:
  Ratings(RatingStore* store, LeaderboardCache* cache);

  grpc::Status RateGame(const std::string& game_id, v1::RateGameResponse* out);
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
  // Runs `read` against Redis; when the board is not built (or this process
  // missed a write to it) rebuilds it and reads again.
  grpc::Status ReadBuilt(const Board& board, const std::function<bool()>& read);
  std::shared_ptr<std::mutex> RebuildLock(const std::string& key);

  RatingStore* store_;
  LeaderboardCache* cache_;
  mutable std::mutex mutex_;
  struct CachedBoard {
    Board board;
    std::chrono::steady_clock::time_point until;
  };
  std::map<std::string, CachedBoard> boards_;
  std::set<std::string> stale_;  // boards whose Redis write failed: rebuilt on next use
  std::map<std::string, std::shared_ptr<std::mutex>> rebuild_locks_;
  uint64_t rebuilds_ = 0;
};

}  // namespace metropolis::ratings
