#include "services/gateway/workers.h"

#include <memory>

namespace metropolis::gateway {

Workers::Workers(int threads, size_t max_queued) : max_queued_(max_queued) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Run(); });
}

Workers::~Workers() { Stop(); }

bool Workers::Submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || jobs_.size() >= max_queued_) return false;
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

void Workers::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

size_t Workers::queued() const {
  std::lock_guard lock(mutex_);
  return jobs_.size();
}

void Workers::Run() {
  while (true) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      // Jobs submitted before the stop still run: each holds a request that
      // must be answered.
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

Timers::Timers() : thread_([this] { Run(); }) {}

Timers::~Timers() { Stop(); }

Timers::Key Timers::At(Clock::time_point when, std::function<void()> callback) {
  bool first;
  Key key;
  {
    std::lock_guard lock(mutex_);
    key = {when, next_id_++};
    if (stopping_) return key;
    first = due_.empty() || key < due_.begin()->first;
    due_.emplace(key, std::move(callback));
  }
  if (first) cv_.notify_one();
  return key;
}

void Timers::Cancel(const Key& key) {
  std::lock_guard lock(mutex_);
  due_.erase(key);
}

void Timers::Every(Clock::duration period, std::function<void()> callback) {
  // Re-arms itself after each run, from the time it ran: a late run does not
  // bring on a burst of runs to catch up.
  struct Repeat {
    Timers* timers;
    Clock::duration period;
    std::shared_ptr<std::function<void()>> callback;
    void operator()() const {
      (*callback)();
      timers->At(Clock::now() + period, *this);
    }
  };
  At(Clock::now() + period, Repeat{this, period, std::make_shared<std::function<void()>>(std::move(callback))});
}

size_t Timers::pending() {
  std::lock_guard lock(mutex_);
  return due_.size();
}

void Timers::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    due_.clear();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Timers::Run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (due_.empty()) {
      cv_.wait(lock);
      continue;
    }
    const auto when = due_.begin()->first.first;
    if (Clock::now() < when) {
      cv_.wait_until(lock, when);
      continue;
    }
    auto callback = std::move(due_.begin()->second);
    due_.erase(due_.begin());
    lock.unlock();
    callback();
    lock.lock();
  }
}

}  // namespace metropolis::gateway
