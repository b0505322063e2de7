// The game hosts the matchmaker and the tournament scheduler place games on: each
// host's heartbeat (its capacity and live games), and a pick of the host with the
// most room. Shared by every replica (Redis in production: redis_ticket_store.h,
// where it lives beside the tickets); the tournament scheduler needs only this.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metropolis::matchmaker {

struct HostInfo {
  std::string address;
  int64_t capacity = 0, live = 0, seen_ms = 0;
};

// Every call answers with a status, as the other stores do: UNAVAILABLE when the
// registry cannot be reached (or cannot take writes now: the caller retries),
// INTERNAL when it answers a script with an error (a retry gets the same answer).
// What a call finds comes through its out-parameters, a value first and a flag
// (bool*) last; a flag is false unless the call answers OK and says so, and the
// other out-parameters mean something only when it answers OK.
class HostRegistry {
 public:
  virtual ~HostRegistry() = default;

  // Game hosts: heartbeats with their capacity and live games (heard at
  // `host.seen_ms`); the host with the most room among those heard from within
  // `ttl_ms` and room for `places` games, its live count raised by `places`
  // (reserved) — *picked false when none has that room. A duplicate set takes
  // as many places as it has rotations: they are played on one host.
  virtual grpc::Status HostHeartbeat(const HostInfo& host) = 0;
  virtual grpc::Status PickHost(int64_t now_ms, int64_t ttl_ms, int places, std::string* address, bool* picked) = 0;
  // A host that failed to create a game gets no new ones until its next heartbeat.
  virtual grpc::Status MarkHostDown(const std::string& address) = 0;
  virtual grpc::Status Hosts(std::vector<HostInfo>* out) = 0;
  // Forgets the hosts not heard from within `silent_ms` of `now_ms`, whatever
  // they said: a host that stopped announcing is no longer listed to anyone
  // (players, the gateway); their addresses in *forgotten.
  virtual grpc::Status ForgetHosts(int64_t now_ms, int64_t silent_ms, std::vector<std::string>* forgotten) = 0;
};

}  // namespace metropolis::matchmaker
