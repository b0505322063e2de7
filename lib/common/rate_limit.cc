#include "lib/common/rate_limit.h"

#include <algorithm>
#include <cmath>

#include "lib/common/metrics.h"
#include "lib/common/settings.h"

namespace metropolis::services {
namespace {

std::string Number(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

RateLimiter::RateLimiter(RateLimit limit, size_t max_keys, const Clock* clock)
    : limit_(limit), max_keys_(std::max<size_t>(max_keys, 1)), clock_(ClockOrSystem(clock)) {
  overflow_.tokens = limit_.burst;
}

int64_t RateLimiter::Take(std::string_view key) {
  if (!limit_.enabled()) return 0;
  const int64_t now = clock_->Now();
  std::lock_guard lock(mutex_);
  Bucket* bucket = nullptr;
  if (auto it = buckets_.find(std::string(key)); it != buckets_.end()) {
    bucket = &it->second;
  } else {
    if (buckets_.size() >= max_keys_) ForgetIdle(now);
    if (buckets_.size() < max_keys_)
      bucket = &buckets_.emplace(std::string(key), Bucket{limit_.burst, now}).first->second;
    else
      bucket = &overflow_;
  }
  const double elapsed_s = double(std::max<int64_t>(now - bucket->updated_ms, 0)) / 1000.0;
  bucket->tokens = std::min(limit_.burst, bucket->tokens + elapsed_s * limit_.per_second);
  bucket->updated_ms = now;
  if (bucket->tokens >= 1) {
    bucket->tokens -= 1;
    return 0;
  }
  return std::max<int64_t>(1, int64_t(std::ceil((1 - bucket->tokens) * 1000.0 / limit_.per_second)));
}

void RateLimiter::ForgetIdle(int64_t now) {
  // A bucket is full again this long after its last call; sweeping more often
  // than that would find nothing new, and costs a pass over every key.
  const int64_t refill_ms = int64_t(std::ceil(limit_.burst * 1000.0 / limit_.per_second));
  if (now - last_sweep_ms_ < refill_ms && last_sweep_ms_ != 0) return;
  last_sweep_ms_ = now;
  std::erase_if(buckets_, [&](const auto& entry) {
    const Bucket& b = entry.second;
    return b.tokens + double(now - b.updated_ms) / 1000.0 * limit_.per_second >= limit_.burst;
  });
}

size_t RateLimiter::keys() const {
  std::lock_guard lock(mutex_);
  return buckets_.size();
}

grpc::Status RateLimited(std::string_view service, const RateLimit& limit, int64_t retry_ms, ProcessMetrics* metrics) {
  if (metrics) metrics->RateLimited(service);
  return {grpc::StatusCode::RESOURCE_EXHAUSTED, "rate limit: " + Number(limit.per_second) +
                                                    " calls per second (bursts of " + Number(limit.burst) +
                                                    ") for this caller; retry in " + std::to_string(retry_ms) + " ms"};
}

void AddRateLimitSettings(Settings* settings, const RateLimit& defaults, std::string_view per) {
  settings->Add("rate-limit", "N", Number(defaults.per_second),
                "calls per second " + std::string(per) + "; more are refused (0: no limit)");
  settings->Add("rate-burst", "N", Number(defaults.burst),
                "calls " + std::string(per) + " allowed at once after a quiet spell");
}

bool ReadRateLimitSettings(const Settings& settings, RateLimit* out, std::string* error) {
  int64_t rate = 0, burst = 0;
  if (!settings.GetInt("rate-limit", 0, 1'000'000, &rate, error) ||
      !settings.GetInt("rate-burst", 1, 1'000'000, &burst, error))
    return false;
  *out = {.per_second = double(rate), .burst = double(burst)};
  return true;
}

}  // namespace metropolis::services
