// In-memory fakes of the ratings' two stores (store.h, leaderboard_cache.h) for
// the hermetic tests of the ratings logic. They keep the contracts the real
// ones keep — a game decided once, rated with rate.h's rules, ranked by ordinal
// then the identity as text (both descending), a board version that advances
// only over consecutive writes — and each has a switch that makes it
// unreachable. The contract's cases (ratings_contract.h) and the database
// tests (ratings_pg_redis_test.cc) hold the real stores to the same contracts.
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

#include "services/ratings/leaderboard_cache.h"
#include "services/ratings/model/model.h"
#include "services/ratings/rate.h"
#include "services/ratings/store.h"

namespace metropolis::ratings::testing {

// Ranks `ratings` as both stores do: the players with at least `placement`
// games, by ordinal, then by the identity as text, both descending.
inline std::vector<RankedEntry> RankAsRedisDoes(const std::vector<StoredRating>& ratings, int placement) {
  std::vector<RankedEntry> ranked;
  for (const StoredRating& r : ratings) {
    if (r.games < placement) continue;
    ranked.push_back({0, r.identity_id, Ordinal(r.mu, r.sigma), r.mu, r.sigma, r.games});
  }
  std::sort(ranked.begin(), ranked.end(), [](const RankedEntry& a, const RankedEntry& b) {
    if (a.ordinal != b.ordinal) return a.ordinal > b.ordinal;
    return std::to_string(a.identity_id) > std::to_string(b.identity_id);
  });
  for (size_t i = 0; i < ranked.size(); ++i) ranked[i].rank = i + 1;
  return ranked;
}

// The page of `limit` from `offset` of a ranked board.
inline std::vector<RankedEntry> PageOf(const std::vector<RankedEntry>& ranked, uint64_t offset, uint32_t limit) {
  std::vector<RankedEntry> out;
  for (uint64_t i = offset; i < ranked.size() && i < offset + limit; ++i) out.push_back(ranked[i]);
  return out;
}

inline std::optional<uint64_t> AheadOf(const std::vector<RankedEntry>& ranked, int64_t identity_id) {
  for (size_t i = 0; i < ranked.size(); ++i)
    if (ranked[i].identity_id == identity_id) return i;
  return std::nullopt;
}

class FakeRatingStore final : public RatingStore {
 public:
  // What the store holds; Save and Restore play "the database was restored from
  // a backup".
  struct State {
    struct Game {
      Decision decision;
      std::string ladder, why_not;
      int season = 0;
      bool rated = false;
    };
    struct HistoryRow {
      int64_t id = 0;
      std::string game_id;
      int64_t identity_id = 0;
      int seat = 0;
      v1::RatingChange change;
    };
    std::map<std::string, Game> games;
    std::map<std::tuple<std::string, int, int64_t>, StoredRating> ratings;
    std::vector<HistoryRow> history;
    std::map<std::pair<std::string, int>, int64_t> versions;
    int64_t next_history_id = 1;
  };

  std::atomic<bool> unavailable{false};
  int64_t now_ms = 1'790'000'000'000;  // when history rows are written

  State Save() {
    std::lock_guard lock(mutex_);
    return state_;
  }
  void Restore(State state) {
    std::lock_guard lock(mutex_);
    state_ = std::move(state);
  }
  size_t RatedGames() {
    std::lock_guard lock(mutex_);
    return state_.games.size();
  }
  size_t Ratings() {
    std::lock_guard lock(mutex_);
    return state_.ratings.size();
  }
  size_t HistoryRows() {
    std::lock_guard lock(mutex_);
    return state_.history.size();
  }

  grpc::Status RateGame(const ResultToRate& result, const Board& board, v1::RateGameResponse* out,
                        std::vector<StoredRating>* updated, int64_t* board_version) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    out->Clear();
    updated->clear();
    *board_version = 0;
    if (auto it = state_.games.find(result.game_id); it != state_.games.end()) {
      if (!SameResult(it->second.decision, result))
        return {grpc::StatusCode::ALREADY_EXISTS, "game " + result.game_id +
                                                      " was rated from a different result (another digest or other "
                                                      "places); nothing changed"};
      LoadLocked(result.game_id, out);
      return grpc::Status::OK;
    }
    State::Game& game = state_.games[result.game_id];
    game.decision = {result.digest, result.identities, result.places};
    game.ladder = result.ladder;
    game.season = result.season;
    game.why_not = result.why_not;
    out->set_ladder(result.ladder);
    out->set_season(uint32_t(result.season));
    if (!result.why_not.empty()) {
      out->set_not_rated_reason(result.why_not);
      return grpc::Status::OK;
    }
    std::unordered_map<int64_t, StoredRating> before;
    for (int64_t id : result.identities) {
      if (id == 0) continue;
      auto key = std::make_tuple(result.ladder, result.season, id);
      auto it = state_.ratings.find(key);
      if (it == state_.ratings.end()) {
        const Rating initial = InitialRating(board.params);
        it = state_.ratings.emplace(key, StoredRating{id, initial.mu, initial.sigma, 0}).first;
      }
      before[id] = it->second;
    }
    RateSeats(result, board, before, out, updated);
    for (const StoredRating& r : *updated) state_.ratings[{result.ladder, result.season, r.identity_id}] = r;
    for (const v1::RatingChange& c : out->changes()) {
      if (c.identity_id() == 0) continue;
      state_.history.push_back({state_.next_history_id++, result.game_id, c.identity_id(), int(c.seat()), c});
    }
    game.rated = true;
    *board_version = ++state_.versions[{result.ladder, result.season}];
    out->set_rated(true);
    return grpc::Status::OK;
  }

  grpc::Status BoardVersion(const Board& board, int64_t* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    auto it = state_.versions.find({board.ladder, board.season});
    *out = it == state_.versions.end() ? 0 : it->second;
    return grpc::Status::OK;
  }
  grpc::Status Decided(const std::string& game_id, Decision* out, bool* found) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    auto it = state_.games.find(game_id);
    *found = it != state_.games.end();
    if (*found) *out = it->second.decision;
    return grpc::Status::OK;
  }
  grpc::Status LoadDecision(const std::string& game_id, v1::RateGameResponse* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    out->Clear();
    LoadLocked(game_id, out);
    return grpc::Status::OK;
  }
  grpc::Status BoardKeys(std::vector<std::pair<std::string, int>>* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    std::set<std::pair<std::string, int>> keys;
    for (const auto& [key, rating] : state_.ratings) keys.insert({std::get<0>(key), std::get<1>(key)});
    out->assign(keys.begin(), keys.end());
    return grpc::Status::OK;
  }
  grpc::Status ScanAll(const Board& board, int batch, int64_t* version,
                       const std::function<bool(const std::vector<StoredRating>&)>& fn) override {
    if (unavailable) return Down();
    std::vector<StoredRating> all;
    {
      std::lock_guard lock(mutex_);
      all = BoardLocked(board);
      auto it = state_.versions.find({board.ladder, board.season});
      *version = it == state_.versions.end() ? 0 : it->second;
    }
    for (size_t i = 0; i < all.size(); i += size_t(batch)) {
      const std::vector<StoredRating> part(all.begin() + long(i), all.begin() + long(std::min(all.size(), i + batch)));
      if (!fn(part)) break;
    }
    return grpc::Status::OK;
  }
  grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                    uint64_t* total) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    const std::vector<RankedEntry> ranked = RankAsRedisDoes(BoardLocked(board), board.placement_games);
    *total = ranked.size();
    *out = PageOf(ranked, offset, limit);
    return grpc::Status::OK;
  }
  grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                      uint64_t* total, bool* found) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    const std::vector<RankedEntry> ranked = RankAsRedisDoes(BoardLocked(board), board.placement_games);
    *total = ranked.size();
    out->clear();
    const std::optional<uint64_t> ahead = AheadOf(ranked, identity_id);
    *found = ahead.has_value();
    if (*found) *out = PageOf(ranked, AroundStart(*ahead, limit, *total), limit);
    return grpc::Status::OK;
  }
  grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total,
                      bool* found) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    auto it = state_.ratings.find({board.ladder, board.season, identity_id});
    *found = it != state_.ratings.end();
    if (!*found) return grpc::Status::OK;
    const std::vector<RankedEntry> ranked = RankAsRedisDoes(BoardLocked(board), board.placement_games);
    const StoredRating& r = it->second;
    *out = {0, identity_id, Ordinal(r.mu, r.sigma), r.mu, r.sigma, r.games};
    *total = ranked.size();
    const std::optional<uint64_t> ahead = AheadOf(ranked, identity_id);
    out->rank = ahead ? *ahead + 1 : 0;
    return grpc::Status::OK;
  }
  grpc::Status History(const Board& board, int64_t identity_id, const HistoryPage& page,
                       v1::RatingHistory* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    std::vector<const State::HistoryRow*> rows;
    for (auto it = state_.history.rbegin(); it != state_.history.rend(); ++it) {
      const State::Game& game = state_.games.at(it->game_id);
      if (it->identity_id == identity_id && game.ladder == board.ladder && game.season == board.season &&
          it->id < page.before_id)
        rows.push_back(&*it);
    }
    for (size_t i = 0; i < rows.size() && i < page.limit; ++i) {
      const v1::RatingChange& c = rows[i]->change;
      v1::RatingHistoryEntry* e = out->add_entries();
      e->set_game_id(rows[i]->game_id);
      e->set_rank(c.rank());
      e->set_mu_before(c.mu_before());
      e->set_sigma_before(c.sigma_before());
      e->set_mu_after(c.mu_after());
      e->set_sigma_after(c.sigma_after());
      e->set_ordinal_after(Ordinal(c.mu_after(), c.sigma_after()));
      e->set_at_unix_ms(now_ms);
      e->set_seats(uint32_t(state_.games.at(rows[i]->game_id).decision.identities.size()));
      if (rows.size() > page.limit && i + 1 == page.limit) out->set_next_page_token(std::to_string(rows[i]->id));
    }
    return grpc::Status::OK;
  }

 private:
  static grpc::Status Down() { return {grpc::StatusCode::UNAVAILABLE, "the rating store is down"}; }

  std::vector<StoredRating> BoardLocked(const Board& board) const {
    std::vector<StoredRating> out;
    for (const auto& [key, rating] : state_.ratings)
      if (std::get<0>(key) == board.ladder && std::get<1>(key) == board.season) out.push_back(rating);
    return out;
  }
  void LoadLocked(const std::string& game_id, v1::RateGameResponse* out) const {
    const State::Game& game = state_.games.at(game_id);
    out->set_already_rated(true);
    out->set_rated(game.rated);
    out->set_not_rated_reason(game.why_not);
    out->set_ladder(game.ladder);
    out->set_season(uint32_t(game.season));
    std::map<int, v1::RatingChange> by_seat;
    for (const State::HistoryRow& row : state_.history)
      if (row.game_id == game_id) by_seat[row.seat] = row.change;
    for (const auto& [seat, change] : by_seat) *out->add_changes() = change;
  }

  std::mutex mutex_;
  State state_;
};

class FakeLeaderboardCache final : public LeaderboardCache {
 public:
  // Unreachable: every call answers UNAVAILABLE, as RedisLeaderboardCache does.
  std::atomic<bool> unavailable{false};
  // Reachable but refusing writes (a Redis user that may only read): writes
  // answer INTERNAL.
  std::atomic<bool> refuse_writes{false};
  // Drops the next write on the floor, as a Redis that lost its last second
  // of writes does.
  std::atomic<int> lose_writes{0};

  // Every entry the cache holds of a board.
  std::map<int64_t, StoredRating> Entries(const Board& board) {
    std::lock_guard lock(mutex_);
    auto it = boards_.find(Key(board));
    return it == boards_.end() ? std::map<int64_t, StoredRating>() : it->second.entries;
  }
  // Loses everything (a restart without persistence).
  void Flush() {
    std::lock_guard lock(mutex_);
    boards_.clear();
  }

  grpc::Status Apply(const Board& board, const std::vector<StoredRating>& ratings, int64_t version = 0) override {
    if (grpc::Status s = Write(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    if (lose_writes > 0) {
      --lose_writes;
      return grpc::Status::OK;
    }
    Held& held = boards_[Key(board)];
    for (const StoredRating& r : ratings) {
      auto it = held.entries.find(r.identity_id);
      if (it == held.entries.end() || it->second.games < r.games) held.entries[r.identity_id] = r;
    }
    if (version <= 0) return grpc::Status::OK;
    if (held.version && *held.version + 1 == version) {
      held.version = version;
      while (held.early.erase(*held.version + 1)) ++*held.version;
    } else if (!held.version || *held.version < version) {
      held.early.insert(version);
    }
    return grpc::Status::OK;
  }
  grpc::Status Clear(const Board& board) override {
    if (grpc::Status s = Write(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    boards_.erase(Key(board));
    return grpc::Status::OK;
  }
  grpc::Status MarkBuilt(const Board& board, int64_t version) override {
    if (grpc::Status s = Write(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    Held& held = boards_[Key(board)];
    int64_t at = std::max(version, held.version.value_or(version));
    held.early.erase(held.early.begin(), held.early.upper_bound(at));
    while (held.early.erase(at + 1)) ++at;
    held.version = at;
    return grpc::Status::OK;
  }

  grpc::Status Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out, uint64_t* total,
                    int64_t* version) override {
    if (grpc::Status s = Read(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    out->clear();
    const Held* held = Built(board);
    *version = -1;
    if (!held) return grpc::Status::OK;
    const std::vector<RankedEntry> ranked = Ranked(*held, board);
    *version = *held->version;
    *total = ranked.size();
    *out = PageOf(ranked, offset, limit);
    return grpc::Status::OK;
  }
  grpc::Status Around(const Board& board, int64_t identity_id, uint32_t limit, std::vector<RankedEntry>* out,
                      uint64_t* total, bool* found, int64_t* version) override {
    if (grpc::Status s = Read(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    out->clear();
    const Held* held = Built(board);
    *version = -1;
    if (!held) return grpc::Status::OK;
    const std::vector<RankedEntry> ranked = Ranked(*held, board);
    *version = *held->version;
    *total = ranked.size();
    const std::optional<uint64_t> ahead = AheadOf(ranked, identity_id);
    *found = ahead.has_value();
    if (*found) *out = PageOf(ranked, AroundStart(*ahead, limit, *total), limit);
    return grpc::Status::OK;
  }
  grpc::Status Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total, bool* found,
                      int64_t* version) override {
    if (grpc::Status s = Read(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    const Held* held = Built(board);
    *version = -1;
    if (!held) return grpc::Status::OK;
    *version = *held->version;
    auto it = held->entries.find(identity_id);
    *found = it != held->entries.end();
    if (!*found) return grpc::Status::OK;
    const std::vector<RankedEntry> ranked = Ranked(*held, board);
    const StoredRating& r = it->second;
    *out = {0, identity_id, Ordinal(r.mu, r.sigma), r.mu, r.sigma, r.games};
    const std::optional<uint64_t> ahead = AheadOf(ranked, identity_id);
    out->rank = ahead ? *ahead + 1 : 0;
    *total = ranked.size();
    return grpc::Status::OK;
  }
  grpc::Status Version(const Board& board, int64_t* out) override {
    if (grpc::Status s = Read(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    const Held* held = Built(board);
    *out = held ? *held->version : -1;
    return grpc::Status::OK;
  }

 private:
  struct Held {
    std::map<int64_t, StoredRating> entries;
    std::optional<int64_t> version;
    std::set<int64_t> early;
  };
  static std::string Key(const Board& board) { return board.ladder + "/" + std::to_string(board.season); }
  // The statuses RedisLeaderboardCache answers with (RedisErrorStatus's words).
  grpc::Status Read() const {
    if (unavailable)
      return {grpc::StatusCode::UNAVAILABLE, "leaderboard cache unavailable: the leaderboard cache is down"};
    return grpc::Status::OK;
  }
  grpc::Status Write() const {
    if (grpc::Status s = Read(); !s.ok()) return s;
    if (refuse_writes)
      return {grpc::StatusCode::INTERNAL,
              "leaderboard cache failed: NOPERM this user has no permissions to run the 'eval' command"};
    return grpc::Status::OK;
  }
  const Held* Built(const Board& board) const {
    auto it = boards_.find(Key(board));
    return it == boards_.end() || !it->second.version ? nullptr : &it->second;
  }
  static std::vector<RankedEntry> Ranked(const Held& held, const Board& board) {
    std::vector<StoredRating> all;
    for (const auto& [id, r] : held.entries) all.push_back(r);
    return RankAsRedisDoes(all, board.placement_games);
  }

  std::mutex mutex_;
  std::map<std::string, Held> boards_;
};

}  // namespace metropolis::ratings::testing
