// Who is available for tournament games, and the games sent to them, in Redis
// (shared by every matchmaker replica): an entrant's Compete stream may be held
// by any replica, while one replica — the leader — schedules the games.
//
//   available   a sorted set of "identity:connection" scored by the time the
//               stream's heartbeat lapses, and a hash of each one's capacity;
//   inbox       a list per identity of the games sent to it (Assignment
//               messages), popped by whichever replica holds its stream, and
//               kept while no stream is open, so a game is never lost to a
//               reconnecting bot;
//   leader      a key holding the leading replica's id with a time to live;
//               the leader renews it, another replica takes it once it lapses.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "lib/storage/redis.h"

namespace metropolis::matchmaker {

// All calls throw storage::RedisUnavailable when Redis cannot be reached (or
// cannot take writes now), and storage::RedisCommandError when it answers a
// script with an error.
class Roster {
 public:
  Roster(storage::RedisPool* redis, std::string prefix = "metropolis");

  // The connection is available with `capacity` games at once until `until_ms`.
  void Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms);
  void Leave(int64_t identity, const std::string& connection);
  // Capacity by identity, summed over its live connections; lapsed ones are removed.
  std::unordered_map<int64_t, int> Available(int64_t now_ms);

  // Appends a serialised Assignment to the identity's inbox.
  void Send(int64_t identity, const std::string& assignment);
  // The oldest message of the inbox; false when it is empty.
  bool Receive(int64_t identity, std::string* assignment);

  // Takes or renews the lease for `replica`, for `ttl_ms`; true while it leads.
  bool Lead(const std::string& replica, int64_t ttl_ms);

 private:
  std::string Key(const std::string& suffix) const { return prefix_ + ":{tournaments}:" + suffix; }
  storage::RedisPool* redis_;
  const std::string prefix_;
};

}  // namespace metropolis::matchmaker
