// The leaderboards in Redis: per board a sorted set of the ranked players by
// ordinal, a hash of every rated player's "games mu sigma", and the board's
// version. Entries and the version move in one script, so a write is all or
// nothing; versions that arrive early wait in a sorted set until the ones
// before them arrive. Reads run as EVAL_RO (Redis 7), so a Redis user that may
// only read the keys can still serve them. What the client throws becomes a
// status here, once (storage::RedisErrorStatus), as LeaderboardCache promises.
#pragma once

#include <string>
#include <vector>

#include "services/ratings/leaderboard_cache.h"

namespace metropolis::storage {
class RedisPool;
struct RedisReply;
}  // namespace metropolis::storage

namespace metropolis::ratings {

class RedisLeaderboardCache final : public LeaderboardCache {
 public:
  explicit RedisLeaderboardCache(storage::RedisPool* redis, std::string prefix = "metropolis")
      : redis_(redis), prefix_(std::move(prefix)) {}

  grpc::Status Apply(const Board& board, const std::vector<StoredRating>& ratings, int64_t version = 0) override;
  grpc::Status Clear(const Board& board) override;
  grpc::Status MarkBuilt(const Board& board, int64_t version) override;
  grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out, uint64_t* total,
                    int64_t* version) override;
  grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                      uint64_t* total, bool* found, int64_t* version) override;
  grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found,
                      int64_t* version) override;
  grpc::Status Version(const Board& board, int64_t* out) override;

 private:
  std::string Key(const Board& board, const char* part) const;
  grpc::Status ReadPage(const std::vector<std::string>& command, std::vector<RankedEntry>* out, uint64_t* total,
                        bool* found, int64_t* version);

  storage::RedisPool* redis_;
  const std::string prefix_;
};

}  // namespace metropolis::ratings
