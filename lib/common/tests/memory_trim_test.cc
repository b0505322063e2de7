#include "lib/common/memory_trim.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <thread>
#include <vector>

namespace metropolis::services {
namespace {

long ResidentBytes() {
  long pages = 0, resident = 0;
  std::ifstream statm("/proc/self/statm");
  statm >> pages >> resident;
  return resident * ::sysconf(_SC_PAGESIZE);
}

// Frees 64 MiB of small blocks below one that stays: the allocator keeps them,
// resident, until trimmed. Run on a thread of its own so that the blocks come
// from an arena of their own, not shared with the test framework's.
TEST(MemoryTrimTest, TrimReturnsTheFreeMemoryInsideTheHeap) {
  long kept = 0, trimmed = 0;
  std::thread([&] {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 64 * 1024; ++i) {
      blocks.push_back(std::make_unique<char[]>(1000));
      for (int at = 0; at < 1000; at += 256) blocks.back()[at] = char(i);  // resident
    }
    auto last = std::move(blocks.back());  // holds the heap's top
    blocks.pop_back();
    const long full = ResidentBytes();
    blocks.clear();
    blocks.shrink_to_fit();
    kept = full - ResidentBytes();  // what freeing alone gave back
    const long before = ResidentBytes();
    EXPECT_TRUE(TrimFreeMemory());
    trimmed = before - ResidentBytes();
  }).join();
  // Freeing alone returns almost nothing of the 64 MiB; the trim most of it.
  EXPECT_LT(kept, 16l << 20) << "the allocator returned the blocks itself: nothing left for the trim to show";
  EXPECT_GT(trimmed, 32l << 20);
}

}  // namespace
}  // namespace metropolis::services
