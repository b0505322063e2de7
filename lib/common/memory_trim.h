// Gives the C allocator's free memory back to the system now and then.
//
// glibc keeps what a program frees inside its heaps and returns only what lies
// at a heap's top: a long-running server whose connections come and go in waves
// (the gateway, when a game ends and its watchers move at once) keeps its
// resident memory at the high-water mark of every wave, well above what it
// holds. malloc_trim also returns the free pages inside the heaps.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace metropolis::services {

// Frees the allocator's free pages (malloc_trim(0)); true if any were returned.
bool TrimFreeMemory();

class MemoryTrimmer {
 public:
  // Calls `trim` every `every` until destroyed; `every` of zero: never.
  explicit MemoryTrimmer(std::chrono::milliseconds every, std::function<bool()> trim = TrimFreeMemory);
  ~MemoryTrimmer();  // stops at once, waiting at most for a trim under way
  MemoryTrimmer(const MemoryTrimmer&) = delete;
  MemoryTrimmer& operator=(const MemoryTrimmer&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace metropolis::services
