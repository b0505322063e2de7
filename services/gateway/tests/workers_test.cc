// The gateway's workers (what may block, off the event loop) and timers.
#include "services/gateway/workers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

namespace metropolis::gateway {
namespace {

using namespace std::chrono_literals;

TEST(Workers, RunEveryJobSubmittedBeforeTheStop) {
  std::atomic<int> ran{0};
  Workers workers(3, 1000);
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(workers.Submit([&] { ++ran; }));
  workers.Stop();
  EXPECT_EQ(ran, 200);
  EXPECT_FALSE(workers.Submit([&] { ++ran; }));  // refused after the stop
  EXPECT_EQ(ran, 200);
}

TEST(Workers, AFullQueueRefusesWork) {
  Workers workers(1, 2);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::promise<void> started;
  ASSERT_TRUE(workers.Submit([&] {
    started.set_value();
    gate.wait();
  }));
  started.get_future().wait();  // the only thread is busy
  EXPECT_TRUE(workers.Submit([] {}));
  EXPECT_TRUE(workers.Submit([] {}));
  EXPECT_EQ(workers.queued(), 2u);
  EXPECT_FALSE(workers.Submit([] {})) << "a third job beyond max_queued 2";
  release.set_value();
  workers.Stop();
  EXPECT_EQ(workers.queued(), 0u);
}

TEST(Timers, RunInTheOrderOfTheirTimes) {
  Timers timers;
  std::mutex mutex;
  std::vector<int> order;
  std::promise<void> last;
  const auto now = Timers::Clock::now();
  timers.At(now + 60ms, [&] {
    std::lock_guard lock(mutex);
    order.push_back(3);
    last.set_value();
  });
  timers.At(now + 20ms, [&] {
    std::lock_guard lock(mutex);
    order.push_back(1);
  });
  timers.At(now + 40ms, [&] {
    std::lock_guard lock(mutex);
    order.push_back(2);
  });
  ASSERT_EQ(last.get_future().wait_for(5s), std::future_status::ready);
  std::lock_guard lock(mutex);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

// A stream that wants an earlier time cancels the timer it set: a cancelled
// timer never runs and no longer waits in the queue.
TEST(Timers, ACancelledTimerNeverRunsAndLeavesTheQueue) {
  Timers timers;
  std::atomic<int> cancelled_ran{0};
  std::promise<void> kept;
  const auto now = Timers::Clock::now();
  const Timers::Key late = timers.At(now + 40ms, [&] { ++cancelled_ran; });
  const Timers::Key far = timers.At(now + std::chrono::hours(1), [&] { ++cancelled_ran; });
  EXPECT_EQ(timers.pending(), 2u);
  timers.Cancel(far);
  EXPECT_EQ(timers.pending(), 1u);
  timers.Cancel(late);
  timers.Cancel(late);  // twice: nothing
  EXPECT_EQ(timers.pending(), 0u);
  // A timer set after them, and after the cancelled one's time, runs: the
  // thread was not left waiting for what was cancelled.
  timers.At(now + 80ms, [&] { kept.set_value(); });
  ASSERT_EQ(kept.get_future().wait_for(5s), std::future_status::ready);
  EXPECT_EQ(cancelled_ran, 0);
}

TEST(Timers, NothingRunsAfterStop) {
  std::atomic<int> ran{0};
  Timers timers;
  timers.At(Timers::Clock::now() + 50ms, [&] { ++ran; });
  timers.Stop();
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(ran, 0);
  timers.At(Timers::Clock::now(), [&] { ++ran; });
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(ran, 0);
}

// The memory trim runs this way: again and again, one timer waiting at a time.
TEST(Timers, EveryRunsAgainAndAgain) {
  std::atomic<int> ran{0};
  Timers timers;
  std::promise<void> thrice;
  timers.Every(5ms, [&] {
    if (++ran == 3) thrice.set_value();
  });
  ASSERT_EQ(thrice.get_future().wait_for(5s), std::future_status::ready);
  // Each run sets the next one after it: never more than one waits.
  for (int i = 0; i < 20; ++i) {
    EXPECT_LE(timers.pending(), 1u);
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_GE(ran, 3);
}

// A run under way as the timers stop does not set another: nothing is left
// waiting (the next run would be set after Stop cleared the queue).
TEST(Timers, EveryIsNotSetAgainByARunThatEndsAfterStop) {
  Timers timers;
  std::promise<void> started, release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};
  timers.Every(1ms, [&] {
    if (++ran == 1) {
      started.set_value();
      released.wait();  // until Stop is under way
    }
  });
  // A far timer shows when Stop has begun: it drops what waits.
  timers.At(Timers::Clock::now() + std::chrono::hours(1), [] {});
  ASSERT_EQ(started.get_future().wait_for(5s), std::future_status::ready);
  ASSERT_EQ(timers.pending(), 1u);
  std::thread stopper([&] { timers.Stop(); });  // waits for the run
  while (timers.pending() != 0) std::this_thread::yield();
  release.set_value();  // the run ends, and tries to set the next
  stopper.join();
  EXPECT_EQ(timers.pending(), 0u);
  EXPECT_EQ(ran, 1);
}

// Its first run is one period away: a server that trims every ten seconds
// does not trim as it starts, and stops without waiting for the period.
TEST(Timers, EveryWaitsOnePeriodBeforeItsFirstRun) {
  std::atomic<int> ran{0};
  Timers timers;
  timers.Every(std::chrono::hours(1), [&] { ++ran; });
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(timers.pending(), 1u);
  timers.Stop();
  EXPECT_EQ(timers.pending(), 0u);
}

}  // namespace
}  // namespace metropolis::gateway
