// metropolis-server: the accounts, replays, ratings and matchmaker services (with
// Tournaments) and one game host in one process on one gRPC port,
// wired to each other: for local use and tests. Deployments run the services
// apart (DEVELOPERS.md, "One process or separate services").
#include <prometheus/registry.h>

#include <memory>
#include <string>

#include "bots/bot.h"
#include "lib/common/server_program.h"
#include "lib/storage/server_storage.h"
#include "services/gamehost/server.h"
#include "services/matchmaker/server.h"
#include "tools/server/server.h"

namespace ms = metropolis::services;
namespace st = metropolis::storage;
namespace server = metropolis::server;

namespace {

constexpr char kProgram[] = "metropolis-server";

int Fail(const std::string& message) { return ms::FailStartup(kProgram, message); }

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
               "the gateway's service token: the only caller of the People service, and its reads of the others, "
               "not limited per identity (empty: nobody may call People)");
  metropolis::accounts::AddSeatKeySetting(&settings);
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
  // The metrics of the whole process: every part's, on one registry.
  ms::AddMetricsSetting(&settings);
  // Replays are stored through this port: the replays service's limit.
  ms::AddSecuritySettings(&settings, 4 << 20);
  ms::AddRateLimitSettings(&settings, {.per_second = 50, .burst = 100},
                           "per identity at the matchmaker, accounts, replays and ratings, or seat token at the game "
                           "host (service, admin and spectator tokens are not limited)");
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
  std::string seat_key;
  if (!metropolis::accounts::ReadSeatKeySetting(settings, settings.Get("gateway-token"), &seat_key, &error))
    return Fail(error);
  std::string self;
  if (!server::SelfAddress(serve.listen, &self, &error)) return Fail(error);
  if (!metropolis::bots::MakeBot(settings.Get("bot"), &error)) return Fail("--bot: " + error);
  ms::RateLimit rate_limit;
  if (!ms::ReadSecuritySettings(settings, &serve, &error) || !ms::ReadRateLimitSettings(settings, &rate_limit, &error))
    return Fail(error);
  // The parts of this process call each other at --listen: over TLS when it serves TLS.
  if (serve.tls.enabled() && !ms::ChannelTlsEnabled())
    return Fail("--tls-cert needs --tls-ca here: the services of this process call each other over TLS");
  server::Tokens tokens{.service = settings.Get("service-token"), .host_admin = settings.Get("host-admin-token")};
  server::GenerateMissingTokens(kProgram, &tokens);
  if (!st::MigrateAtStart(settings, &error)) return Fail(error);
  host.options.spectator_token = settings.Get("spectator-token");
  host.options.address = settings.Get("advertise").empty() ? self : settings.Get("advertise");
  host.listen = serve.listen;
  host.data_dir = settings.Get("data-dir");
  host.metrics_listen = settings.Get("metrics-listen");
  matchmaker.bot = settings.Get("bot");

  ms::ShutdownSignals signals;
  // One registry for every part, each making its metrics on it, and the
  // infrastructure's counters once: a family registered twice would be exposed twice.
  const auto registry = std::make_shared<prometheus::Registry>();
  ms::ProcessMetrics metrics(registry.get());
  ms::MetricsEndpoint metrics_endpoint;
  if (!metrics_endpoint.Start(settings.Get("metrics-listen"), registry, &error)) return Fail(error);
  serve.metrics = &metrics;
  st::Pools pools(settings.Get("pg"), redis_options, connections, &metrics);
  std::unique_ptr<server::Parts> parts = server::Parts::Create(&pools,
                                                               {.self = self,
                                                                .tokens = tokens,
                                                                .gateway_token = settings.Get("gateway-token"),
                                                                .seat_key = seat_key,
                                                                .redis_prefix = redis_options.prefix,
                                                                .rate_limit = rate_limit,
                                                                .host = host,
                                                                .matchmaker = matchmaker},
                                                               &metrics, &error);
  if (!parts) return Fail(error);
  return ms::Serve(serve, parts->components(), &signals);
}
