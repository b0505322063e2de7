#include "services/matchmaker/waiters.h"

#include <algorithm>

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
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_) e.changed.notify_all();
  }
  if (beats_.joinable()) beats_.join();
  if (wakes_.joinable()) wakes_.join();
}

std::unique_ptr<TicketWaiters::Watch> TicketWaiters::Add(const std::string& ticket_id) {
  uint64_t seen = 0;
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
    // A second watch on a ticket waits for the read it asked for, not the
    // reading (perhaps an old error) the first one had.
    seen = e.generation;
  }
  work_.notify_all();
  return std::unique_ptr<Watch>(new Watch(this, ticket_id, seen));
}

bool TicketWaiters::listening() const {
  std::lock_guard lock(mutex_);
  return listening_;
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
  if (!it->second.changed.wait_for(lock, timeout, [&] { return owner_->stopping_ || it->second.generation > seen_; }))
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
    bool beat = false;
    {
      std::unique_lock lock(mutex_);
      work_.wait_until(lock, next_beat, [&] { return stopping_ || !due_.empty(); });
      if (stopping_) return;
      const auto now = std::chrono::steady_clock::now();
      if (now >= next_beat) {
        beat = true;
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
    // Half a beat of rest at least after a beat's read: with more tickets than
    // Redis reads in a beat, back-to-back reads would leave it no time for the
    // rounds. The beat then stretches (the claims' 2 s freshness is the limit).
    if (beat)
      next_beat =
          std::max(next_beat, std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.beat_ms / 2));
  }
}

void TicketWaiters::Wakes() {
  std::string cursor;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      // Nobody waits: nothing to ask the store.
      if (entries_.empty()) {
        // Listening again later starts from then, not from notices long read.
        cursor.clear();
        listening_ = false;
      }
      work_.wait(lock, [&] { return stopping_ || !entries_.empty(); });
      if (stopping_) return;
    }
    std::vector<std::string> assigned;
    if (const grpc::Status s = tickets_->AwaitAssigned(kAwaitMs, &cursor, &assigned); !s.ok()) {
      // The beats still find the seats; try again after a while, from now on.
      cursor.clear();
      std::unique_lock lock(mutex_);
      listening_ = false;
      work_.wait_for(lock, std::chrono::milliseconds(kAwaitMs), [&] { return stopping_; });
      continue;
    }
    bool any = false;
    {
      std::lock_guard lock(mutex_);
      listening_ = true;
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

// Only the beats thread reads, so readings of a ticket come in the order read.
void TicketWaiters::Read(const std::vector<std::string>& ids) {
  int64_t now = 0;
  std::vector<TicketInfo> infos;
  grpc::Status status = tickets_->Now(&now);
  if (status.ok()) status = tickets_->PollMany(ids, now, &infos);
  std::vector<grpc::Status> statuses(ids.size(), status);
  std::vector<bool> found(ids.size(), false);
  if (status.ok()) {
    for (size_t i = 0; i < ids.size(); ++i) found[i] = i < infos.size() && !infos[i].id.empty();
  } else if (status.error_code() == grpc::StatusCode::INTERNAL) {
    // A script failed (one damaged ticket fails the call that reads it with
    // its neighbours): the tickets again a batch at a time, and each ticket of
    // a batch that fails alone, so that only the damaged one's stream ends.
    infos.assign(ids.size(), TicketInfo{});
    constexpr size_t kBatch = 256;
    for (size_t first = 0; first < ids.size(); first += kBatch) {
      const size_t n = std::min(kBatch, ids.size() - first);
      const std::vector<std::string> batch(ids.begin() + std::ptrdiff_t(first),
                                           ids.begin() + std::ptrdiff_t(first + n));
      std::vector<TicketInfo> read;
      if (tickets_->PollMany(batch, now, &read).ok() && read.size() == n) {
        for (size_t i = 0; i < n; ++i) {
          statuses[first + i] = grpc::Status::OK;
          found[first + i] = !read[i].id.empty();
          infos[first + i] = std::move(read[i]);
        }
        continue;
      }
      for (size_t i = first; i < first + n; ++i) {
        bool f = false;
        statuses[i] = tickets_->Poll(ids[i], now, &infos[i], &f);
        found[i] = statuses[i].ok() && f;
      }
    }
  }
  if (!status.ok())
    services::LogWarning("reading the waiting tickets together failed",
                         {{"tickets", std::to_string(ids.size())}, {"error", status.error_message()}});
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < ids.size(); ++i) {
    auto it = entries_.find(ids[i]);
    if (it == entries_.end()) continue;
    Entry& e = it->second;
    e.reading.status = statuses[i];
    e.reading.now_ms = now;
    e.reading.found = found[i];
    e.reading.info = found[i] ? infos[i] : TicketInfo{};
    ++e.generation;
    e.changed.notify_all();
  }
}

}  // namespace metropolis::matchmaker
