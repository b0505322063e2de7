#include "lib/auth/rate_limited.h"

#include "lib/common/log.h"

namespace metropolis::auth {

grpc::Status RateLimitedAuthenticator::Authenticate(const std::string& token, Principal* out) {
  Principal p;
  if (grpc::Status s = inner_->Authenticate(token, &p); !s.ok()) return s;
  if (!p.service) {
    if (const int64_t retry_ms = limiter_.Take("identity:" + std::to_string(p.identity_id)); retry_ms > 0) {
      services::LogDebug("rate limited", {{"identity", p.name}, {"retry_ms", std::to_string(retry_ms)}});
      return services::RateLimited(service_, limiter_.limit(), retry_ms, metrics_);
    }
  }
  *out = std::move(p);
  return grpc::Status::OK;
}

}  // namespace metropolis::auth
