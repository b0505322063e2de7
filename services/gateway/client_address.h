// Whose request it is, for the limits per client address (the rate limit, the
// sign-in throttle). The TCP peer, unless the peer is a proxy the operator
// trusts (--trusted-proxies): then the address that proxy says it received the
// request from, the last one X-Forwarded-For names. Each proxy appends the
// address it heard from, so entries before the trusted proxies' own are the
// client's to write and are never believed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace metropolis::gateway {

class ClientAddresses {
 public:
  ClientAddresses() = default;
  // `trusted`: the proxies' addresses (IPv4 or IPv6, as the peer address reads).
  explicit ClientAddresses(std::vector<std::string> trusted) : trusted_(std::move(trusted)) {}

  // The client of a request from `peer` carrying `forwarded_for` (the
  // X-Forwarded-For header, empty when none): going from the end, the first
  // address that is not a trusted proxy, when `peer` is one; `peer` otherwise.
  std::string Of(std::string_view peer, std::string_view forwarded_for) const;

  bool empty() const { return trusted_.empty(); }

 private:
  bool Trusted(std::string_view address) const;
  std::vector<std::string> trusted_;
};

// --trusted-proxies: comma-separated addresses. False with *error naming the bad one.
bool ParseTrustedProxies(std::string_view text, std::vector<std::string>* out, std::string* error);

}  // namespace metropolis::gateway
