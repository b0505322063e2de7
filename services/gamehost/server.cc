#include "services/gamehost/server.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/server_builder.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "bots/bot.h"
#include "lib/common/credentials.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"
#include "lib/common/negative_control.h"
#include "lib/storage/redis_sentinel.h"
#include "metropolis/v1/matchmaker.grpc.pb.h"

namespace metropolis::gamehost {

namespace ms = services;

namespace {

// With a replays service a game is stored for good once the replays service has it:
// until then its checkpoint stays in Redis, so that if this host dies with the
// game in its outbox another host takes it over and stores it. Off only as a
// negative control (protection "keep_until_delivered").
HostOptions WithDelivery(HostOptions options, const GrpcResultsClient* replays) {
  options.done_when_stored = replays == nullptr || services::ProtectionRemoved("keep_until_delivered");
  return options;
}

}  // namespace

GameHostServer::GameHostServer(const GameHostConfig& config, ms::ProcessMetrics* metrics)
    : config_(config),
      address_(config.options.address),
      metrics_(metrics->registry()),
      results_(config.replays.empty() ? nullptr
                                      : std::make_unique<GrpcResultsClient>(ResultsClientOptions{
                                            .replays_address = config.replays,
                                            .replays_token = config.replays_token,
                                            .ratings_address = config.ratings,
                                            .ratings_token = config.ratings_token,
                                        })),
      outbox_(OutboxOptions{
          .dir = config.data_dir + "/outbox",
          .results = results_.get(),
          .archive_dir = config.data_dir + "/completed",
          .archive_keep = config.archive_keep,
          .metrics = &metrics_,
          .on_delivered = [this](const std::string& id) { host_.GameDelivered(id); },
      }),
      timers_(&clock_),
      // Plain FIFO only as a negative control (protection "fair_bots").
      bots_(config.bot_threads, !services::ProtectionRemoved("fair_bots")),
      games_(config.game_threads),
      checkpoints_(config.checkpoint_redis.empty()
                       ? nullptr
                       : std::make_unique<RedisCheckpointStore>(
                             config.checkpoint_redis,
                             RedisCheckpointOptions{.takeover_guard = !services::ProtectionRemoved("redis_clock")})),
      checkpoint_writer_(
          checkpoints_ && config.checkpoint_batch > 0
              ? std::make_unique<CheckpointWriter>(checkpoints_.get(), &metrics_, size_t(config.checkpoint_batch))
              : nullptr),
      directory_(checkpoints_
                     ? std::unique_ptr<GameDirectory>(std::make_unique<CheckpointDirectory>(checkpoints_.get()))
                     : std::make_unique<InMemoryDirectory>()),
      host_(WithDelivery(config.options, results_.get()), &clock_, &timers_, &bots_, &outbox_, directory_.get(),
            &metrics_, &games_),
      service_(&host_, &metrics_, &clock_,
               {config.rate_limit, {config.options.admin_token, config.options.spectator_token}, metrics}) {}

namespace {

// The key stays in this process: it is read once, never logged and never
// written anywhere (a checkpoint holds a game's seed, not the key).
bool ReadChanceKey(const std::string& path, std::string* key, std::string* error) {
  if (path.empty()) {
    services::LogWarning("no --chance-key-file: the games of a duplicate set meet the same chance only on this host");
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (in) bytes << in.rdbuf();  // an empty file inserts nothing: its size is said below
  if (!in || in.bad()) {
    *error = "--chance-key-file " + path + ": cannot be read";
    return false;
  }
  *key = bytes.str();
  if (key->size() < 32) {
    *error = "--chance-key-file " + path + ": " + std::to_string(key->size()) +
             " bytes; a key needs at least 32 (e.g. head -c 32 /dev/urandom > FILE)";
    key->clear();
    return false;
  }
  return true;
}

}  // namespace

void AddPlaySettings(services::Settings* settings) {
  settings->Add("decision-ms", "N", "10000", "default per-decision time limit");
  settings->Add("time-bank-ms", "N", "60000", "default time bank per seat and game");
  settings->Add("fallback-bot", "SPEC", "heuristic", "default bot for seats that time out or disconnect");
  settings->Add("max-bot-think-ms", "N", "2000",
                "how long a fallback or built-in bot may think per decision: CreateGame refuses a bot whose spec asks "
                "for more (search:ms=...), and an iteration budget is ended there");
  settings->Add("start-timeout-ms", "N", "30000", "start a game after this long even if seats are missing");
  settings->Add("bot-threads", "N", "2",
                "threads that compute fallback and built-in bots' decisions, taking the games in turn (one decision "
                "of a game at a time)");
  settings->Add("game-threads", "N", "4",
                "threads that apply games' moves and write their checkpoints (each game in order, off the gRPC "
                "threads)");
  settings->Add("max-games", "N", "10000", "live games the game host accepts");
  settings->Add("coalesce-events-ms", "N", "20",
                "a seat that is not to act hears the events of the steps played meanwhile at most this late, in one "
                "message (the seat to act hears them at once, with its decision); 0: every step's events at once");
  settings->Add("forfeit-after", "N", "20", "fallback decisions in a row after which a seat forfeits; 0 = never");
  settings->Add(
      "checkpoint-redis", "ADDR", "",
      "checkpoint every live game in this Redis (host:port or sentinel:NAME@HOST:PORT,...; append-only) and take "
      "over the games of hosts "
      "that die; empty: games live in this host only");
  settings->Add("checkpoint-batch", "N", "256",
                "with --checkpoint-redis: the checkpoint writer sends the appends of every game waiting to write in "
                "one round trip, at most N of them, and no game thread waits on Redis; 0: each game thread writes its "
                "games' appends itself");
  settings->Add("lease-ms", "N", "3000",
                "a game's lease: how long after its host stops renewing it another host "
                "may take the game over");
  settings->Add("archive-keep", "N", "10000",
                "with --replays: the newest completed games kept as JSON in DATA_DIR/completed (0: none); without, "
                "that folder is where games are stored and nothing is pruned");
  settings->Add("pause-limit-ms", "N", "600000",
                "a game whose checkpoint cannot be written pauses; after this long paused it is void "
                "(\"store unavailable\"); 0 = wait as long as it takes");
  settings->Add("lockstep-lead", "N", "2",
                "a duplicate set's rotation more than N chance draws ahead of the slowest other rotation waits "
                "(docs/TOURNAMENTS.md, \"Rotations in lockstep\")");
  settings->Add("chance-key-file", "FILE", "",
                "the platform key (at least 32 bytes; the same on every host) that the secret chance seeds of a "
                "duplicate set's games derive from (docs/CHANCE.md); empty: a random key for this process only");
}

bool ReadPlaySettings(const services::Settings& settings, GameHostConfig* config, std::string* error) {
  int64_t decision_ms, bank_ms, start_ms, bot_threads, game_threads, max_games, forfeit_after, lease_ms, pause_limit_ms,
      archive_keep, max_bot_think_ms, coalesce_events_ms, checkpoint_batch, lockstep_lead;
  if (!settings.GetInt("decision-ms", 1, 3'600'000, &decision_ms, error) ||
      !settings.GetInt("max-bot-think-ms", 1, 3'600'000, &max_bot_think_ms, error) ||
      !settings.GetInt("time-bank-ms", 0, 86'400'000, &bank_ms, error) ||
      !settings.GetInt("start-timeout-ms", 0, 86'400'000, &start_ms, error) ||
      !settings.GetInt("bot-threads", 1, 256, &bot_threads, error) ||
      !settings.GetInt("game-threads", 1, 256, &game_threads, error) ||
      !settings.GetInt("max-games", 1, 1'000'000, &max_games, error) ||
      !settings.GetInt("forfeit-after", 0, 1'000'000, &forfeit_after, error) ||
      !settings.GetInt("lease-ms", 100, 600'000, &lease_ms, error) ||
      !settings.GetInt("pause-limit-ms", 0, 86'400'000, &pause_limit_ms, error) ||
      !settings.GetInt("archive-keep", 0, 100'000'000, &archive_keep, error) ||
      !settings.GetInt("coalesce-events-ms", 0, 1'000, &coalesce_events_ms, error) ||
      !settings.GetInt("checkpoint-batch", 0, 10'000, &checkpoint_batch, error) ||
      !settings.GetInt("lockstep-lead", 1, 1'000, &lockstep_lead, error))
    return false;
  config->archive_keep = size_t(archive_keep);
  config->checkpoint_batch = int(checkpoint_batch);
  config->checkpoint_redis = settings.Get("checkpoint-redis");
  if (!config->checkpoint_redis.empty()) {
    if (std::string bad = storage::RedisAddressError(config->checkpoint_redis); !bad.empty()) {
      *error = "--checkpoint-redis: " + bad;
      return false;
    }
  }
  config->options.lease_ms = lease_ms;
  config->options.pause_limit_ms = pause_limit_ms;
  config->options.check_seen_step = !services::ProtectionRemoved("seen_step");
  HostOptions& options = config->options;
  options.default_decision_ms = uint32_t(decision_ms);
  options.default_time_bank_ms = uint32_t(bank_ms);
  options.start_timeout_ms = start_ms;
  options.max_live_games = size_t(max_games);
  options.forfeit_after = uint32_t(forfeit_after);
  options.coalesce_events_ms = coalesce_events_ms;
  options.lockstep_lead = uint32_t(lockstep_lead);
  options.max_bot_think_ms = max_bot_think_ms;
  options.default_fallback_bot = settings.Get("fallback-bot");
  if (!bots::MakeBot(options.default_fallback_bot, error)) {
    *error = "--fallback-bot: " + *error;
    return false;
  }
  // A default over the limit would have every game without a bot of its own refused.
  if (std::string why = CheckBotSpec(options.default_fallback_bot, options.max_bot_think_ms); !why.empty()) {
    *error = "--fallback-bot: " + why + " (--max-bot-think-ms)";
    return false;
  }
  config->bot_threads = int(bot_threads);
  config->game_threads = int(game_threads);
  return ReadChanceKey(settings.Get("chance-key-file"), &options.chance_key, error);
}

std::unique_ptr<GameHostServer> GameHostServer::Create(const GameHostConfig& config, ms::ProcessMetrics* metrics,
                                                       std::string* error) {
  std::unique_ptr<GameHostServer> server(new GameHostServer(config, metrics));
  if (!server->outbox_.Start(error)) return nullptr;
  return server;
}

GameHostServer::~GameHostServer() {
  // Before the host goes: the outbox's thread calls into it.
  outbox_.Stop();
  stopping_ = true;
  if (heartbeat_.joinable()) heartbeat_.join();
}

void GameHostServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

void GameHostServer::Listening(int port, services::LogFieldList* fields) {
  if (address_.empty()) address_ = config_.listen.substr(0, config_.listen.rfind(':')) + ":" + std::to_string(port);
  host_.SetAddress(address_);
  // Leases name the address, so checkpoints start once it is known.
  if (checkpoints_)
    host_.SetCheckpoints(checkpoints_.get(), Host::LeaseKeeping::kBackgroundThread, checkpoint_writer_.get());
  fields->emplace_back("address", address_);
  fields->emplace_back("checkpoints", config_.checkpoint_redis.empty() ? "off" : config_.checkpoint_redis);
  fields->emplace_back("metrics", config_.metrics_listen.empty() ? "off" : config_.metrics_listen);
  fields->emplace_back("data_dir", config_.data_dir);
}

// The matchmaker gives games to hosts that announce themselves; one that stops
// announcing (it died, or is cut off) gets no new games.
void GameHostServer::Start() {
  if (!config_.matchmaker.empty()) heartbeat_ = std::thread([this] { Heartbeat(); });
}

void GameHostServer::Heartbeat() {
  auto stub = v1::Matchmaker::NewStub(ms::Dial(config_.matchmaker));
  bool was_ok = true;
  while (!stopping_) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + config_.matchmaker_token);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    v1::RegisterHostRequest request;
    request.set_address(address_);
    request.set_capacity(uint32_t(config_.options.max_live_games));
    request.set_live(uint32_t(host_.live_games()));
    v1::RegisterHostResponse response;
    const grpc::Status s = stub->RegisterHost(&context, request, &response);
    if (s.ok() != was_ok) {
      (s.ok() ? ms::LogInfo : ms::LogWarning)("matchmaker heartbeat",
                                              {{"ok", s.ok() ? "true" : "false"}, {"error", s.error_message()}});
      was_ok = s.ok();
    }
    for (int i = 0; i < 20 && !stopping_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void GameHostServer::Stop(int signal) {
  stopping_ = true;
  if (heartbeat_.joinable()) heartbeat_.join();
  ms::LogInfo("shutting down",
              {{"signal", std::to_string(signal)}, {"live_games", std::to_string(host_.live_games())}});
}

void GameHostServer::Drain() {
  bots_.Shutdown();  // before the host goes: bot tasks call into games
  if (checkpoint_writer_) {
    // The appends out, and the games' work that makes more, finish first: a
    // reply posted to stopped game threads would be dropped, and its steps
    // never released here (the next host to take the game releases them).
    // Bounded: a Redis that does not answer leaves its games paused anyway.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int quiet = 0;
    while (quiet < 2 && std::chrono::steady_clock::now() < until) {
      quiet = checkpoint_writer_->pending() == 0 && games_.QueueSize() == 0 ? quiet + 1 : 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  games_.Shutdown();  // runs the games' queued work (bots' last moves among it)
  if (checkpoint_writer_) checkpoint_writer_->Stop();
  host_.WaitStored();
}

}  // namespace metropolis::gamehost
