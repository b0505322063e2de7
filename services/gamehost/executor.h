// Where work that must not run on a gRPC callback thread goes: bot decisions
// (a search bot thinks for tens of milliseconds) and completed-game hand-offs.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace metropolis::gamehost {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual void Post(std::function<void()> task) = 0;
};

// A fixed pool of threads draining one queue. Shutdown (or the destructor)
// runs what is queued, then joins; tasks posted after that are dropped.
class ThreadPool final : public Executor {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool() override;
  void Post(std::function<void()> task) override;
  void Shutdown();
  size_t QueueSize() const;

 private:
  void Loop();
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Runs tasks later, when the test says so: deterministic unit tests.
class ManualExecutor final : public Executor {
 public:
  void Post(std::function<void()> task) override;
  // Runs queued tasks (and those they post) until none is left; returns how many ran.
  int RunAll();
  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::function<void()>> queue_;
};

}  // namespace metropolis::gamehost
