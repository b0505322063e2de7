// API tokens by their SHA-256, as the Accounts service keeps them, for tests of
// anything that authenticates callers (auth::TokenAuthenticator over it) without
// an Accounts service or its database. Counts lookups; `available` false makes
// every lookup UNAVAILABLE, as an unreachable Accounts is.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "lib/auth/account_lookup.h"
#include "lib/auth/token.h"

namespace metropolis::auth::testing {

class FakeAccountLookup final : public AccountLookup {
 public:
  grpc::Status LookupToken(const std::string& sha256, Principal* out) override {
    ++lookups;
    if (!available) return {grpc::StatusCode::UNAVAILABLE, "accounts down"};
    std::lock_guard lock(mutex_);
    auto it = owners_.find(sha256);
    if (it == owners_.end()) return {grpc::StatusCode::NOT_FOUND, "unknown or revoked token"};
    *out = it->second;
    return grpc::Status::OK;
  }
  // A new token for `principal` (a player's unless told otherwise), as Accounts issues them.
  std::string Issue(Principal principal) {
    std::string token = NewToken();
    Add(token, std::move(principal));
    return token;
  }
  void Add(const std::string& token, Principal principal) {
    std::lock_guard lock(mutex_);
    owners_[Sha256(token)] = std::move(principal);
  }
  void Revoke(const std::string& token) {
    std::lock_guard lock(mutex_);
    owners_.erase(Sha256(token));
  }

  std::atomic<bool> available{true};
  std::atomic<int> lookups{0};

 private:
  std::mutex mutex_;
  std::map<std::string, Principal> owners_;
};

}  // namespace metropolis::auth::testing
