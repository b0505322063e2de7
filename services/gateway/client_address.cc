#include "services/gateway/client_address.h"

#include <arpa/inet.h>

#include <algorithm>

#include "services/gateway/params.h"

namespace metropolis::gateway {
namespace {

bool IsIpAddress(const std::string& s) {
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(AF_INET, s.c_str(), buffer) == 1 || inet_pton(AF_INET6, s.c_str(), buffer) == 1;
}

}  // namespace

bool ClientAddresses::Trusted(std::string_view address) const {
  return std::find(trusted_.begin(), trusted_.end(), address) != trusted_.end();
}

std::string ClientAddresses::Of(std::string_view peer, std::string_view forwarded_for) const {
  if (!Trusted(peer)) return std::string(peer);
  // From the last entry back: the first one a trusted proxy did not write.
  std::string_view rest = forwarded_for;
  while (!rest.empty()) {
    const size_t comma = rest.rfind(',');
    const std::string_view entry = Trim(comma == std::string_view::npos ? rest : rest.substr(comma + 1));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(0, comma);
    if (entry.empty()) continue;
    const std::string address(entry);
    // Garbage where an address should be: the proxy did not write it, so the
    // request counts as the proxy's own rather than as some name chosen by the client.
    if (!IsIpAddress(address)) return std::string(peer);
    if (!Trusted(address)) return address;
  }
  return std::string(peer);
}

bool ParseTrustedProxies(std::string_view text, std::vector<std::string>* out, std::string* error) {
  out->clear();
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string address(Trim(text.substr(0, comma)));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (!IsIpAddress(address)) {
      *error = "--trusted-proxies: '" + address.substr(0, 80) + "' is not an IPv4 or IPv6 address";
      return false;
    }
    out->push_back(address);
  }
  return true;
}

}  // namespace metropolis::gateway
