// metropolis-server: the accounts, replays, ratings and matchmaker services (with
// Tournaments) and one game host in one process on one gRPC port,
// wired to each other: for local use and tests. Deployments run the services
// apart (DEVELOPERS.md, "One process or separate services").
#include <iostream>
#include <memory>

#include "bots/bot.h"
#include "lib/common/secret.h"
#include "lib/common/server_program.h"
#include "lib/flags/flags.h"
#include "lib/storage/server_storage.h"
#include "services/accounts/server.h"
#include "services/gamehost/server.h"
#include "services/matchmaker/server.h"
#include "services/ratings/server.h"
#include "services/replays/server.h"

namespace ms = metropolis::services;
namespace st = metropolis::storage;

namespace {

constexpr char kProgram[] = "metropolis-server";

int Fail(const std::string& message) { return ms::FailStartup(kProgram, message); }

// The address the parts of this process call each other at: --listen with a
// wildcard host made loopback. The port must be known before the server starts,
// because the parts are built with it: 0 is refused.
bool SelfAddress(const std::string& listen, std::string* out, std::string* error) {
  const size_t colon = listen.rfind(':');
  int64_t port = 0;
  if (colon == std::string::npos || !metropolis::cli::ParseInt(listen.substr(colon + 1), 0, 65535, &port)) {
    *error = "--listen: '" + listen + "' is not HOST:PORT";
    return false;
  }
  if (port == 0) {
    *error = "--listen: '" + listen +
             "': port 0 is not supported here, the services of this process call each other at that address; "
             "give a free port";
    return false;
  }
  std::string host = listen.substr(0, colon);
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "[::]") host = "[::1]";
  *out = host + ":" + std::to_string(port);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings = ms::MakeSettings(
      {.service = "server",
       .summary = "Runs the accounts, replays, ratings and matchmaker services (with Tournaments) and one "
                  "game host in one process on one gRPC port, wired to each other: for local use and tests. "
                  "Tokens not given are generated and printed once at start."});
  ms::AddListenSetting(&settings,
                       {.address = "127.0.0.1:50060",
                        .value_name = "HOST:PORT",
                        .help = "gRPC address of every service (a fixed port: the services call each other there)"});
  settings.Add("advertise", "ADDR", "", "address players use to reach the game host (default: --listen's)");
  st::AddPostgresSetting(&settings, "PostgreSQL connection string (required)");
  st::AddMigrationsSetting(&settings);
  const st::RedisSettings redis_settings;
  st::AddRedisSettings(&settings, redis_settings);
  settings.Add("service-token", "TOKEN", "",
               "the game hosts' service token: stores and rates games, announces hosts (default: generated)");
  settings.Add("host-admin-token", "TOKEN", "", "may create games on the game host (default: generated)");
  settings.Add("spectator-token", "TOKEN", "", "may list, inspect and watch the game host's games (empty: none)");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token: the only caller of the People service (empty: nobody may call it)");
  settings.Add("data-dir", "DIR", "./metropolis-data",
               "the game host's completed games (DIR/completed) and outbox (DIR/outbox)");
  st::AddConnectionsSetting(
      &settings, {.connections = 16, .help = "PostgreSQL and Redis connections (each), shared by the services"});
  ms::AddMaxCallsSetting(&settings, {.calls = 4096, .help = ms::MaxCallsSetting::kStreams});
  settings.Add("bot", "SPEC", "heuristic", "the matchmaker's bot that fills seats and plays for absent players");
  metropolis::gamehost::AddPlaySettings(&settings);
  settings.Add("round-ms", "N", "100", "time between matching rounds");
  settings.Add("tournament-pass-ms", "N", "500", "time between passes of the tournament scheduler");
  settings.Add("ticket-ttl-ms", "N", "10000", "a queued ticket without a heartbeat for this long expires");
  // The game host serves the metrics of the whole process.
  ms::AddMetricsSetting(&settings);
  // Replays are stored through this port: the replays service's limit.
  ms::AddSecuritySettings(&settings, 4 << 20);
  ms::AddRateLimitSettings(&settings, {.per_second = 50, .burst = 100},
                           "per identity at the matchmaker or seat token at the game host (service, admin and "
                           "spectator tokens are not limited)");
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  if (!ms::SetUpLogs(settings, "server", &error)) return Fail(error);

  int connections = 0;
  ms::ServeOptions serve{.program = kProgram, .listen = settings.Get("listen"), .quota_name = "server"};
  metropolis::matchmaker::MatchmakerConfig matchmaker;
  metropolis::gamehost::GameHostConfig host;
  if (!st::ReadConnectionsSetting(settings, &connections, &error) ||
      !ms::ReadMaxCallsSetting(settings, &serve.max_calls, &error) ||
      !metropolis::gamehost::ReadPlaySettings(settings, &host, &error) ||
      !settings.GetInt("round-ms", 1, 60'000, &matchmaker.round_ms, &error) ||
      !settings.GetInt("tournament-pass-ms", 10, 60'000, &matchmaker.pass_ms, &error) ||
      !settings.GetInt("ticket-ttl-ms", 100, 3'600'000, &matchmaker.ticket_ttl_ms, &error))
    return Fail(error);
  if (std::string missing = ms::MissingSettings(settings, {"pg", "redis"}, ms::MissingWording::kFirstWithEnv);
      !missing.empty())
    return Fail(missing);
  st::RedisOptions redis_options;
  if (!st::ReadRedisSettings(settings, redis_settings, &redis_options, &error)) return Fail(error);
  std::string self;
  if (!SelfAddress(serve.listen, &self, &error)) return Fail(error);
  if (!metropolis::bots::MakeBot(settings.Get("bot"), &error)) return Fail("--bot: " + error);
  ms::RateLimit rate_limit;
  if (!ms::ReadSecuritySettings(settings, &serve, &error) || !ms::ReadRateLimitSettings(settings, &rate_limit, &error))
    return Fail(error);
  // The parts of this process call each other at --listen: over TLS when it serves TLS.
  if (serve.tls.enabled() && !ms::ChannelTlsEnabled())
    return Fail("--tls-cert needs --tls-ca here: the services of this process call each other over TLS");
  matchmaker.rate_limit = host.rate_limit = rate_limit;

  // Tokens: the parts of this process pass them to each other; a generated one
  // is printed so that metropolisctl, or another game host, can use it too.
  std::string service_token = settings.Get("service-token");
  std::string host_admin_token = settings.Get("host-admin-token");
  if (service_token.empty() || host_admin_token.empty()) {
    std::cout << kProgram << ": generated for this run (give them as flags to keep them):\n";
    if (service_token.empty()) {
      service_token = "svc-" + ms::RandomSecretHex(32);
      std::cout << "  --service-token " << service_token << "\n";
    }
    if (host_admin_token.empty()) {
      host_admin_token = "host-" + ms::RandomSecretHex(32);
      std::cout << "  --host-admin-token " << host_admin_token << "\n";
    }
    std::cout.flush();
  }
  if (!st::MigrateAtStart(settings, &error)) return Fail(error);

  host.options.admin_token = host_admin_token;
  host.options.spectator_token = settings.Get("spectator-token");
  host.options.address = settings.Get("advertise").empty() ? self : settings.Get("advertise");
  host.listen = serve.listen;
  host.data_dir = settings.Get("data-dir");
  host.metrics_listen = settings.Get("metrics-listen");
  // Completed games go through the outbox to this process's replays and
  // ratings, and the host announces itself to this process's matchmaker.
  host.replays = host.ratings = host.matchmaker = self;
  host.replays_token = host.ratings_token = host.matchmaker_token = service_token;

  matchmaker.redis_prefix = redis_options.prefix;
  matchmaker.service_token = service_token;
  matchmaker.host_admin_token = host_admin_token;
  matchmaker.ratings = self;
  matchmaker.replays = self;
  // Every part checks its callers' tokens with the Accounts service at this address.
  matchmaker.accounts = self;
  matchmaker.bot = settings.Get("bot");

  ms::ShutdownSignals signals;
  st::Pools pools(settings.Get("pg"), redis_options, connections);
  metropolis::accounts::AccountsServer accounts_part(
      pools.pg(),
      {.service_token = service_token, .gateway_token = settings.Get("gateway-token"), .rate_limit = rate_limit});
  metropolis::replays::ReplaysServer replays_part(pools.pg(), {.store_token = service_token, .accounts = self});
  metropolis::ratings::RatingsServer ratings_part(pools.pg(), pools.redis(),
                                                  {.service_token = service_token,
                                                   .replays_address = self,
                                                   .accounts_address = self,
                                                   .redis_prefix = redis_options.prefix});
  metropolis::matchmaker::MatchmakerServer matchmaker_part(pools.pg(), pools.redis(), matchmaker);
  std::unique_ptr<metropolis::gamehost::GameHostServer> host_part =
      metropolis::gamehost::GameHostServer::Create(host, &error);
  if (!host_part) return Fail(error);
  // Started in this order and stopped in the reverse: the host's heartbeat
  // stops before the matchmaker, whose rounds stop before the server does.
  return ms::Serve(serve, {&accounts_part, &replays_part, &ratings_part, &matchmaker_part, host_part.get()}, &signals);
}
