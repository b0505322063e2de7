// The check every service runs on the bearer token of a call: who is calling,
// and may they administer. Service tokens (the game host's token for storing
// games, ...) come from the command line; everyone else's are API tokens from
// the accounts tables.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace metropolis::accounts {

class AccountStore;

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
  // accounts database cannot answer (the caller may retry).
  virtual grpc::Status Authenticate(const std::string& token, Principal* out) = 0;
};

// Service tokens first, compared in constant time; then API tokens through the
// store, remembered for `ttl_ms` when good (so a revocation takes effect within
// that) and for at most 1 s when unknown (so a flood of bad tokens does not
// become a flood of queries). The cache is keyed by SHA-256, never the token,
// and cleared when it reaches kMaxCacheEntries. Thread-safe.
class TokenAuthenticator final : public Authenticator {
 public:
  static constexpr size_t kMaxCacheEntries = 100'000;
  static constexpr int64_t kUnknownTtlMs = 1000;

  // `store` may be null: service tokens only. `now_ms` is a monotonic clock in
  // milliseconds (tests inject one); empty means std::chrono::steady_clock.
  TokenAuthenticator(AccountStore* store,
                     std::vector<std::pair<std::string /*token*/, std::string /*role*/>> service_tokens,
                     int64_t ttl_ms = 30000, std::function<int64_t()> now_ms = {});

  grpc::Status Authenticate(const std::string& token, Principal* out) override;

 private:
  struct ServiceToken {
    std::string sha256, role;
  };
  struct CacheEntry {
    bool known = false;
    Principal principal;
    int64_t expires_ms = 0;
  };

  void Remember(const std::string& sha256, CacheEntry entry);

  AccountStore* store_;
  std::vector<ServiceToken> service_tokens_;
  int64_t ttl_ms_;
  std::function<int64_t()> now_ms_;
  std::mutex mutex_;
  std::unordered_map<std::string, CacheEntry> cache_;
};

}  // namespace metropolis::accounts
