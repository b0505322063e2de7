// metropolis-accounts: identities, API tokens, ladders and seasons; the other
// services ask it who holds a token.
#include "lib/storage/server_storage.h"
#include "services/accounts/server.h"

namespace ms = metropolis::services;

int main(int argc, char** argv) {
  metropolis::storage::StorageServerProgram program(
      {.server = {.info = {.service = "accounts",
                           .summary = "Identities (players and bots), their API tokens, ladders and seasons, and the "
                                      "passwords, sessions and seats of people who play in a browser, in PostgreSQL. "
                                      "Administrators manage them (metropolisctl); the other services look up their "
                                      "callers' tokens here with their service token."},
                  .listen = {.address = "127.0.0.1:50064"},
                  .rate_limit = {{.defaults = {.per_second = 50, .burst = 100},
                                  .per = "per identity (service tokens are not limited)"}},
                  .required = {"pg", "service-token"}}});
  ms::Settings& settings = program.settings();
  settings.Add("service-token", "TOKEN", "",
               "the services' token: may look up API tokens and read ladders, nothing else (required)");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token: the only caller of the People service (empty: nobody may call it)");
  metropolis::accounts::AddSeatKeySetting(&settings);
  metropolis::accounts::AddBotQuotaSettings(&settings);
  if (!program.Parse(argc, argv) || !program.Check()) return program.exit_code();
  // Read before the pools open: a process the gateway may call refuses to start
  // without a key, rather than keep people's seat tokens in the clear.
  std::string seat_key, error;
  if (!metropolis::accounts::ReadSeatKeySetting(settings, settings.Get("gateway-token"), &seat_key, &error))
    return program.Fail(error);
  metropolis::accounts::BotQuotas bot_quotas;
  if (!metropolis::accounts::ReadBotQuotaSettings(settings, &bot_quotas, &error)) return program.Fail(error);
  if (!program.Start()) return program.exit_code();
  metropolis::accounts::AccountsServer accounts(program.pg(),
                                                {.service_token = settings.Get("service-token"),
                                                 .gateway_token = settings.Get("gateway-token"),
                                                 .seat_key = seat_key,
                                                 .rate_limit = program.rate_limit(),
                                                 .bot_quotas = bot_quotas},
                                                program.metrics());
  // The sync server spends a thread per call in progress; the pool bounds the
  // database connections, which calls beyond them wait for.
  return program.Serve({&accounts});
}
