// The authenticator of every service: service tokens from its flags, API tokens
// through an AccountLookup, remembered for a while.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/auth/account_lookup.h"
#include "lib/auth/authenticator.h"
#include "lib/common/clock.h"
#include "lib/common/log_throttle.h"

namespace metropolis::services {
class ProcessMetrics;
}

namespace metropolis::auth {

struct TokenAuthenticatorOptions {
  int64_t ttl_ms = 30000;                  // how long a good API token is remembered
  const services::Clock* clock = nullptr;  // entries expire on its monotonic time; null: the system clock
  // API tokens checked, by how they were answered (metropolis_auth_token_checks_total:
  // cached, found, unknown, unavailable); null: not counted.
  services::ProcessMetrics* metrics = nullptr;
  // Refused tokens logged per minute at most (the rest are counted into the next
  // line written, as suppressed=N): anyone can send bad tokens. 0: every one.
  int refusal_logs_per_minute = 10;
};

// Service tokens first, compared in constant time; then API tokens through the
// lookup, remembered for `ttl_ms` when good (so a revocation takes effect within
// that) and for at most 1 s when unknown (so a flood of bad tokens does not
// become a flood of lookups). A lookup that cannot answer is UNAVAILABLE and is
// not remembered. The cache is keyed by SHA-256, never the token, and cleared
// when it reaches kMaxCacheEntries. Thread-safe.
class TokenAuthenticator final : public Authenticator {
 public:
  static constexpr size_t kMaxCacheEntries = 100'000;
  static constexpr int64_t kUnknownTtlMs = 1000;

  // `lookup` may be null: service tokens only.
  TokenAuthenticator(AccountLookup* lookup,
                     std::vector<std::pair<std::string /*token*/, std::string /*role*/>> service_tokens,
                     TokenAuthenticatorOptions options = {});

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
  void LogRefused(const std::string& sha256, std::string_view why);

  AccountLookup* lookup_;
  std::vector<ServiceToken> service_tokens_;
  int64_t ttl_ms_;
  const services::Clock* const clock_;
  services::ProcessMetrics* const metrics_;
  services::LogThrottle refusal_logs_;
  std::mutex mutex_;
  std::unordered_map<std::string, CacheEntry> cache_;
};

}  // namespace metropolis::auth
