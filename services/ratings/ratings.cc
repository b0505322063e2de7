#include "services/ratings/ratings.h"

#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include "engine/hex.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/negative_control.h"
#include "services/ratings/rate.h"

namespace metropolis::ratings {
namespace {

constexpr uint32_t kDefaultPage = 50, kMaxPage = 500;
constexpr int kRebuildBatch = 5000;
// How long a ladder's parameters and current season are reused without asking
// PostgreSQL: a new season shows within this time.
constexpr services::Millis kBoardCacheMs = 5000;
// A board in Redis behind PostgreSQL is read again this many times, after
// pauses growing from kCatchUpPause, before it is rebuilt: a rating committed
// a moment ago reaches Redis within milliseconds (the rating's own call writes
// it right after its commit), a lost write never does.
constexpr int kCatchUpReads = 3;
constexpr auto kCatchUpPause = std::chrono::milliseconds(5);

constexpr int kMaxSeats = 4;

bool ValidDigest(const std::string& digest) { return digest.size() == 64 && IsLowerHex(digest); }

// Why a result on a registered board is not to be rated, or empty.
std::string WhyNotRated(const v1::GameOutcome& outcome, const ResultToRate& result) {
  std::set<int64_t> ids;
  for (int64_t id : result.identities) {
    if (id != 0 && !ids.insert(id).second) return "not rated: identity " + std::to_string(id) + " holds two seats";
  }
  if (ids.empty()) return "not rated: no seat has an identity";
  GameResultInput input;
  input.winner = outcome.result().winner();
  input.resigned = outcome.result().reason() == v1::END_REASON_RESIGNED;
  for (int s = 0; s < outcome.seats_size(); ++s) {
    input.victory_points.push_back(int(outcome.result().vp(s)));
    input.forfeited.push_back(outcome.seats(s).forfeited());
  }
  std::vector<int> ranks;
  std::string why;
  if (!RanksFromResult(input, &ranks, &why)) return why.rfind("not rated", 0) == 0 ? why : "not rated: " + why;
  return "";
}

grpc::Status NotFound(const std::string& message) { return {grpc::StatusCode::NOT_FOUND, message}; }

grpc::Status ConflictingResult(const std::string& game_id, RatingsMetrics* metrics) {
  if (metrics) metrics->ConflictingResult();
  return {grpc::StatusCode::ALREADY_EXISTS,
          "game " + game_id + " was rated from a different result (another digest or other places); nothing changed"};
}

std::string BoardKey(const Board& b) { return b.ladder + "/" + std::to_string(b.season); }

// A read the cache did not answer, whatever the reason: the board cannot be
// served now, and the caller retries. The cache's own message is kept whole.
grpc::Status CacheDown(const grpc::Status& s) {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE) return s;
  return {grpc::StatusCode::UNAVAILABLE, "leaderboard cache unavailable: " + s.error_message()};
}

// An error reply (INTERNAL), not a lost connection (UNAVAILABLE): Redis is
// reachable but did not take the write (NOPERM, OOM).
bool Refused(const grpc::Status& s) { return s.error_code() != grpc::StatusCode::UNAVAILABLE; }

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

Ratings::Ratings(RatingStore* store, LeaderboardCache* cache, StoredGames* replays, LadderDirectory* accounts,
                 RatingsOptions options)
    : store_(store),
      cache_(cache),
      replays_(replays),
      accounts_(accounts),
      metrics_(options.metrics),
      clock_(services::ClockOrSystem(options.clock)),
      compare_versions_(options.compare_versions && !services::ProtectionRemoved("board_versions")) {}

uint64_t Ratings::rebuilds() const {
  std::lock_guard lock(mutex_);
  return rebuilds_;
}

grpc::Status Ratings::Prepare(const v1::RateGameRequest& request, ResultToRate* out) const {
  const v1::GameOutcome& o = request.outcome();
  if (request.game_id().empty() || request.game_id().size() > 64)
    return {grpc::StatusCode::INVALID_ARGUMENT, "game_id: 1 to 64 characters"};
  if (!ValidDigest(request.digest()))
    return {grpc::StatusCode::INVALID_ARGUMENT, "digest: 64 lower-case hex digits (StoreGameResponse.digest)"};
  if (o.seats_size() < 2 || o.seats_size() > kMaxSeats)
    return {grpc::StatusCode::INVALID_ARGUMENT, "outcome.seats: 2 to 4 seats"};
  if (o.result().vp_size() != o.seats_size())
    return {grpc::StatusCode::INVALID_ARGUMENT, "outcome.result.vp: one per seat"};
  if (o.result().winner() < -1 || o.result().winner() >= o.seats_size())
    return {grpc::StatusCode::INVALID_ARGUMENT, "outcome.result.winner: a seat or -1"};
  out->game_id = request.game_id();
  out->digest = request.digest();
  out->ladder = o.ladder();
  out->season = int(o.season());
  GameResultInput result;
  result.winner = o.result().winner();
  result.resigned = o.result().reason() == v1::END_REASON_RESIGNED;
  for (int s = 0; s < o.seats_size(); ++s) {
    if (o.seats(s).identity_id() < 0)
      return {grpc::StatusCode::INVALID_ARGUMENT, "outcome.seats[" + std::to_string(s) + "].identity_id: negative"};
    out->identities.push_back(o.seats(s).identity_id());
    result.victory_points.push_back(int(o.result().vp(s)));
    result.forfeited.push_back(o.seats(s).forfeited());
  }
  // The places are kept whenever the result gives them, to compare a result
  // sent again; why_not is the first reason not to rate, in the order the
  // service always gave them.
  std::string why_ranks;
  if (!RanksFromResult(result, &out->places, &why_ranks)) out->places.clear();
  if (out->ladder.empty()) {
    out->why_not = "not rated: the game belongs to no ladder";
    return grpc::Status::OK;
  }
  return grpc::Status::OK;
}

grpc::Status Ratings::RateGame(const v1::RateGameRequest& request, v1::RateGameResponse* out) {
  ResultToRate result;
  if (grpc::Status s = Prepare(request, &result); !s.ok()) return s;
  // Replays first (one key lookup there): a confirmed result goes straight to
  // the rating transaction, whose claim of the game finds a decided game and
  // answers the same result as then or refuses another (RatingStore::RateGame).
  // rated_games is read here only when the path cannot go on — Replays does not
  // confirm, has no such game or cannot answer, or Accounts cannot give the
  // ladder — so that a game decided before is still answered as then (the same
  // result) or refused with ALREADY_EXISTS (another) whoever is down.
  auto decided_or = [&](const std::function<grpc::Status()>& otherwise) -> grpc::Status {
    Decision decided;
    bool found = false;
    if (grpc::Status s = store_->Decided(result.game_id, &decided, &found); !s.ok()) return s;
    if (!found) return otherwise();
    if (!SameResult(decided, result)) return ConflictingResult(result.game_id, metrics_);
    return store_->LoadDecision(result.game_id, out);
  };
  bool confirmed = false;
  if (grpc::Status s = replays_->Confirm(result.game_id, result.digest, &confirmed); !s.ok()) {
    return decided_or([&]() -> grpc::Status {
      if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
        return {grpc::StatusCode::FAILED_PRECONDITION,
                "game " + result.game_id + " is not stored: store it with Replays.StoreGame first"};
      }
      return {grpc::StatusCode::UNAVAILABLE, "replays could not confirm game " + result.game_id + " (" +
                                                 services::StatusCodeName(s.error_code()) + ": " + s.error_message() +
                                                 "); retry"};
    });
  }
  if (!confirmed) {
    return decided_or([&]() -> grpc::Status {
      if (metrics_) metrics_->DigestNotConfirmed();
      return {grpc::StatusCode::INVALID_ARGUMENT,
              "digest: replays holds game " + result.game_id + " with another digest; the result is not rated"};
    });
  }
  Board board;
  if (result.why_not.empty()) {
    LadderInfo info;
    grpc::Status s = LadderOf(result.ladder, &info);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
      result.why_not = "not rated: ladder '" + result.ladder + "' is not registered";
    } else if (!s.ok()) {
      return decided_or([&] { return s; });
    } else if (result.season == 0) {
      result.why_not = "not rated: the game has no season";
    } else if (result.season > info.latest_season) {
      result.why_not =
          "not rated: season " + std::to_string(result.season) + " of ladder '" + result.ladder + "' is not registered";
    } else {
      board = {result.ladder, result.season, info.placement_games, info.params};
    }
  }
  if (result.why_not.empty()) result.why_not = WhyNotRated(request.outcome(), result);
  std::vector<StoredRating> updated;
  int64_t version = 0;
  if (grpc::Status s = store_->RateGame(result, board, out, &updated, &version); !s.ok()) {
    if (s.error_code() == grpc::StatusCode::ALREADY_EXISTS && metrics_) metrics_->ConflictingResult();
    return s;
  }
  if (updated.empty()) return grpc::Status::OK;
  // Committed in PostgreSQL: the rating is done whatever happens to Redis. A
  // write that does not land leaves the board's version in Redis behind
  // PostgreSQL's, so the next read through any replica rebuilds it.
  const grpc::Status written = cache_->Apply(board, updated, version);
  if (written.ok()) return grpc::Status::OK;
  if (Refused(written)) {
    if (metrics_) metrics_->LeaderboardWriteFailed(RatingsMetrics::WriteFailure::kRefused);
    services::LogWarning(
        "leaderboard write refused by Redis (may this service's Redis user write the leaderboard keys?); the rating "
        "is in PostgreSQL and the board is rebuilt on its next read",
        {{"board", BoardKey(board)},
         {"version", std::to_string(version)},
         {"game", result.game_id},
         {"error", written.error_message()}});
  } else {
    if (metrics_) metrics_->LeaderboardWriteFailed(RatingsMetrics::WriteFailure::kUnavailable);
    services::LogWarning(
        "leaderboard write failed; the rating is in PostgreSQL and the board is rebuilt on its next "
        "read",
        {{"board", BoardKey(board)},
         {"version", std::to_string(version)},
         {"game", result.game_id},
         {"error", written.error_message()}});
  }
  return grpc::Status::OK;
}

grpc::Status Ratings::LadderOf(const std::string& ladder, LadderInfo* out, Staleness staleness, bool* stale) {
  const services::Millis now = clock_->Now();
  if (stale) *stale = false;
  {
    std::lock_guard lock(mutex_);
    auto it = ladders_.find(ladder);
    if (it != ladders_.end() && it->second.until > now) {
      *out = it->second.info;
      return grpc::Status::OK;
    }
  }
  if (grpc::Status s = accounts_->Ladder(ladder, out); !s.ok()) {
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
      std::lock_guard lock(mutex_);
      ladders_.erase(ladder);  // deleted: not served stale either
      return s;
    }
    if (staleness == Staleness::kStaleWhenUnavailable) {
      std::lock_guard lock(mutex_);
      if (auto it = ladders_.find(ladder); it != ladders_.end()) {
        *out = it->second.info;  // left expired: the next read asks Accounts again
        if (stale) *stale = true;
        return grpc::Status::OK;
      }
    }
    return {grpc::StatusCode::UNAVAILABLE, "accounts could not give ladder '" + ladder + "' (" +
                                               services::StatusCodeName(s.error_code()) + ": " + s.error_message() +
                                               ")"};
  }
  std::lock_guard lock(mutex_);
  if (ladders_.size() > 10'000) ladders_.clear();
  ladders_[ladder] = {*out, now + kBoardCacheMs};
  return grpc::Status::OK;
}

grpc::Status Ratings::Resolve(const std::string& ladder, uint32_t season, Board* out) {
  if (ladder.empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "ladder: required"};
  LadderInfo info;
  bool stale = false;
  if (grpc::Status s = LadderOf(ladder, &info, Staleness::kStaleWhenUnavailable, &stale); !s.ok()) {
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) return NotFound("ladder '" + ladder + "' does not exist");
    return s;
  }
  // A season missing from a stale copy may have begun since: only Accounts can
  // say it does not exist.
  auto no_season = [&](const std::string& message) {
    if (!stale) return NotFound(message);
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        message + " in the copy read before Accounts became unreachable; retry");
  };
  if (season == 0 && info.latest_season == 0) return no_season("ladder '" + ladder + "' has no season yet");
  if (int64_t(season) > info.latest_season)
    return no_season("ladder '" + ladder + "' has no season " + std::to_string(season));
  out->ladder = ladder;
  out->season = season ? int(season) : info.latest_season;
  out->params = info.params;
  out->placement_games = info.placement_games;
  return grpc::Status::OK;
}

std::shared_ptr<std::mutex> Ratings::RebuildLock(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto& m = rebuild_locks_[key];
  if (!m) m = std::make_shared<std::mutex>();
  return m;
}

grpc::Status Ratings::Rebuild(const Board& board, uint64_t* players, Start from) {
  bool refused = false;
  return RebuildBoard(board, players, from, &refused);
}

grpc::Status Ratings::RebuildBoard(const Board& board, uint64_t* players, Start from, bool* refused) {
  const std::string key = BoardKey(board);
  std::shared_ptr<std::mutex> rebuilding = RebuildLock(key);
  std::lock_guard one_at_a_time(*rebuilding);
  const auto start = std::chrono::steady_clock::now();
  *players = 0;
  *refused = false;
  // Redis failing mid-scan stops it; the board's version stays behind.
  grpc::Status redis_error = grpc::Status::OK;
  auto failed = [&](const grpc::Status& s) {
    redis_error = s;
    *refused = Refused(s);
  };
  if (from == Start::kFromEmpty) {
    if (grpc::Status s = cache_->Clear(board); !s.ok()) failed(s);
  }
  int64_t version = 0;
  grpc::Status scanned = grpc::Status::OK;
  if (redis_error.ok()) {
    scanned = store_->ScanAll(board, kRebuildBatch, &version, [&](const std::vector<StoredRating>& batch) {
      if (grpc::Status s = cache_->Apply(board, batch); !s.ok()) {
        failed(s);
        return false;
      }
      *players += batch.size();
      return true;
    });
  }
  if (scanned.ok() && redis_error.ok()) {
    if (grpc::Status s = cache_->MarkBuilt(board, version); !s.ok()) failed(s);
  }
  if (!redis_error.ok()) {
    if (metrics_)
      metrics_->LeaderboardWriteFailed(*refused ? RatingsMetrics::WriteFailure::kRefused
                                                : RatingsMetrics::WriteFailure::kUnavailable);
    services::LogWarning(*refused ? "leaderboard rebuild refused by Redis (may this service's Redis user write the "
                                    "leaderboard keys?)"
                                  : "leaderboard rebuild failed",
                         {{"board", key}, {"error", redis_error.error_message()}});
    return CacheDown(redis_error);
  }
  if (!scanned.ok()) return scanned;
  {
    std::lock_guard lock(mutex_);
    ++rebuilds_;
  }
  if (metrics_) metrics_->LeaderboardRebuilt();
  services::LogInfo(
      "leaderboard rebuilt from PostgreSQL",
      {{"board", key},
       {"version", std::to_string(version)},
       {"cleared", from == Start::kFromEmpty ? "true" : "false"},
       {"players", std::to_string(*players)},
       {"ms",
        std::to_string(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count())}});
  return grpc::Status::OK;
}

grpc::Status Ratings::RebuildAll(uint64_t* players) {
  std::vector<std::pair<std::string, int>> keys;
  if (grpc::Status s = store_->BoardKeys(&keys); !s.ok()) return s;
  *players = 0;
  for (const auto& [ladder, season] : keys) {
    Board board;
    if (grpc::Status s = Resolve(ladder, uint32_t(season), &board); !s.ok()) return s;
    uint64_t n = 0;
    if (grpc::Status s = Rebuild(board, &n); !s.ok()) return s;
    *players += n;
  }
  return grpc::Status::OK;
}

grpc::Status Ratings::ReadFresh(const Board& board, const CacheRead& read, bool* from_pg) {
  *from_pg = false;
  int64_t in_redis = -1;
  auto read_redis = [&](bool* built) -> grpc::Status {
    in_redis = -1;
    if (grpc::Status s = read(&in_redis); !s.ok()) return CacheDown(s);
    *built = in_redis >= 0;
    return grpc::Status::OK;
  };
  bool built = false;
  int64_t in_pg = 0;
  bool ahead = false;
  if (!compare_versions_) {
    // The negative control: whatever board Redis holds is served.
    if (grpc::Status s = read_redis(&built); !s.ok() || built) return s;
  } else {
    if (grpc::Status s = store_->BoardVersion(board, &in_pg); !s.ok()) return s;
    for (int attempt = 0;; ++attempt) {
      if (grpc::Status s = read_redis(&built); !s.ok()) return s;
      if (!built) break;
      if (in_redis == in_pg) return grpc::Status::OK;
      if (in_redis > in_pg) {
        // Ahead: a rating committed since PostgreSQL was asked, or PostgreSQL
        // went back (restored from a backup) and Redis holds what it lost.
        int64_t now = 0;
        if (grpc::Status s = store_->BoardVersion(board, &now); !s.ok()) return s;
        if (now >= in_redis) return grpc::Status::OK;
        ahead = true;
        break;
      }
      if (attempt == kCatchUpReads) break;
      std::this_thread::sleep_for(kCatchUpPause * (1 << attempt));
    }
    services::LogInfo("leaderboard in Redis differs from PostgreSQL; rebuilding it",
                      {{"board", BoardKey(board)},
                       {"redis_version", built ? std::to_string(in_redis) : "none"},
                       {"pg_version", std::to_string(in_pg)}});
  }
  uint64_t players = 0;
  bool refused = false;
  if (grpc::Status s = RebuildBoard(board, &players, ahead ? Start::kFromEmpty : Start::kOverRedis, &refused);
      !s.ok()) {
    if (!refused || !compare_versions_) return s;
    // Redis answers but takes no writes: PostgreSQL, the truth, serves the read.
    if (metrics_) metrics_->LeaderboardServedFromPostgres();
    *from_pg = true;
    return grpc::Status::OK;
  }
  if (grpc::Status s = read_redis(&built); !s.ok()) return s;
  if (built && in_redis >= in_pg) return grpc::Status::OK;
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
  bool found = true, from_pg = false;
  grpc::Status s = ReadFresh(
      board,
      [&](int64_t* version) {
        if (request.around_identity_id() != 0)
          return cache_->Around(board, request.around_identity_id(), limit, &entries, &total, &found, version);
        return cache_->Page(board, request.offset(), limit, &entries, &total, version);
      },
      &from_pg);
  if (s.ok() && from_pg) {
    s = request.around_identity_id() != 0
            ? store_->Around(board, request.around_identity_id(), limit, &entries, &total, &found)
            : store_->Page(board, request.offset(), limit, &entries, &total);
  }
  if (!s.ok()) return s;
  if (!found) {
    return {grpc::StatusCode::NOT_FOUND, "identity " + std::to_string(request.around_identity_id()) +
                                             " is not ranked on " + BoardKey(board) +
                                             " (no rating, or still in placement)"};
  }
  std::vector<int64_t> ids;
  for (const RankedEntry& e : entries) ids.push_back(e.identity_id);
  std::unordered_map<int64_t, std::string> names;
  if (s = accounts_->Names(ids, &names); !s.ok()) {
    // The board without names is still the board; a name shows again once
    // Accounts answers.
    services::LogWarning("leaderboard served without names", {{"error", s.error_message()}});
  }
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
  bool found = false, from_pg = false;
  grpc::Status s = ReadFresh(
      board,
      [&](int64_t* version) { return cache_->Lookup(board, request.identity_id(), &entry, &total, &found, version); },
      &from_pg);
  if (s.ok() && from_pg) s = store_->Lookup(board, request.identity_id(), &entry, &total, &found);
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
  HistoryPage page;
  if (grpc::Status s = ReadHistoryPage(request.limit(), request.page_token(), &page); !s.ok()) return s;
  return store_->History(board, request.identity_id(), page, out);
}

}  // namespace metropolis::ratings
