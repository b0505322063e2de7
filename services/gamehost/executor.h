// Where work that must not run on a gRPC callback thread goes: bot decisions
// (a search bot thinks for tens of milliseconds) and completed-game hand-offs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace metropolis::gamehost {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual void Post(std::function<void()> task) = 0;
  // `task` is work of `key` (a game's id): an executor that shares its threads
  // between keys uses it (FairPool); the others just run the task.
  virtual void PostFor(const std::string& /*key*/, std::function<void()> task) { Post(std::move(task)); }
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

// A fixed pool of threads shared fairly between keys (games). Each key has its
// own queue; the threads take the keys with work in turn, one task each time,
// and never run two tasks of one key at once (they run in the order posted).
// So a game with a backlog of slow bot decisions holds at most one thread, and
// another game's decision waits for at most the task in hand on each busy
// thread and one task of each game ahead of it in the turn, never for a
// backlog. Post without a key is the key "". Shutdown (or the destructor) runs
// what is queued, then joins; tasks posted after that are dropped.
class FairPool final : public Executor {
 public:
  // fair = false: one FIFO queue, keys ignored, as ThreadPool (the negative
  // control "fair_bots").
  explicit FairPool(int threads, bool fair = true);
  ~FairPool() override;
  void Post(std::function<void()> task) override { PostFor({}, std::move(task)); }
  void PostFor(const std::string& key, std::function<void()> task) override;
  void Shutdown();

 private:
  struct Lane {
    std::deque<std::function<void()>> tasks;
    bool running = false;  // a thread runs one of its tasks
  };
  void Loop();
  const bool fair_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::unordered_map<std::string, Lane> lanes_;  // keys with tasks queued or running
  std::deque<std::string> turn_;                 // keys with a task queued and none running, in turn
  uint64_t posted_ = 0;                          // unfair: each task its own key, in order
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
