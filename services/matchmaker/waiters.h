// The tickets this replica's Enqueue streams wait on, read for all of them at
// once. A stream used to poll its own ticket every 200 ms (two round trips to
// Redis each), so 10,000 waiting players cost 100,000 round trips a second.
// Here one thread reads every watched ticket in one call to the store
// (TicketStore::PollMany, which is also their heartbeat) every `beat_ms`, and a
// second waits on the store's notice of assignments (AwaitAssigned) and reads
// the tickets it names at once: a player hears its seat as soon as it is
// written, not at the next beat. The beat is the fallback, so a lost notice
// only delays a seat by at most one beat.
#pragma once

#include <grpcpp/support/status.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker {

struct WaitersOptions {
  // Every watched ticket is read (and its heartbeat written) this often. Claims
  // want a heartbeat within MatchmakerOptions::claim_fresh_ms (2 s).
  int64_t beat_ms = 500;
  // Read a ticket as soon as the store says it was assigned. Off: only at the
  // beats (the negative control of the wake's test).
  bool wake = true;
};

// What the store said of a watched ticket at its last read.
struct TicketReading {
  grpc::Status status;  // the read's: not OK when the store did not answer
  TicketInfo info;      // meaningful when status is OK and `found`
  bool found = false;
  int64_t now_ms = 0;  // the store's clock when it was read
};

class TicketWaiters {
 public:
  TicketWaiters(TicketStore* tickets, WaitersOptions options);
  ~TicketWaiters();  // stops its threads

  // One stream's watch on a ticket, from Watch to its destruction. The ticket is
  // read at once (the stream's first update need not wait for a beat).
  class Watch {
   public:
    ~Watch();
    // Waits at most `timeout` for a reading newer than the last this returned;
    // false when none came.
    bool Next(std::chrono::milliseconds timeout, TicketReading* out);

   private:
    friend class TicketWaiters;
    Watch(TicketWaiters* owner, std::string id, uint64_t seen) : owner_(owner), id_(std::move(id)), seen_(seen) {}
    TicketWaiters* owner_;
    const std::string id_;
    uint64_t seen_;  // the generation Next last returned
  };
  std::unique_ptr<Watch> Add(const std::string& ticket_id);

  size_t watched() const;
  // Whether the store's notices are being listened to: a notice written after
  // this is true is heard (tests wait for it before they assign).
  bool listening() const;

 private:
  struct Entry {
    int watches = 0;          // several streams may wait on one ticket (a resumed one)
    bool due = true;          // to be read at once, not at the next beat
    uint64_t generation = 0;  // readings delivered
    TicketReading reading;
    std::condition_variable changed;  // a new reading, or stopping: its watches' Next
  };

  void Beats();  // reads every ticket each beat, and the due ones at once
  void Wakes();  // turns the store's notices of assignment into due tickets
  void Read(const std::vector<std::string>& ids);
  void Remove(const std::string& id);

  TicketStore* const tickets_;
  const WaitersOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable work_;  // Beats and Wakes: a ticket is due, one is watched, or stopping
  std::map<std::string, Entry> entries_;
  std::vector<std::string> due_;  // the entries to read at once (those with `due` set)
  bool stopping_ = false;
  bool listening_ = false;  // Wakes holds a cursor into the notices
  std::thread beats_, wakes_;
};

}  // namespace metropolis::matchmaker
