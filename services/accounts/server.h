// The Accounts service as a part of a server program (lib/common/server_main.h):
// identities, API tokens, ladders and seasons, and people's passwords, sessions and
// seats (the People service, the gateway's), over a PostgreSQL pool the program
// owns, checked by an authenticator over its own store. metropolis-accounts runs
// it alone; metropolis-server beside the others. The other services ask it who
// holds a token (Accounts.LookupToken, lib/auth/grpc_account_lookup.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lib/auth/rate_limited.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"
#include "services/accounts/passwords.h"
#include "services/accounts/people_service.h"
#include "services/accounts/pg_account_store.h"
#include "services/accounts/pg_catalog_store.h"
#include "services/accounts/pg_ladder_store.h"
#include "services/accounts/pg_people_store.h"
#include "services/accounts/seat_sealer.h"
#include "services/accounts/service.h"

namespace metropolis::accounts {

// The role the services' token has here (lib/auth/roles.h: it may look up
// tokens and read ladders, and administer nothing).
inline constexpr char kServiceRole[] = "service";

struct AccountsConfig {
  std::string service_token;  // the services': LookupToken and ListLadders
  std::string gateway_token;  // the gateway's: the only caller of People (empty: nobody may call it)
  // What people's seat tokens are sealed with (--seat-key-file's bytes,
  // seat_sealer.h); empty only without a gateway token: then no seat is kept.
  std::string seat_key;
  // Calls per identity (service tokens are not limited); RESOURCE_EXHAUSTED beyond.
  services::RateLimit rate_limit{.per_second = 50, .burst = 100};
  // What a person may own of bots and bot tokens (People.CreatePersonBot,
  // People.IssueBotToken).
  BotQuotas bot_quotas{};
};

// --max-bots-per-person and --max-tokens-per-bot, for metropolis-accounts.
void AddBotQuotaSettings(services::Settings* settings);
// False with *error when either is not a number in 1..kMaxBotQuota.
bool ReadBotQuotaSettings(const services::Settings& settings, BotQuotas* quotas, std::string* error);

// --seat-key-file, for metropolis-accounts and metropolis-server.
void AddSeatKeySetting(services::Settings* settings);
// Reads the key file into *seat_key. False with *error when it cannot be read,
// holds too few bytes, or is not given while `gateway_token` is: People would
// be called to keep seats it cannot seal, so the program refuses to start.
bool ReadSeatKeySetting(const services::Settings& settings, const std::string& gateway_token, std::string* seat_key,
                        std::string* error);

class AccountsServer final : public services::Component {
 public:
  // Token checks and refusals are counted in `metrics`, the process's.
  AccountsServer(storage::PgPool* pool, const AccountsConfig& config, services::ProcessMetrics* metrics);

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.Accounts", "metropolis.v1.People"}; }
  void Register(grpc::ServerBuilder* builder) override;
  // Seals the seat tokens still stored in the clear (PgPeopleStore::SealClearSeats),
  // while calls are served already (a clear token read meanwhile is sealed then);
  // when PostgreSQL cannot be reached now, each is sealed when read.
  void Start() override;

 private:
  PgAccountStore accounts_;
  PgLadderStore ladders_;
  // Its own store is the lookup, with no cache: a revocation here is seen at
  // once here (the other services see it when their caches forget the token).
  auth::TokenAuthenticator auth_;
  auth::RateLimitedAuthenticator limited_auth_;
  PgCatalogStore catalog_;  // the public reads
  AccountsService service_;
  // People who play in a browser, for the gateway: over the same tables.
  std::unique_ptr<SeatSealer> sealer_;  // null without a seat key
  PgPeopleStore people_store_;
  SodiumPasswordHasher hasher_;
  PeopleService people_service_;
};

}  // namespace metropolis::accounts
