// metropolis-replays: stores completed games in PostgreSQL and serves them.
#include <iostream>

#include "lib/common/metrics.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "lib/storage/pg_pool.h"
#include "services/replays/server.h"

namespace ms = metropolis::services;

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-replays",
                        "Stores completed games (idempotent on the game id) and serves them: lists, whole replays, "
                        "any step's position and views, exports.",
                        "METROPOLIS_REPLAYS_");
  settings.Add("listen", "ADDR", "127.0.0.1:50061", "gRPC address (port 0 picks a free port)");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL connection string (required; run metropolis-migrate first)");
  settings.Add("store-token", "TOKEN", "", "service token that may store games (the game hosts'; required)");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (metropolis-accounts), asked with --store-token who holds a caller's API "
               "token (required)");
  settings.Add("connections", "N", "8", "PostgreSQL connections; calls beyond them wait for one");
  settings.Add("max-calls", "N", "256",
               "calls served at once (a thread each; more are refused with RESOURCE_EXHAUSTED)");
  // A stored game is its configuration and action list: well under 1 MB.
  ms::AddSecuritySettings(&settings, 4 << 20);
  ms::AddMetricsSetting(&settings);
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  int64_t threads, max_calls;
  if (!ms::SetUpLogs(settings, "replays", &error) || !settings.GetInt("connections", 1, 256, &threads, &error) ||
      !settings.GetInt("max-calls", 1, 100000, &max_calls, &error)) {
    std::cerr << "metropolis-replays: " << error << "\n";
    return 2;
  }
  if (settings.Get("pg").empty() || settings.Get("store-token").empty() || settings.Get("accounts").empty()) {
    std::cerr << "metropolis-replays: --pg, --store-token and --accounts are required\n";
    return 2;
  }
  ms::ServeOptions serve{.program = "metropolis-replays",
                         .listen = settings.Get("listen"),
                         .max_calls = int(max_calls),
                         .quota_name = "replays"};
  if (!ms::ReadSecuritySettings(settings, &serve, &error)) {
    std::cerr << "metropolis-replays: " << error << "\n";
    return 2;
  }
  ms::ShutdownSignals signals;
  ms::MetricsEndpoint metrics;  // --metrics-listen: this process's Prometheus metrics
  if (!metrics.Start(settings.Get("metrics-listen"), &error)) {
    std::cerr << "metropolis-replays: " << error << "\n";
    return 2;
  }
  metropolis::storage::PgPool pool(settings.Get("pg"), int(threads));
  metropolis::replays::ReplaysServer replays(
      &pool, {.store_token = settings.Get("store-token"), .accounts = settings.Get("accounts")});
  // The sync server spends a thread per call in progress; the pool bounds the
  // database connections, which calls beyond them wait for.
  return ms::Serve(serve, {&replays}, &signals);
}
