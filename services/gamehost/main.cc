// metropolis-gamehost: runs games for seats that connect over gRPC.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <prometheus/exposer.h>
#include <prometheus/registry.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include "bots/bot.h"
#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "services/common/grpc_util.h"
#include "services/common/log.h"
#include "services/common/settings.h"
#include "services/gamehost/forwarder.h"
#include "services/gamehost/host.h"
#include "services/gamehost/service.h"

namespace mg = metropolis::gamehost;
namespace ms = metropolis::services;

namespace {

int Fail(const std::string& message) {
  std::cerr << "metropolis-gamehost: " << message << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-gamehost",
                        "Runs Cities & Knights games: seats play over gRPC streams, spectators watch, and every "
                        "completed game is stored before anyone hears it is over.",
                        "METROPOLIS_GAMEHOST_");
  settings.Add("listen", "ADDR", "127.0.0.1:50051", "gRPC address to listen on (port 0 picks a free port)");
  settings.Add("advertise", "ADDR", "", "address other parts use to reach this host (default: the bound address)");
  settings.Add("metrics-listen", "ADDR", "127.0.0.1:9464", "Prometheus metrics address; empty turns metrics off");
  settings.Add("admin-token", "TOKEN", "", "bearer token that may create games (required)");
  settings.Add("spectator-token", "TOKEN", "", "bearer token that may list, inspect and watch games");
  settings.Add("data-dir", "DIR", "./gamehost-data", "where completed games are stored (DIR/completed/ID.json)");
  settings.Add("decision-ms", "N", "10000", "default per-decision time limit");
  settings.Add("time-bank-ms", "N", "60000", "default time bank per seat and game");
  settings.Add("fallback-bot", "SPEC", "heuristic", "default bot for seats that time out or disconnect");
  settings.Add("start-timeout-ms", "N", "30000", "start a game after this long even if seats are missing");
  settings.Add("bot-threads", "N", "2", "threads that compute fallback and built-in bots' decisions");
  settings.Add("max-games", "N", "10000", "live games this host accepts");
  settings.Add("replays", "ADDR", "", "replays service to hand completed games to (empty: keep them in DATA_DIR only)");
  settings.Add("replays-token", "TOKEN", "", "the replays service's store token");
  settings.Add("ratings", "ADDR", "", "ratings service that rates completed games (needs --replays; empty: unrated)");
  settings.Add("ratings-token", "TOKEN", "", "the ratings service's service token");
  settings.Add("forfeit-after", "N", "20", "fallback decisions in a row after which a seat forfeits; 0 = never");
  settings.Add("matchmaker", "ADDR", "", "matchmaker to announce this host to (its address, room and live games)");
  settings.Add("matchmaker-token", "TOKEN", "", "the game hosts' service token at the matchmaker");
  settings.Add("log-level", "LEVEL", "info", "debug, info, warning or error");
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;

  ms::LogLevel level;
  if (!ms::ParseLogLevel(settings.Get("log-level"), &level))
    return Fail("--log-level: '" + settings.Get("log-level") + "' is not debug, info, warning or error");
  ms::SetLogService("gamehost");
  ms::SetLogLevel(level);

  mg::HostOptions options;
  std::string error;
  int64_t decision_ms, bank_ms, start_ms, bot_threads, max_games, forfeit_after;
  if (!settings.GetInt("decision-ms", 1, 3'600'000, &decision_ms, &error) ||
      !settings.GetInt("time-bank-ms", 0, 86'400'000, &bank_ms, &error) ||
      !settings.GetInt("start-timeout-ms", 0, 86'400'000, &start_ms, &error) ||
      !settings.GetInt("bot-threads", 1, 256, &bot_threads, &error) ||
      !settings.GetInt("max-games", 1, 1'000'000, &max_games, &error) ||
      !settings.GetInt("forfeit-after", 0, 1'000'000, &forfeit_after, &error)) {
    return Fail(error);
  }
  options.admin_token = settings.Get("admin-token");
  if (options.admin_token.empty()) return Fail("--admin-token (or METROPOLIS_GAMEHOST_ADMIN_TOKEN) is required");
  options.spectator_token = settings.Get("spectator-token");
  options.default_decision_ms = uint32_t(decision_ms);
  options.default_time_bank_ms = uint32_t(bank_ms);
  options.start_timeout_ms = start_ms;
  options.max_live_games = size_t(max_games);
  options.forfeit_after = uint32_t(forfeit_after);
  if (!settings.Get("ratings").empty() && settings.Get("replays").empty())
    return Fail("--ratings needs --replays: a game is rated once it is stored");
  options.default_fallback_bot = settings.Get("fallback-bot");
  if (!metropolis::bots::MakeBot(options.default_fallback_bot, &error)) return Fail("--fallback-bot: " + error);

  // SIGINT and SIGTERM are taken by sigwait below, in an orderly shutdown;
  // blocked before any thread starts so that every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  mg::FileSink archive(settings.Get("data-dir") + "/completed");
  if (!archive.Open(&error)) return Fail(error);
  // With a replays service, completed games also go through the durable outbox.
  std::unique_ptr<mg::ReplayForwarder> forwarder;
  if (!settings.Get("replays").empty()) {
    forwarder = std::make_unique<mg::ReplayForwarder>(mg::ForwarderOptions{
        .dir = settings.Get("data-dir") + "/outbox",
        .replays_address = settings.Get("replays"),
        .token = settings.Get("replays-token"),
        .ratings_address = settings.Get("ratings"),
        .ratings_token = settings.Get("ratings-token"),
    });
    if (!forwarder->Start(&error)) return Fail(error);
  }
  mg::TeeSink sink(&archive, forwarder.get());

  auto registry = std::make_shared<prometheus::Registry>();
  std::unique_ptr<prometheus::Exposer> exposer;
  const std::string metrics_address = settings.Get("metrics-listen");
  if (!metrics_address.empty()) {
    try {
      exposer = std::make_unique<prometheus::Exposer>(metrics_address);
    } catch (const std::exception& e) {
      return Fail("--metrics-listen " + metrics_address + ": " + e.what());
    }
    exposer->RegisterCollectable(registry);
  }
  mg::HostMetrics metrics(registry.get());
  mg::SystemClock clock;
  mg::ThreadTimers timers(&clock);
  mg::ThreadPool bots{int(bot_threads)};
  mg::InMemoryDirectory directory;

  ms::EnableHealthAndReflection();
  grpc::ServerBuilder builder;
  int port = 0;
  const std::string listen = settings.Get("listen");
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &port);
  // The host decides when a game's data is too big; the default 4 MB limit is
  // far above any message of the protocol, so requests stay small anyway.
  builder.SetMaxReceiveMessageSize(1 << 20);

  options.address = settings.Get("advertise");
  mg::Host host(options, &clock, &timers, &bots, &sink, &directory, &metrics);
  mg::GameHostService service(&host, &metrics, &clock);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) return Fail("cannot listen on " + listen);
  // With port 0 the address is known only now.
  if (options.address.empty()) options.address = listen.substr(0, listen.rfind(':')) + ":" + std::to_string(port);
  host.SetAddress(options.address);
  ms::SetServing(*server, "metropolis.v1.GameHost", true);
  ms::LogInfo("listening", {{"address", options.address},
                            {"metrics", metrics_address.empty() ? "off" : metrics_address},
                            {"data_dir", settings.Get("data-dir")}});

  // The matchmaker gives games to hosts that announce themselves; one that stops
  // announcing (it died, or is cut off) gets no new games.
  std::atomic<bool> stopping{false};
  std::thread heartbeat;
  if (!settings.Get("matchmaker").empty()) {
    heartbeat = std::thread([&] {
      auto stub = metropolis::v1::Matchmaker::NewStub(
          grpc::CreateChannel(settings.Get("matchmaker"), grpc::InsecureChannelCredentials()));
      bool was_ok = true;
      while (!stopping) {
        grpc::ClientContext context;
        context.AddMetadata("authorization", "Bearer " + settings.Get("matchmaker-token"));
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
        metropolis::v1::RegisterHostRequest request;
        request.set_address(options.address);
        request.set_capacity(uint32_t(options.max_live_games));
        request.set_live(uint32_t(host.live_games()));
        metropolis::v1::RegisterHostResponse response;
        const grpc::Status s = stub->RegisterHost(&context, request, &response);
        if (s.ok() != was_ok) {
          (s.ok() ? ms::LogInfo : ms::LogWarning)("matchmaker heartbeat",
                                                  {{"ok", s.ok() ? "true" : "false"}, {"error", s.error_message()}});
          was_ok = s.ok();
        }
        for (int i = 0; i < 20 && !stopping; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }

  int signal = 0;
  sigwait(&signals, &signal);
  stopping = true;
  if (heartbeat.joinable()) heartbeat.join();
  ms::LogInfo("shutting down", {{"signal", std::to_string(signal)}, {"live_games", std::to_string(host.live_games())}});
  ms::SetServing(*server, "metropolis.v1.GameHost", false);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  bots.Shutdown();  // before the host goes: bot tasks call into games
  host.WaitStored();
  return 0;
}
