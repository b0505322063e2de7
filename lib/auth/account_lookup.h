// Where API tokens are looked up: the Accounts service, which owns them. Inside
// that service it is its store; everywhere else GrpcAccountLookup
// (grpc_account_lookup.h), over Accounts.LookupToken.
#pragma once

#include <grpcpp/support/status.h>

#include <string>

#include "lib/auth/authenticator.h"

namespace metropolis::auth {

class AccountLookup {
 public:
  virtual ~AccountLookup() = default;
  // The owner of the API token whose SHA-256 (32 raw bytes) is `sha256`: OK with
  // *out filled (service false, admin from the token); NOT_FOUND when no valid
  // token has that hash (unknown or revoked); anything else when the accounts
  // cannot answer now (the caller may retry, and must not remember the answer).
  virtual grpc::Status LookupToken(const std::string& sha256, Principal* out) = 0;
};

}  // namespace metropolis::auth
