#include "lib/storage/redis_sentinel.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>

namespace metropolis::storage {
namespace {

constexpr std::string_view kScheme = "sentinel:";

bool IsHostPort(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  int port = 0;
  const std::string_view digits = text.substr(colon + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  return error == std::errc() && end == digits.data() + digits.size() && port > 0 && port < 65536;
}

// One sentinel's answer: the primary's "host:port", or why it gave none.
std::string AskSentinel(const std::string& sentinel, const std::string& name, int timeout_ms, std::string* why) {
  try {
    RedisConnection connection(sentinel, timeout_ms);
    const RedisReply reply = connection.Run({"SENTINEL", "get-master-addr-by-name", name});
    if (reply.is_error()) {
      *why = sentinel + " answered " + reply.str;
    } else if (reply.type != RedisReply::Type::kArray || reply.elements.size() != 2) {
      *why = sentinel + " does not monitor a primary named '" + name + "'";
    } else {
      return reply.elements[0].str + ":" + reply.elements[1].str;
    }
  } catch (const RedisUnavailable& e) {
    *why = e.what();
  }
  return "";
}

}  // namespace

std::optional<SentinelAddress> ParseSentinelAddress(const std::string& address) {
  if (!address.starts_with(kScheme)) return std::nullopt;
  const std::string rest = address.substr(kScheme.size());
  const size_t at = rest.find('@');
  if (at == std::string::npos || at == 0)
    throw std::invalid_argument("redis address '" + address + "': expected sentinel:NAME@HOST:PORT[,HOST:PORT...]");
  SentinelAddress out;
  out.primary_name = rest.substr(0, at);
  size_t start = at + 1;
  while (start <= rest.size()) {
    const size_t comma = std::min(rest.find(',', start), rest.size());
    const std::string sentinel = rest.substr(start, comma - start);
    if (!IsHostPort(sentinel))
      throw std::invalid_argument("redis address '" + address + "': sentinel '" + sentinel + "' is not HOST:PORT");
    out.sentinels.push_back(sentinel);
    start = comma + 1;
  }
  return out;
}

std::unique_ptr<RedisConnection> ConnectToPrimary(const SentinelAddress& address, int timeout_ms) {
  std::string failures;
  for (const std::string& sentinel : address.sentinels) {
    std::string why;
    const std::string primary = AskSentinel(sentinel, address.primary_name, timeout_ms, &why);
    if (!primary.empty()) {
      try {
        auto connection = std::make_unique<RedisConnection>(primary, timeout_ms);
        // ROLE's first element is "master" on a primary; a sentinel that has not
        // seen the failover yet may name a server that is a replica by now.
        const RedisReply role = connection->Run({"ROLE"});
        if (role.type == RedisReply::Type::kArray && !role.elements.empty() && role.elements[0].str == "master")
          return connection;
        why = sentinel + " named " + primary + ", which is not a primary (ROLE " +
              (role.elements.empty() ? role.str : role.elements[0].str) + ")";
      } catch (const RedisUnavailable& e) {
        why = sentinel + " named " + primary + ": " + e.what();
      }
    }
    failures += (failures.empty() ? "" : "; ") + why;
  }
  throw RedisUnavailable("redis: no sentinel named a reachable primary '" + address.primary_name + "': " + failures);
}

std::unique_ptr<RedisConnection> ConnectRedis(const std::string& address, int timeout_ms) {
  std::optional<SentinelAddress> sentinel;
  try {
    sentinel = ParseSentinelAddress(address);
  } catch (const std::invalid_argument& e) {
    throw RedisUnavailable(e.what());
  }
  if (sentinel) return ConnectToPrimary(*sentinel, timeout_ms);
  return std::make_unique<RedisConnection>(address, timeout_ms);
}

std::string RedisAddressError(const std::string& address) {
  try {
    if (ParseSentinelAddress(address)) return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (!IsHostPort(address)) return "redis address '" + address + "' is neither HOST:PORT nor sentinel:NAME@HOST:PORT";
  return "";
}

}  // namespace metropolis::storage
