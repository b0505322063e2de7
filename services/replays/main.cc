// metropolis-replays: stores completed games in PostgreSQL and serves them.
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
#include "services/replays/service.h"

namespace ms = metropolis::services;

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-replays",
                        "Stores completed games (idempotent on the game id) and serves them: lists, whole replays, "
                        "any step's position and views, exports.",
                        "METROPOLIS_REPLAYS_");
  settings.Add("listen", "ADDR", "127.0.0.1:50061", "gRPC address (port 0 picks a free port)");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL connection string (required; run metropolis-migrate first)");
  settings.Add("store-token", "TOKEN", "", "service token that may store games (the game hosts'; required)");
  settings.Add("connections", "N", "8", "PostgreSQL connections; calls beyond them wait for one");
  settings.Add("max-calls", "N", "256",
               "calls served at once (a thread each; more are refused with RESOURCE_EXHAUSTED)");
  settings.Add("log-level", "LEVEL", "info", "debug, info, warning or error");
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  ms::LogLevel level;
  if (!ms::ParseLogLevel(settings.Get("log-level"), &level)) {
    std::cerr << "metropolis-replays: --log-level: not debug, info, warning or error\n";
    return 2;
  }
  ms::SetLogService("replays");
  ms::SetLogLevel(level);
  std::string error;
  int64_t threads, max_calls;
  if (!settings.GetInt("connections", 1, 256, &threads, &error) ||
      !settings.GetInt("max-calls", 1, 100000, &max_calls, &error)) {
    std::cerr << "metropolis-replays: " << error << "\n";
    return 2;
  }
  if (settings.Get("pg").empty() || settings.Get("store-token").empty()) {
    std::cerr << "metropolis-replays: --pg and --store-token are required\n";
    return 2;
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  metropolis::storage::PgPool pool(settings.Get("pg"), int(threads));
  metropolis::replays::ReplayStore store(&pool);
  // Reads take any API token of the accounts tables (metropolis-admin issues them).
  metropolis::accounts::AccountStore accounts(&pool);
  metropolis::accounts::TokenAuthenticator auth(
      &accounts, {{settings.Get("store-token"), std::string(metropolis::accounts::kGameHostRole)}});
  metropolis::replays::ReplaysService service(&store, &auth);
  ms::EnableHealthAndReflection();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(settings.Get("listen"), grpc::InsecureServerCredentials(), &port);
  grpc::ResourceQuota quota("replays");
  // The sync server spends a thread per call in progress; the pools bound the
  // database connections, which calls beyond them wait for.
  quota.SetMaxThreads(int(max_calls));
  builder.SetResourceQuota(quota);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::cerr << "metropolis-replays: cannot listen on " << settings.Get("listen") << "\n";
    return 1;
  }
  ms::SetServing(*server, "metropolis.v1.Replays", true);
  ms::LogInfo("listening", {{"port", std::to_string(port)}});
  int signal = 0;
  sigwait(&signals, &signal);
  ms::SetServing(*server, "metropolis.v1.Replays", false);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  return 0;
}
