// The game host's one completed-game pipeline: a directory and a thread.
//
// Put() hands a finished game over and returns at once. The outbox's thread
// writes it durably — OUTBOX/<id>.pb, fsynced and renamed into place — and only
// then runs the game's `stored` callback (the host then tells the seats the game
// is over), so a game reported over survives a kill -9 of the host. The same
// thread delivers each file through a ResultsClient (results.h: store, then rate)
// and deletes it once both services hold the game. Each game has its own retry
// time (doubling up to max_retry_ms), so a game that keeps failing never holds up
// the others; a game refused for good is moved to OUTBOX/refused/ for an operator
// and counted (metric metropolis_gamehost_outbox_refused, alert
// MetropolisDeliveriesRefused). Files left by a previous run are delivered on
// start.
//
// The JSON archive (ARCHIVE/<id>.json, the engine's record: metropolis-engine
// replays it) is optional and pruned to the newest archive_keep games. Without a
// results client the archive is where games are stored: written durably, never
// pruned.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "services/gamehost/metrics.h"
#include "services/gamehost/results.h"
#include "services/gamehost/sink.h"

namespace metropolis::gamehost {

struct OutboxOptions {
  std::string dir;                   // the outbox folder; refused/ inside it
  ResultsClient* results = nullptr;  // null: nothing is delivered, the archive is the store
  std::string archive_dir;           // empty: no archive (then a results client is required)
  size_t archive_keep = 10'000;      // with a results client: archived games kept; 0: none
  int64_t retry_ms = 500;            // a game's first retry; doubles up to max_retry_ms
  int64_t max_retry_ms = 30'000;
  HostMetrics* metrics = nullptr;  // backlog, refused games, failed deliveries; null: none
  // Told each game id once the results client holds it (from the outbox's thread).
  std::function<void(const std::string& game_id)> on_delivered;
};

class Outbox final : public CompletedGameSink {
 public:
  explicit Outbox(OutboxOptions options);
  ~Outbox() override;  // Stop()

  // Keeps every game already Put, then stops the thread; undelivered files stay
  // for the next run. A game Put after it is kept on the caller's thread, and
  // its `stored` is not run (the caller may hold the game's lock).

  // Creates the folders and starts the thread (a previous run's files first).
  bool Start(std::string* error);
  void Stop();
  void Put(CompletedGame game, std::function<void()> stored) override;
  void WaitStored() override;

  // Blocks until nothing waits for delivery or `timeout_ms` passed; true if nothing.
  bool WaitDelivered(int64_t timeout_ms);
  size_t pending() const;  // games kept and not yet delivered
  uint64_t delivered() const;

 private:
  using Time = std::chrono::steady_clock::time_point;
  struct Incoming {
    CompletedGame game;
    std::function<void()> stored;
  };
  void Loop();
  void Keep(const CompletedGame& game);  // on disk, retrying until it is
  void Deliver(const std::string& game_id);
  void Archive(const CompletedGame& game);
  void CountRefused();
  void Schedule(const std::string& game_id, Time at);  // under mutex_

  const OutboxOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Incoming> incoming_;
  int keeping_ = 0;  // games taken from incoming_ whose `stored` has not run yet
  bool stopping_ = false;
  // Games waiting for delivery: when each is next tried, and how often it failed.
  std::set<std::pair<Time, std::string>> due_;
  std::unordered_map<std::string, std::pair<Time, int>> waiting_;
  // The request id each game was created under (request_id.h), for its
  // deliveries; a game left by a previous run is delivered under a new one.
  std::unordered_map<std::string, std::string> request_ids_;
  uint64_t delivered_ = 0;
  std::deque<std::string> archived_;  // archive files, oldest first (the thread's own)
  std::thread thread_;
};

}  // namespace metropolis::gamehost
