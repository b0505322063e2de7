// Small fakes of the ratings service's peers (peers.h) for its tests: a
// Replays that confirms the digests it was given, and an Accounts with the
// ladders and names it was given; either can be made unreachable.
#pragma once

#include <atomic>
#include <map>
#include <mutex>

#include "services/ratings/peers.h"

namespace metropolis::ratings::testing {

class FakeStoredGames final : public StoredGames {
 public:
  void Store(const std::string& game_id, const std::string& digest) {
    std::lock_guard lock(mutex_);
    digests_[game_id] = digest;
  }
  std::atomic<bool> unavailable{false};
  std::atomic<int> calls{0};

  grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) override {
    ++calls;
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "replays is down"};
    std::lock_guard lock(mutex_);
    auto it = digests_.find(game_id);
    if (it == digests_.end()) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    *confirmed = it->second == digest;
    return grpc::Status::OK;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> digests_;
};

class FakeLadders final : public LadderDirectory {
 public:
  void AddLadder(const std::string& id, const LadderInfo& info) {
    std::lock_guard lock(mutex_);
    ladders_[id] = info;
  }
  void AddName(int64_t id, const std::string& name) {
    std::lock_guard lock(mutex_);
    names_[id] = name;
  }
  std::atomic<bool> unavailable{false};
  std::atomic<int> name_calls{0};

  grpc::Status Ladder(const std::string& ladder, LadderInfo* out) override {
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "accounts is down"};
    std::lock_guard lock(mutex_);
    auto it = ladders_.find(ladder);
    if (it == ladders_.end()) return {grpc::StatusCode::NOT_FOUND, "ladder '" + ladder + "' does not exist"};
    *out = it->second;
    return grpc::Status::OK;
  }
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override {
    ++name_calls;
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "accounts is down"};
    std::lock_guard lock(mutex_);
    for (int64_t id : ids)
      if (auto it = names_.find(id); it != names_.end()) (*out)[id] = it->second;
    return grpc::Status::OK;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, LadderInfo> ladders_;
  std::map<int64_t, std::string> names_;
};

}  // namespace metropolis::ratings::testing
