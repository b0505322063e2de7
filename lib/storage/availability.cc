#include "lib/storage/availability.h"

#include "lib/common/log.h"

namespace metropolis::storage {

void Availability::Failed(std::string_view error) {
  std::lock_guard lock(mutex_);
  ++failed_calls_;
  if (down_.load(std::memory_order_relaxed)) return;
  down_.store(true, std::memory_order_relaxed);
  since_ = std::chrono::steady_clock::now();
  failed_calls_ = 1;
  services::LogWarning(store_ + " connection lost", {{"error", std::string(error)}});
}

void Availability::Recovered() {
  std::lock_guard lock(mutex_);
  if (!down_.load(std::memory_order_relaxed)) return;
  down_.store(false, std::memory_order_relaxed);
  const auto out = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since_);
  services::LogInfo(store_ + " connection restored",
                    {{"down_ms", std::to_string(out.count())}, {"failed_calls", std::to_string(failed_calls_)}});
}

}  // namespace metropolis::storage
