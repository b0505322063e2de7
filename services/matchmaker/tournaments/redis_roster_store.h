// The tournaments' roster in Redis (roster_store.h), under one hash tag:
//
//   available   a sorted set of "identity:connection" scored by the time the
//               stream's heartbeat lapses, and a hash of each one's capacity;
//   inboxes     a list per identity ("inbox:ID") and one per connection
//               ("inbox:ID:CONNECTION") of the games sent to it, kept a day; a
//               connection's is moved to its identity's by the script that
//               removes the connection, atomically, so no game is lost between;
//   leader      a key holding the leading replica's id with a time to live
//               (Redis's clock decides when it lapses).
//
// What the Redis client throws becomes each call's status here, once
// (storage::RedisErrorStatus).
#pragma once

#include <string>
#include <vector>

#include "lib/storage/redis.h"
#include "services/matchmaker/tournaments/roster_store.h"

namespace metropolis::matchmaker {

class RedisRosterStore final : public RosterStore {
 public:
  explicit RedisRosterStore(storage::RedisPool* redis, std::string prefix = "metropolis");

  grpc::Status Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms) override;
  grpc::Status Leave(int64_t identity, const std::string& connection) override;
  grpc::Status Connections(int64_t now_ms, std::unordered_map<int64_t, std::vector<RosterConnection>>* out) override;
  grpc::Status Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) override;
  grpc::Status Send(int64_t identity, const std::string& assignment) override;
  grpc::Status SendTo(int64_t identity, const std::string& connection, const std::string& assignment) override;
  grpc::Status Receive(int64_t identity, const std::string& connection, std::string* assignment, bool* found) override;
  grpc::Status Lead(const std::string& replica, int64_t ttl_ms, bool* leading) override;

 private:
  std::string Key(const std::string& suffix) const { return prefix_ + ":{tournaments}:" + suffix; }
  std::string Inbox(int64_t identity) const { return Key("inbox:" + std::to_string(identity)); }
  std::string Inbox(int64_t identity, const std::string& connection) const {
    return Key("inbox:" + std::to_string(identity) + ":" + connection);
  }
  // Runs a script; an error reply throws.
  storage::RedisReply Eval(const storage::RedisCommand& command);
  storage::RedisPool* redis_;
  const std::string prefix_;
};

}  // namespace metropolis::matchmaker
