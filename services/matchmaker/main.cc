// metropolis-matchmaker: queues per ladder, tables by rating, games on the hosts.
#include <iostream>

#include "lib/common/metrics.h"
#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "lib/storage/redis_sentinel.h"
#include "services/matchmaker/server.h"

namespace ms = metropolis::services;

namespace {

int Fail(const std::string& message) {
  std::cerr << "metropolis-matchmaker: " << message << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-matchmaker",
                        "Queues players and bots per ladder, forms tables by rating, and creates their games on the "
                        "game hosts. Replicas share their state in Redis and may run side by side.",
                        "METROPOLIS_MATCHMAKER_");
  settings.Add("listen", "ADDR", "127.0.0.1:50063", "gRPC address (port 0 picks a free port)");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL: accounts and ladders (required)");
  settings.Add("redis", "ADDR", "", "Redis: tickets and hosts (required); HOST:PORT or sentinel:NAME@HOST:PORT,...");
  settings.Add("redis-prefix", "PREFIX", "metropolis", "prefix of the Redis keys");
  settings.Add("service-token", "TOKEN", "",
               "the game hosts' service token: RegisterHost, and reading ratings (required)");
  settings.Add("host-admin-token", "TOKEN", "", "the game hosts' --admin-token, to create games (required)");
  settings.Add("ratings", "ADDR", "", "ratings service, for players' ratings (empty: everyone matched as a newcomer)");
  settings.Add("replays", "ADDR", "",
               "replays service: tournament results, and what of a tournament it may show (required; called with "
               "--service-token, which must be its --store-token)");
  settings.Add("round-ms", "N", "100", "time between matching rounds");
  settings.Add("tournament-pass-ms", "N", "500", "time between passes of the tournament scheduler");
  settings.Add("lease-ms", "N", "5000",
               "the tournament scheduler's lease: another replica takes over this long after the leader stops");
  settings.Add("ticket-ttl-ms", "N", "10000", "a queued ticket without a heartbeat for this long expires");
  settings.Add("bot", "SPEC", "heuristic", "the built-in bot that fills seats and plays for absent players");
  settings.Add("connections", "N", "8", "PostgreSQL and Redis connections (each)");
  settings.Add("max-calls", "N", "4096", "calls served at once; a waiting player's stream is one");
  ms::AddSecuritySettings(&settings, 1 << 20);
  ms::AddRateLimitSettings(&settings, {.per_second = 50, .burst = 100},
                           "per identity (service tokens are not limited)");
  ms::AddMetricsSetting(&settings);
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  if (!ms::SetUpLogs(settings, "matchmaker", &error)) return Fail(error);
  metropolis::matchmaker::MatchmakerConfig config;
  int64_t connections, max_calls;
  if (!settings.GetInt("round-ms", 1, 60'000, &config.round_ms, &error) ||
      !settings.GetInt("tournament-pass-ms", 10, 60'000, &config.pass_ms, &error) ||
      !settings.GetInt("lease-ms", 100, 600'000, &config.lease_ms, &error) ||
      !settings.GetInt("ticket-ttl-ms", 100, 3'600'000, &config.ticket_ttl_ms, &error) ||
      !settings.GetInt("connections", 1, 256, &connections, &error) ||
      !settings.GetInt("max-calls", 1, 100'000, &max_calls, &error))
    return Fail(error);
  for (const char* required : {"pg", "redis", "service-token", "host-admin-token", "replays"})
    if (settings.Get(required).empty()) return Fail(std::string("--") + required + " is required");
  if (const std::string bad = metropolis::storage::RedisAddressError(settings.Get("redis")); !bad.empty())
    return Fail("--redis: " + bad);
  ms::ServeOptions serve{.program = "metropolis-matchmaker",
                         .listen = settings.Get("listen"),
                         .max_calls = int(max_calls),
                         .quota_name = "matchmaker",
                         .shutdown_grace = std::chrono::seconds(2)};
  if (!ms::ReadSecuritySettings(settings, &serve, &error) ||
      !ms::ReadRateLimitSettings(settings, &config.rate_limit, &error))
    return Fail(error);
  config.redis_prefix = settings.Get("redis-prefix");
  config.service_token = settings.Get("service-token");
  config.host_admin_token = settings.Get("host-admin-token");
  config.ratings = settings.Get("ratings");
  config.replays = settings.Get("replays");
  config.bot = settings.Get("bot");

  ms::ShutdownSignals signals;
  ms::MetricsEndpoint metrics;  // --metrics-listen: this process's Prometheus metrics
  if (!metrics.Start(settings.Get("metrics-listen"), &error)) return Fail(error);
  metropolis::storage::PgPool pool(settings.Get("pg"), int(connections));
  metropolis::storage::RedisPool redis(settings.Get("redis"), int(connections));
  metropolis::matchmaker::MatchmakerServer matchmaker(&pool, &redis, config);
  return ms::Serve(serve, {&matchmaker}, &signals);
}
