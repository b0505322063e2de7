// metropolis-ratings: rates completed games exactly once and serves leaderboards.
#include <iostream>

#include "lib/common/metrics.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/redis.h"
#include "lib/storage/redis_sentinel.h"
#include "services/ratings/server.h"

namespace ms = metropolis::services;

namespace {
int Fail(const std::string& message) {
  std::cerr << "metropolis-ratings: " << message << "\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-ratings",
                        "Rates completed games (Weng-Lin Plackett-Luce, exactly once per game) and serves "
                        "leaderboards from Redis, rebuilt from PostgreSQL whenever Redis lost them.",
                        "METROPOLIS_RATINGS_");
  settings.Add("listen", "ADDR", "127.0.0.1:50062", "gRPC address (port 0 picks a free port)");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL connection string (required; run metropolis-migrate first)");
  settings.Add("redis", "ADDR", "", "Redis address (required): HOST:PORT or sentinel:NAME@HOST:PORT,...");
  settings.Add("redis-prefix", "PREFIX", "metropolis", "prefix of the Redis keys, to share one Redis");
  settings.Add("redis-user", "USER", "",
               "Redis ACL user to log in as (AUTH; needs --redis-password); it must read and write the leaderboard "
               "keys (PREFIX:lb:*) and run EVAL and EVAL_RO");
  settings.Add("redis-password", "PASSWORD", "",
               "password of --redis-user, or alone the default user's (requirepass); better given as "
               "METROPOLIS_RATINGS_REDIS_PASSWORD than on the command line");
  settings.Add("service-token", "TOKEN", "",
               "bearer token that may rate games (the game hosts'; required); this service calls Replays and "
               "Accounts with it");
  settings.Add("replays", "ADDR", "", "the replays service (required): confirms the digests of the results rated");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (metropolis-accounts; required): who holds a caller's API token, ladders' rating "
               "parameters, seasons and identities' names");
  settings.Add("connections", "N", "8", "PostgreSQL and Redis connections (each); calls beyond them wait for one");
  settings.Add("max-calls", "N", "256",
               "calls served at once (a thread each; more are refused with RESOURCE_EXHAUSTED)");
  ms::AddSecuritySettings(&settings, 1 << 20);
  ms::AddMetricsSetting(&settings);
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  int64_t threads, max_calls;
  if (!ms::SetUpLogs(settings, "ratings", &error) || !settings.GetInt("connections", 1, 256, &threads, &error) ||
      !settings.GetInt("max-calls", 1, 100000, &max_calls, &error))
    return Fail(error);
  if (settings.Get("pg").empty() || settings.Get("redis").empty() || settings.Get("service-token").empty() ||
      settings.Get("replays").empty() || settings.Get("accounts").empty())
    return Fail("--pg, --redis, --service-token, --replays and --accounts are required");
  if (const std::string bad = metropolis::storage::RedisAddressError(settings.Get("redis")); !bad.empty())
    return Fail("--redis: " + bad);
  const metropolis::storage::RedisCredentials redis_login{settings.Get("redis-user"), settings.Get("redis-password")};
  if (!redis_login.user.empty() && redis_login.password.empty())
    return Fail("--redis-user '" + redis_login.user +
                "' needs --redis-password (or METROPOLIS_RATINGS_REDIS_PASSWORD)");
  if (redis_login.user.find_first_of(" \t\r\n") != std::string::npos)
    return Fail("--redis-user: a Redis user name has no spaces");

  ms::ServeOptions serve{.program = "metropolis-ratings",
                         .listen = settings.Get("listen"),
                         .max_calls = int(max_calls),
                         .quota_name = "ratings"};
  if (!ms::ReadSecuritySettings(settings, &serve, &error)) return Fail(error);
  ms::ShutdownSignals signals;
  ms::MetricsEndpoint metrics;  // --metrics-listen: this process's Prometheus metrics
  if (!metrics.Start(settings.Get("metrics-listen"), &error)) return Fail(error);
  metropolis::storage::PgPool pool(settings.Get("pg"), int(threads));
  metropolis::storage::RedisPool redis(settings.Get("redis"), int(threads), 2000, redis_login);
  metropolis::ratings::RatingsServer ratings(&pool, &redis,
                                             {.service_token = settings.Get("service-token"),
                                              .replays_address = settings.Get("replays"),
                                              .accounts_address = settings.Get("accounts"),
                                              .redis_prefix = settings.Get("redis-prefix")});
  // The sync server spends a thread per call in progress; the pools bound the
  // database connections, which calls beyond them wait for.
  return ms::Serve(serve, {&ratings}, &signals);
}
