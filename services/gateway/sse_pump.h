// What an event stream writes next, apart from how it is written: the pace of
// a live game's stream (events at once; a view at most once per interval, so
// that views that come meanwhile replace each other), the heartbeat on an idle
// stream, and its end.
// The server's event loop asks it whenever the connection can take more; it
// never blocks, and says when to ask again if there is nothing to write.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "services/gateway/live.h"

namespace metropolis::gateway {

class SsePump {
 public:
  using Clock = std::chrono::steady_clock;
  // `interval` 0: every event at once (a seat's stream, where a person waits on
  // each decision).
  SsePump(std::shared_ptr<Spectator> events, std::chrono::milliseconds interval, std::chrono::milliseconds heartbeat);

  struct Step {
    enum Kind { kWrite, kWait, kEnd } kind = kEnd;
    std::vector<SseText> texts;  // kWrite: to write in this order
    Clock::time_point until;     // kWait: ask again then
    // kWait: only the interval holds the stream back, so a view pushed need
    // not wake it before `until` (it would wait anyway); events still do.
    bool interval = false;
    std::string Text() const;  // the texts as one (for tests and logs)
  };

  // `stopping`: the server shuts down, the stream ends now.
  Step Next(Clock::time_point now, bool stopping);

  Spectator* events() const { return events_.get(); }

 private:
  const std::shared_ptr<Spectator> events_;
  const std::chrono::milliseconds interval_, heartbeat_;
  bool started_ = false;
  Clock::time_point last_write_ = Clock::time_point::min();  // of anything: the heartbeat's clock
  Clock::time_point last_view_ = Clock::time_point::min();   // of a view: the interval's clock
  bool ended_ = false;
};

// What a stream took from its pump and has not written yet, handed to the
// connection in pieces of at most kMaxWrite bytes. libmicrohttpd writes an
// HTTP/1.1 stream's chunks into the connection's memory pool, from the start
// of the space the request's read buffer gave up (zeroed then, so resident
// anyway: about half the pool), and gives no page back while the connection
// lasts. A first write as large as the pool (a long game's history, from the
// start) made a stream keep all 64 kB; in pieces of 16 kB it keeps what every
// connection keeps.
class SseOutbox {
 public:
  static constexpr size_t kMaxWrite = 16 << 10;
  bool empty() const { return next_ == texts_.size(); }
  // What to write next; what was there is dropped.
  void Set(std::vector<SseText> texts);
  // Copies the next bytes, at most min(max, kMaxWrite), to `buffer`: how many.
  size_t Fill(char* buffer, size_t max);

 private:
  std::vector<SseText> texts_;  // written from texts_[next_] at offset_
  size_t next_ = 0, offset_ = 0;
};

}  // namespace metropolis::gateway
