// The game hosts the matchmaker and the tournament scheduler place games on: each
// host's heartbeat (its capacity and live games), and a pick of the host with the
// most room. Shared by every replica (Redis in production: redis_ticket_store.h,
// where it lives beside the tickets); the tournament scheduler needs only this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/storage/redis_errors.h"

namespace metropolis::matchmaker {

struct HostInfo {
  std::string address;
  int64_t capacity = 0, live = 0, seen_ms = 0;
};

// All calls throw storage::RedisUnavailable when the registry cannot be reached
// (or cannot take writes now), and storage::RedisCommandError when it answers a
// script with an error.
class HostRegistry {
 public:
  virtual ~HostRegistry() = default;

  // Game hosts: heartbeats with their capacity and live games (heard at
  // `host.seen_ms`); the host with the most room among those heard from within
  // `ttl_ms`, its live count raised by one (reserved) — false when none has room.
  virtual void HostHeartbeat(const HostInfo& host) = 0;
  virtual bool PickHost(int64_t now_ms, int64_t ttl_ms, std::string* address) = 0;
  // A host that failed to create a game gets no new ones until its next heartbeat.
  virtual void MarkHostDown(const std::string& address) = 0;
  virtual std::vector<HostInfo> Hosts() = 0;
};

}  // namespace metropolis::matchmaker
