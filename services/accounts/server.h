// The Accounts service as a part of a server program (lib/common/server_main.h):
// identities, API tokens, ladders and seasons, and people's passwords, sessions and
// seats (the People service, the gateway's), over a PostgreSQL pool the program
// owns, checked by an authenticator over its own store. metropolis-accounts runs
// it alone; metropolis-server beside the others. The other services ask it who
// holds a token (Accounts.LookupToken, lib/auth/grpc_account_lookup.h).
#pragma once

#include <string>
#include <vector>

#include "lib/auth/rate_limited.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "services/accounts/passwords.h"
#include "services/accounts/people_service.h"
#include "services/accounts/pg_account_store.h"
#include "services/accounts/pg_catalog_store.h"
#include "services/accounts/pg_ladder_store.h"
#include "services/accounts/pg_people_store.h"
#include "services/accounts/service.h"

namespace metropolis::accounts {

// The role the services' token has here (lib/auth/roles.h: it may look up
// tokens and read ladders, and administer nothing).
inline constexpr char kServiceRole[] = "service";

struct AccountsConfig {
  std::string service_token;  // the services': LookupToken and ListLadders
  std::string gateway_token;  // the gateway's: the only caller of People (empty: nobody may call it)
  // Calls per identity (service tokens are not limited); RESOURCE_EXHAUSTED beyond.
  services::RateLimit rate_limit{.per_second = 50, .burst = 100};
};

class AccountsServer final : public services::Component {
 public:
  // Token checks and refusals are counted in `metrics`, the process's.
  AccountsServer(storage::PgPool* pool, const AccountsConfig& config, services::ProcessMetrics* metrics);

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.Accounts", "metropolis.v1.People"}; }
  void Register(grpc::ServerBuilder* builder) override;

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
  PgPeopleStore people_store_;
  SodiumPasswordHasher hasher_;
  PeopleService people_service_;
};

}  // namespace metropolis::accounts
