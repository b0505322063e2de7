// Identities' names from the Accounts service (Accounts.GetIdentityNames), asked
// with a service token: how the services that show names (ratings' leaderboards,
// tournaments' entrants) read them without reading the accounts' tables. A name
// once read is kept (an identity's name does not change); at most kMaxCached of
// them, all forgotten when there would be more.
#pragma once

#include <grpcpp/channel.h>
#include <grpcpp/support/status.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "metropolis/v1/accounts.grpc.pb.h"

namespace metropolis::auth {

class IdentityNames {
 public:
  static constexpr size_t kMaxCached = 100'000;
  static constexpr size_t kPerCall = 1000;  // Accounts' limit: more ids take more calls

  IdentityNames(std::shared_ptr<grpc::Channel> channel, std::string token, int64_t timeout_ms = 5'000);

  // The names of those `ids` that are identities, into *out (others are left
  // out); Accounts' status when it cannot answer (what was found before stays).
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out);

 private:
  std::unique_ptr<v1::Accounts::Stub> stub_;
  const std::string token_;
  const int64_t timeout_ms_;
  std::mutex mutex_;
  std::unordered_map<int64_t, std::string> names_;
};

}  // namespace metropolis::auth
