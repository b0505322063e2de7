#include "services/gamehost/executor.h"

namespace metropolis::gamehost {

ThreadPool::ThreadPool(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

ThreadPool::~ThreadPool() { Shutdown(); }

void ThreadPool::Shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::Post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

size_t ThreadPool::QueueSize() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void ThreadPool::Loop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

FairPool::FairPool(int threads, bool fair) : fair_(fair) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

FairPool::~FairPool() { Shutdown(); }

void FairPool::Shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void FairPool::PostFor(const std::string& key, std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    const std::string lane_key = fair_ ? key : std::to_string(posted_++);
    Lane& lane = lanes_[lane_key];
    lane.tasks.push_back(std::move(task));
    // A key with a task running rejoins the turn when that task ends.
    if (lane.running || lane.tasks.size() > 1) return;
    turn_.push_back(lane_key);
  }
  cv_.notify_one();
}

void FairPool::Loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !turn_.empty(); });
    // Stopping with nothing in turn: a key still running puts its rest back
    // in turn itself, and its thread runs it.
    if (turn_.empty()) return;
    const std::string key = std::move(turn_.front());
    turn_.pop_front();
    Lane& lane = lanes_.at(key);  // elements of an unordered_map stay where they are
    std::function<void()> task = std::move(lane.tasks.front());
    lane.tasks.pop_front();
    lane.running = true;
    lock.unlock();
    task();
    task = nullptr;  // what it holds goes outside the lock
    lock.lock();
    lane.running = false;
    if (lane.tasks.empty()) {
      lanes_.erase(key);
    } else {
      turn_.push_back(key);  // behind the keys that waited meanwhile
      cv_.notify_one();
    }
  }
}

void ManualExecutor::Post(std::function<void()> task) {
  std::lock_guard lock(mutex_);
  queue_.push_back(std::move(task));
}

int ManualExecutor::RunAll() {
  int ran = 0;
  for (;;) {
    std::function<void()> task;
    {
      std::lock_guard lock(mutex_);
      if (queue_.empty()) return ran;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
    ++ran;
  }
}

size_t ManualExecutor::size() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

}  // namespace metropolis::gamehost
