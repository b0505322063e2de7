// Log lines that anyone can provoke from outside (a refused token, a refused
// call) would let one client fill the disks and bury every other line. A
// LogThrottle lets at most `lines` such lines through per `window_ms`; the first
// line let through after some were held back says how many (suppressed=N), so
// the count survives even when the lines do not.
#pragma once

#include <cstdint>
#include <mutex>

#include "lib/common/clock.h"

namespace metropolis::services {

class LogThrottle {
 public:
  // `lines` 0: no limit. Windows run on `clock`'s monotonic time (null: the system clock).
  LogThrottle(int lines, int64_t window_ms, const Clock* clock = nullptr)
      : lines_(lines), window_ms_(window_ms), clock_(ClockOrSystem(clock)) {}

  // Whether to write this line; when true, *suppressed is how many were held
  // back since the last one written. Thread-safe.
  bool Allow(int64_t* suppressed);

 private:
  const int lines_;
  const int64_t window_ms_;
  const Clock* const clock_;
  std::mutex mutex_;
  bool started_ = false;
  int64_t window_start_ = 0;
  int written_ = 0;
  int64_t held_back_ = 0;
};

}  // namespace metropolis::services
