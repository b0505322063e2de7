// Rate limits per identity: a token bucket for each key (an identity, a token's
// hash, a client address), refilled at `per_second` up to `burst`. A call takes
// one token or is refused with the time until the next one, which the boundary
// turns into RESOURCE_EXHAUSTED (gRPC) or 429 with Retry-After (HTTP).
//
// The buckets are bounded: a full bucket says nothing a missing one does not, so
// idle keys are forgotten, and keys beyond `max_keys` that arrive while every
// bucket is in use share one overflow bucket instead of growing the map (a flood
// of new keys then limits itself, and known keys keep their own).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lib/common/clock.h"

namespace metropolis::services {

class ProcessMetrics;
class Settings;

struct RateLimit {
  double per_second = 0;  // tokens added per second; 0: no limit
  double burst = 1;       // a bucket's size: calls allowed at once after idling
  bool enabled() const { return per_second > 0; }
};

class RateLimiter {
 public:
  static constexpr size_t kDefaultMaxKeys = 100'000;

  // Buckets fill on `clock`'s monotonic time (null: the system clock).
  explicit RateLimiter(RateLimit limit, size_t max_keys = kDefaultMaxKeys, const Clock* clock = nullptr);

  // Takes a token from `key`'s bucket: 0 when the call may go ahead, otherwise
  // the milliseconds until a token is there (at least 1), and nothing is taken.
  // Always 0 when the limit is off. Thread-safe.
  int64_t Take(std::string_view key);

  const RateLimit& limit() const { return limit_; }
  size_t keys() const;

 private:
  struct Bucket {
    double tokens = 0;
    int64_t updated_ms = 0;
  };
  // Drops the buckets that have refilled: what they would say is what a new one says.
  void ForgetIdle(int64_t now);

  const RateLimit limit_;
  const size_t max_keys_;
  const Clock* const clock_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
  Bucket overflow_;
  int64_t last_sweep_ms_ = 0;
};

// RESOURCE_EXHAUSTED saying the limit and when to retry, counted in `metrics`
// (metropolis_rate_limited_total{service=`service`}; null: not counted).
grpc::Status RateLimited(std::string_view service, const RateLimit& limit, int64_t retry_ms, ProcessMetrics* metrics);

// Declares --rate-limit and --rate-burst with these defaults, describing `per`
// ("per identity", "per client address").
void AddRateLimitSettings(Settings* settings, const RateLimit& defaults, std::string_view per);
bool ReadRateLimitSettings(const Settings& settings, RateLimit* out, std::string* error);

}  // namespace metropolis::services
