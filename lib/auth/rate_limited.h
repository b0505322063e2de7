// Rate limits per identity at the boundary of the services that authenticate
// callers (the matchmaker's Matchmaker and Tournaments services, and Accounts): an
// Authenticator that, once a token is known, takes a token from the bucket of
// the identity it belongs to, so every token of one identity shares one budget.
// Service tokens (the game hosts' heartbeats and results) are not limited: they
// are the platform's own, and their calls are bounded by the hosts.
#pragma once

#include <string>

#include "lib/auth/authenticator.h"
#include "lib/common/rate_limit.h"

namespace metropolis::auth {

class RateLimitedAuthenticator final : public Authenticator {
 public:
  // Refusals are counted in `metrics` under `service`
  // (metropolis_rate_limited_total); null: not counted.
  RateLimitedAuthenticator(Authenticator* inner, services::RateLimit limit, std::string service,
                           services::ProcessMetrics* metrics, const services::Clock* clock = nullptr)
      : inner_(inner),
        limiter_(limit, services::RateLimiter::kDefaultMaxKeys, clock),
        service_(std::move(service)),
        metrics_(metrics) {}

  // The inner answer when it is not OK; RESOURCE_EXHAUSTED when the identity has
  // spent its budget (and *out is left alone).
  grpc::Status Authenticate(const std::string& token, Principal* out) override;

 private:
  Authenticator* const inner_;
  services::RateLimiter limiter_;
  const std::string service_;
  services::ProcessMetrics* const metrics_;
};

}  // namespace metropolis::auth
