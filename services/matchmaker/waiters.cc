#include "services/matchmaker/waiters.h"

#include "lib/common/log.h"

namespace metropolis::matchmaker {

namespace {
// How long one wait for the store's notices lasts: the longest a stopping
// replica waits for the thread that waits on them.
constexpr int64_t kAwaitMs = 250;
}  // namespace

TicketWaiters::TicketWaiters(TicketStore* tickets, WaitersOptions options) : tickets_(tickets), options_(options) {
  beats_ = std::thread([this] { Beats(); });
  if (options_.wake) wakes_ = std::thread([this] { Wakes(); });
}

TicketWaiters::~TicketWaiters() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  readings_.notify_all();
  if (beats_.joinable()) beats_.join();
  if (wakes_.joinable()) wakes_.join();
}

std::unique_ptr<TicketWaiters::Watch> TicketWaiters::Add(const std::string& ticket_id) {
  {
    std::lock_guard lock(mutex_);
    Entry& e = entries_[ticket_id];
    ++e.watches;
    if (!e.due) {
      e.due = true;
      due_.push_back(ticket_id);
    } else if (e.watches == 1) {
      due_.push_back(ticket_id);  // a new entry starts due
    }
  }
  work_.notify_all();
  return std::unique_ptr<Watch>(new Watch(this, ticket_id));
}

size_t TicketWaiters::watched() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void TicketWaiters::Remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it != entries_.end() && --it->second.watches == 0) entries_.erase(it);
}

TicketWaiters::Watch::~Watch() { owner_->Remove(id_); }

bool TicketWaiters::Watch::Next(std::chrono::milliseconds timeout, TicketReading* out) {
  std::unique_lock lock(owner_->mutex_);
  const auto it = owner_->entries_.find(id_);  // stays valid while this watch lives
  if (!owner_->readings_.wait_for(lock, timeout, [&] { return owner_->stopping_ || it->second.generation > seen_; }))
    return false;
  if (owner_->stopping_) {
    *out = {};
    out->status = {grpc::StatusCode::UNAVAILABLE, "the matchmaker replica is stopping; queue again"};
    return true;
  }
  *out = it->second.reading;
  seen_ = it->second.generation;
  return true;
}

void TicketWaiters::Beats() {
  auto next_beat = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.beat_ms);
  for (;;) {
    std::vector<std::string> ids;
    {
      std::unique_lock lock(mutex_);
      work_.wait_until(lock, next_beat, [&] { return stopping_ || !due_.empty(); });
      if (stopping_) return;
      const auto now = std::chrono::steady_clock::now();
      if (now >= next_beat) {
        // Every watched ticket: their heartbeat, and what a lost notice missed.
        for (auto& [id, e] : entries_) {
          ids.push_back(id);
          e.due = false;
        }
        next_beat = now + std::chrono::milliseconds(options_.beat_ms);
      } else {
        for (const std::string& id : due_) {
          auto it = entries_.find(id);
          if (it == entries_.end() || !it->second.due) continue;  // gone, or listed twice
          it->second.due = false;
          ids.push_back(id);
        }
      }
      due_.clear();
    }
    if (!ids.empty()) Read(ids);
  }
}

void TicketWaiters::Wakes() {
  std::string cursor;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      // Nobody waits: nothing to ask the store.
      work_.wait(lock, [&] { return stopping_ || !entries_.empty(); });
      if (stopping_) return;
    }
    std::vector<std::string> assigned;
    if (const grpc::Status s = tickets_->AwaitAssigned(kAwaitMs, &cursor, &assigned); !s.ok()) {
      // The beats still find the seats; try again after a while, from now on.
      cursor.clear();
      std::unique_lock lock(mutex_);
      work_.wait_for(lock, std::chrono::milliseconds(kAwaitMs), [&] { return stopping_; });
      continue;
    }
    bool any = false;
    {
      std::lock_guard lock(mutex_);
      for (const std::string& id : assigned) {
        auto it = entries_.find(id);
        if (it == entries_.end() || it->second.due) continue;
        it->second.due = true;
        due_.push_back(id);
        any = true;
      }
    }
    if (any) work_.notify_all();
  }
}

void TicketWaiters::Read(const std::vector<std::string>& ids) {
  uint64_t seq = 0;
  {
    std::lock_guard lock(mutex_);
    seq = ++next_read_seq_;
  }
  int64_t now = 0;
  std::vector<TicketInfo> infos;
  grpc::Status status = tickets_->Now(&now);
  if (status.ok()) status = tickets_->PollMany(ids, now, &infos);
  if (!status.ok())
    services::LogWarning("reading the waiting tickets failed",
                         {{"tickets", std::to_string(ids.size())}, {"error", status.error_message()}});
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < ids.size(); ++i) {
      auto it = entries_.find(ids[i]);
      // A read that started before the one that made the entry's reading (a wake
      // overtaking a beat) would put an older state back.
      if (it == entries_.end() || it->second.read_seq > seq) continue;
      Entry& e = it->second;
      e.read_seq = seq;
      e.reading.status = status;
      e.reading.now_ms = now;
      e.reading.found = status.ok() && i < infos.size() && !infos[i].id.empty();
      e.reading.info = e.reading.found ? infos[i] : TicketInfo{};
      ++e.generation;
    }
  }
  readings_.notify_all();
}

}  // namespace metropolis::matchmaker
