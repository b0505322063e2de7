#include "lib/auth/identity_names.h"

#include <chrono>

namespace metropolis::auth {

IdentityNames::IdentityNames(std::shared_ptr<grpc::Channel> channel, std::string token, int64_t timeout_ms)
    : stub_(v1::Accounts::NewStub(std::move(channel))), token_(std::move(token)), timeout_ms_(timeout_ms) {}

grpc::Status IdentityNames::Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) {
  std::vector<int64_t> missing;
  {
    std::lock_guard lock(mutex_);
    for (int64_t id : ids) {
      if (auto it = names_.find(id); it != names_.end()) {
        (*out)[id] = it->second;
      } else {
        missing.push_back(id);
      }
    }
  }
  for (size_t at = 0; at < missing.size(); at += kPerCall) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token_);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeout_ms_));
    v1::GetIdentityNamesRequest request;
    for (size_t i = at; i < missing.size() && i < at + kPerCall; ++i) request.add_ids(missing[i]);
    v1::GetIdentityNamesResponse response;
    if (grpc::Status s = stub_->GetIdentityNames(&context, request, &response); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    if (names_.size() + size_t(response.names_size()) > kMaxCached) names_.clear();
    for (const auto& [id, name] : response.names()) {
      names_[id] = name;
      (*out)[id] = name;
    }
  }
  return grpc::Status::OK;
}

}  // namespace metropolis::auth
