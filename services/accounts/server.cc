#include "services/accounts/server.h"

#include <grpcpp/server_builder.h>

namespace metropolis::accounts {

AccountsServer::AccountsServer(storage::PgPool* pool, const AccountsConfig& config, services::ProcessMetrics* metrics)
    : accounts_(pool),
      ladders_(pool),
      auth_(&accounts_, {{config.service_token, kServiceRole}, {config.gateway_token, std::string(auth::kGatewayRole)}},
            {.ttl_ms = 0, .metrics = metrics}),
      limited_auth_(&auth_, config.rate_limit, "accounts", metrics),
      catalog_(pool),
      service_(&accounts_, &ladders_, &limited_auth_, &catalog_),
      people_store_(pool),
      people_service_(&people_store_, &accounts_, &hasher_, &limited_auth_) {}

void AccountsServer::Register(grpc::ServerBuilder* builder) {
  builder->RegisterService(&service_);
  builder->RegisterService(&people_service_);
}

}  // namespace metropolis::accounts
