// An in-memory fake of the ticket store (ticket_store.h) for the hermetic tests
// of the matchmaker's rounds and its service. It keeps the contract the Redis
// store's scripts keep — one active ticket per identity, a claim that takes all
// of a table or nothing, seats handed out only under the claim that holds them,
// an undelivered seat resumed for a while, the host with the most room picked —
// on the callers' times (as RedisTicketStore with TicketClock::kCaller), with one
// settable clock of its own for Now() and heartbeats (Redis's TIME in the real
// one). Switches make it unreachable (UNAVAILABLE) or make its scripts fail
// (INTERNAL), answering as the Redis store does then.
// The contract's cases (ticket_store_contract.h) hold it and the Redis store to
// the same behaviour.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker::testing {

class FakeTicketStore final : public TicketStore {
 public:
  // Unreachable: every call answers UNAVAILABLE, as RedisTicketStore does when
  // Redis cannot be reached.
  std::atomic<bool> unavailable{false};
  // The next this many calls answer UNAVAILABLE (a Redis restart).
  std::atomic<int> unavailable_calls{0};
  // Every scripted call answers INTERNAL, as a failed script does.
  std::atomic<bool> fail_scripts{false};
  // The store's own clock (Redis's TIME): Now(), and the heartbeats Claim judges.
  std::atomic<int64_t> clock_ms{0};
  // Assign tells AwaitAssigned (off: the notices are lost, as in a failover).
  std::atomic<bool> notify_assigned{true};
  // Poll's calls, counted.
  std::atomic<int> poll_calls{0};
  // How many tickets each PollMany call read, in order.
  std::vector<size_t> PollManySizes() {
    std::lock_guard lock(mutex_);
    return poll_many_sizes_;
  }

  // How long an assigned ticket whose seat was not delivered is resumed
  // (kUndeliveredTtlSeconds in the Redis store).
  static constexpr int64_t kUndeliveredMs = 120'000;

  grpc::Status Now(int64_t* now_ms) override {
    if (grpc::Status s = Reach(); !s.ok()) return s;
    *now_ms = clock_ms.load();
    return grpc::Status::OK;
  }

  grpc::Status Create(const std::string& ladder, int64_t identity_id, const std::string& name, double rating,
                      int64_t now_ms, std::string* id, std::string* existing, bool* created) override {
    *created = false;
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    if (const Fake* current = Current(identity_id);
        current && (current->state == "queued" || current->state == "matched" || current->state == "assigned")) {
      *existing = current->info.id;
      return grpc::Status::OK;
    }
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(++next_id_));
    *id = buffer;
    Fake& t = tickets_[*id];
    t.info.id = *id;
    t.info.ladder = ladder;
    t.info.name = name;
    t.info.identity_id = identity_id;
    t.info.rating = rating;
    t.info.enqueued_ms = t.info.seen_ms = now_ms;
    t.state = "queued";
    t.beat_ms = clock_ms.load();
    who_[identity_id] = {*id, INT64_MAX};
    *created = true;
    return grpc::Status::OK;
  }

  grpc::Status Poll(const std::string& id, int64_t now_ms, TicketInfo* out, bool* found) override {
    *found = false;
    ++poll_calls;
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    if (it == tickets_.end()) return grpc::Status::OK;
    if (grpc::Status s = Script(); !s.ok()) return s;
    PollLocked(it->second, now_ms, out);
    *found = true;
    return grpc::Status::OK;
  }

  grpc::Status PollMany(const std::vector<std::string>& ids, int64_t now_ms, std::vector<TicketInfo>* out) override {
    out->assign(ids.size(), TicketInfo{});
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    poll_many_sizes_.push_back(ids.size());
    for (size_t i = 0; i < ids.size(); ++i)
      if (auto it = tickets_.find(ids[i]); it != tickets_.end()) PollLocked(it->second, now_ms, &(*out)[i]);
    return grpc::Status::OK;
  }

  // The tickets Assign assigned, in order; the cursor is how many were read.
  grpc::Status AwaitAssigned(int64_t wait_ms, std::string* cursor, std::vector<std::string>* ids) override {
    ids->clear();
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::unique_lock lock(mutex_);
    size_t from = cursor->empty() ? assigned_.size() : size_t(std::stoull(*cursor));
    assigned_cv_.wait_for(lock, std::chrono::milliseconds(wait_ms), [&] { return assigned_.size() > from; });
    ids->assign(assigned_.begin() + std::ptrdiff_t(std::min(from, assigned_.size())), assigned_.end());
    *cursor = std::to_string(assigned_.size());
    return grpc::Status::OK;
  }

  grpc::Status Cancel(const std::string& id, std::string* state, bool* cancelled) override {
    *cancelled = false;
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    if (it == tickets_.end()) {
      *state = "missing";
      return grpc::Status::OK;
    }
    if (grpc::Status s = Script(); !s.ok()) return s;
    Fake& t = it->second;
    if (t.state != "queued") {
      *state = t.state;
      return grpc::Status::OK;
    }
    t.state = *state = "cancelled";
    Forget(t);
    *cancelled = true;
    return grpc::Status::OK;
  }

  grpc::Status ActiveTicket(int64_t identity_id, std::string* id) override {
    id->clear();
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    const Fake* t = Current(identity_id);
    if (t && (t->state == "queued" || t->state == "matched")) *id = t->info.id;
    return grpc::Status::OK;
  }

  grpc::Status Queue(const std::string& ladder, std::vector<Ticket>* out) override {
    out->clear();
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    for (const Fake* t : QueueOf(ladder))
      out->push_back({t->info.id, t->info.identity_id, t->info.rating, t->info.enqueued_ms, t->info.name});
    return grpc::Status::OK;
  }

  grpc::Status QueueSize(const std::string& ladder, int64_t* size) override {
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    *size = int64_t(QueueOf(ladder).size());
    return grpc::Status::OK;
  }

  grpc::Status ExpireStale(const std::string& ladder, int64_t now_ms, int64_t max_age_ms, int* expired) override {
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    *expired = 0;
    for (auto& [id, t] : tickets_) {
      if (t.info.ladder != ladder || t.state != "queued" || t.info.seen_ms >= now_ms - max_age_ms) continue;
      t.state = "expired";
      Forget(t);
      ++*expired;
    }
    return grpc::Status::OK;
  }

  grpc::Status Claim(const std::string&, const Table& table, const std::string& table_id, int64_t now_ms,
                     int64_t fresh_ms, bool* claimed, bool* stale = nullptr) override {
    *claimed = false;
    if (stale) *stale = false;
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    for (const std::string& id : table.tickets) {
      auto it = tickets_.find(id);
      if (it == tickets_.end() || it->second.state != "queued") return grpc::Status::OK;
      if (fresh_ms > 0 && clock_ms.load() - it->second.beat_ms > fresh_ms) {
        if (stale) *stale = true;
        return grpc::Status::OK;
      }
    }
    for (const std::string& id : table.tickets) {
      Fake& t = tickets_[id];
      t.state = "matched";
      t.table = table_id;
      t.matched_ms = now_ms;
    }
    *claimed = true;
    return grpc::Status::OK;
  }

  grpc::Status Assign(const std::string&, const std::string& table_id, const std::vector<Seating>& seats,
                      int* assigned) override {
    *assigned = 0;
    if (seats.empty()) return grpc::Status::OK;
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    for (const Seating& s : seats) {
      auto it = tickets_.find(s.ticket);
      if (it == tickets_.end() || it->second.state != "matched" || it->second.table != table_id) continue;
      Fake& t = it->second;
      t.state = "assigned";
      t.info.game_id = s.assignment.game_id;
      t.info.host = s.assignment.host;
      t.info.seat_token = s.assignment.seat_token;
      t.info.seat = s.assignment.seat;
      t.info.chance_commitment = s.assignment.chance_commitment;
      if (auto w = who_.find(s.identity_id); w != who_.end() && w->second.ticket == s.ticket)
        w->second.until_ms = clock_ms.load() + kUndeliveredMs;
      if (notify_assigned) assigned_.push_back(s.ticket);
      ++*assigned;
    }
    assigned_cv_.notify_all();
    return grpc::Status::OK;
  }

  grpc::Status Delivered(const std::string& id, int64_t identity_id) override {
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    if (auto w = who_.find(identity_id); w != who_.end() && w->second.ticket == id) who_.erase(w);
    return grpc::Status::OK;
  }

  grpc::Status Spend(const std::string& id, int64_t identity_id, const std::string& game_id, bool* spent) override {
    *spent = false;
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    if (it == tickets_.end() || it->second.state != "assigned" || it->second.info.game_id != game_id)
      return grpc::Status::OK;
    it->second.state = "spent";
    if (auto w = who_.find(identity_id); w != who_.end() && w->second.ticket == id) who_.erase(w);
    *spent = true;
    return grpc::Status::OK;
  }

  grpc::Status Release(const std::string&, const std::string& table_id, const std::vector<std::string>& tickets,
                       int* released) override {
    *released = 0;
    if (tickets.empty()) return grpc::Status::OK;
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    for (const std::string& id : tickets) {
      auto it = tickets_.find(id);
      if (it == tickets_.end() || it->second.state != "matched" || it->second.table != table_id) continue;
      it->second.state = "queued";
      it->second.table.clear();
      ++*released;
    }
    return grpc::Status::OK;
  }

  grpc::Status ReleaseStuck(const std::string& ladder, int64_t now_ms, int64_t timeout_ms, int* released) override {
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    *released = 0;
    for (auto& [id, t] : tickets_) {
      if (t.info.ladder != ladder || t.state != "matched" || t.matched_ms >= now_ms - timeout_ms) continue;
      t.state = "queued";
      t.table.clear();
      ++*released;
    }
    return grpc::Status::OK;
  }

  grpc::Status HostHeartbeat(const HostInfo& host) override {
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    Host& h = hosts_[host.address];
    h.info = host;
    h.listed = true;
    return grpc::Status::OK;
  }

  grpc::Status PickHost(int64_t now_ms, int64_t ttl_ms, int places, std::string* address, bool* picked) override {
    *picked = false;
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    Host* best = nullptr;
    int64_t room = std::max(places, 1) - 1;
    for (Host* h : Listed()) {
      if (h->info.seen_ms < now_ms - ttl_ms) continue;
      if (h->info.capacity - h->info.live > room) best = h, room = h->info.capacity - h->info.live;
    }
    if (!best) return grpc::Status::OK;
    best->info.live += std::max(places, 1);
    *address = best->info.address;
    *picked = true;
    return grpc::Status::OK;
  }

  grpc::Status MarkHostDown(const std::string& address) override {
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    if (auto it = hosts_.find(address); it != hosts_.end()) it->second.listed = false;
    return grpc::Status::OK;
  }

  grpc::Status Hosts(std::vector<HostInfo>* out) override {
    out->clear();
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    for (Host* h : Listed()) out->push_back(h->info);
    return grpc::Status::OK;
  }

  grpc::Status ForgetHosts(int64_t now_ms, int64_t silent_ms, std::vector<std::string>* forgotten) override {
    forgotten->clear();
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    for (auto it = hosts_.begin(); it != hosts_.end();) {
      if (it->second.info.seen_ms < now_ms - silent_ms) {
        forgotten->push_back(it->first);
        it = hosts_.erase(it);
      } else {
        ++it;
      }
    }
    return grpc::Status::OK;
  }

  grpc::Status ReplicaHeartbeat(const std::string& replica, int64_t now_ms, int64_t ttl_ms,
                                std::vector<std::string>* live) override {
    live->clear();
    if (grpc::Status s = Script(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    replicas_[replica] = now_ms;
    for (auto it = replicas_.begin(); it != replicas_.end();) {
      if (it->second < now_ms - 10 * ttl_ms) {
        it = replicas_.erase(it);
        continue;
      }
      if (it->second >= now_ms - ttl_ms) live->push_back(it->first);
      ++it;
    }
    return grpc::Status::OK;
  }

  grpc::Status ReplicaLeave(const std::string& replica) override {
    if (grpc::Status s = Reach(); !s.ok()) return s;
    std::lock_guard lock(mutex_);
    replicas_.erase(replica);
    return grpc::Status::OK;
  }

  // What a test reads: a ticket's state ("" when there is none).
  std::string StateOf(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    return it == tickets_.end() ? "" : it->second.state;
  }

 private:
  struct Fake {
    TicketInfo info;  // id, ladder, name, identity, rating, times and the assignment
    std::string state, table;
    int64_t beat_ms = 0, matched_ms = 0;
  };
  struct Who {
    std::string ticket;
    int64_t until_ms = INT64_MAX;  // on clock_ms
  };
  struct Host {
    HostInfo info;
    bool listed = false;  // heard from since it was last marked down
  };

  // RedisTicketStore's statuses (RedisErrorStatus's words) for a Redis it
  // cannot reach, and for a script that failed.
  grpc::Status Reach() {
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "ticket store unavailable: fake ticket store"};
    for (int left = unavailable_calls.load(); left > 0;)
      if (unavailable_calls.compare_exchange_weak(left, left - 1))
        return {grpc::StatusCode::UNAVAILABLE, "ticket store unavailable: fake ticket store, for a while"};
    return grpc::Status::OK;
  }
  grpc::Status Script() {
    if (grpc::Status s = Reach(); !s.ok()) return s;
    if (fail_scripts)
      return {grpc::StatusCode::INTERNAL, "ticket store failed: matchmaker script failed: fake script error"};
    return grpc::Status::OK;
  }

  // The identity's ticket, while its entry lasts.
  const Fake* Current(int64_t identity_id) {
    auto w = who_.find(identity_id);
    if (w == who_.end()) return nullptr;
    if (w->second.until_ms <= clock_ms.load()) {
      who_.erase(w);
      return nullptr;
    }
    auto it = tickets_.find(w->second.ticket);
    return it == tickets_.end() ? nullptr : &it->second;
  }
  // A ticket that left the queue for good no longer holds its identity.
  void Forget(const Fake& t) {
    if (auto w = who_.find(t.info.identity_id); w != who_.end() && w->second.ticket == t.info.id) who_.erase(w);
  }
  // By waiting time, then id (Redis's order in a sorted set).
  std::vector<const Fake*> QueueOf(const std::string& ladder) const {
    std::vector<const Fake*> out;
    for (const auto& [id, t] : tickets_)
      if (t.info.ladder == ladder && t.state == "queued") out.push_back(&t);
    std::sort(out.begin(), out.end(), [](const Fake* a, const Fake* b) {
      return std::tie(a->info.enqueued_ms, a->info.id) < std::tie(b->info.enqueued_ms, b->info.id);
    });
    return out;
  }
  // The listed hosts by last heartbeat, then address (Redis's order).
  std::vector<Host*> Listed() {
    std::vector<Host*> out;
    for (auto& [address, h] : hosts_)
      if (h.listed) out.push_back(&h);
    std::sort(out.begin(), out.end(), [](const Host* a, const Host* b) {
      return std::tie(a->info.seen_ms, a->info.address) < std::tie(b->info.seen_ms, b->info.address);
    });
    return out;
  }

  void PollLocked(Fake& t, int64_t now_ms, TicketInfo* out) {
    *out = t.info;
    out->state = t.state;
    out->position = -1;
    out->queue_size = 0;
    if (t.state == "queued") {
      t.info.seen_ms = out->seen_ms = now_ms;
      t.beat_ms = clock_ms.load();
      const std::vector<const Fake*> queue = QueueOf(t.info.ladder);
      out->queue_size = int64_t(queue.size());
      for (size_t i = 0; i < queue.size(); ++i)
        if (queue[i] == &t) out->position = int64_t(i);
    }
  }

  std::mutex mutex_;
  std::map<std::string, Fake> tickets_;
  std::map<int64_t, Who> who_;
  std::map<std::string, Host> hosts_;
  std::map<std::string, int64_t> replicas_;  // matchmaker replicas by name: last heard
  std::vector<size_t> poll_many_sizes_;
  std::vector<std::string> assigned_;  // every ticket Assign assigned, in order
  std::condition_variable assigned_cv_;
  uint64_t next_id_ = 0;
};

}  // namespace metropolis::matchmaker::testing
