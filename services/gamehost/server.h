// The game host as a part of a server program (lib/common/server_main.h):
// the host with its bots, timers, completed-game outbox, optional
// Prometheus metrics, and the heartbeat that announces it to a matchmaker.
// metropolis-gamehost runs it alone; metropolis-server beside the others.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "services/gamehost/checkpoint_writer.h"
#include "services/gamehost/directory.h"
#include "services/gamehost/executor.h"
#include "services/gamehost/host.h"
#include "services/gamehost/metrics.h"
#include "services/gamehost/outbox.h"
#include "services/gamehost/redis_checkpoints.h"
#include "services/gamehost/results.h"
#include "services/gamehost/service.h"
#include "services/gamehost/sink.h"
#include "services/gamehost/timers.h"

namespace metropolis::gamehost {

struct GameHostConfig {
  // options.address is what other parts use to reach the host; empty: the bound address.
  HostOptions options;
  std::string listen;            // the server's address, for the bound address with port 0
  std::string data_dir;          // the outbox in DATA_DIR/outbox, the archive in DATA_DIR/completed
  size_t archive_keep = 10'000;  // with replays: the newest archived games kept (0: no archive)
  std::string metrics_listen;    // what the program serves the process's metrics at, for the logs; empty: off
  int bot_threads = 2;           // compute fallback and built-in bots' decisions, shared fairly between games
  int game_threads = 4;          // run games' work and their checkpoint writes (game.h)
  std::string replays;           // hand completed games to this replays service; empty: keep them on disk only
  std::string replays_token;     // its store token
  std::string ratings;           // and have them rated here (needs replays); empty: unrated
  std::string ratings_token;     // its service token
  std::string matchmaker;        // announce the host to this matchmaker; empty: to none
  std::string matchmaker_token;  // the game hosts' service token there
  std::string checkpoint_redis;  // checkpoint live games in this Redis and take over lapsed ones; empty: off
  // Appends per round trip of the checkpoint writer (checkpoint_writer.h); 0: no
  // writer, each game thread writes its games' appends itself.
  int checkpoint_batch = 256;
  // Calls per seat token (Play streams, Spectate, GetGame, ListGames); the
  // administrator and spectator tokens are not limited.
  services::RateLimit rate_limit{.per_second = 20, .burst = 40};
};

// The flags of how games are played and kept, the same in metropolis-gamehost
// and metropolis-server: decision-ms, time-bank-ms, start-timeout-ms,
// forfeit-after, fallback-bot, max-bot-think-ms, bot-threads, game-threads,
// max-games, checkpoints, archive-keep.
void AddPlaySettings(services::Settings* settings);
// Reads them into *config; false with *error naming the flag.
bool ReadPlaySettings(const services::Settings& settings, GameHostConfig* config, std::string* error);

class GameHostServer final : public services::Component {
 public:
  // Starts the outbox (delivering what a previous run left); null with *error when
  // it fails. Its metrics are made on `metrics`'s registry, the process's, where
  // rate-limit refusals are counted too.
  static std::unique_ptr<GameHostServer> Create(const GameHostConfig& config, services::ProcessMetrics* metrics,
                                                std::string* error);
  ~GameHostServer() override;

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.GameHost"}; }
  void Register(grpc::ServerBuilder* builder) override;
  // Learns its address (with port 0, only now).
  void Listening(int port, services::LogFieldList* fields) override;
  // Starts the heartbeat to the matchmaker, if there is one.
  void Start() override;
  void Stop(int signal) override;
  // Stops the bots (their tasks call into games) and the game threads, then
  // waits until every finished game is stored.
  void Drain() override;

  const std::string& address() const { return address_; }

 private:
  GameHostServer(const GameHostConfig& config, services::ProcessMetrics* metrics);
  void Heartbeat();

  const GameHostConfig config_;
  std::string address_;
  HostMetrics metrics_;
  std::unique_ptr<GrpcResultsClient> results_;  // null without a replays service
  Outbox outbox_;
  services::SystemClock clock_;
  ThreadTimers timers_;
  FairPool bots_;  // one game's bot backlog never holds the others' decisions
  ThreadPool games_;
  std::unique_ptr<CheckpointStore> checkpoints_;
  std::unique_ptr<CheckpointWriter> checkpoint_writer_;  // null without checkpoints or with --checkpoint-batch 0
  std::unique_ptr<GameDirectory> directory_;
  Host host_;
  GameHostService service_;
  std::atomic<bool> stopping_{false};
  std::thread heartbeat_;
};

}  // namespace metropolis::gamehost
