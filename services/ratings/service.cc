#include "services/ratings/service.h"

#include "services/accounts/roles.h"
#include "services/common/grpc_util.h"

namespace metropolis::ratings {

grpc::Status RatingsService::Authorize(const grpc::ServerContext& context, bool write) {
  accounts::Principal principal;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), &principal); !s.ok()) return s;
  if (write && !accounts::MayWriteResults(principal))
    return {grpc::StatusCode::PERMISSION_DENIED,
            "rating games needs the game hosts' service token or an administrator's"};
  return grpc::Status::OK;
}

grpc::Status RatingsService::RateGame(grpc::ServerContext* context, const v1::RateGameRequest* request,
                                      v1::RateGameResponse* response) {
  if (grpc::Status s = Authorize(*context, true); !s.ok()) return s;
  return ratings_->RateGame(request->game_id(), response);
}

grpc::Status RatingsService::GetLeaderboard(grpc::ServerContext* context, const v1::GetLeaderboardRequest* request,
                                            v1::Leaderboard* response) {
  if (grpc::Status s = Authorize(*context, false); !s.ok()) return s;
  return ratings_->GetLeaderboard(*request, response);
}

grpc::Status RatingsService::GetPlayerRating(grpc::ServerContext* context, const v1::GetPlayerRatingRequest* request,
                                             v1::PlayerRating* response) {
  if (grpc::Status s = Authorize(*context, false); !s.ok()) return s;
  return ratings_->GetPlayerRating(*request, response);
}

grpc::Status RatingsService::GetRatingHistory(grpc::ServerContext* context, const v1::GetRatingHistoryRequest* request,
                                              v1::RatingHistory* response) {
  if (grpc::Status s = Authorize(*context, false); !s.ok()) return s;
  return ratings_->GetRatingHistory(*request, response);
}

}  // namespace metropolis::ratings
