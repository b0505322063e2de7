#include "services/ratings/rate.h"

#include <cstdint>

#include "lib/common/negative_control.h"
#include "services/ratings/model/model.h"

namespace metropolis::ratings {

bool SameResult(const Decision& decided, const ResultToRate& result) {
  // The negative control: every second result taken for the first, so a
  // different one is answered as the decided game instead of refused.
  if (services::ProtectionRemoved("one_result")) return true;
  if (decided.digest.empty()) return true;
  return decided.digest == result.digest && decided.identities == result.identities && decided.places == result.places;
}

void RateSeats(const ResultToRate& result, const Board& board, const std::unordered_map<int64_t, StoredRating>& before,
               v1::RateGameResponse* out, std::vector<StoredRating>* updated) {
  const std::vector<int64_t>& identity = result.identities;
  std::vector<Rating> players;
  for (int64_t id : identity) {
    if (id == 0) {
      players.push_back(InitialRating(board.params));
    } else {
      const StoredRating& r = before.at(id);
      players.push_back(Rating{r.mu, r.sigma});
    }
  }
  const std::vector<Rating> after = RatePlackettLuce(players, result.places, board.params);
  for (size_t s = 0; s < identity.size(); ++s) {
    v1::RatingChange* change = out->add_changes();
    change->set_seat(uint32_t(s));
    change->set_identity_id(identity[s]);
    change->set_rank(uint32_t(result.places[s]));
    change->set_mu_before(players[s].mu);
    change->set_sigma_before(players[s].sigma);
    change->set_mu_after(after[s].mu);
    change->set_sigma_after(after[s].sigma);
    if (identity[s] != 0)
      updated->push_back({identity[s], after[s].mu, after[s].sigma, before.at(identity[s]).games + 1});
  }
}

uint64_t AroundStart(uint64_t ahead, uint32_t limit, uint64_t total) {
  int64_t start = int64_t(ahead) - int64_t(limit / 2);
  if (start + int64_t(limit) > int64_t(total)) start = int64_t(total) - int64_t(limit);
  if (start < 0) start = 0;
  return uint64_t(start);
}

grpc::Status ReadHistoryPage(uint32_t limit, const std::string& page_token, HistoryPage* out) {
  constexpr uint32_t kDefaultPage = 50, kMaxPage = 500;
  if (limit == 0) limit = kDefaultPage;
  if (limit > kMaxPage) return {grpc::StatusCode::INVALID_ARGUMENT, "limit: at most 500"};
  int64_t before = INT64_MAX;
  if (!page_token.empty()) {
    size_t used = 0;
    try {
      before = std::stoll(page_token, &used);
    } catch (...) {
      used = 0;
    }
    if (used != page_token.size() || before <= 0)
      return {grpc::StatusCode::INVALID_ARGUMENT, "page_token: not a token this service issued"};
  }
  *out = {limit, before};
  return grpc::Status::OK;
}

}  // namespace metropolis::ratings
