// Tickets and game hosts, shared by every matchmaker replica (Redis in
// production: redis_ticket_store.h; an in-memory fake for the tests,
// tests/fake_ticket_store.h). Every change of a ticket's state is atomic, so
// replicas may race freely: a ticket is claimed for a table by exactly one of
// them (Claim checks and moves all of a table's tickets at once), and an
// identity holds one active ticket.
//
// A ticket's life: queued → matched (claimed for a table) → assigned (its game
// created; the assignment is in the ticket) → spent (resumed after its game
// ended) — or back to queued when the table could not be placed, or cancelled,
// or expired (no heartbeat). A ticket stuck
// in matched (its replica died while placing it) goes back to the queue after
// `matched_timeout_ms`.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "services/matchmaker/host_registry.h"
#include "services/matchmaker/matching.h"

namespace metropolis::matchmaker {

struct TicketInfo {
  std::string id, ladder, state, name;
  int64_t identity_id = 0;
  double rating = 0;
  int64_t enqueued_ms = 0, seen_ms = 0;
  // When assigned:
  std::string game_id, host, seat_token;
  int seat = -1;
  std::string chance_commitment;  // raw bytes (docs/CHANCE.md); empty for a version 1 game
  // When queued: 0-based position by waiting time, and the queue's size.
  int64_t position = -1, queue_size = 0;
};

struct Assignment {
  std::string game_id, host, seat_token;
  int seat = 0;
  std::string chance_commitment;  // raw bytes, from CreateGameResponse
};

// A placed table's ticket, its player's identity and its seat.
struct Seating {
  std::string ticket;
  int64_t identity_id = 0;
  Assignment assignment;
};

// Every call answers with a status, as the host registry's do (host_registry.h):
// UNAVAILABLE when the store cannot be reached (or cannot take writes now: the
// caller retries), INTERNAL when it answers a script with an error (a retry gets
// the same answer). What a call finds comes through its out-parameters, values
// first and flags (bool*) last; a flag is false unless the call answers OK and
// says so, and the other out-parameters mean something only when it answers OK.
class TicketStore : public HostRegistry {
 public:
  // The time every replica compares with the times this store wrote (Redis's, in
  // production, whatever this process's clock says).
  virtual grpc::Status Now(int64_t* now_ms) = 0;

  // A new queued ticket (*created), or *existing the identity's active ticket.
  virtual grpc::Status Create(const std::string& ladder, int64_t identity_id, const std::string& name, double rating,
                              int64_t now_ms, std::string* id, std::string* existing, bool* created) = 0;
  // Reads a ticket and, when it is queued, records the heartbeat. *found false
  // when there is no such ticket.
  virtual grpc::Status Poll(const std::string& id, int64_t now_ms, TicketInfo* out, bool* found) = 0;
  // Poll for many tickets in one call (one round trip): what a replica's waiting
  // streams need every beat, however many they are (waiters.h). (*out)[i] is
  // ids[i]'s ticket; its `id` is empty when there is no such ticket.
  virtual grpc::Status PollMany(const std::vector<std::string>& ids, int64_t now_ms, std::vector<TicketInfo>* out) = 0;
  // Waits at most `wait_ms` (≤ 1000) for tickets assigned after *cursor (empty
  // the first time: from now on); their ids in *ids, and *cursor moves past
  // them. A notice may be lost (a Redis failover): it only makes a waiter hear
  // sooner what its next Poll would tell it.
  virtual grpc::Status AwaitAssigned(int64_t wait_ms, std::string* cursor, std::vector<std::string>* ids) = 0;
  // Leaves the queue (*cancelled). Else *state says why: the ticket is no longer
  // queued ("matched": being seated, "assigned", ...; "missing" when there is none).
  virtual grpc::Status Cancel(const std::string& id, std::string* state, bool* cancelled) = 0;
  // The identity's active ticket (queued or matched), or empty. Create also
  // resumes an assigned ticket whose seat was not delivered.
  virtual grpc::Status ActiveTicket(int64_t identity_id, std::string* id) = 0;

  // The queued tickets of a ladder, by waiting time (then id).
  virtual grpc::Status Queue(const std::string& ladder, std::vector<Ticket>* out) = 0;
  virtual grpc::Status QueueSize(const std::string& ladder, int64_t* size) = 0;
  // Expires queued tickets not seen for `max_age_ms`: *expired of them.
  virtual grpc::Status ExpireStale(const std::string& ladder, int64_t now_ms, int64_t max_age_ms, int* expired) = 0;
  // Claims a table's tickets (all still queued) for `table_id`; *claimed false
  // if any is not (another replica was faster, or the player left), or — *stale,
  // when asked — if one has had no heartbeat for `fresh_ms` by the store's clock
  // (0: not checked): nobody waits on it, as on a ticket a lost write put back
  // in the queue.
  virtual grpc::Status Claim(const std::string& ladder, const Table& table, const std::string& table_id, int64_t now_ms,
                             int64_t fresh_ms, bool* claimed, bool* stale = nullptr) = 0;
  // Hands a placed table's tickets their seats, all at once; a ticket no
  // longer matched for `table_id` is skipped (its claim lapsed: it was released
  // and may be at another table by now); *assigned of them were assigned. Until
  // Delivered (or for a couple of minutes), queueing again resumes the assigned
  // ticket: a client whose stream broke before the seat reached it gets that
  // seat, not a new ticket and a second game.
  virtual grpc::Status Assign(const std::string& ladder, const std::string& table_id, const std::vector<Seating>& seats,
                              int* assigned) = 0;
  // The seat reached the client: queueing again makes a new ticket.
  virtual grpc::Status Delivered(const std::string& id, int64_t identity_id) = 0;
  // An assigned ticket whose game is over (its host says so) is spent: it is
  // never resumed again. A lost Delivered write (a Redis failover) would otherwise
  // hand the player the finished game's seat once more. *spent false when the
  // ticket is not assigned to `game_id`.
  virtual grpc::Status Spend(const std::string& id, int64_t identity_id, const std::string& game_id, bool* spent) = 0;
  // Puts tickets still matched for `table_id` back in the queue with their
  // original waiting time: *released of them.
  virtual grpc::Status Release(const std::string& ladder, const std::string& table_id,
                               const std::vector<std::string>& tickets, int* released) = 0;
  // Releases tickets matched more than `timeout_ms` ago and never assigned.
  virtual grpc::Status ReleaseStuck(const std::string& ladder, int64_t now_ms, int64_t timeout_ms, int* released) = 0;

  // Matchmaker replicas share the ladders out (matchmaker.h: one replica runs a
  // ladder's rounds). A replica announces itself, heard at `now_ms`; *live: the
  // replicas heard within `ttl_ms` (itself too), sorted by name. A replica
  // silent ten times that long is forgotten.
  virtual grpc::Status ReplicaHeartbeat(const std::string& replica, int64_t now_ms, int64_t ttl_ms,
                                        std::vector<std::string>* live) = 0;
  // A replica that stops leaves at once: the others take its ladders in their
  // next round instead of after `ttl_ms`.
  virtual grpc::Status ReplicaLeave(const std::string& replica) = 0;
};

}  // namespace metropolis::matchmaker
