// The check every service runs on the bearer token of a call: who is calling,
// and may they administer. Service tokens (the game hosts' token for storing
// games, ...) come from the command line; everyone else's are API tokens the
// Accounts service knows (token_authenticator.h asks it through AccountLookup).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>

namespace metropolis::auth {

struct Principal {
  int64_t identity_id = 0;  // 0 for a service
  std::string name;         // the identity's name, or the service's role
  std::string kind;         // "player", "bot" or "service"
  bool admin = false;
  bool service = false;
  int64_t token_id = 0;  // the API token used (0 for a service): what logs may name
};

class Authenticator {
 public:
  virtual ~Authenticator() = default;
  // OK with *out filled, or UNAUTHENTICATED; UNAVAILABLE or INTERNAL when the
  // accounts cannot answer (the caller may retry).
  virtual grpc::Status Authenticate(const std::string& token, Principal* out) = 0;
};

}  // namespace metropolis::auth
