// Tickets and game hosts in Redis, shared by every matchmaker replica. Every
// change of a ticket's state is one Lua script, so replicas may race freely:
// a ticket is claimed for a table by exactly one of them (Claim checks and moves
// all of a table's tickets at once), and an identity holds one active ticket.
//
// A ticket's life: queued → matched (claimed for a table) → assigned (its game
// created; the assignment is in the ticket) → spent (resumed after its game
// ended) — or back to queued when the table could not be placed, or cancelled,
// or expired (no heartbeat). A ticket stuck
// in matched (its replica died while placing it) goes back to the queue after
// `matched_timeout_ms`.
#pragma once

#include <climits>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/storage/redis.h"
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

struct HostInfo {
  std::string address;
  int64_t capacity = 0, live = 0, seen_ms = 0;
};

// Whose clock the times a store writes and compares are on.
enum class TicketClock {
  // Redis's (TIME, read inside each script): every replica agrees, whatever its own
  // clock says. The callers' `now_ms` arguments are ignored; Now() reads TIME.
  kRedis,
  // The caller's `now_ms`: tests with synthetic times. Now() is this process's
  // system clock — what a replica did before, and the negative control "one_clock".
  kCaller,
};

// All calls throw storage::RedisUnavailable when Redis cannot be reached (or
// cannot take writes now), and storage::RedisCommandError when it answers a
// script with an error.
class TicketStore {
 public:
  TicketStore(storage::RedisPool* redis, std::string prefix = "metropolis", TicketClock clock = TicketClock::kRedis);

  // The time every replica compares with the times this store wrote: Redis's
  // (its offset from this process's monotonic clock, measured with TIME at most
  // once a second) unless the store runs on the caller's clock. Throws
  // storage::RedisUnavailable when it must measure and Redis cannot answer.
  int64_t Now();

  // A new queued ticket, or false with *existing the identity's active ticket.
  bool Create(const std::string& ladder, int64_t identity_id, const std::string& name, double rating, int64_t now_ms,
              std::string* id, std::string* existing);
  // Reads a ticket and, when it is queued, records the heartbeat. False when
  // there is no such ticket.
  bool Poll(const std::string& id, int64_t now_ms, TicketInfo* out);
  // Leaves the queue. False with *state when the ticket is no longer queued
  // ("matched": being seated, "assigned", ...).
  bool Cancel(const std::string& id, std::string* state);
  // The identity's active ticket (queued or matched), or empty. Create also
  // resumes an assigned ticket whose seat was not delivered.
  std::string ActiveTicket(int64_t identity_id);

  // The queued tickets of a ladder, by waiting time. A ticket's fields are read
  // from Redis once; later calls read only the queue's ids and new tickets.
  std::vector<Ticket> Queue(const std::string& ladder);
  int64_t QueueSize(const std::string& ladder);
  // Expires queued tickets not seen for `max_age_ms`; returns how many.
  int ExpireStale(const std::string& ladder, int64_t now_ms, int64_t max_age_ms);
  // Claims a table's tickets (all still queued) for `table_id`; false if any
  // is not (another replica was faster, or the player left), or — *stale — if
  // one has had no heartbeat for `fresh_ms` by Redis's clock (0: not checked):
  // nobody waits on it, as on a ticket a lost write put back in the queue.
  bool Claim(const std::string& ladder, const Table& table, const std::string& table_id, int64_t now_ms,
             int64_t fresh_ms = 0, bool* stale = nullptr);
  // Hands a placed table's tickets their seats, all in one script; a ticket no
  // longer matched for `table_id` is skipped (its claim lapsed: it was released
  // and may be at another table by now); returns how many were assigned. Until Delivered (or for
  // kUndeliveredTtlSeconds), queueing again resumes the assigned ticket: a client whose stream broke before the seat
  // reached it gets that seat, not a new ticket and a second game.
  int Assign(const std::string& ladder, const std::string& table_id, const std::vector<Seating>& seats);
  // The seat reached the client: queueing again makes a new ticket.
  void Delivered(const std::string& id, int64_t identity_id);
  // An assigned ticket whose game is over (its host says so) is spent: it is
  // never resumed again. A lost Delivered write (a Redis failover) would otherwise
  // hand the player the finished game's seat once more. False when the ticket is
  // not assigned to `game_id`.
  bool Spend(const std::string& id, int64_t identity_id, const std::string& game_id);
  // Puts tickets still matched for `table_id` back in the queue with their
  // original waiting time; returns how many.
  int Release(const std::string& ladder, const std::string& table_id, const std::vector<std::string>& tickets);
  // Releases tickets matched more than `timeout_ms` ago and never assigned.
  int ReleaseStuck(const std::string& ladder, int64_t now_ms, int64_t timeout_ms);

  // Game hosts: heartbeats with their capacity and live games (heard at
  // `host.seen_ms`); the host with the most room among those heard from within
  // `ttl_ms`, its live count raised by one (reserved) — false when none has room.
  void HostHeartbeat(const HostInfo& host);
  bool PickHost(int64_t now_ms, int64_t ttl_ms, std::string* address);
  // A host that failed to create a game gets no new ones until its next heartbeat.
  void MarkHostDown(const std::string& address);
  std::vector<HostInfo> Hosts();

 private:
  std::string Key(const std::string& suffix) const;
  std::string TicketKey(const std::string& id) const { return Key("t:" + id); }
  std::string QueueKey(const std::string& ladder) const { return Key("queue:" + ladder); }
  std::string MatchedKey(const std::string& ladder) const { return Key("matched:" + ladder); }
  std::string WhoKey(int64_t identity) const { return Key("who:" + std::to_string(identity)); }
  storage::RedisReply Eval(storage::RedisCommand command);
  // The `now` a script is given: empty (the script reads TIME) on Redis's clock.
  std::string NowArg(int64_t now_ms) const;

  storage::RedisPool* redis_;
  const std::string prefix_;
  const TicketClock clock_;
  const bool check_table_;
  std::mutex clock_mutex_;
  int64_t offset_ms_ = 0,
          offset_measured_ms_ = INT64_MIN;  // Redis's clock minus the steady one  // Assign and Release only for the
                                            // table that claimed (negative control "claimed_table")
  // Queue's tickets by ladder and id, as of its last call (`pass`).
  struct QueueCache {
    struct Entry {
      Ticket ticket;
      uint64_t pass = 0;
    };
    std::unordered_map<std::string, Entry> tickets;
    uint64_t pass = 0;
  };
  std::mutex queue_cache_mutex_;
  std::unordered_map<std::string, QueueCache> queue_cache_;
};

}  // namespace metropolis::matchmaker
