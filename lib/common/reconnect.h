// Channels that reconnect quickly: Dial (credentials.h) with the reconnect
// backoff capped. Defined in credentials.cc beside Dial, whose credentials and
// keepalive arguments it shares.
#pragma once

#include <memory>
#include <string>

namespace grpc {
class Channel;
}

namespace metropolis::services {

// Dial, with the reconnect backoff capped at `max_backoff_ms` (gRPC's default grows
// to 120 s): for a channel that calls fail fast on while its peer is down and that
// must work again soon after the peer is back (token lookups at Accounts).
std::shared_ptr<grpc::Channel> DialReconnectingWithin(const std::string& address, int max_backoff_ms);

}  // namespace metropolis::services
