// The tournaments' roster in Redis (roster_store.h), under one hash tag:
//
//   available   a sorted set of "identity:connection" scored by the time the
//               stream's heartbeat lapses, and a hash of each one's capacity;
//   inbox       a list per identity of the games sent to it, kept a day;
//   leader      a key holding the leading replica's id with a time to live
//               (Redis's clock decides when it lapses).
//
// What the Redis client throws becomes each call's status here, once
// (storage::RedisErrorStatus).
#pragma once

#include <string>

#include "lib/storage/redis.h"
#include "services/matchmaker/tournaments/roster_store.h"

namespace metropolis::matchmaker {

class RedisRosterStore final : public RosterStore {
 public:
  explicit RedisRosterStore(storage::RedisPool* redis, std::string prefix = "metropolis");

  grpc::Status Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms) override;
  grpc::Status Leave(int64_t identity, const std::string& connection) override;
  grpc::Status Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) override;
  grpc::Status Send(int64_t identity, const std::string& assignment) override;
  grpc::Status Receive(int64_t identity, std::string* assignment, bool* found) override;
  grpc::Status Lead(const std::string& replica, int64_t ttl_ms, bool* leading) override;

 private:
  std::string Key(const std::string& suffix) const { return prefix_ + ":{tournaments}:" + suffix; }
  storage::RedisPool* redis_;
  const std::string prefix_;
};

}  // namespace metropolis::matchmaker
