// What the load programs measure with, apart from the games: lock-free event
// counters and latency histogram, CPU and memory samples from /proc, and the
// timer thread that holds thinking seats.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <vector>

namespace metropolis::load {

// Nanoseconds on the steady clock.
int64_t NowNs();

// A count per value of the unscoped enum Count below its enumerator kNumCounts,
// added lock-free from any thread. As for a Histogram, a measurement window is
// the difference of two snapshots.
template <typename Count>
class Counters {
 public:
  static constexpr size_t kSize = size_t(Count::kNumCounts);
  using Snapshot = std::array<uint64_t, kSize>;

  void Add(Count c, uint64_t n = 1) { counts_[size_t(c)].fetch_add(n, std::memory_order_relaxed); }
  // Each count is read on its own: a snapshot taken while others add may hold
  // one event and not another that happened before it.
  Snapshot Take() const {
    Snapshot v;
    for (size_t i = 0; i < kSize; ++i) v[i] = counts_[i].load(std::memory_order_relaxed);
    return v;
  }
  static Snapshot Difference(const Snapshot& later, const Snapshot& earlier) {
    Snapshot d;
    for (size_t i = 0; i < kSize; ++i) d[i] = later[i] - earlier[i];
    return d;
  }

 private:
  std::array<std::atomic<uint64_t>, kSize> counts_{};
};

// Durations in nanoseconds, log-linear buckets (32 per power of two, so a
// quantile is within about 3 % of the truth), recorded lock-free from any
// thread. A measurement window is the difference of two snapshots.
class Histogram {
 public:
  static constexpr int kSubBits = 5;
  static constexpr int kLinear = 2 << kSubBits;  // values below this have a bucket each
  static constexpr int kBuckets = kLinear + (64 - kSubBits - 1) * (1 << kSubBits);

  void Record(int64_t ns);

  struct Snapshot {
    std::vector<uint64_t> counts = std::vector<uint64_t>(kBuckets);
    uint64_t total = 0;
    uint64_t max = 0;  // since the last ResetMax

    // The value at quantile q (0..1), as the upper bound of its bucket (at
    // most the maximum); 0 when empty.
    uint64_t Quantile(double q) const;
  };
  Snapshot Take() const;
  // Starts a new window for the maximum, which a difference cannot give.
  void ResetMax() { max_.store(0, std::memory_order_relaxed); }
  static Snapshot Difference(const Snapshot& later, const Snapshot& earlier);

 private:
  static int Bucket(uint64_t v);
  static uint64_t UpperBound(int bucket);

  std::array<std::atomic<uint64_t>, kBuckets> counts_{};
  std::atomic<uint64_t> max_{0};
};

// A process's CPU time and resident memory, from /proc/PID/stat and status.
struct ProcessSample {
  bool ok = false;
  double cpu_s = 0;  // utime + stime
  int64_t rss_kb = -1;
};
ProcessSample SampleProcess(int64_t pid);

// This process's CPU time (user + system).
double OwnCpuSeconds();

// The whole machine's busy and total time over all cores, from /proc/stat.
struct MachineSample {
  uint64_t busy = 0, total = 0;  // clock ticks
};
MachineSample SampleMachine();

// /proc/loadavg's three figures.
std::string LoadAverage();

// Figures for the reports: 1,234,567; a fixed number of decimals; nanoseconds
// as microseconds (one decimal below 10 µs).
std::string Thousands(uint64_t v);
std::string Fixed(double v, int digits);
std::string Micros(uint64_t ns);

// One thread running callbacks at steady-clock times, from a heap.
class TimerThread {
 public:
  TimerThread();
  ~TimerThread();
  void Schedule(int64_t at_ns, std::function<void()> fn);
  // How late callbacks ran after their time.
  Histogram& lateness() { return lateness_; }

 private:
  struct Entry {
    int64_t at_ns;
    uint64_t seq;  // first in, first out among equal times
    std::function<void()> fn;
    bool operator>(const Entry& o) const { return at_ns != o.at_ns ? at_ns > o.at_ns : seq > o.seq; }
  };
  void Loop();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  uint64_t seq_ = 0;
  bool stopping_ = false;
  Histogram lateness_;
  std::thread thread_;  // last: it uses the members above
};

}  // namespace metropolis::load
