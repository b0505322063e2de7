// The ratings service as a part of a server program (lib/common/server_main.h):
// the ratings over PostgreSQL (the truth) and Redis (the leaderboards), with
// pools the program owns. metropolis-ratings runs it alone; metropolis-server
// beside the others.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/auth/grpc_account_lookup.h"
#include "lib/auth/rate_limited.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/server_main.h"
#include "services/ratings/peer_clients.h"
#include "services/ratings/pg_rating_store.h"
#include "services/ratings/ratings.h"
#include "services/ratings/redis_leaderboard_cache.h"
#include "services/ratings/service.h"

namespace metropolis::ratings {

struct RatingsConfig {
  std::string service_token;     // may rate games (the game hosts'); also this service's token to Replays and Accounts
  std::string replays_address;   // confirms the digests of the results rated
  std::string accounts_address;  // callers' API tokens, ladders, seasons and identities' names
  std::string redis_prefix = "metropolis";
  // The gateway's service token (the Accounts service's --gateway-token): its
  // reads on behalf of the public, which it limits per client itself; a service,
  // so not limited here per identity. Empty: none.
  std::string gateway_token;
  // Calls per identity (service tokens are not limited); refused with RESOURCE_EXHAUSTED.
  services::RateLimit rate_limit{.per_second = 50, .burst = 100};
};

class RatingsServer final : public services::Component {
 public:
  // Start rebuilds every leaderboard in Redis, which may have lost boards or
  // missed writes while the service was down (once the server listens: in
  // one process Accounts answers there); a board not rebuilt then is on its
  // first use.
  // Its metrics are made on `metrics`'s registry, the process's, where token checks are counted too.
  RatingsServer(storage::PgPool* pool, storage::RedisPool* redis, const RatingsConfig& config,
                services::ProcessMetrics* metrics);
  void Start() override;

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.Ratings"}; }
  void Register(grpc::ServerBuilder* builder) override;

 private:
  RatingsMetrics metrics_;
  auth::GrpcAccountLookup accounts_;
  auth::TokenAuthenticator auth_;
  // What the service checks callers with: auth_, then the limit per identity.
  auth::RateLimitedAuthenticator limited_auth_;
  PgRatingStore store_;
  RedisLeaderboardCache cache_;
  GrpcStoredGames replays_;
  GrpcLadderDirectory ladders_;
  Ratings ratings_;
  RatingsService service_;
  uint64_t players_rebuilt_ = 0;
};

}  // namespace metropolis::ratings
