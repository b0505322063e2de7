#include "services/ratings/peer_clients.h"

#include <grpcpp/channel.h>

#include <chrono>

#include "lib/common/credentials.h"
#include "lib/common/request_id.h"

namespace metropolis::ratings {
namespace {

void Prepare(grpc::ClientContext* context, const std::string& token, int64_t timeout_ms) {
  context->AddMetadata("authorization", "Bearer " + token);
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeout_ms));
  services::PropagateRequestId(context);
}

}  // namespace

GrpcStoredGames::GrpcStoredGames(const std::string& address, std::string token, int64_t timeout_ms)
    : stub_(v1::Replays::NewStub(services::Dial(address))), token_(std::move(token)), timeout_ms_(timeout_ms) {}

grpc::Status GrpcStoredGames::Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) {
  grpc::ClientContext context;
  Prepare(&context, token_, timeout_ms_);
  v1::ConfirmGameRequest request;
  request.set_game_id(game_id);
  request.set_digest(digest);
  v1::ConfirmGameResponse response;
  grpc::Status s = stub_->ConfirmGame(&context, request, &response);
  *confirmed = s.ok() && response.confirmed();
  return s;
}

GrpcLadderDirectory::GrpcLadderDirectory(const std::string& address, std::string token, int64_t timeout_ms)
    : stub_(v1::Accounts::NewStub(services::Dial(address))),
      token_(token),
      timeout_ms_(timeout_ms),
      names_(services::Dial(address), std::move(token), timeout_ms) {}

grpc::Status GrpcLadderDirectory::Ladder(const std::string& ladder, LadderInfo* out) {
  grpc::ClientContext context;
  Prepare(&context, token_, timeout_ms_);
  v1::GetLadderRequest request;
  request.set_id(ladder);
  v1::Ladder response;
  if (grpc::Status s = stub_->GetLadder(&context, request, &response); !s.ok()) return s;
  out->params.mu = response.mu();
  out->params.sigma = response.sigma();
  out->params.beta = response.beta();
  out->params.kappa = response.kappa();
  out->params.tau = response.tau();
  out->placement_games = response.placement_games();
  out->latest_season = int(response.latest_season());
  return grpc::Status::OK;
}

grpc::Status GrpcLadderDirectory::Names(const std::vector<int64_t>& ids,
                                        std::unordered_map<int64_t, std::string>* out) {
  return names_.Names(ids, out);
}

}  // namespace metropolis::ratings
