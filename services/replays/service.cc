#include "services/replays/service.h"

#include <chrono>

#include "lib/auth/roles.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"

namespace metropolis::replays {

grpc::Status ReplaysService::Authorize(const grpc::ServerContext& context, auth::ResultsAccess access) const {
  auth::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), &principal); !s.ok()) return s;
  if (access == auth::ResultsAccess::kWrite && !auth::MayWriteResults(principal))
    return {grpc::StatusCode::PERMISSION_DENIED,
            "storing games needs the game hosts' service token or an administrator's"};
  return grpc::Status::OK;
}

grpc::Status ReplaysService::StoreGame(grpc::ServerContext* context, const v1::StoreGameRequest* request,
                                       v1::StoreGameResponse* response) {
  services::CallLogContext call(*context, request->game().game_id());
  const auto start = std::chrono::steady_clock::now();
  grpc::Status status = Authorize(*context, auth::ResultsAccess::kWrite);
  if (status.ok()) status = replays_->Store(request->game(), response);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!status.ok()) {
    if (metrics_) metrics_->StoreFailed(services::StatusCodeName(status.error_code()), seconds);
    services::LogWarning("game not stored",
                         {{"code", services::StatusCodeName(status.error_code())}, {"error", status.error_message()}});
    return status;
  }
  if (metrics_) metrics_->GameStored(response->already_stored(), seconds);
  services::LogInfo(response->already_stored() ? "game already stored" : "game stored",
                    {{"ladder", request->game().ladder()},
                     {"actions", std::to_string(request->game().actions_size())},
                     {"compact_bytes", std::to_string(response->compact_bytes())}});
  return status;
}

grpc::Status ReplaysService::ListGames(grpc::ServerContext* context, const v1::ListStoredGamesRequest* request,
                                       v1::ListStoredGamesResponse* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("list");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->List(*request, response);
}

grpc::Status ReplaysService::GetReplay(grpc::ServerContext* context, const v1::GetReplayRequest* request,
                                       v1::Replay* response) {
  services::CallLogContext call(*context, request->game_id());
  if (metrics_) metrics_->Read("replay");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->Load(request->game_id(), response->mutable_game());
}

grpc::Status ReplaysService::GetPosition(grpc::ServerContext* context, const v1::GetPositionRequest* request,
                                         v1::PositionResponse* response) {
  services::CallLogContext call(*context, request->game_id());
  if (metrics_) metrics_->Read("position");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->Position(*request, response);
}

grpc::Status ReplaysService::ExportGame(grpc::ServerContext* context, const v1::ExportGameRequest* request,
                                        v1::ExportGameResponse* response) {
  services::CallLogContext call(*context, request->game_id());
  if (metrics_) metrics_->Read("export");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->Export(request->game_id(), response);
}

grpc::Status ReplaysService::ExportGames(grpc::ServerContext* context, const v1::ExportGamesRequest* request,
                                         v1::ExportGamesResponse* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("export_games");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->ExportMany(*request, response);
}

grpc::Status ReplaysService::AuthorizeService(const grpc::ServerContext& context) const {
  auth::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), &principal); !s.ok()) return s;
  if (!principal.service || !auth::MayWriteResults(principal))
    return {grpc::StatusCode::PERMISSION_DENIED, "hidden games need the service token"};
  return grpc::Status::OK;
}

grpc::Status ReplaysService::RevealGames(grpc::ServerContext* context, const v1::RevealGamesRequest* request,
                                         v1::RevealGamesResponse*) {
  services::CallLogContext call(*context);
  if (grpc::Status s = AuthorizeService(*context); !s.ok()) return s;
  grpc::Status s = replays_->Reveal(*request);
  if (s.ok())
    services::LogInfo("games revealed", {{"tournament", request->tournament()},
                                         {"whole", request->whole_tournament() ? "true" : "false"},
                                         {"games", std::to_string(request->game_ids_size())}});
  return s;
}

grpc::Status ReplaysService::GetResults(grpc::ServerContext* context, const v1::GetResultsRequest* request,
                                        v1::GetResultsResponse* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("results");
  if (grpc::Status s = AuthorizeService(*context); !s.ok()) return s;
  return replays_->Results(*request, response);
}

// Service tokens only: confirming digests is how services check each other's
// results; a player's token has no use for it.
grpc::Status ReplaysService::ConfirmGame(grpc::ServerContext* context, const v1::ConfirmGameRequest* request,
                                         v1::ConfirmGameResponse* response) {
  services::CallLogContext call(*context, request->game_id());
  if (metrics_) metrics_->Read("confirm");
  auth::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &principal); !s.ok()) return s;
  if (!principal.service)
    return {grpc::StatusCode::PERMISSION_DENIED, "confirming a game's digest needs a service token"};
  bool confirmed = false;
  if (grpc::Status s = replays_->Confirm(request->game_id(), request->digest(), &confirmed); !s.ok()) return s;
  response->set_confirmed(confirmed);
  return grpc::Status::OK;
}

grpc::Status ReplaysService::GetAnalysis(grpc::ServerContext* context, const v1::GetAnalysisRequest* request,
                                         v1::GameAnalysis* response) {
  services::CallLogContext call(*context, request->game_id());
  if (metrics_) metrics_->Read("analysis");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->Analysis(request->game_id(), response);
}

grpc::Status ReplaysService::RequestAnalysis(grpc::ServerContext* context, const v1::RequestAnalysisRequest* request,
                                             v1::GameAnalysis* response) {
  services::CallLogContext call(*context, request->game_id());
  // The services (the gateway, for signed-in people, limited per address) and
  // administrators: a caller's token alone could keep the bounded line full.
  auth::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &principal); !s.ok()) return s;
  if (!principal.service && !principal.admin)
    return {grpc::StatusCode::PERMISSION_DENIED, "asking for an analysis needs a service token or an administrator's"};
  grpc::Status s = replays_->RequestAnalysis(request->game_id(), response);
  if (s.ok() && response->state() == v1::ANALYSIS_QUEUED) services::LogInfo("analysis requested", {});
  return s;
}

grpc::Status ReplaysService::GetLuckSummary(grpc::ServerContext* context, const v1::GetLuckSummaryRequest* request,
                                            v1::LuckSummary* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("luck");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return replays_->LuckSummary(request->identity_id(), response);
}

grpc::Status ReplaysService::GetDebug(grpc::ServerContext* context, const v1::GetDebugRequest* request,
                                      v1::GameDebug* response) {
  services::CallLogContext call(*context, request->game_id());
  if (metrics_) metrics_->Read("debug");
  auth::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &principal); !s.ok()) return s;
  DebugReader reader;
  if (grpc::Status s = DebugReaderOf(principal, *request, &reader); !s.ok()) return s;
  return replays_->Debug(request->game_id(), reader, response);
}

}  // namespace metropolis::replays
