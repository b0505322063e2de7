// The threads that run what may block (gRPC calls to the services) for the
// event loop, which must never wait; and a timer thread that wakes streams at a
// given time. Both are bounded or cheap: a full queue refuses work (the server
// answers 503) rather than letting a stalled service pile up requests.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
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

  void At(Clock::time_point when, std::function<void()> callback);
  // Drops what is left; no callback runs after it returns.
  void Stop();

 private:
  void Run();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::multimap<Clock::time_point, std::function<void()>> due_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace metropolis::gateway
