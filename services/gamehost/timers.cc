#include "services/gamehost/timers.h"

#include <algorithm>

namespace metropolis::gamehost {

ThreadTimers::ThreadTimers(const services::Clock* clock) : clock_(clock), thread_([this] { Loop(); }) {}

ThreadTimers::~ThreadTimers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void ThreadTimers::Schedule(services::Millis at, std::function<void()> fn) {
  bool earliest;
  {
    std::lock_guard lock(mutex_);
    const uint64_t seq = seq_++;
    heap_.push(Entry{at, seq, std::move(fn)});
    earliest = heap_.top().seq == seq;
  }
  // The loop sleeps until the earliest entry is due, so only a new earliest
  // entry needs to wake it; every decision schedules a deadline, and waking
  // the thread for each cost a context switch.
  if (earliest) cv_.notify_one();
}

size_t ThreadTimers::size() const {
  std::lock_guard lock(mutex_);
  return heap_.size();
}

void ThreadTimers::Loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (heap_.empty()) {
      cv_.wait(lock);
      continue;
    }
    const services::Millis now = clock_->Now();
    if (heap_.top().at > now) {
      cv_.wait_for(lock, std::chrono::milliseconds(heap_.top().at - now));
      continue;
    }
    auto fn = std::move(const_cast<Entry&>(heap_.top()).fn);
    heap_.pop();
    lock.unlock();
    fn();
    lock.lock();
  }
}

}  // namespace metropolis::gamehost
