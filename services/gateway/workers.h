// The threads that run what may block (gRPC calls to the services) for the
// event loop, which must never wait; and a timer thread that wakes streams at a
// given time. Both are bounded or cheap: a full queue refuses work (the server
// answers 503) rather than letting a stalled service pile up requests.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace metropolis::gateway {

class Workers {
 public:
  Workers(int threads, size_t max_queued);
  ~Workers();  // Stop()

  // False when `max_queued` jobs wait already, or after Stop.
  bool Submit(std::function<void()> job);
  // Runs every job submitted so far, then ends the threads.
  void Stop();
  size_t queued() const;

 private:
  void Run();

  const size_t max_queued_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Runs callbacks at their time, on one thread; they must be quick.
class Timers {
 public:
  using Clock = std::chrono::steady_clock;
  Timers();
  ~Timers();  // Stop()

  // What names a timer set, to cancel it.
  using Key = std::pair<Clock::time_point, uint64_t>;
  Key At(Clock::time_point when, std::function<void()> callback);
  // Drops the timer unless it has run or is running: a stream that wants
  // another time cancels the one it set, so timers do not pile up (ten
  // thousand streams each setting one a write would leave hundreds of
  // thousands waiting out their heartbeats).
  void Cancel(const Key& key);
  // Runs `callback` every `period`, the first time one period from now, until
  // Stop: the server's periodic chores (handing memory back) share this thread
  // rather than each keeping one.
  void Every(Clock::duration period, std::function<void()> callback);
  size_t pending();
  // Drops what is left; no callback runs after it returns.
  void Stop();

 private:
  void Run();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::map<Key, std::function<void()>> due_;
  uint64_t next_id_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace metropolis::gateway
