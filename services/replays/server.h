// The replays service as a part of a server program (lib/common/server_main.h):
// its store, authenticator and gRPC service over a PostgreSQL pool the program
// owns. metropolis-replays runs it alone; metropolis-server beside the others.
#pragma once

#include <string>
#include <vector>

#include "lib/common/server_main.h"
#include "lib/storage/pg_pool.h"
#include "services/accounts/store.h"
#include "services/replays/service.h"
#include "services/replays/store.h"

namespace metropolis::replays {

struct ReplaysConfig {
  std::string store_token;  // the service token that may store games (the game hosts')
};

class ReplaysServer final : public services::Component {
 public:
  ReplaysServer(storage::PgPool* pool, const ReplaysConfig& config);

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.Replays"}; }
  void Register(grpc::ServerBuilder* builder) override;

 private:
  ReplayStore store_;
  RevealStore reveals_;
  // Reads take any API token of the accounts tables (metropolis-admin issues them).
  accounts::AccountStore accounts_;
  accounts::TokenAuthenticator auth_;
  ReplaysService service_;
};

}  // namespace metropolis::replays
