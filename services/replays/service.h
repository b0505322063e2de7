// The Replays service's gRPC wiring (sync API: every call is a short database
// transaction on a bounded pool of server threads). Decisions are the store's
// and record.h's; here are tokens, requests and statuses.
#pragma once

#include <string>

#include "metropolis/v1/replays.grpc.pb.h"
#include "services/accounts/authenticator.h"
#include "services/replays/store.h"

namespace metropolis::replays {

class ReplaysService final : public v1::Replays::Service {
 public:
  // StoreGame needs the game hosts' service token or an administrator's; reads
  // any valid token.
  ReplaysService(ReplayStore* store, accounts::Authenticator* auth) : store_(store), auth_(auth) {}

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
  grpc::Status ConfirmGame(grpc::ServerContext* context, const v1::ConfirmGameRequest* request,
                           v1::ConfirmGameResponse* response) override;

 private:
  grpc::Status Authorize(const grpc::ServerContext& context, bool store) const;

  ReplayStore* store_;
  accounts::Authenticator* auth_;
};

}  // namespace metropolis::replays
