#include "services/ratings/server.h"

#include <grpcpp/server_builder.h>

#include "lib/auth/roles.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"

namespace metropolis::ratings {

RatingsServer::RatingsServer(storage::PgPool* pool, storage::RedisPool* redis, const RatingsConfig& config,
                             services::ProcessMetrics* metrics)
    : metrics_(metrics->registry()),
      accounts_(config.accounts_address, config.service_token),
      auth_(&accounts_,
            {{config.service_token, std::string(auth::kGameHostRole)},
             {config.gateway_token, std::string(auth::kGatewayRole)}},
            {.metrics = metrics}),
      limited_auth_(&auth_, config.rate_limit, "ratings", metrics),
      store_(pool),
      cache_(redis, config.redis_prefix),
      replays_(config.replays_address, config.service_token),
      ladders_(config.accounts_address, config.service_token),
      ratings_(&store_, &cache_, &replays_, &ladders_, {.metrics = &metrics_}),
      service_(&ratings_, &limited_auth_, &metrics_) {}

void RatingsServer::Start() {
  if (grpc::Status s = ratings_.RebuildAll(&players_rebuilt_); !s.ok()) {
    services::LogWarning("leaderboards not rebuilt at start; each is rebuilt on its first use",
                         {{"error", s.error_message()}});
    return;
  }
  services::LogInfo("leaderboards rebuilt at start", {{"players", std::to_string(players_rebuilt_)}});
}

void RatingsServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

}  // namespace metropolis::ratings
