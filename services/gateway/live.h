// Live games for spectators: one upstream GameHost.Spectate stream per watched
// game, fanned out to every spectator of that game. Updates are rendered as
// server-sent events once, then shared; each spectator keeps only what it has
// not written yet, where a newer view replaces an older one that was not sent,
// so a slow spectator (or one that writes at most every few milliseconds)
// costs memory bounded by the events of the game, never by its views.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lib/common/clock.h"
#include "metropolis/v1/gamehost.pb.h"
#include "services/gateway/params.h"

namespace grpc {
class Status;
}

namespace metropolis::gateway {

// An event's text, rendered once and shared by every stream it goes to.
using SseText = std::shared_ptr<const std::string>;

// A spectator's connection: what it has not written yet. Texts are shared, not
// copied: ten thousand streams of one game hold one copy of each update.
class Spectator {
 public:
  explicit Spectator(size_t max_pending_bytes) : max_pending_bytes_(max_pending_bytes) {}

  // What there is to write now, in order: empty when there is nothing. It never
  // waits: the server's event loop learns of new texts from the waker.
  // *done: nothing follows.
  // *with_view: the last text is a view.
  std::vector<SseText> TakeNow(bool* done, bool* with_view = nullptr);
  // The ordered texts only (events, the end): a view waiting stays, for it is
  // newer than all of them (PushOrdered drops an older one).
  std::vector<SseText> TakeOrdered(bool* done);
  // Runs `waker` (on the pushing thread, outside the lock) after anything is
  // pushed or the stream is closed, so that an event loop need not poll; its
  // argument says whether an ordered text came (or the end) rather than a view.
  // Null to stop: once SetWaker(nullptr) returns, the old waker is not running
  // and never runs again. It must be cheap and must not call back into this
  // spectator.
  using Waker = std::function<void(bool ordered)>;
  void SetWaker(Waker waker);

  // For the hub (and tests).
  void PushOrdered(SseText sse);  // welcome, events, game over: kept in order
  void PushView(SseText sse);     // replaces a view not written yet
  void PushOrdered(const std::string& sse) { PushOrdered(std::make_shared<const std::string>(sse)); }
  void PushView(const std::string& sse) { PushView(std::make_shared<const std::string>(sse)); }
  // Ends the stream after `final_sse` (may be empty).
  void Close(const std::string& final_sse);
  bool closed() const;

 private:
  void OverflowLocked();
  void Notify(bool ordered);

  const size_t max_pending_bytes_;
  mutable std::mutex mutex_;
  std::vector<SseText> ordered_;
  size_t ordered_bytes_ = 0;
  SseText view_;
  bool closed_ = false;
  std::mutex waker_mutex_;  // apart from mutex_: the waker runs outside it
  Waker waker_;
};

// What receives a watched game's upstream: updates, then one end.
class UpstreamSink {
 public:
  virtual ~UpstreamSink() = default;
  virtual void OnUpdate(const v1::SpectateUpdate& update) = 0;
  virtual void OnEnd(const grpc::Status& status) = 0;
};

// A running upstream stream, which the hub cancels when nobody watches any more.
class Upstream {
 public:
  virtual ~Upstream() = default;
  virtual void Cancel() = 0;
};

// Starts watching `game_id` on `host` from the game's first event; the stream
// keeps `sink` alive until it has called OnEnd, which it always does, also
// after Cancel.
using UpstreamFactory = std::function<std::unique_ptr<Upstream>(const std::string& game_id, const std::string& host,
                                                                std::shared_ptr<UpstreamSink> sink)>;

struct LiveOptions {
  size_t max_spectators = 2000;
  size_t max_games = 256;               // games watched at once (an upstream stream each)
  size_t max_pending_bytes = 8 << 20;   // beyond this a spectator is dropped as too slow
  size_t max_history_bytes = 32 << 20;  // a game's events kept for from_start
  // A history's events messages are merged, this many at a time, into one (as
  // the host replays a game's events): a step's own message costs its SSE and
  // JSON framing and an allocation of its own, which a long game would keep
  // for every step. 1 keeps every message as it came.
  size_t history_block = 32;
  // Spectators see each game this far behind its players (--spectator-delay-ms,
  // delay_line.h); 0 shows it as it happens. `clock` times it (the system
  // clock when null).
  std::chrono::milliseconds spectator_delay{0};
  const services::Clock* clock = nullptr;
};

class DelayLine;

class LiveHub {
 public:
  // `on_history_bytes`: told each change of history_bytes(), on the thread
  // that made it. Changes, not totals: channels change it from their own
  // threads, and totals set in the wrong order would leave a gauge stale.
  LiveHub(LiveOptions options, UpstreamFactory factory,
          std::function<void(ptrdiff_t change)> on_history_bytes = nullptr);
  // The hub's delay line, when it has a spectator delay (tests poke it), or
  // the one of a game's own longer delay.
  DelayLine* delay_line() { return delay_line(options_.spectator_delay); }
  DelayLine* delay_line(std::chrono::milliseconds delay) {
    std::lock_guard lock(mutex_);
    return DelayLineFor(delay);
  }
  ~LiveHub();  // ends every stream and waits for the upstreams

  // Adds a spectator to `game_id` (run by `host`), watching it if nobody did.
  // It starts with the game's welcome and current view, and with every earlier
  // event when `from_start`. 503 when the gateway has as many spectators or
  // watched games as it accepts. `game_delay`: the game's own spectator
  // delay (a friends' table's), used when longer than the gateway's; it is
  // the game's whoever subscribes first, as its upstream is shared.
  bool Subscribe(const std::string& game_id, const std::string& host, bool from_start, std::shared_ptr<Spectator>* out,
                 ApiError* error, std::chrono::milliseconds game_delay = std::chrono::milliseconds(0));
  void Unsubscribe(const std::string& game_id, const std::shared_ptr<Spectator>& spectator);

  size_t spectators() const;
  size_t games() const;
  // The events kept for spectators who watch from the start, over every game
  // watched: memory that grows with each live game until it ends.
  size_t history_bytes() const { return history_bytes_.load(); }

 private:
  class Channel;
  void Ended(Channel* channel);
  void HistoryBytes(ptrdiff_t change);

  const LiveOptions options_;
  const UpstreamFactory factory_;
  // One delay line per delay in use (the gateway's, and tables' own): a line
  // holds items in the order they came, which is their due order only when
  // they share one delay. Created under mutex_, never removed.
  DelayLine* DelayLineFor(std::chrono::milliseconds delay);
  std::map<int64_t, std::unique_ptr<DelayLine>> delay_lines_;
  mutable std::mutex mutex_;
  std::condition_variable all_ended_;
  std::map<std::string, std::shared_ptr<Channel>> channels_;
  size_t spectators_ = 0;
  size_t running_upstreams_ = 0;
  std::atomic<size_t> history_bytes_{0};
  const std::function<void(ptrdiff_t)> on_history_bytes_;
};

}  // namespace metropolis::gateway
