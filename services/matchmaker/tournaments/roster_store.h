// Who is available for tournament games, and the games sent to them, shared by
// every matchmaker replica (Redis in production, redis_roster_store.h; an
// in-memory fake for the tests, tests/fake_roster_store.h): an entrant's Compete
// stream may be held by any replica, while one replica — the leader — schedules
// the games.
//
//   available   each connection of an identity, with its capacity, until its
//               stream's heartbeat lapses;
//   inbox       per identity, the games sent to it (Assignment messages),
//               taken by whichever replica holds its stream, and kept while no
//               stream is open, so a game is never lost to a reconnecting bot;
//   leader      the leading replica's lease; the leader renews it, another
//               replica takes it once it lapses.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace metropolis::matchmaker {

// Every call answers with a status, as the PostgreSQL stores do: UNAVAILABLE
// when the roster cannot be reached (or cannot take writes now), INTERNAL when
// it answers a script with an error.
class RosterStore {
 public:
  virtual ~RosterStore() = default;

  // The connection is available with `capacity` games at once until `until_ms`.
  virtual grpc::Status Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms) = 0;
  virtual grpc::Status Leave(int64_t identity, const std::string& connection) = 0;
  // Capacity by identity, summed over its live connections; lapsed ones are removed.
  virtual grpc::Status Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) = 0;

  // Appends a serialised Assignment to the identity's inbox.
  virtual grpc::Status Send(int64_t identity, const std::string& assignment) = 0;
  // Takes the oldest message of the inbox; *found false when it is empty.
  virtual grpc::Status Receive(int64_t identity, std::string* assignment, bool* found) = 0;

  // Takes or renews the lease for `replica`, for `ttl_ms`; *leading true while
  // it leads.
  virtual grpc::Status Lead(const std::string& replica, int64_t ttl_ms, bool* leading) = 0;
};

}  // namespace metropolis::matchmaker
