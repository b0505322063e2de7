// The ratings' rules that need no storage: rating one game's seats, whether a
// result is the one a game was decided from, where a page around a player
// starts, and reading a history page's token. The stores call them inside their
// transactions (PostgreSQL) or under their lock (the tests' fakes), so both
// rate and rank exactly alike.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "metropolis/v1/ratings.pb.h"
#include "services/ratings/store.h"

namespace metropolis::ratings {

// Whether `result` is the one `decided` was made from: same digest, seats and
// places. A game decided before digests were kept is taken as the same. The
// negative control "one_result" makes every result the same (a different
// second result answered as the first instead of refused).
bool SameResult(const Decision& decided, const ResultToRate& result);

// Rates a game on `board` from its players' ratings before it (`before`, by
// identity: every identity of result.identities other than 0, newcomers already
// at the board's initial rating). Seats without an identity play as newcomers
// whose rating is not kept. Fills out->changes (one per seat) and `updated` with
// the new ratings of the seats that have an identity, their game counts raised.
void RateSeats(const ResultToRate& result, const Board& board, const std::unordered_map<int64_t, StoredRating>& before,
               v1::RateGameResponse* out, std::vector<StoredRating>* updated);

// The first rank of the page of `limit` around a player with `ahead` ranked
// players before it, on a board of `total` ranked players: centred, kept within
// the board (the rule the Redis script and the PostgreSQL read share).
uint64_t AroundStart(uint64_t ahead, uint32_t limit, uint64_t total);

// A history request's page: `limit` 0 means 50, more than 500 is refused; the
// token is the history row the previous page stopped before (INT64_MAX for the
// first page). INVALID_ARGUMENT names the field.
grpc::Status ReadHistoryPage(uint32_t limit, const std::string& page_token, HistoryPage* out);

}  // namespace metropolis::ratings
