// A ReplaysService on a loopback port and a client of it, for the replays
// tests: the calls go through gRPC, tokens and statuses as a caller's do.
#pragma once

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <memory>
#include <string>

#include "metropolis/v1/replays.grpc.pb.h"

namespace metropolis::replays::testing {

inline constexpr char kStoreToken[] = "store-secret";
inline constexpr char kReadToken[] = "read-secret";
inline constexpr char kGatewayToken[] = "gateway-secret";  // the gateway's service token (role "gateway")

class ReplaysClient {
 public:
  // Serves `service` until destroyed; port() is 0 when it could not listen.
  explicit ReplaysClient(grpc::Service* service) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(service);
    server_ = builder.BuildAndStart();
    stub_ = v1::Replays::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port_), grpc::InsecureChannelCredentials()));
  }
  ~ReplaysClient() {
    if (server_) server_->Shutdown();
  }
  int port() const { return port_; }

  grpc::Status Store(const v1::CompletedGameRecord& g, v1::StoreGameResponse* out = nullptr,
                     const std::string& token = kStoreToken) {
    grpc::ClientContext context;
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    v1::StoreGameRequest request;
    *request.mutable_game() = g;
    v1::StoreGameResponse response;
    return stub_->StoreGame(&context, request, out ? out : &response);
  }
  template <typename Request, typename Response, typename Method>
  grpc::Status Call(Method method, const Request& request, Response* response, const std::string& token = kReadToken) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token);
    return ((*stub_).*method)(&context, request, response);
  }
  grpc::Status Confirm(const std::string& token, const std::string& game_id, const std::string& digest,
                       bool* confirmed) {
    v1::ConfirmGameRequest request;
    request.set_game_id(game_id);
    request.set_digest(digest);
    v1::ConfirmGameResponse response;
    const grpc::Status s = Call(&v1::Replays::Stub::ConfirmGame, request, &response, token);
    *confirmed = response.confirmed();
    return s;
  }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Replays::Stub> stub_;
};

}  // namespace metropolis::replays::testing
