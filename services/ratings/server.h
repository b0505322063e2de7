// The ratings service as a part of a server program (lib/common/server_main.h):
// the ratings over PostgreSQL (the truth) and Redis (the leaderboards), with
// pools the program owns. metropolis-ratings runs it alone; metropolis-server
// beside the others.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/auth/grpc_account_lookup.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/server_main.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/redis.h"
#include "services/ratings/leaderboard_cache.h"
#include "services/ratings/ratings.h"
#include "services/ratings/service.h"
#include "services/ratings/store.h"

namespace metropolis::ratings {

struct RatingsConfig {
  std::string service_token;  // may rate games (the game hosts'); also asks the Accounts service
  std::string accounts;       // the Accounts service's address: callers' API tokens
  std::string redis_prefix = "metropolis";
};

class RatingsServer final : public services::Component {
 public:
  // Rebuilds every leaderboard in Redis, which may have lost boards or missed
  // writes while the service was down; a board not rebuilt now is on its first use.
  RatingsServer(storage::PgPool* pool, storage::RedisPool* redis, const RatingsConfig& config);

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.Ratings"}; }
  void Register(grpc::ServerBuilder* builder) override;
  void Listening(int port, services::LogFieldList* fields) override;

 private:
  auth::GrpcAccountLookup accounts_;
  auth::TokenAuthenticator auth_;
  RatingStore store_;
  LeaderboardCache cache_;
  Ratings ratings_;
  RatingsService service_;
  uint64_t players_rebuilt_ = 0;
};

}  // namespace metropolis::ratings
