#include "services/ratings/server.h"

#include <grpcpp/server_builder.h>

#include "lib/auth/roles.h"
#include "lib/common/log.h"

namespace metropolis::ratings {

RatingsServer::RatingsServer(storage::PgPool* pool, storage::RedisPool* redis, const RatingsConfig& config)
    : accounts_(config.accounts, config.service_token),
      auth_(&accounts_, {{config.service_token, std::string(auth::kGameHostRole)}}),
      store_(pool),
      cache_(redis, config.redis_prefix),
      ratings_(&store_, &cache_),
      service_(&ratings_, &auth_) {
  if (grpc::Status s = ratings_.RebuildAll(&players_rebuilt_); !s.ok()) {
    services::LogWarning("leaderboards not rebuilt at start; each is rebuilt on its first use",
                         {{"error", s.error_message()}});
  }
}

void RatingsServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

void RatingsServer::Listening(int, services::LogFieldList* fields) {
  fields->emplace_back("players_rebuilt", std::to_string(players_rebuilt_));
}

}  // namespace metropolis::ratings
