// A checkpoint store in memory with the semantics of the Redis one: fencing
// tokens, leases that lapse when the test moves its clock, the takeover guard
// (no takeover until the store has served a whole lease since a gap), and a
// switch that makes it unreachable.
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

  CheckpointStatus Create(const std::string& id, const std::string& setup, const std::string& host,
                          services::Millis lease_ms, uint64_t* fence, std::string* error) override {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    Serving(lease_ms);  // as the Redis script: first, whatever the answer
    if (games.count(id) || done.count(id)) return CheckpointStatus::kExists;
    Entry& e = games[id];
    e.setup = setup;
    e.fence = *fence = ++fences;
    e.owner = host;
    e.lease_until = now + lease_ms;
    e.lease = lease_ms;
    return CheckpointStatus::kOk;
  }
  CheckpointStatus Append(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                          uint32_t from, const std::vector<Action>& actions, const std::vector<SeatProgress>& seats,
                          GamePhase phase, std::string* error) override {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    auto it = games.find(id);
    if (it == games.end() && !done.count(id)) return CheckpointStatus::kMissing;
    if (it == games.end() || it->second.fence != fence) return CheckpointStatus::kFenced;
    Entry& e = it->second;
    if (e.log.size() < from) return CheckpointStatus::kUnavailable;
    for (size_t i = e.log.size(); i < actions.size(); ++i) e.log.push_back(actions[i]);
    e.seats = seats;
    e.phase = phase;
    e.owner = host;
    e.lease_until = now + lease_ms;
    ++appends;
    return CheckpointStatus::kOk;
  }
  CheckpointStatus Recreate(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                            const std::string& setup, const std::vector<Action>& actions,
                            const std::vector<SeatProgress>& seats, GamePhase phase, std::string* error) override {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    if (games.count(id) || done.count(id)) return CheckpointStatus::kFenced;
    Entry& e = games[id];
    e = {setup, actions, seats, phase, fence, host, now + lease_ms, lease_ms};
    ++recreated;
    return CheckpointStatus::kOk;
  }
  CheckpointStatus Renew(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                         std::string* error) override {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    Serving(lease_ms);
    auto it = games.find(id);
    if (it == games.end() && !done.count(id)) return CheckpointStatus::kMissing;
    if (it == games.end() || it->second.fence != fence) return CheckpointStatus::kFenced;
    it->second.owner = host;
    it->second.lease_until = now + lease_ms;
    it->second.lease = lease_ms;
    return CheckpointStatus::kOk;
  }
  CheckpointStatus Done(const std::string& id, std::string* error) override {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    games.erase(id);
    done.insert({id, true});
    return CheckpointStatus::kOk;
  }
  CheckpointStatus Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids,
                           std::string* error) override {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    ids->clear();
    Serving(lease_ms);
    for (const auto& [id, e] : games)
      if (e.lease_until <= now && ids->size() < limit) ids->push_back(id);
    return CheckpointStatus::kOk;
  }
  CheckpointStatus TakeOver(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                            Checkpoint* out, std::string* error) override {
    return Take(id, host, lease_ms, false, fence, out, error);
  }
  CheckpointStatus Reclaim(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                           Checkpoint* out, std::string* error) override {
    return Take(id, host, lease_ms, true, fence, out, error);
  }
  CheckpointStatus Take(const std::string& id, const std::string& host, services::Millis lease_ms, bool reclaim,
                        uint64_t* fence, Checkpoint* out, std::string* error) {
    std::lock_guard lock(mutex);
    if (CheckpointStatus s = Reachable(error); s != CheckpointStatus::kOk) return s;
    const services::Millis served = Serving(lease_ms);
    auto it = games.find(id);
    if (it == games.end()) return CheckpointStatus::kFenced;
    const bool held = it->second.lease_until > now;
    if (held && !(reclaim && it->second.owner == host)) return CheckpointStatus::kFenced;
    if (!held && takeover_guard && served < it->second.lease) {
      *error = "the store has served for less than the owner's lease since its last gap (test)";
      ++guarded;
      return CheckpointStatus::kNotYet;
    }
    Entry& e = it->second;
    e.fence = *fence = ++fences;
    e.owner = host;
    e.lease_until = now + lease_ms;
    e.lease = lease_ms;
    *out = {e.setup, e.log, e.seats, e.phase.started, e.phase.finished_unix_ms};
    return CheckpointStatus::kOk;
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
  CheckpointStatus Reachable(std::string* error) const {
    if (!down) return CheckpointStatus::kOk;
    *error = "store down (test)";
    return CheckpointStatus::kUnavailable;
  }
};

// One host's way to a shared store, which the test can cut: a partition between
// that host and Redis only, while the other hosts still reach it.
class CuttableStore final : public CheckpointStore {
 public:
  explicit CuttableStore(CheckpointStore* inner) : inner_(inner) {}

  CheckpointStatus Create(const std::string& id, const std::string& setup, const std::string& host,
                          services::Millis lease_ms, uint64_t* fence, std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable : inner_->Create(id, setup, host, lease_ms, fence, error);
  }
  CheckpointStatus Append(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                          uint32_t from, const std::vector<Action>& actions, const std::vector<SeatProgress>& seats,
                          GamePhase phase, std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable
                      : inner_->Append(id, fence, host, lease_ms, from, actions, seats, phase, error);
  }
  CheckpointStatus Recreate(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                            const std::string& setup, const std::vector<Action>& actions,
                            const std::vector<SeatProgress>& seats, GamePhase phase, std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable
                      : inner_->Recreate(id, fence, host, lease_ms, setup, actions, seats, phase, error);
  }
  CheckpointStatus Renew(const std::string& id, uint64_t fence, const std::string& host, services::Millis lease_ms,
                         std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable : inner_->Renew(id, fence, host, lease_ms, error);
  }
  CheckpointStatus Done(const std::string& id, std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable : inner_->Done(id, error);
  }
  CheckpointStatus Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids,
                           std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable : inner_->Orphans(limit, lease_ms, ids, error);
  }
  CheckpointStatus TakeOver(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                            Checkpoint* out, std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable : inner_->TakeOver(id, host, lease_ms, fence, out, error);
  }
  CheckpointStatus Reclaim(const std::string& id, const std::string& host, services::Millis lease_ms, uint64_t* fence,
                           Checkpoint* out, std::string* error) override {
    return Cut(error) ? CheckpointStatus::kUnavailable : inner_->Reclaim(id, host, lease_ms, fence, out, error);
  }
  std::optional<std::string> Owner(const std::string& id) override { return cut ? std::nullopt : inner_->Owner(id); }

  std::atomic<bool> cut{false};

 private:
  bool Cut(std::string* error) const {
    if (cut) *error = "cut off from the store (test)";
    return cut;
  }
  CheckpointStore* inner_;
};

}  // namespace metropolis::gamehost::testing
