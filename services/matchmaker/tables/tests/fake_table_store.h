// An in-memory TableStore (table_store.h) for the hermetic tests: the same
// compare-and-swap, expiry on a clock the test moves, and a hook that runs
// between a change's read and its write, to stage a race.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "services/matchmaker/tables/table_store.h"

namespace metropolis::matchmaker::tables::testing {

class FakeTableStore final : public TableStore {
 public:
  grpc::Status Create(const std::string& id, const std::string& value, int64_t ttl_ms, bool* created) override {
    std::lock_guard lock(mutex_);
    Expire();
    *created = !tables_.count(id);
    if (*created) tables_[id] = {value, now_ms + ttl_ms};
    return grpc::Status::OK;
  }
  grpc::Status Get(const std::string& id, std::string* value, bool* found) override {
    std::lock_guard lock(mutex_);
    Expire();
    const auto it = tables_.find(id);
    *found = it != tables_.end();
    if (*found) *value = it->second.value;
    return grpc::Status::OK;
  }
  grpc::Status Swap(const std::string& id, const std::string& expected, const std::string& value, int64_t ttl_ms,
                    bool* swapped) override {
    if (before_swap) {
      auto hook = std::move(before_swap);  // once: it may change the table itself
      before_swap = nullptr;
      hook();
    }
    std::lock_guard lock(mutex_);
    Expire();
    const auto it = tables_.find(id);
    *swapped = it != tables_.end() && it->second.value == expected;
    if (*swapped) it->second = {value, now_ms + ttl_ms};
    ++swaps;
    return grpc::Status::OK;
  }

  int64_t now_ms = 0;
  int swaps = 0;
  std::function<void()> before_swap;  // runs once, before the next Swap compares

 private:
  struct Entry {
    std::string value;
    int64_t expires_ms;
  };
  void Expire() {
    std::erase_if(tables_, [&](const auto& e) { return e.second.expires_ms <= now_ms; });
  }
  std::mutex mutex_;
  std::map<std::string, Entry> tables_;
};

}  // namespace metropolis::matchmaker::tables::testing
