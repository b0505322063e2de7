// AnalysisStore in memory, for tests of the analysis worker and the replays
// logic without PostgreSQL. Put keeps the first analysis of a game, as the
// table's primary key does; `put_failures` makes that many Puts UNAVAILABLE
// first; WaitFor waits (bounded) until a game has an analysis. Missing is
// answered from the games listed with AddOwed, less those analysed or skipped
// (the fake cannot join tables); Owed from the games of the store it is given.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "services/replays/analysis_store.h"
#include "services/replays/people.h"
#include "services/replays/replay_store.h"

namespace metropolis::replays::testing {

class FakeAnalysisStore final : public AnalysisStore {
 public:
  // With `games`, Owed answers from their seats; without, nothing is owed.
  explicit FakeAnalysisStore(ReplayStore* games = nullptr) : games_(games) {}

  grpc::Status Put(const std::string& game_id, const StoredAnalysis& analysis) override {
    std::lock_guard lock(mutex_);
    ++puts_;
    if (put_failures > 0) {
      --put_failures;
      return {grpc::StatusCode::UNAVAILABLE, "database unavailable: the fake is down"};
    }
    if (rows_.emplace(game_id, analysis).second) order_.push_back(game_id);
    changed_.notify_all();
    return grpc::Status::OK;
  }
  grpc::Status Get(const std::string& game_id, StoredAnalysis* out, bool* found) override {
    std::lock_guard lock(mutex_);
    auto it = rows_.find(game_id);
    *found = it != rows_.end();
    if (*found) *out = it->second;
    return grpc::Status::OK;
  }
  grpc::Status Skip(const std::string& game_id, const std::string& reason) override {
    std::lock_guard lock(mutex_);
    skips_.emplace(game_id, reason);
    return grpc::Status::OK;
  }
  // Owed as the table would answer, when the fake knows the games.
  grpc::Status Owed(const std::string& game_id, bool* owed) override {
    *owed = false;
    if (games_ == nullptr) return grpc::Status::OK;
    v1::CompletedGameRecord g;
    if (!games_->Load(game_id, &g).ok()) return grpc::Status::OK;
    std::lock_guard lock(mutex_);
    if (rows_.count(game_id) || skips_.count(game_id)) return grpc::Status::OK;
    for (const v1::SeatRecord& seat : g.seats())
      if (seat.identity_id() != 0 && seat.kind() != v1::SEAT_KIND_BUILT_IN) *owed = true;
    return grpc::Status::OK;
  }
  grpc::Status Missing(int64_t, int limit, std::vector<Unanalysed>* out) override {
    std::lock_guard lock(mutex_);
    for (const Unanalysed& u : owed_)
      if (!rows_.count(u.game_id) && !skips_.count(u.game_id) && int(out->size()) < limit) out->push_back(u);
    return grpc::Status::OK;
  }
  // The reason a game was skipped for, or "".
  std::string skipped(const std::string& game_id) const {
    std::lock_guard lock(mutex_);
    auto it = skips_.find(game_id);
    return it == skips_.end() ? "" : it->second;
  }

  // Not modelled: the fake cannot read the seats' entries out of the JSON
  // (the SQL is tested against PostgreSQL); it answers what `luck` holds.
  grpc::Status Luck(int64_t, LuckTotals* out) override {
    std::lock_guard lock(mutex_);
    *out = luck;
    return grpc::Status::OK;
  }
  LuckTotals luck;

  void AddOwed(Unanalysed game) {
    std::lock_guard lock(mutex_);
    owed_.push_back(std::move(game));
  }
  // Whether `game_id` got an analysis within a generous bound (the test fails
  // rather than hangs when it never comes).
  bool WaitFor(const std::string& game_id) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(120), [&] { return rows_.count(game_id) > 0; });
  }
  // The games analysed, in the order their analyses were kept.
  std::vector<std::string> order() const {
    std::lock_guard lock(mutex_);
    return order_;
  }
  int puts() const {
    std::lock_guard lock(mutex_);
    return puts_;
  }

  int put_failures = 0;  // set before the worker starts

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  ReplayStore* games_;
  std::map<std::string, StoredAnalysis> rows_;
  std::map<std::string, std::string> skips_;
  std::vector<std::string> order_;
  std::vector<Unanalysed> owed_;
  int puts_ = 0;
};

// People from a fixed list; `down` answers UNAVAILABLE.
class FakePeople final : public People {
 public:
  grpc::Status IsPerson(int64_t id, const std::string&, bool* person) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "accounts: down"};
    *person = people.count(id) > 0;
    return grpc::Status::OK;
  }
  std::set<int64_t> people;
  bool down = false;
};

}  // namespace metropolis::replays::testing
