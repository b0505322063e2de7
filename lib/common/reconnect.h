// Channels that reconnect quickly: Dial (credentials.h) with a reconnect backoff
// cap of the caller's choosing. Defined in credentials.cc beside Dial, whose
// credentials and keepalive arguments it shares.
#pragma once

#include <memory>
#include <string>

namespace grpc {
class Channel;
}

namespace metropolis::services {

// Dial, with the reconnect backoff capped at `max_backoff_ms` (gRPC's default grows
// to 120 s) rather than at kReconnectBackoffCapMs: every channel of the project
// is made here; Dial passes its own cap.
std::shared_ptr<grpc::Channel> DialReconnectingWithin(const std::string& address, int max_backoff_ms);

}  // namespace metropolis::services
