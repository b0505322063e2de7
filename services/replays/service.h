// The Replays service's gRPC wiring (sync API: every call is a short database
// transaction on a bounded pool of server threads). Decisions are the logic's
// (replays.h); here are tokens, metrics and logs.
#pragma once

#include <string>

#include "lib/auth/authenticator.h"
#include "lib/auth/roles.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "services/replays/metrics.h"
#include "services/replays/replays.h"

namespace metropolis::replays {

class ReplaysService final : public v1::Replays::Service {
 public:
  // StoreGame needs the game hosts' service token or an administrator's; reads
  // any valid token; RevealGames and GetResults a service token (the
  // tournaments' is the game hosts' one). `metrics` counts stores and reads
  // (null: nothing is counted).
  ReplaysService(Replays* replays, auth::Authenticator* auth, ReplaysMetrics* metrics = nullptr)
      : replays_(replays), auth_(auth), metrics_(metrics) {}

  grpc::Status StoreGame(grpc::ServerContext* context, const v1::StoreGameRequest* request,
                         v1::StoreGameResponse* response) override;
  grpc::Status ListGames(grpc::ServerContext* context, const v1::ListStoredGamesRequest* request,
                         v1::ListStoredGamesResponse* response) override;
  grpc::Status GetReplay(grpc::ServerContext* context, const v1::GetReplayRequest* request,
                         v1::Replay* response) override;
  grpc::Status GetPosition(grpc::ServerContext* context, const v1::GetPositionRequest* request,
                           v1::PositionResponse* response) override;
  grpc::Status ExportGame(grpc::ServerContext* context, const v1::ExportGameRequest* request,
                          v1::ExportGameResponse* response) override;
  grpc::Status ExportGames(grpc::ServerContext* context, const v1::ExportGamesRequest* request,
                           v1::ExportGamesResponse* response) override;
  grpc::Status RevealGames(grpc::ServerContext* context, const v1::RevealGamesRequest* request,
                           v1::RevealGamesResponse* response) override;
  grpc::Status GetResults(grpc::ServerContext* context, const v1::GetResultsRequest* request,
                          v1::GetResultsResponse* response) override;
  grpc::Status ConfirmGame(grpc::ServerContext* context, const v1::ConfirmGameRequest* request,
                           v1::ConfirmGameResponse* response) override;
  grpc::Status GetAnalysis(grpc::ServerContext* context, const v1::GetAnalysisRequest* request,
                           v1::GameAnalysis* response) override;
  grpc::Status RequestAnalysis(grpc::ServerContext* context, const v1::RequestAnalysisRequest* request,
                               v1::GameAnalysis* response) override;
  grpc::Status GetLuckSummary(grpc::ServerContext* context, const v1::GetLuckSummaryRequest* request,
                              v1::LuckSummary* response) override;
  // Who reads which seats: debug.h (DebugReaderOf).
  grpc::Status GetDebug(grpc::ServerContext* context, const v1::GetDebugRequest* request,
                        v1::GameDebug* response) override;

 private:
  grpc::Status Authorize(const grpc::ServerContext& context, auth::ResultsAccess access) const;
  // A service token that may store results: hidden games are its business.
  grpc::Status AuthorizeService(const grpc::ServerContext& context) const;

  Replays* replays_;
  auth::Authenticator* auth_;
  ReplaysMetrics* metrics_;
};

}  // namespace metropolis::replays
