#include "services/replays/server.h"

#include <grpcpp/server_builder.h>

#include "lib/auth/roles.h"
#include "lib/common/metrics.h"

namespace metropolis::replays {

ReplaysServer::ReplaysServer(storage::PgPool* pool, const ReplaysConfig& config, services::ProcessMetrics* metrics)
    : metrics_(metrics->registry()),
      store_(pool),
      reveals_(pool),
      replays_(&store_, &reveals_),
      accounts_(config.accounts, config.store_token),
      auth_(&accounts_,
            {{config.store_token, std::string(auth::kGameHostRole)},
             {config.gateway_token, std::string(auth::kGatewayRole)}},
            {.metrics = metrics}),
      limited_auth_(&auth_, config.rate_limit, "replays", metrics),
      service_(&replays_, &limited_auth_, &metrics_) {}

void ReplaysServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

}  // namespace metropolis::replays
