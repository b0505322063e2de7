// A clock the test moves by hand (lib/common/clock.h), for every service's
// tests. Both of its times move together; thread-safe, since servers under
// test read it from their own threads.
#pragma once

#include <atomic>

#include "lib/common/clock.h"

namespace metropolis::services::testing {

class FakeClock final : public Clock {
 public:
  // Now() starts at `now`, UnixMillis() at `unix_ms`.
  explicit FakeClock(Millis now = 0, int64_t unix_ms = 1'800'000'000'000) : now_(now), unix_minus_now_(unix_ms - now) {}

  Millis Now() const override { return now_.load(); }
  int64_t UnixMillis() const override { return unix_minus_now_ + now_.load(); }

  void Set(Millis now) { now_.store(now); }
  void Advance(Millis ms) { now_.fetch_add(ms); }

 private:
  std::atomic<Millis> now_;
  const int64_t unix_minus_now_;
};

}  // namespace metropolis::services::testing
