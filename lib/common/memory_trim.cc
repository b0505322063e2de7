#include "lib/common/memory_trim.h"

#include <malloc.h>

namespace metropolis::services {

bool TrimFreeMemory() { return ::malloc_trim(0) == 1; }

MemoryTrimmer::MemoryTrimmer(std::chrono::milliseconds every, std::function<bool()> trim) {
  if (every.count() <= 0) return;
  thread_ = std::thread([this, every, trim = std::move(trim)] {
    std::unique_lock lock(mutex_);
    while (!stop_cv_.wait_for(lock, every, [this] { return stop_; })) {
      lock.unlock();
      trim();
      lock.lock();
    }
  });
}

MemoryTrimmer::~MemoryTrimmer() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace metropolis::services
