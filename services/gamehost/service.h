// The gRPC wiring of the game host: the GameHost service's callback handlers
// and stream reactors. Everything they decide is asked of the Host and its
// Games (host.h, game.h); here are only metadata, messages and reactions.
#pragma once

#include <string>
#include <vector>

#include "lib/common/rate_limit.h"
#include "metropolis/v1/gamehost.grpc.pb.h"
#include "services/gamehost/host.h"

namespace metropolis::gamehost {

// The limit on calls per bearer token (Play streams opened, Spectate, GetGame,
// ListGames): a seat token's budget. The platform's own tokens (the
// administrator token the matchmaker creates games with, the spectator token the
// gateway watches with) are `exempt`.
struct TokenRateLimit {
  services::RateLimit limit;
  std::vector<std::string> exempt;
  services::ProcessMetrics* metrics = nullptr;  // refusals counted (metropolis_rate_limited_total); null: not counted
};

class GameHostService final : public v1::GameHost::CallbackService {
 public:
  GameHostService(Host* host, HostMetrics* metrics, const services::Clock* clock, TokenRateLimit rate_limit = {})
      : host_(host),
        metrics_(metrics),
        clock_(clock),
        exempt_(std::move(rate_limit.exempt)),
        limiter_(rate_limit.limit, services::RateLimiter::kDefaultMaxKeys, clock),
        refusals_(rate_limit.metrics) {}

  grpc::ServerUnaryReactor* CreateGame(grpc::CallbackServerContext* context, const v1::CreateGameRequest* request,
                                       v1::CreateGameResponse* response) override;
  grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate>* Play(grpc::CallbackServerContext* context) override;
  grpc::ServerWriteReactor<v1::SpectateUpdate>* Spectate(grpc::CallbackServerContext* context,
                                                         const v1::SpectateRequest* request) override;
  grpc::ServerUnaryReactor* GetGame(grpc::CallbackServerContext* context, const v1::GetGameRequest* request,
                                    v1::GameInfo* response) override;
  grpc::ServerUnaryReactor* ListGames(grpc::CallbackServerContext* context, const v1::ListGamesRequest* request,
                                      v1::ListGamesResponse* response) override;
  grpc::ServerUnaryReactor* SeatsOf(grpc::CallbackServerContext* context, const v1::SeatsOfRequest* request,
                                    v1::SeatsOfResponse* response) override;

 private:
  grpc::ServerUnaryReactor* Unary(grpc::CallbackServerContext* context, const char* method, grpc::Status status);
  // OK, or RESOURCE_EXHAUSTED when the call's token has spent its budget.
  grpc::Status Admit(const grpc::CallbackServerContext& context);

  Host* host_;
  HostMetrics* metrics_;
  const services::Clock* clock_;
  const std::vector<std::string> exempt_;
  services::RateLimiter limiter_;
  services::ProcessMetrics* const refusals_;
};

}  // namespace metropolis::gamehost
