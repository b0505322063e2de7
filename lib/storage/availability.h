// Whether a store (PostgreSQL, Redis) answered the last time a pool used it, so
// that its logs say when it was lost and when it came back — one line each, not
// one per failed call: "database connection lost" (warning) on the first failure,
// and "database connection restored" (info) with how long it was out and how many
// calls failed, on the first success after ("redis connection ..." for Redis).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace metropolis::storage {

class Availability {
 public:
  explicit Availability(std::string store) : store_(std::move(store)) {}

  // A call could not reach the store.
  void Failed(std::string_view error);
  // A call reached it. Cheap while the store is up: one atomic load.
  void Worked() {
    if (down_.load(std::memory_order_relaxed)) Recovered();
  }
  bool down() const { return down_.load(std::memory_order_relaxed); }

 private:
  void Recovered();

  const std::string store_;
  std::atomic<bool> down_{false};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point since_;
  int64_t failed_calls_ = 0;
};

}  // namespace metropolis::storage
