#include "services/replays/people.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <chrono>

#include "lib/common/credentials.h"

namespace metropolis::replays {

GrpcPeople::GrpcPeople(const std::string& address, std::string token, int64_t deadline_ms)
    : stub_(v1::Accounts::NewStub(services::Dial(address))), token_(std::move(token)), deadline_ms_(deadline_ms) {}

grpc::Status GrpcPeople::IsPerson(int64_t id, const std::string& name, bool* person) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = known_.find(id); it != known_.end()) {
      *person = it->second;
      return grpc::Status::OK;
    }
  }
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(deadline_ms_));
  v1::GetIdentityRequest request;
  request.set_name(name);
  v1::Identity identity;
  if (grpc::Status s = stub_->GetIdentity(&context, request, &identity); !s.ok()) {
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) return s;
    return {grpc::StatusCode::UNAVAILABLE, "accounts: " + s.error_message()};
  }
  if (identity.id() != id) return {grpc::StatusCode::NOT_FOUND, "'" + name + "' names another identity now"};
  *person = identity.kind() == "player";
  std::lock_guard lock(mutex_);
  if (known_.size() >= kMaxCached) known_.clear();
  known_[id] = *person;
  return grpc::Status::OK;
}

}  // namespace metropolis::replays
