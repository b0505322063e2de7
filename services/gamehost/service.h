// The gRPC wiring of the game host: the GameHost service's callback handlers
// and stream reactors. Everything they decide is asked of the Host and its
// Games (host.h, game.h); here are only metadata, messages and reactions.
#pragma once

#include "metropolis/v1/gamehost.grpc.pb.h"
#include "services/gamehost/host.h"

namespace metropolis::gamehost {

class GameHostService final : public v1::GameHost::CallbackService {
 public:
  GameHostService(Host* host, HostMetrics* metrics, const Clock* clock)
      : host_(host), metrics_(metrics), clock_(clock) {}

  grpc::ServerUnaryReactor* CreateGame(grpc::CallbackServerContext* context, const v1::CreateGameRequest* request,
                                       v1::CreateGameResponse* response) override;
  grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate>* Play(grpc::CallbackServerContext* context) override;
  grpc::ServerWriteReactor<v1::SpectateUpdate>* Spectate(grpc::CallbackServerContext* context,
                                                         const v1::SpectateRequest* request) override;
  grpc::ServerUnaryReactor* GetGame(grpc::CallbackServerContext* context, const v1::GetGameRequest* request,
                                    v1::GameInfo* response) override;
  grpc::ServerUnaryReactor* ListGames(grpc::CallbackServerContext* context, const v1::ListGamesRequest* request,
                                      v1::ListGamesResponse* response) override;

 private:
  grpc::ServerUnaryReactor* Unary(grpc::CallbackServerContext* context, const char* method, grpc::Status status);

  Host* host_;
  HostMetrics* metrics_;
  const Clock* clock_;
};

}  // namespace metropolis::gamehost
