// The ratings in PostgreSQL (migrations/ratings/): rating a game is one
// transaction that claims the game in rated_games, locks the players' rating
// rows in identity order (so concurrent games never deadlock), writes the new
// ratings and their history rows and bumps board_versions, and commits them
// together. Only the ratings' own tables are read.
#pragma once

#include "services/ratings/store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::ratings {

class PgRatingStore final : public RatingStore {
 public:
  explicit PgRatingStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status RateGame(const ResultToRate& result, const Board& board, v1::RateGameResponse* out,
                        std::vector<StoredRating>* updated, int64_t* board_version) override;
  grpc::Status BoardVersion(const Board& board, int64_t* out) override;
  grpc::Status Decided(const std::string& game_id, Decision* out, bool* found) override;
  grpc::Status LoadDecision(const std::string& game_id, v1::RateGameResponse* out) override;
  grpc::Status BoardKeys(std::vector<std::pair<std::string, int>>* out) override;
  // A server-side cursor in a repeatable-read transaction.
  grpc::Status ScanAll(const Board& board, int batch, int64_t* version,
                       const std::function<bool(const std::vector<StoredRating>&)>& fn) override;
  grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                    uint64_t* total) override;
  grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                      uint64_t* total, bool* found) override;
  grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found) override;
  grpc::Status History(const Board& board, int64_t identity_id, const HistoryPage& page,
                       v1::RatingHistory* out) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::ratings
