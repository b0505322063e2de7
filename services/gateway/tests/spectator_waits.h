// Waiting for a spectator's stream in tests, as the server's event loop does:
// woken by the spectator's waker, then TakeNow, never a blocking take.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "services/gateway/live.h"

namespace metropolis::gateway {

// Counts the runs of the spectator's waker, which it sets for its lifetime.
class WakeCounter {
 public:
  explicit WakeCounter(Spectator& spectator) : spectator_(spectator) {
    spectator_.SetWaker([this](bool) {
      std::lock_guard lock(mutex_);
      ++wakes_;
      cv_.notify_all();
    });
  }
  // Once SetWaker(nullptr) returns the waker no longer runs, so it never
  // touches a destroyed counter.
  ~WakeCounter() { spectator_.SetWaker(nullptr); }

  int wakes() {
    std::lock_guard lock(mutex_);
    return wakes_;
  }
  // Waits until the waker has run `n` times in all. The limit only keeps a
  // broken wake from hanging the test: far above what a pass takes, and false
  // (a failure) when reached.
  bool WaitFor(int n, std::chrono::seconds limit = std::chrono::seconds(20)) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, limit, [&] { return wakes_ >= n; });
  }

 private:
  Spectator& spectator_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int wakes_ = 0;
};

// What TakeNow gives, as one text.
inline std::string TakeText(Spectator& spectator, bool* done) {
  std::string out;
  for (const SseText& text : spectator.TakeNow(done)) out += *text;
  return out;
}

// Everything the stream carries until it ends (a failure if it does not).
inline std::string Drain(Spectator& spectator) {
  WakeCounter wakes(spectator);
  std::string all;
  bool done = false;
  while (true) {
    // Counted before the take: what is pushed after it wakes past `seen`.
    const int seen = wakes.wakes();
    all += TakeText(spectator, &done);
    if (done || !wakes.WaitFor(seen + 1)) break;
  }
  EXPECT_TRUE(done) << all;
  return all;
}

}  // namespace metropolis::gateway
