// Checkpoints and leases in Redis (checkpoint.h). Per game, under gh:{ID}:
//   setup   the serialised setup          log    one entry per action (its code)
//   seats   progress and "started"       fence  the fencing token (a counter)
//   owner   "FENCE HOST", expiring with the lease (seats keeps its length)
// the set gh:live of the games not yet stored, and gh:clock, Redis's account of
// how long it has served without a gap (the takeover guard, checkpoint.h). Every write is a Lua script
// that first compares the caller's token with `fence`, so the check and the
// write are one atomic step. Redis runs with append-only persistence, so a
// checkpoint survives a restart of Redis.
#pragma once

#include <memory>

#include "lib/storage/redis.h"
#include "services/gamehost/checkpoint.h"

namespace metropolis::gamehost {

struct RedisCheckpointOptions {
  int pool_size = 4;
  std::string prefix = "gh:";  // separates deployments sharing one Redis (and tests)
  // Off only as a negative control: a lapsed lease is then taken over even
  // right after Redis was unreachable to its owner.
  bool takeover_guard = true;
};

class RedisCheckpointStore final : public CheckpointStore {
 public:
  RedisCheckpointStore(const std::string& address, RedisCheckpointOptions options = {});

  grpc::Status Create(const std::string& game_id, const std::string& setup, const std::string& host,
                      services::Millis lease_ms, uint64_t* fence) override;
  grpc::Status Append(const std::string& game_id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                      uint32_t from, const std::vector<Action>& actions, const std::vector<SeatProgress>& seats,
                      GamePhase phase) override;
  std::vector<grpc::Status> AppendMany(const std::vector<AppendRequest>& requests) override;
  grpc::Status Recreate(const std::string& game_id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                        const std::string& setup, const std::vector<Action>& actions,
                        const std::vector<SeatProgress>& seats, GamePhase phase) override;
  grpc::Status Renew(const std::string& game_id, uint64_t fence, const std::string& host,
                     services::Millis lease_ms) override;
  grpc::Status Done(const std::string& game_id) override;
  grpc::Status Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids) override;
  grpc::Status TakeOver(const std::string& game_id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                        Checkpoint* out) override;
  grpc::Status Reclaim(const std::string& game_id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                       Checkpoint* out) override;
  std::optional<std::string> Owner(const std::string& game_id) override;

 private:
  std::string Key(const std::string& game_id, const char* part) const;
  // Runs one command: UNAVAILABLE when Redis cannot be reached or take writes
  // now, INTERNAL for any other error reply (a failed script, NOPERM).
  grpc::Status Run(const storage::RedisCommand& command, storage::RedisReply* reply);
  storage::RedisCommand AppendCommand(const std::string& game_id, uint64_t fence, const std::string& host,
                                      services::Millis lease_ms, uint32_t from, const Action* begin, const Action* end,
                                      const std::vector<SeatProgress>& seats, GamePhase phase) const;
  static grpc::Status AppendStatus(const std::string& game_id, uint64_t fence, const storage::RedisReply& reply);
  grpc::Status Take(const std::string& game_id, const std::string& host, services::Millis lease_ms, bool reclaim,
                    uint64_t* fence, Checkpoint* out);

  storage::RedisPool pool_;
  const std::string prefix_;
  const bool takeover_guard_;
};

}  // namespace metropolis::gamehost
