// An in-memory fake of the tournaments' roster (roster_store.h) for the hermetic
// tests: connections with their capacity until their heartbeat lapses, an inbox
// per identity, and the leader's lease on a clock the test sets (Redis's in the
// real one). `unavailable` makes every call throw storage::RedisUnavailable, as
// an unreachable Redis does.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "lib/storage/redis_errors.h"
#include "services/matchmaker/tournaments/roster_store.h"

namespace metropolis::matchmaker::testing {

class FakeRosterStore final : public RosterStore {
 public:
  std::atomic<int64_t> clock_ms{0};  // the lease's clock
  std::atomic<bool> unavailable{false};

  void Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms) override {
    std::lock_guard lock(mutex_);
    Reach();
    connections_[{identity, connection}] = {capacity, until_ms};
  }
  void Leave(int64_t identity, const std::string& connection) override {
    std::lock_guard lock(mutex_);
    Reach();
    connections_.erase({identity, connection});
  }
  std::unordered_map<int64_t, int> Available(int64_t now_ms) override {
    std::lock_guard lock(mutex_);
    Reach();
    std::erase_if(connections_, [&](const auto& c) { return c.second.until_ms < now_ms; });
    std::unordered_map<int64_t, int> out;
    for (const auto& [key, c] : connections_) out[key.first] += c.capacity;
    return out;
  }
  void Send(int64_t identity, const std::string& assignment) override {
    std::lock_guard lock(mutex_);
    Reach();
    inboxes_[identity].push_back(assignment);
  }
  bool Receive(int64_t identity, std::string* assignment) override {
    std::lock_guard lock(mutex_);
    Reach();
    auto it = inboxes_.find(identity);
    if (it == inboxes_.end() || it->second.empty()) return false;
    *assignment = std::move(it->second.front());
    it->second.pop_front();
    return true;
  }
  bool Lead(const std::string& replica, int64_t ttl_ms) override {
    std::lock_guard lock(mutex_);
    Reach();
    const int64_t now = clock_ms.load();
    if (leader_.empty() || leader_until_ms_ <= now || leader_ == replica) {
      leader_ = replica;
      leader_until_ms_ = now + ttl_ms;
      return true;
    }
    return false;
  }

 private:
  struct Connection {
    int capacity = 0;
    int64_t until_ms = 0;
  };
  void Reach() const {
    if (unavailable) throw storage::RedisUnavailable("fake roster: unavailable");
  }

  std::mutex mutex_;
  std::map<std::pair<int64_t, std::string>, Connection> connections_;
  std::map<int64_t, std::deque<std::string>> inboxes_;
  std::string leader_;
  int64_t leader_until_ms_ = 0;
};

}  // namespace metropolis::matchmaker::testing
