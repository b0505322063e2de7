#include "services/ratings/ratings.h"

#include <chrono>

#include "lib/common/log.h"
#include "services/ratings/metrics.h"

namespace metropolis::ratings {
namespace {

constexpr uint32_t kDefaultPage = 50, kMaxPage = 500;
constexpr int kRebuildBatch = 5000;
// How long a ladder's parameters and current season are reused without asking
// PostgreSQL: a new season shows within this time.
constexpr auto kBoardCacheTime = std::chrono::seconds(5);

std::string BoardKey(const Board& b) { return b.ladder + "/" + std::to_string(b.season); }

grpc::Status CacheDown(const std::exception& e) {
  return {grpc::StatusCode::UNAVAILABLE, std::string("leaderboard cache unavailable: ") + e.what()};
}

void ToEntry(const RankedEntry& r, const std::unordered_map<int64_t, std::string>& names, v1::LeaderboardEntry* e) {
  e->set_rank(r.rank);
  e->set_identity_id(r.identity_id);
  auto it = names.find(r.identity_id);
  if (it != names.end()) e->set_name(it->second);
  e->set_ordinal(r.ordinal);
  e->set_mu(r.mu);
  e->set_sigma(r.sigma);
  e->set_games(uint32_t(r.games));
}

}  // namespace

Ratings::Ratings(RatingStore* store, LeaderboardCache* cache) : store_(store), cache_(cache) {}

uint64_t Ratings::rebuilds() const {
  std::lock_guard lock(mutex_);
  return rebuilds_;
}

grpc::Status Ratings::RateGame(const std::string& game_id, v1::RateGameResponse* out) {
  Board board;
  std::vector<StoredRating> updated;
  if (grpc::Status s = store_->RateGame(game_id, out, &board, &updated); !s.ok()) return s;
  if (updated.empty()) return grpc::Status::OK;
  // Committed in PostgreSQL: the rating is done whatever happens to Redis.
  try {
    cache_->Apply(board, updated);
  } catch (const std::exception& e) {
    RatingsMetrics::Get().LeaderboardWriteFailed();
    services::LogWarning("leaderboard write failed; the board is rebuilt on its next use",
                         {{"board", BoardKey(board)}, {"game", game_id}, {"error", e.what()}});
    std::lock_guard lock(mutex_);
    stale_.insert(BoardKey(board));
  }
  return grpc::Status::OK;
}

grpc::Status Ratings::Resolve(const std::string& ladder, uint32_t season, Board* out) {
  const std::string key = ladder + "/" + std::to_string(season);
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    auto it = boards_.find(key);
    if (it != boards_.end() && it->second.until > now) {
      *out = it->second.board;
      return grpc::Status::OK;
    }
  }
  if (grpc::Status s = store_->ResolveBoard(ladder, season, out); !s.ok()) return s;
  std::lock_guard lock(mutex_);
  if (boards_.size() > 10'000) boards_.clear();
  boards_[key] = {*out, now + kBoardCacheTime};
  return grpc::Status::OK;
}

std::shared_ptr<std::mutex> Ratings::RebuildLock(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto& m = rebuild_locks_[key];
  if (!m) m = std::make_shared<std::mutex>();
  return m;
}

grpc::Status Ratings::Rebuild(const Board& board, uint64_t* players) {
  const std::string key = BoardKey(board);
  std::shared_ptr<std::mutex> rebuilding = RebuildLock(key);
  std::lock_guard one_at_a_time(*rebuilding);
  {
    // Cleared before reading PostgreSQL: a write failing from now on marks it again.
    std::lock_guard lock(mutex_);
    stale_.erase(key);
  }
  const auto start = std::chrono::steady_clock::now();
  *players = 0;
  // Redis failing mid-scan stops it; the board stays stale.
  std::string redis_error;
  grpc::Status scanned = store_->ScanAll(board, kRebuildBatch, [&](const std::vector<StoredRating>& batch) {
    try {
      cache_->Apply(board, batch);
    } catch (const std::exception& e) {
      redis_error = e.what();
      return false;
    }
    *players += batch.size();
    return true;
  });
  if (scanned.ok()) {
    try {
      cache_->MarkBuilt(board);
    } catch (const std::exception& e) {
      redis_error = e.what();
    }
  }
  if (!scanned.ok() || !redis_error.empty()) {
    std::lock_guard lock(mutex_);
    stale_.insert(key);
    if (!redis_error.empty()) return {grpc::StatusCode::UNAVAILABLE, "leaderboard cache unavailable: " + redis_error};
    return scanned;
  }
  {
    std::lock_guard lock(mutex_);
    ++rebuilds_;
  }
  RatingsMetrics::Get().LeaderboardRebuilt();
  services::LogInfo(
      "leaderboard rebuilt from PostgreSQL",
      {{"board", key},
       {"players", std::to_string(*players)},
       {"ms",
        std::to_string(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count())}});
  return grpc::Status::OK;
}

grpc::Status Ratings::RebuildAll(uint64_t* players) {
  std::vector<Board> boards;
  if (grpc::Status s = store_->Boards(&boards); !s.ok()) return s;
  *players = 0;
  for (const Board& board : boards) {
    uint64_t n = 0;
    if (grpc::Status s = Rebuild(board, &n); !s.ok()) return s;
    *players += n;
  }
  return grpc::Status::OK;
}

grpc::Status Ratings::ReadBuilt(const Board& board, const std::function<bool()>& read) {
  bool stale;
  {
    std::lock_guard lock(mutex_);
    stale = stale_.count(BoardKey(board)) > 0;
  }
  try {
    if (!stale && read()) return grpc::Status::OK;
  } catch (const std::exception& e) {
    return CacheDown(e);
  }
  uint64_t players = 0;
  if (grpc::Status s = Rebuild(board, &players); !s.ok()) return s;
  try {
    if (read()) return grpc::Status::OK;
  } catch (const std::exception& e) {
    return CacheDown(e);
  }
  return {grpc::StatusCode::UNAVAILABLE, "leaderboard " + BoardKey(board) + " was lost again while rebuilding"};
}

grpc::Status Ratings::GetLeaderboard(const v1::GetLeaderboardRequest& request, v1::Leaderboard* out) {
  const uint32_t limit = request.limit() ? request.limit() : kDefaultPage;
  if (limit > kMaxPage) return {grpc::StatusCode::INVALID_ARGUMENT, "limit: at most 500"};
  if (request.around_identity_id() < 0) return {grpc::StatusCode::INVALID_ARGUMENT, "around_identity_id: negative"};
  if (request.around_identity_id() != 0 && request.offset() != 0)
    return {grpc::StatusCode::INVALID_ARGUMENT, "offset and around_identity_id exclude each other"};
  Board board;
  if (grpc::Status s = Resolve(request.ladder(), request.season(), &board); !s.ok()) return s;
  std::vector<RankedEntry> entries;
  uint64_t total = 0;
  bool found = true;
  grpc::Status s = ReadBuilt(board, [&] {
    if (request.around_identity_id() != 0)
      return cache_->Around(board, request.around_identity_id(), limit, &entries, &total, &found);
    return cache_->Page(board, request.offset(), limit, &entries, &total);
  });
  if (!s.ok()) return s;
  if (!found) {
    return {grpc::StatusCode::NOT_FOUND, "identity " + std::to_string(request.around_identity_id()) +
                                             " is not ranked on " + BoardKey(board) +
                                             " (no rating, or still in placement)"};
  }
  std::vector<int64_t> ids;
  for (const RankedEntry& e : entries) ids.push_back(e.identity_id);
  std::unordered_map<int64_t, std::string> names;
  if (s = store_->Names(ids, &names); !s.ok()) return s;
  out->set_ladder(board.ladder);
  out->set_season(uint32_t(board.season));
  out->set_total(total);
  for (const RankedEntry& e : entries) ToEntry(e, names, out->add_entries());
  return grpc::Status::OK;
}

grpc::Status Ratings::GetPlayerRating(const v1::GetPlayerRatingRequest& request, v1::PlayerRating* out) {
  if (request.identity_id() <= 0) return {grpc::StatusCode::INVALID_ARGUMENT, "identity_id: required"};
  Board board;
  if (grpc::Status s = Resolve(request.ladder(), request.season(), &board); !s.ok()) return s;
  RankedEntry entry;
  uint64_t total = 0;
  bool found = false;
  grpc::Status s =
      ReadBuilt(board, [&] { return cache_->Lookup(board, request.identity_id(), &entry, &total, &found); });
  if (!s.ok()) return s;
  if (!found) {
    return {grpc::StatusCode::NOT_FOUND,
            "identity " + std::to_string(request.identity_id()) + " has no rating on " + BoardKey(board)};
  }
  out->set_ladder(board.ladder);
  out->set_season(uint32_t(board.season));
  out->set_identity_id(request.identity_id());
  out->set_mu(entry.mu);
  out->set_sigma(entry.sigma);
  out->set_ordinal(entry.ordinal);
  out->set_games(uint32_t(entry.games));
  out->set_placement_games(uint32_t(board.placement_games));
  out->set_provisional(IsProvisional(entry.games, board.placement_games));
  out->set_rank(entry.rank);
  out->set_total(total);
  return grpc::Status::OK;
}

grpc::Status Ratings::GetRatingHistory(const v1::GetRatingHistoryRequest& request, v1::RatingHistory* out) {
  if (request.identity_id() <= 0) return {grpc::StatusCode::INVALID_ARGUMENT, "identity_id: required"};
  Board board;
  if (grpc::Status s = Resolve(request.ladder(), request.season(), &board); !s.ok()) return s;
  return store_->History(board, request.identity_id(), request.limit(), request.page_token(), out);
}

}  // namespace metropolis::ratings
