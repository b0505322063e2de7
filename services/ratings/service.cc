#include "services/ratings/service.h"

#include <chrono>

#include "lib/auth/roles.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"

namespace metropolis::ratings {

grpc::Status RatingsService::Authorize(const grpc::ServerContext& context, auth::ResultsAccess access) {
  auth::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), &principal); !s.ok()) return s;
  if (access == auth::ResultsAccess::kWrite && !auth::MayWriteResults(principal))
    return {grpc::StatusCode::PERMISSION_DENIED,
            "rating games needs the game hosts' service token or an administrator's"};
  return grpc::Status::OK;
}

grpc::Status RatingsService::RateGame(grpc::ServerContext* context, const v1::RateGameRequest* request,
                                      v1::RateGameResponse* response) {
  services::CallLogContext call(*context, request->game_id());
  const auto start = std::chrono::steady_clock::now();
  grpc::Status status = Authorize(*context, auth::ResultsAccess::kWrite);
  if (status.ok()) status = ratings_->RateGame(*request, response);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!status.ok()) {
    if (metrics_) metrics_->RateFailed(services::StatusCodeName(status.error_code()), seconds);
    services::LogWarning("game not rated",
                         {{"code", services::StatusCodeName(status.error_code())}, {"error", status.error_message()}});
    return status;
  }
  const char* result = response->already_rated() ? "already_rated" : response->rated() ? "rated" : "not_rated";
  if (metrics_) metrics_->GameRated(result, response->already_rated() ? 0 : response->changes_size(), seconds);
  services::LogInfo(response->already_rated() ? "game already rated"
                    : response->rated()       ? "game rated"
                                              : "game not rated",
                    {{"ladder", response->ladder()},
                     {"season", std::to_string(response->season())},
                     {"players", std::to_string(response->changes_size())},
                     {"reason", response->not_rated_reason()}});
  return status;
}

grpc::Status RatingsService::GetLeaderboard(grpc::ServerContext* context, const v1::GetLeaderboardRequest* request,
                                            v1::Leaderboard* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("leaderboard");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return ratings_->GetLeaderboard(*request, response);
}

grpc::Status RatingsService::GetPlayerRating(grpc::ServerContext* context, const v1::GetPlayerRatingRequest* request,
                                             v1::PlayerRating* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("player");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return ratings_->GetPlayerRating(*request, response);
}

grpc::Status RatingsService::GetRatingHistory(grpc::ServerContext* context, const v1::GetRatingHistoryRequest* request,
                                              v1::RatingHistory* response) {
  services::CallLogContext call(*context);
  if (metrics_) metrics_->Read("history");
  if (grpc::Status s = Authorize(*context, auth::ResultsAccess::kRead); !s.ok()) return s;
  return ratings_->GetRatingHistory(*request, response);
}

}  // namespace metropolis::ratings
