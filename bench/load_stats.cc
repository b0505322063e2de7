#include "bench/load_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace metropolis::load {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Histogram::Record(int64_t ns) {
  const uint64_t v = ns > 0 ? uint64_t(ns) : 0;
  counts_[size_t(Bucket(v))].fetch_add(1, std::memory_order_relaxed);
  uint64_t max = max_.load(std::memory_order_relaxed);
  while (v > max && !max_.compare_exchange_weak(max, v, std::memory_order_relaxed)) {
  }
}

uint64_t Histogram::Snapshot::Quantile(double q) const {
  if (total == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(q * double(total) + 0.999999));
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += counts[size_t(b)];
    if (seen >= rank) return max ? std::min(UpperBound(b), max) : UpperBound(b);
  }
  return max;
}

Histogram::Snapshot Histogram::Take() const {
  Snapshot s;
  for (int b = 0; b < kBuckets; ++b) {
    s.counts[size_t(b)] = counts_[size_t(b)].load(std::memory_order_relaxed);
    s.total += s.counts[size_t(b)];
  }
  s.max = max_.load(std::memory_order_relaxed);
  return s;
}

Histogram::Snapshot Histogram::Difference(const Snapshot& later, const Snapshot& earlier) {
  Snapshot d;
  for (int b = 0; b < kBuckets; ++b) d.counts[size_t(b)] = later.counts[size_t(b)] - earlier.counts[size_t(b)];
  d.total = later.total - earlier.total;
  d.max = later.max;
  return d;
}

// Below kLinear a bucket per value; above, 2^kSubBits buckets per power of two.
int Histogram::Bucket(uint64_t v) {
  if (v < uint64_t(kLinear)) return int(v);
  const int msb = 63 - std::countl_zero(v);
  const int shift = msb - kSubBits;
  return kLinear + (msb - kSubBits - 1) * (1 << kSubBits) + int((v >> shift) - (1u << kSubBits));
}

uint64_t Histogram::UpperBound(int bucket) {
  if (bucket < kLinear) return uint64_t(bucket);
  const int shift = ((bucket - kLinear) >> kSubBits) + 1;
  const uint64_t top = uint64_t((bucket - kLinear) & ((1 << kSubBits) - 1)) + (1u << kSubBits);
  return ((top + 1) << shift) - 1;
}

ProcessSample SampleProcess(int64_t pid) {
  ProcessSample s;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return s;
  // The command name may hold spaces and parentheses: the fields follow the last ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos || close + 2 > line.size()) return s;
  std::istringstream fields(line.substr(close + 2));
  std::vector<std::string> f;
  for (std::string x; fields >> x;) f.push_back(x);
  if (f.size() < 13) return s;  // f[0] is field 3 (state): utime is field 14, stime 15
  const double ticks = double(sysconf(_SC_CLK_TCK));
  s.cpu_s = double(std::stoull(f[11]) + std::stoull(f[12])) / ticks;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kb = std::stoll(line.substr(6));
  }
  s.ok = true;
  return s;
}

double OwnCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

MachineSample SampleMachine() {
  MachineSample m;
  std::ifstream stat("/proc/stat");
  std::string cpu;
  stat >> cpu;
  uint64_t v[8] = {};
  for (uint64_t& x : v) stat >> x;  // user nice system idle iowait irq softirq steal
  for (uint64_t x : v) m.total += x;
  m.busy = m.total - v[3] - v[4];
  return m;
}

std::string LoadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  f >> a >> b >> c;
  return a + " " + b + " " + c;
}

std::string Thousands(uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Micros(uint64_t ns) { return Fixed(double(ns) / 1000.0, ns < 10'000 ? 1 : 0); }

TimerThread::TimerThread() : thread_([this] { Loop(); }) {}

TimerThread::~TimerThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void TimerThread::Schedule(int64_t at_ns, std::function<void()> fn) {
  bool earliest;
  {
    std::lock_guard lock(mutex_);
    const uint64_t seq = seq_++;
    heap_.push(Entry{at_ns, seq, std::move(fn)});
    earliest = heap_.top().seq == seq;
  }
  // The loop sleeps until the earliest entry: only a new earliest one must wake it.
  if (earliest) cv_.notify_one();
}

void TimerThread::Loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (heap_.empty()) {
      cv_.wait(lock);
      continue;
    }
    const int64_t now = NowNs();
    const int64_t at = heap_.top().at_ns;
    if (at > now) {
      cv_.wait_for(lock, std::chrono::nanoseconds(at - now));
      continue;
    }
    auto fn = std::move(const_cast<Entry&>(heap_.top()).fn);
    heap_.pop();
    lock.unlock();
    lateness_.Record(now - at);
    fn();
    lock.lock();
  }
}

}  // namespace metropolis::load
