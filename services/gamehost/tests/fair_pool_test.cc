// The bot threads' fairness between games (executor.h, FairPool): the order is
// shown with tasks that block until the test lets them go, never with sleeps.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "services/gamehost/executor.h"

namespace metropolis::gamehost {
namespace {

using Order = std::vector<std::string>;

// What the pool's tasks did, in the order they did it.
class Log {
 public:
  void Add(std::string what) {
    std::lock_guard lock(mutex_);
    order_.push_back(std::move(what));
  }
  Order Get() {
    std::lock_guard lock(mutex_);
    return order_;
  }

 private:
  std::mutex mutex_;
  Order order_;
};

// One thread. Game A's first task holds it until the test lets go; meanwhile A
// posts three more, B two and C one.
Order OneThreadOrder(bool fair) {
  FairPool pool(1, fair);
  Log log;
  std::promise<void> started, release;
  std::shared_future<void> go = release.get_future().share();
  pool.PostFor("A", [&] {
    started.set_value();
    go.wait();
    log.Add("A0");
  });
  started.get_future().wait();  // the thread holds A0: all below is queued behind it
  for (int i = 1; i <= 3; ++i) pool.PostFor("A", [&log, i] { log.Add("A" + std::to_string(i)); });
  for (int i = 0; i < 2; ++i) pool.PostFor("B", [&log, i] { log.Add("B" + std::to_string(i)); });
  pool.PostFor("C", [&log] { log.Add("C0"); });
  release.set_value();
  pool.Shutdown();  // runs what is queued, then joins
  return log.Get();
}

// Two threads. Game A's first task holds one until game B's task lets it go;
// A's second task is posted before B's.
Order TwoThreadOrder(bool fair) {
  FairPool pool(2, fair);
  Log log;
  std::promise<void> started, release;
  std::shared_future<void> go = release.get_future().share();
  pool.PostFor("A", [&] {
    started.set_value();
    go.wait();
    log.Add("A0 done");
  });
  started.get_future().wait();
  pool.PostFor("A", [&log] { log.Add("A1"); });
  pool.PostFor("B", [&] {
    log.Add("B0");
    release.set_value();
  });
  pool.Shutdown();
  return log.Get();
}

// B's and C's decisions wait for the task in hand, not for A's backlog: the
// games take the thread in turn, one task each time.
TEST(FairPoolTest, GamesTakeTheThreadsInTurn) {
  EXPECT_EQ(OneThreadOrder(true), (Order{"A0", "B0", "C0", "A1", "B1", "A2", "A3"}));
}

// A's second task waits for its first even with a thread free (B's task runs
// on it and only then lets A's first finish): a game holds one thread at most.
TEST(FairPoolTest, AGameNeverRunsTwoTasksAtOnce) { EXPECT_EQ(TwoThreadOrder(true), (Order{"B0", "A0 done", "A1"})); }

// Many games on four threads: never two tasks of a game at once, each game's in
// the order posted, and every task runs before Shutdown returns.
TEST(FairPoolTest, EachGamesTasksRunOneAtATimeInOrder) {
  constexpr int kGames = 6, kTasks = 300;
  std::atomic<int> running[kGames] = {};
  std::atomic<bool> overlap{false}, out_of_order{false};
  int next[kGames] = {};  // written only by the game's task, one at a time
  std::atomic<int> ran{0};
  {
    FairPool pool(4);
    for (int t = 0; t < kTasks; ++t) {
      for (int g = 0; g < kGames; ++g) {
        pool.PostFor("game-" + std::to_string(g), [&, g, t] {
          if (running[g].fetch_add(1) != 0) overlap = true;
          if (next[g] != t) out_of_order = true;
          next[g] = t + 1;
          ++ran;
          running[g].fetch_sub(1);
        });
      }
    }
    pool.Shutdown();
    pool.Post([&] { ++ran; });  // after Shutdown: dropped
  }
  EXPECT_FALSE(overlap);
  EXPECT_FALSE(out_of_order);
  EXPECT_EQ(ran, kGames * kTasks);
}

// Negative control (protection "fair_bots", lib/common/negative_control.h):
// without fairness the pool is the one FIFO queue it replaced, and the two
// orders above come out as the client saw it: B and C wait for A's whole
// backlog, and A's second task runs beside its first.
TEST(FairPoolTest, NegativeControlAPlainQueueMakesGamesWaitForAnothersBacklog) {
  EXPECT_EQ(OneThreadOrder(false), (Order{"A0", "A1", "A2", "A3", "B0", "B1", "C0"}));
  EXPECT_EQ(TwoThreadOrder(false), (Order{"A1", "B0", "A0 done"}));
}

}  // namespace
}  // namespace metropolis::gamehost
