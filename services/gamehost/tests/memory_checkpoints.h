// A checkpoint store in memory with the semantics of the Redis one: fencing
// tokens, leases that lapse when the test moves its clock, the takeover guard
// (no takeover until the store has served a whole lease since a gap), the same
// status codes (checkpoint.h), and a switch that makes it unreachable.
#pragma once

#include <atomic>
#include <map>
#include <mutex>

#include "services/gamehost/checkpoint.h"

namespace metropolis::gamehost::testing {

class MemoryCheckpointStore final : public CheckpointStore {
 public:
  struct Entry {
    std::string setup;
    std::vector<Action> log;
    std::vector<SeatProgress> seats;
    GamePhase phase;
    uint64_t fence = 0;
    std::string owner;
    services::Millis lease_until = 0;
    services::Millis lease = 0;  // the owner's lease length
  };

  // Time passes while the store serves: the hosts' lease loops reach it
  // throughout, as they do every third of a lease. `now += ms` alone is a gap.
  void Pass(services::Millis ms) {
    std::lock_guard lock(mutex);
    now += ms;
    last_touch = now;
  }

  grpc::Status Create(const std::string& id, const std::string& setup, const std::string& host,
                      services::Millis lease_ms, uint64_t* fence) override {
    std::lock_guard lock(mutex);
    if (down) return Down();
    Serving(lease_ms);  // as the Redis script: first, whatever the answer
    if (games.count(id) || done.count(id)) return {grpc::StatusCode::ALREADY_EXISTS, "game " + id + " exists (test)"};
    Entry& e = games[id];
    e.setup = setup;
    e.fence = *fence = ++fences;
    e.owner = host;
    e.lease_until = now + lease_ms;
    e.lease = lease_ms;
    return grpc::Status::OK;
  }
  grpc::Status Append(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                      uint32_t from, const std::vector<Action>& actions, const std::vector<SeatProgress>& seats,
                      GamePhase phase) override {
    std::lock_guard lock(mutex);
    return AppendLocked(id, fence, host, lease_ms, from, 0, actions, seats, phase, grpc::StatusCode::UNAVAILABLE);
  }
  std::vector<grpc::Status> AppendMany(const std::vector<AppendRequest>& requests) override {
    std::lock_guard lock(mutex);
    ++batches;
    std::vector<grpc::Status> out;
    for (const AppendRequest& q : requests)
      out.push_back(AppendLocked(q.game_id, q.fence, q.host, q.lease_ms, q.from, q.from, q.tail, q.seats, q.phase,
                                 grpc::StatusCode::OUT_OF_RANGE));
    return out;
  }
  grpc::Status Recreate(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                        const std::string& setup, const std::vector<Action>& actions,
                        const std::vector<SeatProgress>& seats, GamePhase phase) override {
    std::lock_guard lock(mutex);
    if (down) return Down();
    if (games.count(id) || done.count(id)) return Fenced(id);
    Entry& e = games[id];
    e = {setup, actions, seats, phase, fence, host, now + lease_ms, lease_ms};
    ++recreated;
    return grpc::Status::OK;
  }
  grpc::Status Renew(const std::string& id, uint64_t fence, const std::string& host,
                     services::Millis lease_ms) override {
    std::lock_guard lock(mutex);
    if (down) return Down();
    Serving(lease_ms);
    auto it = games.find(id);
    if (it == games.end() && !done.count(id)) return Missing(id);
    if (it == games.end() || it->second.fence != fence) return Fenced(id);
    it->second.owner = host;
    it->second.lease_until = now + lease_ms;
    it->second.lease = lease_ms;
    return grpc::Status::OK;
  }
  grpc::Status Done(const std::string& id) override {
    std::lock_guard lock(mutex);
    if (down) return Down();
    games.erase(id);
    done.insert({id, true});
    return grpc::Status::OK;
  }
  grpc::Status Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids) override {
    std::lock_guard lock(mutex);
    if (down) return Down();
    ids->clear();
    Serving(lease_ms);
    for (const auto& [id, e] : games)
      if (e.lease_until <= now && ids->size() < limit) ids->push_back(id);
    return grpc::Status::OK;
  }
  grpc::Status TakeOver(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                        Checkpoint* out) override {
    return Take(id, host, lease_ms, false, fence, out);
  }
  grpc::Status Reclaim(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                       Checkpoint* out) override {
    return Take(id, host, lease_ms, true, fence, out);
  }
  grpc::Status Take(const std::string& id, const std::string& host, services::Millis lease_ms, bool reclaim,
                    uint64_t* fence, Checkpoint* out) {
    std::lock_guard lock(mutex);
    if (down) return Down();
    const services::Millis served = Serving(lease_ms);
    auto it = games.find(id);
    if (it == games.end()) return Fenced(id);
    const bool held = it->second.lease_until > now;
    if (held && !(reclaim && it->second.owner == host)) return Fenced(id);
    if (!held && takeover_guard && served < it->second.lease) {
      ++guarded;
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "the store has served for less than the owner's lease since its last gap (test)"};
    }
    Entry& e = it->second;
    e.fence = *fence = ++fences;
    e.owner = host;
    e.lease_until = now + lease_ms;
    e.lease = lease_ms;
    *out = {e.setup, e.log, e.seats, e.phase.started, e.phase.finished_unix_ms, e.phase.resigned_seat};
    return grpc::Status::OK;
  }
  std::optional<std::string> Owner(const std::string& id) override {
    std::lock_guard lock(mutex);
    auto it = games.find(id);
    if (it == games.end() || it->second.lease_until <= now || down) return std::nullopt;
    return it->second.owner;
  }

  std::mutex mutex;
  std::map<std::string, Entry> games;
  std::map<std::string, bool> done;
  uint64_t fences = 0;
  services::Millis now = 0;
  bool down = false;
  int appends = 0;
  int batches = 0;  // AppendMany calls
  int recreated = 0;
  int guarded = 0;  // takeovers the guard refused
  bool takeover_guard = true;
  services::Millis last_touch = -1, serving_since = 0;

 private:
  // The Redis script's `serving` (redis_checkpoints.cc).
  services::Millis Serving(services::Millis lease_ms) {
    if (last_touch < 0 || now < last_touch || now - last_touch >= lease_ms / 2) serving_since = now;
    last_touch = now;
    return now - serving_since;
  }
  // One append, under the lock: `entries` are the log's from index `first` on
  // (Append's whole log, AppendMany's tail); a log shorter than `from` is
  // answered with `shorter` (UNAVAILABLE from Append, OUT_OF_RANGE from
  // AppendMany, as checkpoint.h says).
  grpc::Status AppendLocked(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                            uint32_t from, size_t first, const std::vector<Action>& entries,
                            const std::vector<SeatProgress>& seats, const GamePhase& phase, grpc::StatusCode shorter) {
    if (down) return Down();
    auto it = games.find(id);
    if (it == games.end() && !done.count(id)) return Missing(id);
    if (it == games.end() || it->second.fence != fence) return Fenced(id);
    Entry& e = it->second;
    if (e.log.size() < from) return {shorter, "game " + id + ": the log is shorter than written (test)"};
    for (size_t i = e.log.size() - first; i < entries.size(); ++i) e.log.push_back(entries[i]);
    e.seats = seats;
    e.phase = phase;
    e.owner = host;
    e.lease_until = now + lease_ms;
    ++appends;
    return grpc::Status::OK;
  }
  // RedisCheckpointStore's statuses (checkpoint.h), in words of the test's.
  static grpc::Status Down() {
    return {grpc::StatusCode::UNAVAILABLE, "checkpoint store unavailable: store down (test)"};
  }
  static grpc::Status Fenced(const std::string& id) {
    return {grpc::StatusCode::ABORTED, "game " + id + " is held by another fencing token or done (test)"};
  }
  static grpc::Status Missing(const std::string& id) {
    return {grpc::StatusCode::NOT_FOUND, "game " + id + " has no checkpoint (test)"};
  }
};

// One host's way to a shared store, which the test can cut: a partition between
// that host and Redis only, while the other hosts still reach it. Not final: a
// test may wrap one of its calls (a store never cut forwards every call).
class CuttableStore : public CheckpointStore {
 public:
  explicit CuttableStore(CheckpointStore* inner) : inner_(inner) {}

  grpc::Status Create(const std::string& id, const std::string& setup, const std::string& host,
                      services::Millis lease_ms, uint64_t* fence) override {
    return cut ? Cut() : inner_->Create(id, setup, host, lease_ms, fence);
  }
  grpc::Status Append(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                      uint32_t from, const std::vector<Action>& actions, const std::vector<SeatProgress>& seats,
                      GamePhase phase) override {
    return cut ? Cut() : inner_->Append(id, fence, host, lease_ms, from, actions, seats, phase);
  }
  std::vector<grpc::Status> AppendMany(const std::vector<AppendRequest>& requests) override {
    if (cut) return std::vector<grpc::Status>(requests.size(), Cut());
    return inner_->AppendMany(requests);
  }
  grpc::Status Recreate(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                        const std::string& setup, const std::vector<Action>& actions,
                        const std::vector<SeatProgress>& seats, GamePhase phase) override {
    return cut ? Cut() : inner_->Recreate(id, fence, host, lease_ms, setup, actions, seats, phase);
  }
  grpc::Status Renew(const std::string& id, uint64_t fence, const std::string& host,
                     services::Millis lease_ms) override {
    return cut ? Cut() : inner_->Renew(id, fence, host, lease_ms);
  }
  grpc::Status Done(const std::string& id) override { return cut ? Cut() : inner_->Done(id); }
  grpc::Status Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids) override {
    return cut ? Cut() : inner_->Orphans(limit, lease_ms, ids);
  }
  grpc::Status TakeOver(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                        Checkpoint* out) override {
    return cut ? Cut() : inner_->TakeOver(id, host, lease_ms, fence, out);
  }
  grpc::Status Reclaim(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                       Checkpoint* out) override {
    return cut ? Cut() : inner_->Reclaim(id, host, lease_ms, fence, out);
  }
  std::optional<std::string> Owner(const std::string& id) override { return cut ? std::nullopt : inner_->Owner(id); }

  std::atomic<bool> cut{false};

 private:
  static grpc::Status Cut() {
    return {grpc::StatusCode::UNAVAILABLE, "checkpoint store unavailable: cut off from the store (test)"};
  }
  CheckpointStore* inner_;
};

}  // namespace metropolis::gamehost::testing
