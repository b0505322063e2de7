// Who is available for tournament games, and the games sent to them, shared by
// every matchmaker replica (Redis in production, redis_roster_store.h; an
// in-memory fake for the tests, tests/fake_roster_store.h): an entrant's Compete
// stream may be held by any replica, while one replica — the leader — schedules
// the games.
//
//   available   each connection (Compete stream) of an identity, with its
//               capacity, until its stream's heartbeat lapses;
//   inboxes     the games sent (Assignment messages): one per identity, taken
//               by whichever of its streams polls first and kept while none is
//               open, so a game is never lost to a reconnecting bot; and one
//               per connection, for games that must reach one session of a bot
//               (the rotations of a duplicate set, each to a different one).
//               A connection's inbox never outlives it: what is left when it
//               leaves or lapses goes to the identity's inbox;
//   leader      the leading replica's lease; the leader renews it, another
//               replica takes it once it lapses.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace metropolis::matchmaker {

struct RosterConnection {
  std::string connection;
  int capacity = 0;
  bool operator==(const RosterConnection&) const = default;
};

// Every call answers with a status, as the PostgreSQL stores do: UNAVAILABLE
// when the roster cannot be reached (or cannot take writes now), INTERNAL when
// it answers a script with an error.
class RosterStore {
 public:
  virtual ~RosterStore() = default;

  // The connection is available with `capacity` games at once until `until_ms`.
  virtual grpc::Status Heartbeat(int64_t identity, const std::string& connection, int capacity, int64_t until_ms) = 0;
  // The connection is gone; what is left in its inbox goes, in order, ahead of
  // the identity's inbox.
  virtual grpc::Status Leave(int64_t identity, const std::string& connection) = 0;
  // The live connections of each identity with their capacity, sorted by
  // connection. Lapsed ones are removed, their inboxes handed on as by Leave.
  virtual grpc::Status Connections(int64_t now_ms, std::unordered_map<int64_t, std::vector<RosterConnection>>* out) = 0;
  // Capacity by identity, summed over its live connections; lapsed ones are
  // removed as by Connections.
  virtual grpc::Status Available(int64_t now_ms, std::unordered_map<int64_t, int>* out) = 0;

  // Appends a serialised Assignment to the identity's inbox.
  virtual grpc::Status Send(int64_t identity, const std::string& assignment) = 0;
  // Appends it to the connection's own inbox, or to the identity's when the
  // connection is no longer in the roster (it left, or its lapse was seen), so
  // the game still reaches a stream of that identity. A lapse not yet seen is
  // handled at the next Connections or Available.
  virtual grpc::Status SendTo(int64_t identity, const std::string& connection, const std::string& assignment) = 0;
  // Takes the oldest message of the connection's own inbox, else of the
  // identity's; *found false when both are empty.
  virtual grpc::Status Receive(int64_t identity, const std::string& connection, std::string* assignment,
                               bool* found) = 0;

  // Takes or renews the lease for `replica`, for `ttl_ms`; *leading true while
  // it leads.
  virtual grpc::Status Lead(const std::string& replica, int64_t ttl_ms, bool* leading) = 0;
};

}  // namespace metropolis::matchmaker
