// The ratings service's logic, apart from its gRPC wiring: rating the results
// the game hosts send once Replays confirms their digest (StoredGames), on the
// ladders' parameters from Accounts (LadderDirectory), in PostgreSQL
// (RatingStore), mirroring the new ratings into the Redis leaderboards
// (LeaderboardCache), and serving reads from Redis. Every write to a board
// bumps its version in PostgreSQL (board_versions) in the rating's
// transaction, and Redis keeps the version its copy reflects, moved in the
// script that writes the copy; every read compares the two and rebuilds the copy
// from PostgreSQL on any difference (project issue #14): Redis behind (a write
// it lost, or one a replica could not make) or ahead (PostgreSQL restored from
// a backup). Any replica sees what any other wrote or missed, which the
// per-process record of failed writes this replaced did not.
#pragma once

#include <grpcpp/support/status.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "lib/common/clock.h"
#include "metropolis/v1/ratings.pb.h"
#include "services/ratings/leaderboard_cache.h"
#include "services/ratings/metrics.h"
#include "services/ratings/peers.h"
#include "services/ratings/store.h"

namespace metropolis::ratings {

struct RatingsOptions {
  // Reads compare the board's version in Redis with PostgreSQL's. Off only
  // for the negative control (protection "board_versions", which also switches
  // it off): a board Redis holds is then served whatever it missed.
  bool compare_versions = true;
  RatingsMetrics* metrics = nullptr;       // refusals and the leaderboards' writes; null: nothing is counted
  const services::Clock* clock = nullptr;  // how long a ladder from Accounts is reused; null: the system clock
};

class Ratings {
 public:
  Ratings(RatingStore* store, LeaderboardCache* cache, StoredGames* replays, LadderDirectory* accounts,
          RatingsOptions options = {});

  // ratings.proto: nothing is written unless Replays confirmed the digest (or
  // the same result was decided before); a different result for a decided
  // game is ALREADY_EXISTS and counted.
  grpc::Status RateGame(const v1::RateGameRequest& request, v1::RateGameResponse* out);
  grpc::Status GetLeaderboard(const v1::GetLeaderboardRequest& request, v1::Leaderboard* out);
  grpc::Status GetPlayerRating(const v1::GetPlayerRatingRequest& request, v1::PlayerRating* out);
  grpc::Status GetRatingHistory(const v1::GetRatingHistoryRequest& request, v1::RatingHistory* out);

  // Copies a board (or every board) from PostgreSQL into Redis with the
  // version it read. Safe while games are rated: only newer entries are
  // written. kFromEmpty: drop the board in Redis first (it is ahead of
  // PostgreSQL, so writing only newer entries would keep its extra ones).
  enum class Start { kOverRedis, kFromEmpty };
  grpc::Status Rebuild(const Board& board, uint64_t* players, Start from = Start::kOverRedis);
  grpc::Status RebuildAll(uint64_t* players);

  uint64_t rebuilds() const;

 private:
  grpc::Status Resolve(const std::string& ladder, uint32_t season, Board* out);
  // A ladder from Accounts, reused for a few seconds: NOT_FOUND for an unknown
  // ladder, UNAVAILABLE when Accounts did not answer. kStaleWhenUnavailable (the
  // reads): when Accounts does not answer, the last ladder it gave is used
  // however old, so that leaderboards stay readable through an Accounts outage;
  // a ladder never read is UNAVAILABLE; *stale (when given) says a stale copy
  // answered. Rating a game never uses a stale ladder (a season begun
  // meanwhile would be missed): the host retries it.
  enum class Staleness { kFresh, kStaleWhenUnavailable };
  grpc::Status LadderOf(const std::string& ladder, LadderInfo* out, Staleness staleness = Staleness::kFresh,
                        bool* stale = nullptr);
  // The checked request as the store takes it; INVALID_ARGUMENT when malformed.
  grpc::Status Prepare(const v1::RateGameRequest& request, ResultToRate* out) const;
  // A read of Redis: *version is the version the board reflects, -1 when the
  // board is not built.
  using CacheRead = std::function<grpc::Status(int64_t* version)>;
  // Runs `read` against Redis and keeps its answer when the board reflects
  // PostgreSQL's version; otherwise rebuilds the board and reads again. When
  // the rebuild is refused (a Redis user that may not write, OOM), *from_pg is
  // set and the caller reads PostgreSQL instead.
  grpc::Status ReadFresh(const Board& board, const CacheRead& read, bool* from_pg);
  // Rebuild; *refused when Redis answered the writes with an error.
  grpc::Status RebuildBoard(const Board& board, uint64_t* players, Start from, bool* refused);
  std::shared_ptr<std::mutex> RebuildLock(const std::string& key);

  RatingStore* store_;
  LeaderboardCache* cache_;
  StoredGames* replays_;
  LadderDirectory* accounts_;
  RatingsMetrics* const metrics_;
  const services::Clock* const clock_;
  const bool compare_versions_;
  mutable std::mutex mutex_;
  struct CachedLadder {
    LadderInfo info;
    services::Millis until;  // on clock_'s monotonic time
  };
  std::map<std::string, CachedLadder> ladders_;
  std::map<std::string, std::shared_ptr<std::mutex>> rebuild_locks_;
  uint64_t rebuilds_ = 0;
};

}  // namespace metropolis::ratings
