// The ratings' source of truth in PostgreSQL: rating a game is one transaction
// that claims the game in rated_games (with the result's digest, seats and
// places), locks the players' rating rows (in identity order, so concurrent
// games never deadlock and one player's updates are serialised), writes the new
// ratings and their history rows, and commits them together — a game is rated
// exactly once however often it is sent, and a different result for a game
// already decided is refused. Only the ratings' own tables are read.
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

// A result to rate, as the ratings logic prepared it from the request.
struct ResultToRate {
  std::string game_id, digest, ladder;
  int season = 0;
  std::vector<int64_t> identities;  // by seat, 0 for none
  std::vector<int> places;          // by seat; empty when the result gives none
  std::string why_not;              // non-empty: recorded as not rated, with this reason
};

// What rated_games holds of a decided game.
struct Decision {
  std::string digest;  // '' for a game decided before results carried digests
  std::vector<int64_t> identities;
  std::vector<int> places;
};

struct StoredRating {
  int64_t identity_id = 0;
  double mu = 0, sigma = 0;
  int games = 0;
};

// A player on a board as reads show it.
struct RankedEntry {
  uint64_t rank = 0;  // 1-based; 0 while provisional
  int64_t identity_id = 0;
  double ordinal = 0, mu = 0, sigma = 0;
  int games = 0;
};

// Whether `result` is the one `decided` was made from: same digest, seats and
// places. A game decided before digests were kept is taken as the same. The
// negative control "one_result" makes every result the same (a different
// second result answered as the first instead of refused).
bool SameResult(const Decision& decided, const ResultToRate& result);

class RatingStore {
 public:
  explicit RatingStore(storage::PgPool* pool) : pool_(pool) {}

  // Decides a game once (see ratings.proto): records it, and rates it on
  // `board` unless result.why_not says why not. `updated` receives the new
  // ratings when this call rated it, for the leaderboard cache, and
  // `board_version` the board's version this rating made (board_versions,
  // bumped in the same transaction; 0 when nothing was rated). A game decided
  // before from the same result (SameResult) is answered as then, with
  // already_rated; from another, ALREADY_EXISTS and nothing changes.
  grpc::Status RateGame(const ResultToRate& result, const Board& board, v1::RateGameResponse* out,
                        std::vector<StoredRating>* updated, int64_t* board_version);
  // A board's version: what every read compares with the version the board in
  // Redis reflects (0 for a board nothing was rated on since versions exist).
  grpc::Status BoardVersion(const Board& board, int64_t* out);
  // What was decided for a game; *found false when nothing was.
  grpc::Status Decided(const std::string& game_id, Decision* out, bool* found);
  // The decision as RateGame answered it (already_rated set).
  grpc::Status LoadDecision(const std::string& game_id, v1::RateGameResponse* out);

  // Every board (ladder and season) that has ratings, for the rebuild at start.
  grpc::Status BoardKeys(std::vector<std::pair<std::string, int>>* out);
  // Every rating of a board, in batches of `batch` handed to `fn` in no
  // particular order, from one snapshot (a server-side cursor: one scan of the
  // board however large), and `version` the board's version in that snapshot.
  // `fn` returns false to stop.
  grpc::Status ScanAll(const Board& board, int batch, int64_t* version,
                       const std::function<bool(const std::vector<StoredRating>&)>& fn);
  // The board read from PostgreSQL, ranked as Redis ranks it (ordinal, then the
  // identity as text, both descending): what a read serves when the board in
  // Redis is stale and Redis refuses its rebuild. A page from `offset`; the
  // page of `limit` around a ranked player (*found false when not ranked); one
  // player (*found false when not rated).
  grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                    uint64_t* total);
  grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                      uint64_t* total, bool* found);
  grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found);
  grpc::Status Get(const Board& board, int64_t identity_id, StoredRating* out, bool* found);
  grpc::Status History(const Board& board, int64_t identity_id, uint32_t limit, const std::string& page_token,
                       v1::RatingHistory* out);

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::ratings
