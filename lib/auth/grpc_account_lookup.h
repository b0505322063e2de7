// AccountLookup over the Accounts service's LookupToken, for the services that
// run apart from it: they call with their service token, which Accounts accepts
// for this one lookup (lib/auth/roles.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "lib/auth/account_lookup.h"
#include "metropolis/v1/accounts.grpc.pb.h"

namespace metropolis::auth {

class GrpcAccountLookup final : public AccountLookup {
 public:
  // A channel to `address` (services::Dial: the process's TLS settings), calls
  // carrying `service_token` and given `deadline_ms` each.
  GrpcAccountLookup(const std::string& address, std::string service_token, int64_t deadline_ms = 2000);
  // Over a stub the caller made (tests).
  GrpcAccountLookup(std::unique_ptr<v1::Accounts::StubInterface> stub, std::string service_token,
                    int64_t deadline_ms = 2000);

  // NOT_FOUND when Accounts answers found = false. Any failure of the call, a
  // refusal of the service token included (a misconfiguration, not the caller's
  // fault), is UNAVAILABLE, so that no good token is ever taken for a bad one.
  grpc::Status LookupToken(const std::string& sha256, Principal* out) override;

 private:
  std::unique_ptr<v1::Accounts::StubInterface> stub_;
  const std::string service_token_;
  const int64_t deadline_ms_;
};

}  // namespace metropolis::auth
