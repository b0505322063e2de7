// An in-memory fake of the tournaments' roster (roster_store.h) for the hermetic
// tests: connections with their capacity until their heartbeat lapses, an inbox
// per identity and one per connection, and the leader's lease on a clock the test sets (Redis's in the
// real one). `unavailable` makes every call answer UNAVAILABLE, as
// RedisRosterStore does when Redis cannot be reached.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "services/matchmaker/tournaments/roster_store.h"

namespace metropolis::matchmaker::testing {

class FakeRosterStore final : public RosterStore {
 public:
  std::atomic<int64_t> clock_ms{0};  // the lease's clock
  std::atomic<bool> unavailable{false};

  grpc::Status Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms) override {
    std::lock_guard lock(mutex_);
    if (unavailable) return Unreachable();
    connections_[{identity, connection}] = {capacity, until_ms};
    return grpc::Status::OK;
  }
  grpc::Status Leave(int64_t identity, const std::string& connection) override {
    std::lock_guard lock(mutex_);
    if (unavailable) return Unreachable();
    Remove({identity, connection});
    return grpc::Status::OK;
  }
  grpc::Status Connections(int64_t now_ms, std::unordered_map<int64_t, std::vector<RosterConnection>>* out) override {
    std::lock_guard lock(mutex_);
    if (unavailable) return Unreachable();
    Sweep(now_ms);
    out->clear();
    // By (identity, connection): each identity's in order of connection.
    for (const auto& [key, c] : connections_) (*out)[key.first].push_back({key.second, c.capacity});
    return grpc::Status::OK;
  }
  grpc::Status Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) override {
    std::lock_guard lock(mutex_);
    if (unavailable) return Unreachable();
    Sweep(now_ms);
    out->clear();
    for (const auto& [key, c] : connections_) (*out)[key.first] += c.capacity;
    return grpc::Status::OK;
  }
  grpc::Status Send(int64_t identity, const std::string& assignment) override {
    std::lock_guard lock(mutex_);
    if (unavailable) return Unreachable();
    inboxes_[identity].push_back(assignment);
    return grpc::Status::OK;
  }
  grpc::Status SendTo(int64_t identity, const std::string& connection, const std::string& assignment) override {
    std::lock_guard lock(mutex_);
    if (unavailable) return Unreachable();
    if (connections_.count({identity, connection}))
      connection_inboxes_[{identity, connection}].push_back(assignment);
    else
      inboxes_[identity].push_back(assignment);
    return grpc::Status::OK;
  }
  grpc::Status Receive(int64_t identity, const std::string& connection, std::string* assignment, bool* found) override {
    std::lock_guard lock(mutex_);
    *found = false;
    if (unavailable) return Unreachable();
    auto own = connection_inboxes_.find({identity, connection});
    auto shared = inboxes_.find(identity);
    for (std::deque<std::string>* inbox : {own == connection_inboxes_.end() ? nullptr : &own->second,
                                           shared == inboxes_.end() ? nullptr : &shared->second}) {
      if (!inbox || inbox->empty()) continue;
      *assignment = std::move(inbox->front());
      inbox->pop_front();
      *found = true;
      break;
    }
    return grpc::Status::OK;
  }
  grpc::Status Lead(const std::string& replica, int64_t ttl_ms, bool* leading) override {
    std::lock_guard lock(mutex_);
    *leading = false;
    if (unavailable) return Unreachable();
    const int64_t now = clock_ms.load();
    if (leader_.empty() || leader_until_ms_ <= now || leader_ == replica) {
      leader_ = replica;
      leader_until_ms_ = now + ttl_ms;
      *leading = true;
    }
    return grpc::Status::OK;
  }

 private:
  struct Connection {
    int capacity = 0;
    int64_t until_ms = 0;
  };
  // RedisRosterStore's status for a Redis it cannot reach (RedisErrorStatus's words).
  static grpc::Status Unreachable() { return {grpc::StatusCode::UNAVAILABLE, "roster unavailable: fake roster"}; }
  // Removes a connection; what is left in its inbox goes ahead of its
  // identity's, in order, as RedisRosterStore's scripts do.
  void Remove(const std::pair<int64_t, std::string>& key) {
    connections_.erase(key);
    auto it = connection_inboxes_.find(key);
    if (it == connection_inboxes_.end()) return;
    std::deque<std::string>& to = inboxes_[key.first];
    to.insert(to.begin(), it->second.begin(), it->second.end());
    connection_inboxes_.erase(it);
  }
  void Sweep(int64_t now_ms) {
    std::vector<std::pair<int64_t, std::string>> lapsed;
    for (const auto& [key, c] : connections_)
      if (c.until_ms < now_ms) lapsed.push_back(key);
    for (const auto& key : lapsed) Remove(key);
  }

  std::mutex mutex_;
  std::map<std::pair<int64_t, std::string>, Connection> connections_;
  std::map<int64_t, std::deque<std::string>> inboxes_;
  std::map<std::pair<int64_t, std::string>, std::deque<std::string>> connection_inboxes_;
  std::string leader_;
  int64_t leader_until_ms_ = 0;
};

}  // namespace metropolis::matchmaker::testing
