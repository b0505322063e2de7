// Fakes for the game host's unit tests: streams that record what they are
// sent, a sink in memory that can be told to fail, and a host on a fake clock
// whose timers and bot executor the test drives by hand.
#pragma once

#include <prometheus/registry.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lib/common/tests/fake_clock.h"
#include "services/gamehost/host.h"
#include "services/gamehost/timers.h"

namespace metropolis::gamehost::testing {

using services::testing::FakeClock;

// Timers the test runs by moving a FakeClock.
class ManualTimers final : public Timers {
 public:
  explicit ManualTimers(FakeClock* clock) : clock_(clock) {}
  void Schedule(services::Millis at, std::function<void()> fn) override { entries_.emplace_back(at, std::move(fn)); }
  // Moves the clock to `now`, running every callback due on the way, in time order.
  void AdvanceTo(services::Millis now) {
    for (;;) {
      auto due = std::min_element(entries_.begin(), entries_.end(),
                                  [](const auto& x, const auto& y) { return x.first < y.first; });
      if (due == entries_.end() || due->first > now) break;
      clock_->Set(std::max(clock_->Now(), due->first));
      auto fn = std::move(due->second);
      entries_.erase(due);
      fn();
    }
    clock_->Set(now);
  }
  size_t size() const { return entries_.size(); }

 private:
  FakeClock* clock_;
  std::vector<std::pair<services::Millis, std::function<void()>>> entries_;
};

class RecordingSeat final : public SeatStream {
 public:
  void Send(std::shared_ptr<const v1::PlayUpdate> u) override {
    std::lock_guard lock(mutex);
    updates.push_back(std::move(u));
  }
  void Finish(const grpc::Status& s) override {
    std::lock_guard lock(mutex);
    finished = true;
    status = s;
  }
  // The last decision received, if it is still the last thing that asks for
  // one (a pause takes it back: it comes again when the game goes on).
  const v1::Decision* PendingDecision() const {
    for (auto it = updates.rbegin(); it != updates.rend(); ++it) {
      if ((*it)->has_decision()) return &(*it)->decision();
      if ((*it)->has_game_over()) return nullptr;
      if ((*it)->has_paused() && (*it)->paused().paused()) return nullptr;
    }
    return nullptr;
  }
  int Count(v1::PlayUpdate::MsgCase c) const {
    int n = 0;
    for (const auto& u : updates) n += u->msg_case() == c;
    return n;
  }
  const v1::PlayUpdate* Last(v1::PlayUpdate::MsgCase c) const {
    for (auto it = updates.rbegin(); it != updates.rend(); ++it)
      if ((*it)->msg_case() == c) return it->get();
    return nullptr;
  }

  std::mutex mutex;
  std::vector<std::shared_ptr<const v1::PlayUpdate>> updates;
  bool finished = false;
  grpc::Status status;
};

class RecordingSpectator final : public SpectatorStream {
 public:
  void Send(std::shared_ptr<const v1::SpectateUpdate> u) override { updates.push_back(std::move(u)); }
  void Finish(const grpc::Status& s) override {
    finished = true;
    status = s;
  }
  std::vector<std::shared_ptr<const v1::SpectateUpdate>> updates;
  bool finished = false;
  grpc::Status status;
};

// Keeps games in memory on a thread of its own, as the outbox does on disk;
// Hold() stops it keeping games, as a slow disk would.
class MemorySink final : public CompletedGameSink {
 public:
  MemorySink() : thread_([this] { Loop(); }) {}
  ~MemorySink() override {
    {
      std::lock_guard lock(mutex);
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void Put(CompletedGame game, std::function<void()> stored) override {
    {
      std::lock_guard lock(mutex);
      incoming_.push_back({std::move(game), std::move(stored)});
    }
    cv_.notify_all();
  }
  // While held (a slow disk), nothing is kept and WaitStored does not wait.
  void WaitStored() override {
    std::unique_lock lock(mutex);
    cv_.wait(lock, [this] { return held_ || (incoming_.empty() && busy_ == 0); });
  }
  void Hold(bool held) {
    {
      std::lock_guard lock(mutex);
      held_ = held;
    }
    cv_.notify_all();
  }
  size_t waiting() {
    std::lock_guard lock(mutex);
    return incoming_.size();
  }

  std::mutex mutex;
  std::vector<CompletedGame> games;

 private:
  void Loop() {
    std::unique_lock lock(mutex);
    for (;;) {
      cv_.wait(lock, [this] { return stopping_ || (!held_ && !incoming_.empty()); });
      if (stopping_ && (held_ || incoming_.empty())) return;
      auto [game, stored] = std::move(incoming_.front());
      incoming_.pop_front();
      ++busy_;
      bool known = false;
      for (const auto& g : games) known = known || g.game_id == game.game_id;
      if (!known) games.push_back(std::move(game));
      lock.unlock();
      if (stored) stored();
      lock.lock();
      --busy_;
      cv_.notify_all();
    }
  }
  std::condition_variable cv_;
  std::deque<std::pair<CompletedGame, std::function<void()>>> incoming_;
  int busy_ = 0;
  bool held_ = false, stopping_ = false;
  std::thread thread_;
};

constexpr char kAdmin[] = "admin-secret";
constexpr char kSpectator[] = "spectator-secret";

// A host whose time, timers and bots move only when the test says so.
struct TestHost {
  // With `strands`, games run their work on `work`, which the test (and
  // Settle) drains, as a host's game threads would; without, inline.
  explicit TestHost(std::string address = "host-a:1", GameDirectory* shared_directory = nullptr,
                    bool check_seen_step = true, bool strands = false, std::string chance_key = {},
                    services::Millis coalesce_events_ms = 0)
      : timers(&clock), directory(shared_directory ? shared_directory : &own_directory) {
    HostOptions options;
    options.check_seen_step = check_seen_step;
    options.address = std::move(address);
    options.admin_token = kAdmin;
    options.spectator_token = kSpectator;
    options.default_decision_ms = 1000;
    options.default_time_bank_ms = 2000;
    options.default_fallback_bot = "random";
    options.start_timeout_ms = 5000;
    options.chance_key = std::move(chance_key);
    options.coalesce_events_ms = coalesce_events_ms;
    host =
        std::make_unique<Host>(options, &clock, &timers, &bots, &sink, directory, &metrics, strands ? &work : nullptr);
  }
  // Runs bot tasks and waits for the outbox, until nothing moves.
  void Settle() {
    for (int i = 0; i < 100000; ++i) {
      host->WaitStored();
      if (bots.RunAll() + work.RunAll() == 0) break;
    }
    host->WaitStored();
  }

  FakeClock clock;
  ManualTimers timers;
  ManualExecutor bots;
  ManualExecutor work;
  MemorySink sink;
  InMemoryDirectory own_directory;
  GameDirectory* directory;
  prometheus::Registry registry;  // the host's metrics, for the tests that read them
  HostMetrics metrics{&registry};
  std::unique_ptr<Host> host;

  // The value of a counter or gauge without labels; -1 when it is not there.
  double Metric(const std::string& name) {
    for (const prometheus::MetricFamily& f : registry.Collect())
      if (f.name == name && !f.metric.empty())
        return f.type == prometheus::MetricType::Counter ? f.metric[0].counter.value : f.metric[0].gauge.value;
    return -1;
  }
};

}  // namespace metropolis::gamehost::testing
