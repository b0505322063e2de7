// The Ratings service's gRPC wiring (sync API, a bounded pool of threads):
// tokens and statuses here, decisions in ratings.h.
#pragma once

#include "lib/auth/authenticator.h"
#include "lib/auth/roles.h"
#include "metropolis/v1/ratings.grpc.pb.h"
#include "services/ratings/ratings.h"

namespace metropolis::ratings {

class RatingsService final : public v1::Ratings::Service {
 public:
  // RateGame needs a service (or administrator) token; reads any valid token.
  // `metrics` counts calls and their times (null: nothing is counted).
  RatingsService(Ratings* ratings, auth::Authenticator* auth, RatingsMetrics* metrics = nullptr)
      : ratings_(ratings), auth_(auth), metrics_(metrics) {}

  grpc::Status RateGame(grpc::ServerContext* context, const v1::RateGameRequest* request,
                        v1::RateGameResponse* response) override;
  grpc::Status GetLeaderboard(grpc::ServerContext* context, const v1::GetLeaderboardRequest* request,
                              v1::Leaderboard* response) override;
  grpc::Status GetPlayerRating(grpc::ServerContext* context, const v1::GetPlayerRatingRequest* request,
                               v1::PlayerRating* response) override;
  grpc::Status GetRatingHistory(grpc::ServerContext* context, const v1::GetRatingHistoryRequest* request,
                                v1::RatingHistory* response) override;

 private:
  grpc::Status Authorize(const grpc::ServerContext& context, auth::ResultsAccess access);

  Ratings* ratings_;
  auth::Authenticator* auth_;
  RatingsMetrics* metrics_;
};

}  // namespace metropolis::ratings
