// The durable outbox between a game host and the replays and ratings services.
// Store() writes the completed game to OUTBOX/<id>.pb and syncs it before
// returning, so a game reported finished survives a kill -9 of the host; a thread
// then delivers each file — Replays.StoreGame, then Ratings.RateGame, which needs
// the stored game — and deletes it once both acknowledged, retrying with backoff
// while a service or its database is down. Both calls are idempotent on the game
// id, so a delivery repeated after a crash stores and rates nothing twice. Files
// left by a previous run are delivered on start.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "metropolis/v1/ratings.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "services/gamehost/metrics.h"
#include "services/gamehost/sink.h"

namespace metropolis::gamehost {

// The record the replays service stores, from the host's completed game.
void CompletedGameToProto(const CompletedGame& game, v1::CompletedGameRecord* out);

struct ForwarderOptions {
  std::string dir;              // the outbox folder
  std::string replays_address;  // host:port of the replays service
  std::string token;            // its store token
  std::string ratings_address;  // host:port of the ratings service; empty: games are not rated
  std::string ratings_token;    // its service token
  int64_t retry_ms = 500;       // first retry; doubles up to max_retry_ms
  int64_t max_retry_ms = 30'000;
  int64_t call_timeout_ms = 10'000;
  HostMetrics* metrics = nullptr;  // the outbox's backlog and failed deliveries; null: none
  // Told each game id once both services hold it (from the delivery thread).
  std::function<void(const std::string& game_id)> on_delivered;
};

class ReplayForwarder final : public CompletedGameSink {
 public:
  explicit ReplayForwarder(ForwarderOptions options);
  ~ReplayForwarder() override;  // stops delivering; undelivered files stay for the next run

  // Creates the folder and starts delivering (files of a previous run first).
  bool Start(std::string* error);
  bool Store(const CompletedGame& game, std::string* error) override;

  // Blocks until the outbox is empty or `timeout_ms` passed; true if empty.
  bool WaitDelivered(int64_t timeout_ms);
  size_t pending() const;
  uint64_t delivered() const;

 private:
  void Loop();
  bool DeliverOne(const std::string& path, bool* permanent_failure);

  const ForwarderOptions options_;
  std::unique_ptr<v1::Replays::Stub> stub_;
  std::unique_ptr<v1::Ratings::Stub> ratings_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool wake_ = false;
  uint64_t delivered_ = 0;
  // The request id each game was created under (request_id.h), for its
  // deliveries; a game left by a previous run is delivered under a new one.
  std::unordered_map<std::string, std::string> request_ids_;
  std::thread thread_;
};

// Stores into several sinks; a game is stored once every one has it.
class TeeSink final : public CompletedGameSink {
 public:
  TeeSink(CompletedGameSink* first, CompletedGameSink* second) : first_(first), second_(second) {}
  bool Store(const CompletedGame& game, std::string* error) override {
    return first_->Store(game, error) && (!second_ || second_->Store(game, error));
  }

 private:
  CompletedGameSink* first_;
  CompletedGameSink* second_;
};

}  // namespace metropolis::gamehost
