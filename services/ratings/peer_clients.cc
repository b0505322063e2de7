#include "services/ratings/peer_clients.h"

#include <grpcpp/channel.h>

#include <chrono>

#include "lib/common/credentials.h"
#include "lib/common/request_id.h"

namespace metropolis::ratings {
namespace {

constexpr size_t kMaxCachedNames = 100'000, kNamesPerCall = 1000;

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
    : stub_(v1::Accounts::NewStub(services::Dial(address))), token_(std::move(token)), timeout_ms_(timeout_ms) {}

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
  std::vector<int64_t> missing;
  {
    std::lock_guard lock(mutex_);
    for (int64_t id : ids) {
      auto it = names_.find(id);
      if (it != names_.end()) {
        (*out)[id] = it->second;
      } else {
        missing.push_back(id);
      }
    }
  }
  for (size_t at = 0; at < missing.size(); at += kNamesPerCall) {
    grpc::ClientContext context;
    Prepare(&context, token_, timeout_ms_);
    v1::GetIdentityNamesRequest request;
    for (size_t i = at; i < missing.size() && i < at + kNamesPerCall; ++i) request.add_ids(missing[i]);
    v1::GetIdentityNamesResponse response;
    if (grpc::Status s = stub_->GetIdentityNames(&context, request, &response); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    if (names_.size() > kMaxCachedNames) names_.clear();
    for (const auto& [id, name] : response.names()) {
      names_[id] = name;
      (*out)[id] = name;
    }
  }
  return grpc::Status::OK;
}

}  // namespace metropolis::ratings
