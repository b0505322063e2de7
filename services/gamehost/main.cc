// metropolis-gamehost: runs games for seats that connect over gRPC.
#include <iostream>
#include <memory>

#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "services/gamehost/server.h"

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
  settings.Add("data-dir", "DIR", "./gamehost-data",
               "the outbox of completed games (DIR/outbox) and their JSON archive (DIR/completed)");
  mg::AddPlaySettings(&settings);
  settings.Add("replays", "ADDR", "", "replays service to hand completed games to (empty: keep them in DATA_DIR only)");
  settings.Add("replays-token", "TOKEN", "", "the replays service's store token");
  settings.Add("ratings", "ADDR", "", "ratings service that rates completed games (needs --replays; empty: unrated)");
  settings.Add("ratings-token", "TOKEN", "", "the ratings service's service token");
  settings.Add("matchmaker", "ADDR", "", "matchmaker to announce this host to (its address, room and live games)");
  settings.Add("matchmaker-token", "TOKEN", "", "the game hosts' service token at the matchmaker");
  // The host decides when a game's data is too big; no message of the
  // protocol comes near 1 MB.
  ms::AddSecuritySettings(&settings, 1 << 20);
  ms::AddRateLimitSettings(&settings, {.per_second = 20, .burst = 40},
                           "per seat token (Play streams, Spectate, GetGame, ListGames; the admin and spectator "
                           "tokens are not limited)");
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  if (!ms::SetUpLogs(settings, "gamehost", &error)) return Fail(error);

  mg::GameHostConfig config;
  mg::HostOptions& options = config.options;
  ms::ServeOptions serve{
      .program = "metropolis-gamehost", .listen = "", .listen_failure_exit_code = 2, .log_port = false};
  if (!mg::ReadPlaySettings(settings, &config, &error) || !ms::ReadSecuritySettings(settings, &serve, &error) ||
      !ms::ReadRateLimitSettings(settings, &config.rate_limit, &error))
    return Fail(error);
  options.admin_token = settings.Get("admin-token");
  if (options.admin_token.empty()) return Fail("--admin-token (or METROPOLIS_GAMEHOST_ADMIN_TOKEN) is required");
  options.spectator_token = settings.Get("spectator-token");
  if (!settings.Get("ratings").empty() && settings.Get("replays").empty())
    return Fail("--ratings needs --replays: a game is rated once it is stored");
  options.address = settings.Get("advertise");
  config.listen = settings.Get("listen");
  config.data_dir = settings.Get("data-dir");
  config.metrics_listen = settings.Get("metrics-listen");
  config.replays = settings.Get("replays");
  config.replays_token = settings.Get("replays-token");
  config.ratings = settings.Get("ratings");
  config.ratings_token = settings.Get("ratings-token");
  config.matchmaker = settings.Get("matchmaker");
  config.matchmaker_token = settings.Get("matchmaker-token");

  // SIGINT and SIGTERM are taken for an orderly shutdown; blocked before any
  // thread starts so that every thread inherits the mask.
  ms::ShutdownSignals signals;
  std::unique_ptr<mg::GameHostServer> host = mg::GameHostServer::Create(config, &error);
  if (!host) return Fail(error);
  serve.listen = config.listen;
  return ms::Serve(serve, {host.get()}, &signals);
}
