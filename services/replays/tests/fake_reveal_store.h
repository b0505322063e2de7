// RevealStore in memory, for tests of the replays logic without PostgreSQL:
// the rows of game_reveals as (tournament, game id or "" for the whole
// tournament). `unavailable` makes every call UNAVAILABLE, as a database that
// cannot be reached.
#pragma once

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "services/replays/reveal_store.h"

namespace metropolis::replays::testing {

class FakeRevealStore final : public RevealStore {
 public:
  grpc::Status Add(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    if (whole) rows_.insert({tournament, ""});
    for (const std::string& id : game_ids) rows_.insert({tournament, id});
    return grpc::Status::OK;
  }

  grpc::Status Reveals(const std::set<std::string>& tournaments, std::vector<Reveal>* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    for (const auto& [tournament, game_id] : rows_)
      if (!tournament.empty() && tournaments.count(tournament)) out->push_back({tournament, game_id});
    return grpc::Status::OK;
  }

  // How many rows are kept.
  size_t size() {
    std::lock_guard lock(mutex_);
    return rows_.size();
  }

  std::atomic<bool> unavailable{false};

 private:
  static grpc::Status Down() { return {grpc::StatusCode::UNAVAILABLE, "database unavailable: the fake is down"}; }

  std::mutex mutex_;
  std::set<std::pair<std::string, std::string>> rows_;
};

}  // namespace metropolis::replays::testing
