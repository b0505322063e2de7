// The replays service as a part of a server program (lib/common/server_main.h):
// its PostgreSQL stores, logic, authenticator and gRPC service over a pool the
// program owns. metropolis-replays runs it alone; metropolis-server beside the others.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "lib/auth/grpc_account_lookup.h"
#include "lib/auth/rate_limited.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/server_main.h"
#include "services/replays/analysis_worker.h"
#include "services/replays/people.h"
#include "services/replays/pg_analysis_store.h"
#include "services/replays/pg_replay_store.h"
#include "services/replays/pg_reveal_store.h"
#include "services/replays/replays.h"
#include "services/replays/service.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::replays {

struct ReplaysConfig {
  std::string store_token;  // the service token that may store games (the game hosts'); also asks Accounts
  std::string accounts;     // the Accounts service's address: callers' API tokens
  // The gateway's service token (the Accounts service's --gateway-token): its
  // reads on behalf of the public, which it limits per client itself; a service,
  // so not limited here per identity. Empty: none.
  std::string gateway_token;
  // Calls per identity (service tokens are not limited); refused with RESOURCE_EXHAUSTED.
  services::RateLimit rate_limit{.per_second = 50, .burst = 100};
  // Games' analyses (docs/ANALYSIS.md): worker threads (0: none, and the
  // analysis calls answer UNIMPLEMENTED), the queue, the analysis itself.
  AnalysisWorkerOptions analysis;
};

class ReplaysServer final : public services::Component {
 public:
  // Its metrics are made on `metrics`'s registry, the process's, where token checks are counted too.
  ReplaysServer(storage::PgPool* pool, const ReplaysConfig& config, services::ProcessMetrics* metrics);

  std::vector<std::string> HealthNames() const override { return {"metropolis.v1.Replays"}; }
  void Register(grpc::ServerBuilder* builder) override;
  ~ReplaysServer() override;
  void Start() override;
  void Stop(int signal) override;

 private:
  ReplaysMetrics metrics_;
  PgReplayStore store_;
  PgRevealStore reveals_;
  PgAnalysisStore analyses_;
  // Which seats are people: Accounts, asked with the store token.
  GrpcPeople people_;
  AnalysisWorker worker_;
  // Fills in the turns of games stored before they were counted (turns_backfill.h).
  std::atomic<bool> stopping_{false};
  std::thread turns_backfill_;
  const bool analysing_;
  Replays replays_;
  // Reads take any API token the Accounts service knows.
  auth::GrpcAccountLookup accounts_;
  auth::TokenAuthenticator auth_;
  // What the service checks callers with: auth_, then the limit per identity.
  auth::RateLimitedAuthenticator limited_auth_;
  ReplaysService service_;
};

}  // namespace metropolis::replays
