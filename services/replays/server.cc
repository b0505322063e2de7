#include "services/replays/server.h"

#include <grpcpp/server_builder.h>

#include "services/accounts/roles.h"

namespace metropolis::replays {

ReplaysServer::ReplaysServer(storage::PgPool* pool, const ReplaysConfig& config)
    : store_(pool),
      reveals_(pool),
      accounts_(pool),
      auth_(&accounts_, {{config.store_token, std::string(accounts::kGameHostRole)}}),
      service_(&store_, &reveals_, &auth_) {}

void ReplaysServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

}  // namespace metropolis::replays
