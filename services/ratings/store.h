// The ratings' source of truth in PostgreSQL: rating a game is one transaction
// that claims the game in rated_games, locks the players' rating rows (in
// identity order, so concurrent games never deadlock and one player's updates
// are serialised), writes the new ratings and their history rows, and commits
// them together — a game is rated exactly once however often it is sent.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/storage/pg_pool.h"
#include "metropolis/v1/ratings.pb.h"
#include "services/ratings/model/model.h"

namespace metropolis::ratings {

// One leaderboard: a ladder's season.
struct Board {
  std::string ladder;
  int season = 0;
  int placement_games = 0;
  RatingParams params;
};

struct StoredRating {
  int64_t identity_id = 0;
  double mu = 0, sigma = 0;
  int games = 0;
};

class RatingStore {
 public:
  explicit RatingStore(storage::PgPool* pool) : pool_(pool) {}

  // Rates a stored game once (see ratings.proto). `updated` receives the new
  // ratings when this call rated it, for the leaderboard cache; `board` the
  // board they belong to.
  grpc::Status RateGame(const std::string& game_id, v1::RateGameResponse* out, Board* board,
                        std::vector<StoredRating>* updated);

  // A ladder's season (0: its newest) with the ladder's parameters. NOT_FOUND
  // for an unknown ladder or season.
  grpc::Status ResolveBoard(const std::string& ladder, uint32_t season, Board* out);
  // Every board that has ratings, for the rebuild at start.
  grpc::Status Boards(std::vector<Board>* out);
  // Every rating of a board, in batches of `batch` handed to `fn` in no
  // particular order, from one snapshot (a server-side cursor: one scan of the
  // board however large). `fn` returns false to stop.
  grpc::Status ScanAll(const Board& board, int batch, const std::function<bool(const std::vector<StoredRating>&)>& fn);
  grpc::Status Get(const Board& board, int64_t identity_id, StoredRating* out, bool* found);
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out);
  grpc::Status History(const Board& board, int64_t identity_id, uint32_t limit, const std::string& page_token,
                       v1::RatingHistory* out);

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::ratings
