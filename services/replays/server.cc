#include "services/replays/server.h"

#include <grpcpp/server_builder.h>

#include "lib/auth/roles.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"
#include "services/replays/turns_backfill.h"

namespace metropolis::replays {

ReplaysServer::ReplaysServer(storage::PgPool* pool, const ReplaysConfig& config, services::ProcessMetrics* metrics)
    : metrics_(metrics->registry()),
      store_(pool),
      reveals_(pool),
      analyses_(pool),
      people_(config.accounts, config.store_token),
      worker_(&store_, &analyses_, &people_, &metrics_, config.analysis),
      analysing_(config.analysis.threads > 0),
      replays_(&store_, &reveals_, analysing_ ? &analyses_ : nullptr, analysing_ ? &worker_ : nullptr),
      accounts_(config.accounts, config.store_token),
      auth_(&accounts_,
            {{config.store_token, std::string(auth::kGameHostRole)},
             {config.gateway_token, std::string(auth::kGatewayRole)}},
            {.metrics = metrics}),
      limited_auth_(&auth_, config.rate_limit, "replays", metrics),
      service_(&replays_, &limited_auth_, &metrics_) {}

ReplaysServer::~ReplaysServer() {
  stopping_ = true;
  if (turns_backfill_.joinable()) turns_backfill_.join();
}

void ReplaysServer::Register(grpc::ServerBuilder* builder) { builder->RegisterService(&service_); }

void ReplaysServer::Start() {
  if (analysing_) worker_.Start();
  turns_backfill_ = std::thread([this] {
    TurnsBackfilled done;
    const grpc::Status s = BackfillTurns(&store_, stopping_, &done);
    if (!s.ok()) {
      services::LogWarning("turns: the backfill stopped; the next start goes on with it",
                           {{"filled", std::to_string(done.filled)}, {"error", s.error_message()}});
    } else if (done.filled > 0 || done.failed > 0) {
      services::LogInfo("turns: games stored without their turns counted from their replay",
                        {{"filled", std::to_string(done.filled)}, {"failed", std::to_string(done.failed)}});
    }
  });
}

// The analyses in progress finish (a game takes a fraction of a second); those
// still waiting are found again by the next start's look-back, as are games
// the backfill did not reach.
void ReplaysServer::Stop(int) {
  stopping_ = true;
  if (turns_backfill_.joinable()) turns_backfill_.join();
  worker_.Stop();
}

}  // namespace metropolis::replays
