// An in-memory fake of the ticket store (ticket_store.h) for the hermetic tests
// of the matchmaker's rounds and its service. It keeps the contract the Redis
// store's scripts keep — one active ticket per identity, a claim that takes all
// of a table or nothing, seats handed out only under the claim that holds them,
// an undelivered seat resumed for a while, the host with the most room picked —
// on the callers' times (as RedisTicketStore with TicketClock::kCaller), with one
// settable clock of its own for Now() and heartbeats (Redis's TIME in the real
// one). Switches make it unreachable or make its scripts fail, as Redis does.
// The contract's cases (ticket_store_contract.h) hold it and the Redis store to
// the same behaviour.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "lib/storage/redis_errors.h"
#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker::testing {

class FakeTicketStore final : public TicketStore {
 public:
  // Every call throws storage::RedisUnavailable, as when Redis is unreachable.
  std::atomic<bool> unavailable{false};
  // The next this many calls throw storage::RedisUnavailable (a Redis restart).
  std::atomic<int> unavailable_calls{0};
  // Every scripted call throws storage::RedisCommandError, as a failed script does.
  std::atomic<bool> fail_scripts{false};
  // The store's own clock (Redis's TIME): Now(), and the heartbeats Claim judges.
  std::atomic<int64_t> clock_ms{0};

  // How long an assigned ticket whose seat was not delivered is resumed
  // (kUndeliveredTtlSeconds in the Redis store).
  static constexpr int64_t kUndeliveredMs = 120'000;

  int64_t Now() override {
    Reach();
    return clock_ms.load();
  }

  bool Create(const std::string& ladder, int64_t identity_id, const std::string& name, double rating, int64_t now_ms,
              std::string* id, std::string* existing) override {
    Script();
    std::lock_guard lock(mutex_);
    if (const Fake* current = Current(identity_id);
        current && (current->state == "queued" || current->state == "matched" || current->state == "assigned")) {
      *existing = current->info.id;
      return false;
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
    return true;
  }

  bool Poll(const std::string& id, int64_t now_ms, TicketInfo* out) override {
    Reach();
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    if (it == tickets_.end()) return false;
    Script();
    Fake& t = it->second;
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
    return true;
  }

  bool Cancel(const std::string& id, std::string* state) override {
    Reach();
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    if (it == tickets_.end()) {
      *state = "missing";
      return false;
    }
    Script();
    Fake& t = it->second;
    if (t.state != "queued") {
      *state = t.state;
      return false;
    }
    t.state = *state = "cancelled";
    Forget(t);
    return true;
  }

  std::string ActiveTicket(int64_t identity_id) override {
    Reach();
    std::lock_guard lock(mutex_);
    const Fake* t = Current(identity_id);
    return t && (t->state == "queued" || t->state == "matched") ? t->info.id : std::string();
  }

  std::vector<Ticket> Queue(const std::string& ladder) override {
    Reach();
    std::lock_guard lock(mutex_);
    std::vector<Ticket> out;
    for (const Fake* t : QueueOf(ladder))
      out.push_back({t->info.id, t->info.identity_id, t->info.rating, t->info.enqueued_ms, t->info.name});
    return out;
  }

  int64_t QueueSize(const std::string& ladder) override {
    Reach();
    std::lock_guard lock(mutex_);
    return int64_t(QueueOf(ladder).size());
  }

  int ExpireStale(const std::string& ladder, int64_t now_ms, int64_t max_age_ms) override {
    Script();
    std::lock_guard lock(mutex_);
    int expired = 0;
    for (auto& [id, t] : tickets_) {
      if (t.info.ladder != ladder || t.state != "queued" || t.info.seen_ms >= now_ms - max_age_ms) continue;
      t.state = "expired";
      Forget(t);
      ++expired;
    }
    return expired;
  }

  bool Claim(const std::string&, const Table& table, const std::string& table_id, int64_t now_ms, int64_t fresh_ms = 0,
             bool* stale = nullptr) override {
    Script();
    std::lock_guard lock(mutex_);
    if (stale) *stale = false;
    for (const std::string& id : table.tickets) {
      auto it = tickets_.find(id);
      if (it == tickets_.end() || it->second.state != "queued") return false;
      if (fresh_ms > 0 && clock_ms.load() - it->second.beat_ms > fresh_ms) {
        if (stale) *stale = true;
        return false;
      }
    }
    for (const std::string& id : table.tickets) {
      Fake& t = tickets_[id];
      t.state = "matched";
      t.table = table_id;
      t.matched_ms = now_ms;
    }
    return true;
  }

  int Assign(const std::string&, const std::string& table_id, const std::vector<Seating>& seats) override {
    if (seats.empty()) return 0;
    Script();
    std::lock_guard lock(mutex_);
    int assigned = 0;
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
      ++assigned;
    }
    return assigned;
  }

  void Delivered(const std::string& id, int64_t identity_id) override {
    Script();
    std::lock_guard lock(mutex_);
    if (auto w = who_.find(identity_id); w != who_.end() && w->second.ticket == id) who_.erase(w);
  }

  bool Spend(const std::string& id, int64_t identity_id, const std::string& game_id) override {
    Script();
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(id);
    if (it == tickets_.end() || it->second.state != "assigned" || it->second.info.game_id != game_id) return false;
    it->second.state = "spent";
    if (auto w = who_.find(identity_id); w != who_.end() && w->second.ticket == id) who_.erase(w);
    return true;
  }

  int Release(const std::string&, const std::string& table_id, const std::vector<std::string>& tickets) override {
    if (tickets.empty()) return 0;
    Script();
    std::lock_guard lock(mutex_);
    int released = 0;
    for (const std::string& id : tickets) {
      auto it = tickets_.find(id);
      if (it == tickets_.end() || it->second.state != "matched" || it->second.table != table_id) continue;
      it->second.state = "queued";
      it->second.table.clear();
      ++released;
    }
    return released;
  }

  int ReleaseStuck(const std::string& ladder, int64_t now_ms, int64_t timeout_ms) override {
    Script();
    std::lock_guard lock(mutex_);
    int released = 0;
    for (auto& [id, t] : tickets_) {
      if (t.info.ladder != ladder || t.state != "matched" || t.matched_ms >= now_ms - timeout_ms) continue;
      t.state = "queued";
      t.table.clear();
      ++released;
    }
    return released;
  }

  void HostHeartbeat(const HostInfo& host) override {
    Script();
    std::lock_guard lock(mutex_);
    Host& h = hosts_[host.address];
    h.info = host;
    h.listed = true;
  }

  bool PickHost(int64_t now_ms, int64_t ttl_ms, std::string* address) override {
    Script();
    std::lock_guard lock(mutex_);
    Host* best = nullptr;
    int64_t room = 0;
    for (Host* h : Listed()) {
      if (h->info.seen_ms < now_ms - ttl_ms) continue;
      if (h->info.capacity - h->info.live > room) best = h, room = h->info.capacity - h->info.live;
    }
    if (!best) return false;
    ++best->info.live;
    *address = best->info.address;
    return true;
  }

  void MarkHostDown(const std::string& address) override {
    Reach();
    std::lock_guard lock(mutex_);
    if (auto it = hosts_.find(address); it != hosts_.end()) it->second.listed = false;
  }

  std::vector<HostInfo> Hosts() override {
    Reach();
    std::lock_guard lock(mutex_);
    std::vector<HostInfo> out;
    for (Host* h : Listed()) out.push_back(h->info);
    return out;
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

  void Reach() {
    if (unavailable) throw storage::RedisUnavailable("fake ticket store: unavailable");
    for (int left = unavailable_calls.load(); left > 0;)
      if (unavailable_calls.compare_exchange_weak(left, left - 1))
        throw storage::RedisUnavailable("fake ticket store: unavailable for a while");
  }
  void Script() {
    Reach();
    if (fail_scripts) throw storage::RedisCommandError("matchmaker script failed: fake script error");
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

  std::mutex mutex_;
  std::map<std::string, Fake> tickets_;
  std::map<int64_t, Who> who_;
  std::map<std::string, Host> hosts_;
  uint64_t next_id_ = 0;
};

}  // namespace metropolis::matchmaker::testing
