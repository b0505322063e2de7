// AnalysisStore in memory, for tests of the analysis worker and the replays
// logic without PostgreSQL. Put keeps the first analysis of a game, as the
// table's primary key does; `put_failures` makes that many Puts UNAVAILABLE
// first; WaitFor waits (bounded) until a game has an analysis. Missing is
// answered from the games listed with AddOwed (the fake cannot join tables).
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

namespace metropolis::replays::testing {

class FakeAnalysisStore final : public AnalysisStore {
 public:
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
  grpc::Status Missing(int64_t, int limit, std::vector<Unanalysed>* out) override {
    std::lock_guard lock(mutex_);
    for (const Unanalysed& u : owed_)
      if (!rows_.count(u.game_id) && int(out->size()) < limit) out->push_back(u);
    return grpc::Status::OK;
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
  std::map<std::string, StoredAnalysis> rows_;
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
