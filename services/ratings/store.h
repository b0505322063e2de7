// Where the ratings live (the truth; PostgreSQL in production,
// pg_rating_store.h): rating a game is one atomic step that claims the game
// (with the result's digest, seats and places), locks the players' ratings so
// that one player's updates are serialised, writes the new ratings and their
// history, and bumps the board's version — a game is rated exactly once however
// often it is sent, and a different result for a game already decided is
// refused. The rules it applies are rate.h's; this is only what is stored.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

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

// A page of a player's history: at most `limit` rows older than the row
// `before_id` (rate.h's ReadHistoryPage reads it from a request).
struct HistoryPage {
  uint32_t limit = 0;
  int64_t before_id = 0;
};

// Every call answers UNAVAILABLE when the store cannot be reached, and
// changes nothing then.
class RatingStore {
 public:
  virtual ~RatingStore() = default;

  // Decides a game once (see ratings.proto): records it, and rates it on
  // `board` unless result.why_not says why not. `updated` receives the new
  // ratings when this call rated it, for the leaderboard cache, and
  // `board_version` the board's version this rating made (board_versions,
  // bumped in the same transaction; 0 when nothing was rated). A game decided
  // before from the same result (SameResult) is answered as then, with
  // already_rated; from another, ALREADY_EXISTS and nothing changes. The
  // ratings are rate.h's RateSeats over the players' ratings read under the lock.
  virtual grpc::Status RateGame(const ResultToRate& result, const Board& board, v1::RateGameResponse* out,
                                std::vector<StoredRating>* updated, int64_t* board_version) = 0;
  // A board's version: what every read compares with the version the board in
  // Redis reflects (0 for a board nothing was rated on since versions exist).
  virtual grpc::Status BoardVersion(const Board& board, int64_t* out) = 0;
  // What was decided for a game; *found false when nothing was.
  virtual grpc::Status Decided(const std::string& game_id, Decision* out, bool* found) = 0;
  // The decision as RateGame answered it (already_rated set).
  virtual grpc::Status LoadDecision(const std::string& game_id, v1::RateGameResponse* out) = 0;

  // Every board (ladder and season) that has ratings, for the rebuild at start.
  virtual grpc::Status BoardKeys(std::vector<std::pair<std::string, int>>* out) = 0;
  // Every rating of a board, in batches of `batch` handed to `fn` in no
  // particular order, from one snapshot (one scan of the board however large),
  // and `version` the board's version in that snapshot.
  // `fn` returns false to stop.
  virtual grpc::Status ScanAll(const Board& board, int batch, int64_t* version,
                               const std::function<bool(const std::vector<StoredRating>&)>& fn) = 0;
  // The board read from the store, ranked as Redis ranks it (ordinal, then the
  // identity as text, both descending; players ranked from the board's
  // placement games on), each read from one snapshot: what a read serves when
  // the board in Redis is stale and Redis refuses its rebuild. A page from
  // `offset`; the page of `limit` around a ranked player (AroundStart; *found
  // false when not ranked); one player (*found false when not rated; rank 0
  // while provisional).
  virtual grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                            uint64_t* total) = 0;
  virtual grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                              uint64_t* total, bool* found) = 0;
  virtual grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total,
                              bool* found) = 0;
  // A player's games on a board, newest first; next_page_token is set when
  // older rows remain.
  virtual grpc::Status History(const Board& board, int64_t identity_id, const HistoryPage& page,
                               v1::RatingHistory* out) = 0;
};

}  // namespace metropolis::ratings
