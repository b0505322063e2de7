#include "services/accounts/server.h"

#include <grpcpp/server_builder.h>

namespace metropolis::accounts {

AccountsServer::AccountsServer(storage::PgPool* pool, const AccountsConfig& config)
    : accounts_(pool),
      ladders_(pool),
      auth_(&accounts_, {{config.service_token, kServiceRole}}, /*ttl_ms=*/0),
      limited_auth_(&auth_, config.rate_limit, "accounts"),
      service_(&accounts_, &ladders_, &limited_auth_) {}

void AccountsServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

}  // namespace metropolis::accounts
