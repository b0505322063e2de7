// Tickets and game hosts in Redis (ticket_store.h). Every change of a ticket's
// state is one Lua script, so replicas may race freely; every time a script
// writes or compares is Redis's own (TIME), so replicas whose clocks disagree
// still agree on what is alive and what is stuck. What the Redis client throws
// becomes each call's status in one place, storage::RunRedis (UNAVAILABLE,
// INTERNAL: lib/storage/redis_status.h), in the words "ticket store ...".
#pragma once

#include <climits>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/storage/redis.h"
#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker {

// Whose clock the times a store writes and compares are on.
enum class TicketClock {
  // Redis's (TIME, read inside each script): every replica agrees, whatever its own
  // clock says. The callers' `now_ms` arguments are ignored; Now() reads TIME.
  kRedis,
  // The caller's `now_ms`: tests with synthetic times. Now() is this process's
  // system clock — what a replica did before, and the negative control "one_clock".
  kCaller,
};

class RedisTicketStore final : public TicketStore {
 public:
  RedisTicketStore(storage::RedisPool* redis, std::string prefix = "metropolis",
                   TicketClock clock = TicketClock::kRedis);

  // Redis's clock (its offset from this process's monotonic clock, measured
  // with TIME at most once a second) unless the store runs on the caller's
  // clock. UNAVAILABLE when it must measure and Redis cannot answer.
  grpc::Status Now(int64_t* now_ms) override;

  grpc::Status Create(const std::string& ladder, int64_t identity_id, const std::string& name, double rating,
                      int64_t now_ms, std::string* id, std::string* existing, bool* created) override;
  grpc::Status Poll(const std::string& id, int64_t now_ms, TicketInfo* out, bool* found) override;
  // One script per kPollBatch tickets, all sent in one pipeline.
  grpc::Status PollMany(const std::vector<std::string>& ids, int64_t now_ms, std::vector<TicketInfo>* out) override;
  // Assign appends the tickets to a stream (kept to about 10,000 entries); this
  // reads it with XREAD BLOCK.
  grpc::Status AwaitAssigned(int64_t wait_ms, std::string* cursor, std::vector<std::string>* ids) override;
  grpc::Status Cancel(const std::string& id, std::string* state, bool* cancelled) override;
  grpc::Status ActiveTicket(int64_t identity_id, std::string* id) override;
  // A ticket's fields are read from Redis once; later calls read only the
  // queue's ids and new tickets.
  grpc::Status Queue(const std::string& ladder, std::vector<Ticket>* out) override;
  grpc::Status QueueSize(const std::string& ladder, int64_t* size) override;
  grpc::Status ExpireStale(const std::string& ladder, int64_t now_ms, int64_t max_age_ms, int* expired) override;
  // Freshness is judged by Redis's clock, whichever clock the store runs on.
  grpc::Status Claim(const std::string& ladder, const Table& table, const std::string& table_id, int64_t now_ms,
                     int64_t fresh_ms, bool* claimed, bool* stale = nullptr) override;
  // One script; an undelivered seat is resumed for kUndeliveredTtlSeconds.
  grpc::Status Assign(const std::string& ladder, const std::string& table_id, const std::vector<Seating>& seats,
                      int* assigned) override;
  grpc::Status Delivered(const std::string& id, int64_t identity_id) override;
  grpc::Status Spend(const std::string& id, int64_t identity_id, const std::string& game_id, bool* spent) override;
  grpc::Status Release(const std::string& ladder, const std::string& table_id, const std::vector<std::string>& tickets,
                       int* released) override;
  grpc::Status ReleaseStuck(const std::string& ladder, int64_t now_ms, int64_t timeout_ms, int* released) override;
  grpc::Status ReplicaHeartbeat(const std::string& replica, int64_t now_ms, int64_t ttl_ms,
                                std::vector<std::string>* live) override;
  grpc::Status ReplicaLeave(const std::string& replica) override;

  grpc::Status HostHeartbeat(const HostInfo& host) override;
  grpc::Status PickHost(int64_t now_ms, int64_t ttl_ms, int places, std::string* address, bool* picked) override;
  grpc::Status ForgetHosts(int64_t now_ms, int64_t silent_ms, std::vector<std::string>* forgotten) override;
  grpc::Status MarkHostDown(const std::string& address) override;
  grpc::Status Hosts(std::vector<HostInfo>* out) override;

 private:
  std::string Key(const std::string& suffix) const;
  std::string TicketKey(const std::string& id) const { return Key("t:" + id); }
  std::string QueueKey(const std::string& ladder) const { return Key("queue:" + ladder); }
  std::string MatchedKey(const std::string& ladder) const { return Key("matched:" + ladder); }
  std::string WhoKey(int64_t identity) const { return Key("who:" + std::to_string(identity)); }
  // Throws what the client throws, and storage::RedisCommandError for an error
  // reply; each call above turns that into its status (storage::RunRedis).
  storage::RedisReply Eval(storage::RedisCommand command);
  // The `now` a script is given: empty (the script reads TIME) on Redis's clock.
  std::string NowArg(int64_t now_ms) const;

  storage::RedisPool* redis_;
  const std::string prefix_;
  const TicketClock clock_;
  // Assign and Release only for the table that claimed (negative control "claimed_table").
  const bool check_table_;
  std::mutex clock_mutex_;
  int64_t offset_ms_ = 0, offset_measured_ms_ = INT64_MIN;  // Redis's clock minus the steady one
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
