// Time for the game host, injected so that deadline tests run on a fake clock.
#pragma once

#include <chrono>
#include <cstdint>

namespace metropolis::gamehost {

using Millis = int64_t;  // milliseconds on the clock's own epoch

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Millis Now() const = 0;          // monotonic
  virtual int64_t UnixMillis() const = 0;  // wall time, for records and logs only
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

}  // namespace metropolis::gamehost
