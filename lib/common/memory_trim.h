// Gives the C allocator's free memory back to the system now and then.
//
// glibc keeps what a program frees inside its heaps and returns only what lies
// at a heap's top: a long-running server whose connections come and go in waves
// (the gateway, when a game ends and its watchers move at once) keeps its
// resident memory at the high-water mark of every wave, well above what it
// holds. malloc_trim also returns the free pages inside the heaps.
#pragma once

namespace metropolis::services {

// Frees the allocator's free pages (malloc_trim(0)); true if any were returned.
// The gateway calls it every --trim-memory-s, on its timers.
bool TrimFreeMemory();

}  // namespace metropolis::services
