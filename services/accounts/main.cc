// metropolis-accounts: identities, API tokens, ladders and seasons; the other
// services ask it who holds a token.
#include <iostream>

#include "lib/common/metrics.h"
#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "lib/storage/pg_pool.h"
#include "services/accounts/server.h"

namespace ms = metropolis::services;

namespace {
int Fail(const std::string& message) {
  std::cerr << "metropolis-accounts: " << message << "\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings(
      "metropolis-accounts",
      "Identities (players and bots), their API tokens, ladders and seasons, and the passwords, sessions "
      "and seats of people who play in a browser, in PostgreSQL. "
      "Administrators manage them (metropolisctl); the other services look up their callers' "
      "tokens here with their service token.",
      "METROPOLIS_ACCOUNTS_");
  settings.Add("listen", "ADDR", "127.0.0.1:50064", "gRPC address (port 0 picks a free port)");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL connection string (required; run metropolis-migrate first)");
  settings.Add("service-token", "TOKEN", "",
               "the services' token: may look up API tokens and read ladders, nothing else (required)");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token: the only caller of the People service (empty: nobody may call it)");
  settings.Add("connections", "N", "8", "PostgreSQL connections; calls beyond them wait for one");
  settings.Add("max-calls", "N", "256",
               "calls served at once (a thread each; more are refused with RESOURCE_EXHAUSTED)");
  ms::AddSecuritySettings(&settings, 1 << 20);
  ms::AddRateLimitSettings(&settings, {.per_second = 50, .burst = 100},
                           "per identity (service tokens are not limited)");
  ms::AddMetricsSetting(&settings);
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  int64_t connections, max_calls;
  if (!ms::SetUpLogs(settings, "accounts", &error) || !settings.GetInt("connections", 1, 256, &connections, &error) ||
      !settings.GetInt("max-calls", 1, 100000, &max_calls, &error))
    return Fail(error);
  if (settings.Get("pg").empty() || settings.Get("service-token").empty())
    return Fail("--pg and --service-token are required");
  metropolis::accounts::AccountsConfig config{.service_token = settings.Get("service-token"),
                                              .gateway_token = settings.Get("gateway-token")};
  ms::ServeOptions serve{.program = "metropolis-accounts",
                         .listen = settings.Get("listen"),
                         .max_calls = int(max_calls),
                         .quota_name = "accounts"};
  if (!ms::ReadSecuritySettings(settings, &serve, &error) ||
      !ms::ReadRateLimitSettings(settings, &config.rate_limit, &error))
    return Fail(error);
  ms::ShutdownSignals signals;
  ms::MetricsEndpoint metrics;  // --metrics-listen: this process's Prometheus metrics
  if (!metrics.Start(settings.Get("metrics-listen"), &error)) return Fail(error);
  metropolis::storage::PgPool pool(settings.Get("pg"), int(connections));
  metropolis::accounts::AccountsServer accounts(&pool, config);
  // The sync server spends a thread per call in progress; the pool bounds the
  // database connections, which calls beyond them wait for.
  return ms::Serve(serve, {&accounts}, &signals);
}
