// metropolis-replays: stores completed games in PostgreSQL and serves them.
#include "lib/storage/server_storage.h"
#include "services/replays/server.h"

namespace ms = metropolis::services;

int main(int argc, char** argv) {
  metropolis::storage::StorageServerProgram program(
      {.server = {.info = {.service = "replays",
                           .summary = "Stores completed games (idempotent on the game id) and serves them: lists, "
                                      "whole replays, any step's position and views, exports."},
                  .listen = {.address = "127.0.0.1:50061"},
                  // A stored game is its configuration and action list: well under 1 MB.
                  .max_message_bytes = 4 << 20,
                  .rate_limit = {{.defaults = {.per_second = 50, .burst = 100},
                                  .per = "per identity (service tokens are not limited)"}},
                  .required = {"pg", "store-token", "accounts"}}});
  ms::Settings& settings = program.settings();
  settings.Add("store-token", "TOKEN", "", "service token that may store games (the game hosts'; required)");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (metropolis-accounts), asked with --store-token who holds a caller's API "
               "token (required)");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token (the Accounts service's --gateway-token): its reads are not limited "
               "per identity here, since it limits each of its clients itself (empty: none)");
  if (!program.Parse(argc, argv) || !program.Check() || !program.Start()) return program.exit_code();
  metropolis::replays::ReplaysServer replays(program.pg(),
                                             {.store_token = settings.Get("store-token"),
                                              .accounts = settings.Get("accounts"),
                                              .gateway_token = settings.Get("gateway-token"),
                                              .rate_limit = program.rate_limit()},
                                             program.metrics());
  // The sync server spends a thread per call in progress; the pool bounds the
  // database connections, which calls beyond them wait for.
  return program.Serve({&replays});
}
