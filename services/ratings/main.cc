// metropolis-ratings: rates completed games exactly once and serves leaderboards.
#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <csignal>
#include <iostream>

#include "services/accounts/roles.h"
#include "services/accounts/store.h"
#include "services/common/grpc_util.h"
#include "services/common/log.h"
#include "services/common/settings.h"
#include "services/ratings/service.h"

namespace ms = metropolis::services;
namespace mr = metropolis::ratings;

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
  settings.Add("redis", "HOST:PORT", "", "Redis address (required)");
  settings.Add("redis-prefix", "PREFIX", "metropolis", "prefix of the Redis keys, to share one Redis");
  settings.Add("service-token", "TOKEN", "", "bearer token that may rate games (the game hosts'; required)");
  settings.Add("connections", "N", "8", "PostgreSQL and Redis connections (each); calls beyond them wait for one");
  settings.Add("max-calls", "N", "256",
               "calls served at once (a thread each; more are refused with RESOURCE_EXHAUSTED)");
  settings.Add("log-level", "LEVEL", "info", "debug, info, warning or error");
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  ms::LogLevel level;
  if (!ms::ParseLogLevel(settings.Get("log-level"), &level))
    return Fail("--log-level: not debug, info, warning or error");
  ms::SetLogService("ratings");
  ms::SetLogLevel(level);
  std::string error;
  int64_t threads, max_calls;
  if (!settings.GetInt("connections", 1, 256, &threads, &error) ||
      !settings.GetInt("max-calls", 1, 100000, &max_calls, &error))
    return Fail(error);
  if (settings.Get("pg").empty() || settings.Get("redis").empty() || settings.Get("service-token").empty())
    return Fail("--pg, --redis and --service-token are required");

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  metropolis::storage::PgPool pool(settings.Get("pg"), int(threads));
  metropolis::storage::RedisPool redis(settings.Get("redis"), int(threads));
  metropolis::accounts::AccountStore accounts(&pool);
  metropolis::accounts::TokenAuthenticator auth(
      &accounts, {{settings.Get("service-token"), std::string(metropolis::accounts::kGameHostRole)}});
  mr::RatingStore store(&pool);
  mr::LeaderboardCache cache(&redis, settings.Get("redis-prefix"));
  mr::Ratings ratings(&store, &cache);
  // Redis may have lost boards, or missed writes, while this service was down.
  uint64_t players = 0;
  if (grpc::Status s = ratings.RebuildAll(&players); !s.ok()) {
    ms::LogWarning("leaderboards not rebuilt at start; each is rebuilt on its first use",
                   {{"error", s.error_message()}});
  }
  mr::RatingsService service(&ratings, &auth);
  ms::EnableHealthAndReflection();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(settings.Get("listen"), grpc::InsecureServerCredentials(), &port);
  grpc::ResourceQuota quota("ratings");
  // The sync server spends a thread per call in progress; the pools bound the
  // database connections, which calls beyond them wait for.
  quota.SetMaxThreads(int(max_calls));
  builder.SetResourceQuota(quota);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::cerr << "metropolis-ratings: cannot listen on " << settings.Get("listen") << "\n";
    return 1;
  }
  ms::SetServing(*server, "metropolis.v1.Ratings", true);
  ms::LogInfo("listening", {{"port", std::to_string(port)}, {"players_rebuilt", std::to_string(players)}});
  int signal = 0;
  sigwait(&signals, &signal);
  ms::SetServing(*server, "metropolis.v1.Ratings", false);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  return 0;
}
