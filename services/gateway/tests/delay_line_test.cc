// --spectator-delay-ms: a live game's upstream reaches its spectators only once
// the delay has passed, in order, its end last; the hub says so at once, and
// its end does not wait for the delay. Time is a fake clock the tests move.
#include "services/gateway/delay_line.h"

#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "lib/common/tests/fake_clock.h"
#include "services/gateway/tests/spectator_waits.h"

namespace metropolis::gateway {
namespace {

using namespace std::chrono_literals;

// What reached the sink: the steps of the views, then -1 for the end.
class Recorder final : public UpstreamSink {
 public:
  void OnUpdate(const v1::SpectateUpdate& update) override {
    std::lock_guard lock(mutex_);
    got_.push_back(int(update.view().position().action_count()));
    cv_.notify_all();
  }
  void OnEnd(const grpc::Status&) override {
    std::lock_guard lock(mutex_);
    got_.push_back(-1);
    cv_.notify_all();
  }
  // What came, once `n` items came or `limit` passed.
  std::vector<int> WaitFor(size_t n, std::chrono::milliseconds limit = 20s) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, limit, [&] { return got_.size() >= n; });
    return got_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<int> got_;
};

v1::SpectateUpdate View(uint32_t step) {
  v1::SpectateUpdate u;
  u.mutable_view()->mutable_position()->set_action_count(step);
  return u;
}

TEST(DelayLine, PassesEachUpdateOnOnceItsDelayHasPassedInOrderWithTheEndLast) {
  services::testing::FakeClock clock{0, 1'700'000'000'000};
  DelayLine line(1000ms, &clock);
  auto recorder = std::make_shared<Recorder>();
  auto sink = line.Wrap(recorder);
  sink->OnUpdate(View(1));
  clock.Advance(400);
  sink->OnUpdate(View(2));
  sink->OnEnd(grpc::Status::OK);
  // Nothing is due: nothing comes, however long the line is given.
  line.Poke();
  EXPECT_TRUE(recorder->WaitFor(1, 200ms).empty());
  EXPECT_EQ(line.held(), 3u);
  clock.Advance(600);  // the first is due, the others 400 ms later
  line.Poke();
  EXPECT_EQ(recorder->WaitFor(1), std::vector<int>{1});
  EXPECT_EQ(recorder->WaitFor(2, 200ms), std::vector<int>{1});
  clock.Advance(400);
  line.Poke();
  EXPECT_EQ(recorder->WaitFor(3), (std::vector<int>{1, 2, -1}));
  EXPECT_EQ(line.held(), 0u);
}

TEST(DelayLine, DrainPassesEverythingOnAtOnce) {
  services::testing::FakeClock clock{0, 1'700'000'000'000};
  DelayLine line(3'600'000ms, &clock);
  auto recorder = std::make_shared<Recorder>();
  auto sink = line.Wrap(recorder);
  sink->OnUpdate(View(1));
  line.Drain();
  sink->OnUpdate(View(2));
  sink->OnEnd(grpc::Status::OK);
  EXPECT_EQ(recorder->WaitFor(3), (std::vector<int>{1, 2, -1}));
}

// Through the hub: a spectator hears of the delay at once, and the game's
// welcome and view only after it; a hub that ends with updates held does not
// wait the delay out (the test would hang).
TEST(DelayLine, TheHubsSpectatorsSeeTheGameThatFarBehind) {
  services::testing::FakeClock clock{0, 1'700'000'000'000};
  std::shared_ptr<UpstreamSink> upstream;
  bool cancelled = false;
  UpstreamFactory factory = [&](const std::string&, const std::string&, std::shared_ptr<UpstreamSink> sink) {
    upstream = std::move(sink);
    struct Handle : Upstream {
      bool* cancelled;
      void Cancel() override { *cancelled = true; }
    };
    auto h = std::make_unique<Handle>();
    h->cancelled = &cancelled;
    return std::unique_ptr<Upstream>(std::move(h));
  };
  LiveHub hub({.spectator_delay = 120'000ms, .clock = &clock}, factory);
  ASSERT_NE(hub.delay_line(), nullptr);
  std::shared_ptr<Spectator> spectator;
  ApiError error;
  ASSERT_TRUE(hub.Subscribe("g1", "h1:1", false, &spectator, &error)) << error.message;
  WakeCounter wakes(*spectator);
  bool done = false;
  const std::string first = TakeText(*spectator, &done);
  EXPECT_NE(first.find("event: notice"), std::string::npos) << first;
  EXPECT_NE(first.find("spectators see this game 2 min behind its players"), std::string::npos) << first;
  v1::SpectateUpdate welcome;
  welcome.mutable_welcome()->set_game_id("g1");
  upstream->OnUpdate(welcome);
  upstream->OnUpdate(View(7));
  clock.Advance(119'999);
  hub.delay_line()->Poke();
  EXPECT_FALSE(wakes.WaitFor(1, 1s)) << "an update reached the spectator before the delay";
  EXPECT_EQ(TakeText(*spectator, &done), "");
  clock.Advance(1);
  hub.delay_line()->Poke();
  ASSERT_TRUE(wakes.WaitFor(1));
  ASSERT_TRUE(wakes.WaitFor(2));
  const std::string later = TakeText(*spectator, &done);
  EXPECT_NE(later.find("event: welcome"), std::string::npos) << later;
  EXPECT_NE(later.find("event: view"), std::string::npos) << later;
  // Held when the hub ends: it drains the line instead of waiting.
  upstream->OnUpdate(View(8));
  hub.Unsubscribe("g1", spectator);
  EXPECT_TRUE(cancelled);
  upstream->OnEnd(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  upstream.reset();
}

// A friends' table's own delay (tables.h): its game is held that long on a
// gateway with none, and another game at the same time is not held at all.
TEST(DelayLine, AGamesOwnDelayHoldsThatGameOnly) {
  services::testing::FakeClock clock{0, 1'700'000'000'000};
  std::map<std::string, std::shared_ptr<UpstreamSink>> upstreams;
  UpstreamFactory factory = [&](const std::string& game, const std::string&, std::shared_ptr<UpstreamSink> sink) {
    upstreams[game] = std::move(sink);
    struct Handle : Upstream {
      void Cancel() override {}
    };
    return std::unique_ptr<Upstream>(std::make_unique<Handle>());
  };
  LiveHub hub({.clock = &clock}, factory);
  EXPECT_EQ(hub.delay_line(), nullptr) << "the gateway has no delay of its own";
  std::shared_ptr<Spectator> table_watcher, other_watcher;
  ApiError error;
  ASSERT_TRUE(hub.Subscribe("table-abcdefghijkl-1", "h1:1", false, &table_watcher, &error, 60'000ms));
  ASSERT_TRUE(hub.Subscribe("g2", "h1:1", false, &other_watcher, &error));
  bool done = false;
  const std::string notice = TakeText(*table_watcher, &done);
  EXPECT_NE(notice.find("spectators see this game 1 min behind its players"), std::string::npos) << notice;
  EXPECT_EQ(TakeText(*other_watcher, &done), "") << "no notice for a game without a delay";

  WakeCounter table_wakes(*table_watcher), other_wakes(*other_watcher);
  upstreams["table-abcdefghijkl-1"]->OnUpdate(View(3));
  upstreams["g2"]->OnUpdate(View(3));
  ASSERT_TRUE(other_wakes.WaitFor(1)) << "the other game is shown as it happens";
  EXPECT_NE(TakeText(*other_watcher, &done).find("event: view"), std::string::npos);
  clock.Advance(59'999);
  hub.delay_line(60'000ms)->Poke();
  EXPECT_FALSE(table_wakes.WaitFor(1, 1s)) << "the table's game reached its spectator before its delay";
  clock.Advance(1);
  hub.delay_line(60'000ms)->Poke();
  ASSERT_TRUE(table_wakes.WaitFor(1));
  EXPECT_NE(TakeText(*table_watcher, &done).find("event: view"), std::string::npos);
  hub.Unsubscribe("table-abcdefghijkl-1", table_watcher);
  hub.Unsubscribe("g2", other_watcher);
  for (auto& [game, sink] : upstreams) sink->OnEnd(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  upstreams.clear();
}

}  // namespace
}  // namespace metropolis::gateway
