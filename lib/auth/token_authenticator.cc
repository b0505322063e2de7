#include "lib/auth/token_authenticator.h"

#include <openssl/crypto.h>

#include <algorithm>

#include "lib/auth/token.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"

namespace metropolis::auth {
namespace {

constexpr char kUnknownToken[] = "unknown or revoked token";

grpc::Status Refused() { return {grpc::StatusCode::UNAUTHENTICATED, kUnknownToken}; }

}  // namespace

TokenAuthenticator::TokenAuthenticator(AccountLookup* lookup,
                                       std::vector<std::pair<std::string, std::string>> service_tokens,
                                       TokenAuthenticatorOptions options)
    : lookup_(lookup),
      ttl_ms_(std::max<int64_t>(options.ttl_ms, 0)),
      clock_(services::ClockOrSystem(options.clock)),
      metrics_(options.metrics),
      refusal_logs_(options.refusal_logs_per_minute, 60'000, clock_) {
  for (auto& [token, role] : service_tokens) {
    // An empty service token would let a call without one in.
    if (token.empty()) continue;
    // Hashes have one length, so comparing them takes the same time whatever
    // the token's length.
    service_tokens_.push_back({Sha256(token), std::move(role)});
  }
}

grpc::Status TokenAuthenticator::Authenticate(const std::string& token, Principal* out) {
  if (token.empty()) return {grpc::StatusCode::UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"};
  std::string sha256;
  try {
    sha256 = Sha256(token);
  } catch (const std::exception& e) {
    services::LogError("hashing a token failed", {{"error", e.what()}});
    return {grpc::StatusCode::INTERNAL, "authenticate: hashing failed"};
  }

  // Every service token is compared, without stopping at a match, in constant time.
  const ServiceToken* service = nullptr;
  for (const ServiceToken& s : service_tokens_)
    if (CRYPTO_memcmp(s.sha256.data(), sha256.data(), sha256.size()) == 0 && !service) service = &s;
  if (service) {
    Principal p;
    p.name = service->role;
    p.kind = "service";
    p.service = true;
    *out = std::move(p);
    return grpc::Status::OK;
  }
  if (!lookup_ || !LooksLikeToken(token)) {
    LogRefused(sha256, "not an API token");
    return Refused();
  }

  // How API tokens were answered: `cached` (remembered, good or unknown), `found`
  // and `unknown` (looked up), `unavailable` (the lookup could not answer).
  auto count = [this](std::string_view result) {
    if (metrics_) metrics_->TokenChecked(result);
  };
  const int64_t now = clock_->Now();
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(sha256); it != cache_.end()) {
      if (now < it->second.expires_ms) {
        count("cached");
        if (!it->second.known) return Refused();
        *out = it->second.principal;
        return grpc::Status::OK;
      }
      cache_.erase(it);
    }
  }

  // Two calls with one new token may both ask the accounts; that is cheaper
  // than holding the lock over a lookup.
  Principal p;
  const grpc::Status status = lookup_->LookupToken(sha256, &p);
  if (status.ok()) {
    count("found");
    p.service = false;
    services::LogDebug("token accepted", {{"token_id", std::to_string(p.token_id)}, {"identity", p.name}});
    if (ttl_ms_ > 0) Remember(sha256, {true, p, now + ttl_ms_});
    *out = std::move(p);
    return status;
  }
  if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
    count("unknown");
    LogRefused(sha256, "unknown or revoked");
    if (const int64_t ttl = std::min(ttl_ms_, kUnknownTtlMs); ttl > 0) Remember(sha256, {false, {}, now + ttl});
    return Refused();
  }
  count("unavailable");
  // The accounts could not answer: not remembered, so the next call asks again.
  // Never UNAUTHENTICATED, which would tell a client its good token is bad.
  services::LogWarning("token not checked: the accounts cannot answer",
                       {{"sha256", TokenFingerprint(sha256)}, {"error", status.error_message()}});
  return {grpc::StatusCode::UNAVAILABLE, "authenticate: the accounts cannot answer now: " + status.error_message()};
}

void TokenAuthenticator::LogRefused(const std::string& sha256, std::string_view why) {
  int64_t suppressed = 0;
  if (!refusal_logs_.Allow(&suppressed)) return;
  services::LogFieldList fields = {{"sha256", TokenFingerprint(sha256)}, {"why", std::string(why)}};
  if (suppressed > 0) fields.emplace_back("suppressed", std::to_string(suppressed));
  services::Log(services::LogLevel::kInfo, "token refused", fields);
}

void TokenAuthenticator::Remember(const std::string& sha256, CacheEntry entry) {
  std::lock_guard lock(mutex_);
  // Clearing all at once is crude but bounded and rare: a full cache costs one
  // query per token afterwards, never memory.
  if (cache_.size() >= kMaxCacheEntries) cache_.clear();
  cache_[sha256] = std::move(entry);
}

}  // namespace metropolis::auth
