// Deadlines: callbacks run at a time of the host's clock (lib/common/clock.h).
// Callbacks must be short (they take a game's lock and post work); they run on
// the timer thread. Tests use ManualTimers (tests/fakes.h).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "lib/common/clock.h"

namespace metropolis::gamehost {

class Timers {
 public:
  virtual ~Timers() = default;
  // Runs `fn` once at or after `at`. There is no cancel: a callback checks
  // whether what it was for still stands (the game's step), which is cheaper
  // than tracking handles for the one in a thousand decisions that times out.
  virtual void Schedule(services::Millis at, std::function<void()> fn) = 0;
};

class ThreadTimers final : public Timers {
 public:
  explicit ThreadTimers(const services::Clock* clock);
  ~ThreadTimers() override;
  void Schedule(services::Millis at, std::function<void()> fn) override;
  size_t size() const;

 private:
  struct Entry {
    services::Millis at;
    uint64_t seq;  // FIFO among equal times
    std::function<void()> fn;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void Loop();
  const services::Clock* clock_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  uint64_t seq_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace metropolis::gamehost
