// Deadlines: callbacks run at a time of the host's Clock. Callbacks must be
// short (they take a game's lock and post work); they run on the timer thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "services/gamehost/clock.h"

namespace metropolis::gamehost {

class Timers {
 public:
  virtual ~Timers() = default;
  // Runs `fn` once at or after `at`. There is no cancel: a callback checks
  // whether what it was for still stands (the game's step), which is cheaper
  // than tracking handles for the one in a thousand decisions that times out.
  virtual void Schedule(Millis at, std::function<void()> fn) = 0;
};

class ThreadTimers final : public Timers {
 public:
  explicit ThreadTimers(const Clock* clock);
  ~ThreadTimers() override;
  void Schedule(Millis at, std::function<void()> fn) override;
  size_t size() const;

 private:
  struct Entry {
    Millis at;
    uint64_t seq;  // FIFO among equal times
    std::function<void()> fn;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void Loop();
  const Clock* clock_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  uint64_t seq_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

// A clock and timers the test moves by hand.
class FakeClock final : public Clock {
 public:
  Millis Now() const override { return now_; }
  int64_t UnixMillis() const override { return 1'800'000'000'000 + now_; }
  void Set(Millis now) { now_ = now; }

 private:
  Millis now_ = 0;
};

class ManualTimers final : public Timers {
 public:
  explicit ManualTimers(FakeClock* clock) : clock_(clock) {}
  void Schedule(Millis at, std::function<void()> fn) override;
  // Moves the clock to `now`, running every callback due on the way, in time order.
  void AdvanceTo(Millis now);
  size_t size() const { return entries_.size(); }

 private:
  FakeClock* clock_;
  std::vector<std::pair<Millis, std::function<void()>>> entries_;
};

}  // namespace metropolis::gamehost
