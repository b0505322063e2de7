// metropolis-ratings: rates completed games exactly once and serves leaderboards.
#include "lib/storage/server_storage.h"
#include "services/ratings/server.h"

namespace ms = metropolis::services;
namespace st = metropolis::storage;

int main(int argc, char** argv) {
  st::StorageServerProgram program(
      {.server = {.info = {.service = "ratings",
                           .summary = "Rates completed games (Weng-Lin Plackett-Luce, exactly once per game) and "
                                      "serves leaderboards from Redis, rebuilt from PostgreSQL whenever Redis lost "
                                      "them."},
                  .listen = {.address = "127.0.0.1:50062"},
                  .rate_limit = {{.defaults = {.per_second = 50, .burst = 100},
                                  .per = "per identity (service tokens are not limited)"}},
                  .required = {"pg", "redis", "service-token", "replays", "accounts"}},
       .redis = st::RedisSettings{.user_needs = "it must read and write the leaderboard keys (PREFIX:lb:*) and run "
                                                "EVAL and EVAL_RO"},
       .connections = {.help = st::ConnectionsSetting::kPostgresAndRedis}});
  ms::Settings& settings = program.settings();
  settings.Add("service-token", "TOKEN", "",
               "bearer token that may rate games (the game hosts'; required); this service calls Replays and "
               "Accounts with it");
  settings.Add("replays", "ADDR", "", "the replays service (required): confirms the digests of the results rated");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (metropolis-accounts; required): who holds a caller's API token, ladders' rating "
               "parameters, seasons and identities' names");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token (the Accounts service's --gateway-token): its reads are not limited "
               "per identity here, since it limits each of its clients itself (empty: none)");
  if (!program.Parse(argc, argv) || !program.Check() || !program.Start()) return program.exit_code();
  metropolis::ratings::RatingsServer ratings(program.pg(), program.redis(),
                                             {.service_token = settings.Get("service-token"),
                                              .replays_address = settings.Get("replays"),
                                              .accounts_address = settings.Get("accounts"),
                                              .redis_prefix = program.redis_prefix(),
                                              .gateway_token = settings.Get("gateway-token"),
                                              .rate_limit = program.rate_limit()},
                                             program.metrics());
  // The sync server spends a thread per call in progress; the pools bound the
  // database connections, which calls beyond them wait for.
  return program.Serve({&ratings});
}
