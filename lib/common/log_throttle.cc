#include "lib/common/log_throttle.h"

namespace metropolis::services {

bool LogThrottle::Allow(int64_t* suppressed) {
  *suppressed = 0;
  if (lines_ <= 0) return true;
  const int64_t now = clock_->Now();
  std::lock_guard lock(mutex_);
  if (!started_ || now - window_start_ >= window_ms_) {
    started_ = true;
    window_start_ = now;
    written_ = 0;
  }
  if (written_ >= lines_) {
    ++held_back_;
    return false;
  }
  ++written_;
  *suppressed = held_back_;
  held_back_ = 0;
  return true;
}

}  // namespace metropolis::services
