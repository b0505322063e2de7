// Time for the services' logic, injected so that tests run on a clock they
// move by hand (lib/common/tests/fake_clock.h) instead of sleeping. Logic that
// needs the time takes a `const Clock*`; the server wiring passes its
// SystemClock. What waits in real time reads std::chrono directly: gRPC
// deadlines, retry loops that sleep between attempts, and the durations that
// metrics observe or logs report.
#pragma once

#include <chrono>
#include <cstdint>

namespace metropolis::services {

using Millis = int64_t;  // milliseconds on the clock's own epoch

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic: deadlines, intervals, how long a cache entry lives.
  virtual Millis Now() const = 0;
  // Wall time (Unix milliseconds): records, logs, and times other processes
  // compare with their own.
  virtual int64_t UnixMillis() const = 0;
};

class SystemClock final : public Clock {
 public:
  Millis Now() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  int64_t UnixMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

// A SystemClock for what was given no clock (`clock` null). It holds nothing,
// so sharing one is sharing nothing.
inline const Clock* ClockOrSystem(const Clock* clock) {
  static const SystemClock system;
  return clock ? clock : &system;
}

}  // namespace metropolis::services
