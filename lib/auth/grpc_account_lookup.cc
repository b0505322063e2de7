#include "lib/auth/grpc_account_lookup.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <chrono>

#include "lib/common/credentials.h"
#include "lib/common/log.h"

namespace metropolis::auth {

GrpcAccountLookup::GrpcAccountLookup(const std::string& address, std::string service_token, int64_t deadline_ms)
    // Reconnecting within a second: while Accounts is unreachable every API token
    // not cached is refused, so it must be used again as soon as it is back.
    : GrpcAccountLookup(v1::Accounts::NewStub(services::Dial(address)), std::move(service_token), deadline_ms) {}

GrpcAccountLookup::GrpcAccountLookup(std::unique_ptr<v1::Accounts::StubInterface> stub, std::string service_token,
                                     int64_t deadline_ms)
    : stub_(std::move(stub)), service_token_(std::move(service_token)), deadline_ms_(deadline_ms) {}

grpc::Status GrpcAccountLookup::LookupToken(const std::string& sha256, Principal* out) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + service_token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(deadline_ms_));
  v1::LookupTokenRequest request;
  request.set_sha256(sha256);
  v1::LookupTokenResponse response;
  const grpc::Status s = stub_->LookupToken(&context, request, &response);
  if (!s.ok()) {
    if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED || s.error_code() == grpc::StatusCode::PERMISSION_DENIED)
      services::LogError("the Accounts service refused this service's token: check --service-token on both",
                         {{"error", s.error_message()}});
    return {grpc::StatusCode::UNAVAILABLE, "accounts: " + s.error_message()};
  }
  if (!response.found()) return {grpc::StatusCode::NOT_FOUND, "unknown or revoked token"};
  Principal p;
  p.identity_id = response.identity_id();
  p.name = response.name();
  p.kind = response.kind();
  p.admin = response.admin();
  p.token_id = response.token_id();
  *out = std::move(p);
  return grpc::Status::OK;
}

}  // namespace metropolis::auth
