// Finding the Redis primary through Redis Sentinel (docs/FAILURES.md, "Redis
// failover"). A service given `sentinel:NAME@HOST:PORT[,HOST:PORT...]` instead of
// `HOST:PORT` asks the sentinels, in the order given, where the primary named NAME is,
// and checks with ROLE that the server there really is a primary: a sentinel that has
// not yet seen a failover (or one cut off from the others) can name a demoted server.
// RedisPool connects this way every time it replaces a connection, so after a
// failover the next connection finds the new primary.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/storage/redis.h"

namespace metropolis::storage {

struct SentinelAddress {
  std::string primary_name;            // the name the sentinels monitor it under
  std::vector<std::string> sentinels;  // "host:port", asked in this order
};

// nullopt for a plain "host:port"; throws std::invalid_argument for a "sentinel:"
// address that is malformed (no name, no sentinel, a sentinel without a port).
std::optional<SentinelAddress> ParseSentinelAddress(const std::string& address);

// Connects to the primary the sentinels name. Throws RedisUnavailable, naming what
// each sentinel answered, when no sentinel names a reachable primary.
std::unique_ptr<RedisConnection> ConnectToPrimary(const SentinelAddress& address, int timeout_ms);

// Either kind of address: what RedisPool uses. Throws RedisUnavailable when it
// cannot connect, or when the address is malformed (mains check it at start-up with
// RedisAddressError, so that case is a bug there).
std::unique_ptr<RedisConnection> ConnectRedis(const std::string& address, int timeout_ms);

// Empty when `address` is "HOST:PORT" or a well-formed sentinel address; otherwise
// what is wrong with it, for a flag's error message.
std::string RedisAddressError(const std::string& address);

}  // namespace metropolis::storage
