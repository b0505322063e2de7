#include "services/gateway/live.h"

#include <grpcpp/support/status.h>

#include <algorithm>
#include <optional>

#include "lib/protocol/clocks.h"
#include "services/gateway/delay_line.h"
#include "services/gateway/json.h"

namespace metropolis::gateway {

// ---- Spectator -------------------------------------------------------------------

std::vector<SseText> Spectator::TakeNow(bool* done, bool* with_view) {
  std::lock_guard lock(mutex_);
  std::vector<SseText> out = std::move(ordered_);
  ordered_.clear();
  ordered_bytes_ = 0;
  if (with_view) *with_view = view_ != nullptr;
  if (view_) out.push_back(std::move(view_));
  view_.reset();
  *done = closed_;
  return out;
}

std::vector<SseText> Spectator::TakeOrdered(bool* done) {
  std::lock_guard lock(mutex_);
  std::vector<SseText> out = std::move(ordered_);
  ordered_.clear();
  ordered_bytes_ = 0;
  // Close moves the last view among the ordered texts: closed, nothing stays.
  *done = closed_;
  return out;
}

void Spectator::SetWaker(Waker waker) {
  std::lock_guard lock(waker_mutex_);
  waker_ = std::move(waker);
}

void Spectator::Notify(bool ordered) {
  std::lock_guard lock(waker_mutex_);
  if (waker_) waker_(ordered);
}

void Spectator::OverflowLocked() {
  // A spectator this far behind would only see stale positions: it is dropped,
  // and a browser's EventSource reconnects to the current position.
  ordered_.assign(1, std::make_shared<const std::string>(SseEvent(
                         "error", ErrorToJson(MakeError(503, "RESOURCE_EXHAUSTED",
                                                        "this spectator fell too far behind the game; reconnect"))
                                      .dump())));
  ordered_bytes_ = ordered_[0]->size();
  view_.reset();
  closed_ = true;
}

void Spectator::PushOrdered(SseText sse) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    // Events of a step are followed by the view after them: the view waiting
    // now is older than these events and would only show a stale position.
    view_.reset();
    ordered_bytes_ += sse->size();
    ordered_.push_back(std::move(sse));
    if (ordered_bytes_ > max_pending_bytes_) OverflowLocked();
  }
  Notify(/*ordered=*/true);
}

void Spectator::PushView(SseText sse) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    view_ = std::move(sse);
  }
  Notify(/*ordered=*/false);
}

void Spectator::Close(const std::string& final_sse) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    // The last view (the final position) before what ends the stream.
    if (view_) ordered_.push_back(std::move(view_));
    view_.reset();
    if (!final_sse.empty()) ordered_.push_back(std::make_shared<const std::string>(final_sse));
    closed_ = true;
  }
  Notify(/*ordered=*/true);
}

bool Spectator::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

namespace {

std::string DelayText(std::chrono::milliseconds delay) {
  const auto ms = delay.count();
  if (ms % 60'000 == 0) return std::to_string(ms / 60'000) + " min";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

}  // namespace

// ---- Channel: one watched game ---------------------------------------------------

class LiveHub::Channel : public UpstreamSink {
 public:
  // `delay`: how far behind its players this game is shown (the gateway's,
  // or the game's own longer one).
  Channel(LiveHub* hub, std::string game_id, const LiveOptions& options, std::chrono::milliseconds delay)
      : hub_(hub), game_id_(std::move(game_id)), options_(options), delay_(delay) {}

  void OnUpdate(const v1::SpectateUpdate& update) override {
    // Rendered once for every spectator, outside the lock, and shared by them.
    // Events keep their action texts for the history's next block.
    v1::Events events;
    SseText shared, kept;    // kept: what the history keeps, without the clocks
    SseText welcome_clocks;  // the welcome's clocks, for who watches now, as an update of their own
    std::optional<v1::Clocks> clocks;
    if (update.has_events()) {
      events = update.events();
      AddActionTexts(events.mutable_events());
      shared = std::make_shared<const std::string>(EventsToSse(events));
      kept = shared;
      if (events.has_clocks()) {
        // The clocks are the moment's: a late spectator gets the latest, as they
        // stand when it comes (Add), not each step's from its history.
        clocks = events.clocks();
        events.clear_clocks();
        kept = events.events_size() ? std::make_shared<const std::string>(EventsToSse(events)) : nullptr;
      }
    } else if (update.has_welcome() && update.welcome().has_clocks()) {
      v1::SpectateUpdate welcome = update;
      clocks = welcome.welcome().clocks();
      welcome.mutable_welcome()->clear_clocks();  // kept for every later spectator: no clocks of the moment
      shared = std::make_shared<const std::string>(SpectateUpdateToSse(welcome));
      v1::Events only;
      only.set_step(update.welcome().step());
      *only.mutable_clocks() = *clocks;
      welcome_clocks = std::make_shared<const std::string>(EventsToSse(only));
    } else {
      shared = std::make_shared<const std::string>(SpectateUpdateToSse(update));
    }
    const std::string& sse = *shared;
    if (sse.empty()) return;
    std::lock_guard lock(mutex_);
    if (clocks) {
      clocks_ = std::move(*clocks);
      clocks_step_ = update.has_welcome() ? update.welcome().step() : events.step();
      clocks_at_ = std::chrono::steady_clock::now();
    }
    switch (update.msg_case()) {
      case v1::SpectateUpdate::kWelcome:
        welcome_ = shared;
        welcome_step_ = update.welcome().step();
        for (auto& s : spectators_) {
          s->PushOrdered(shared);
          if (welcome_clocks) s->PushOrdered(welcome_clocks);
        }
        break;
      case v1::SpectateUpdate::kView:
        // The host replays a game's events before its first view; none for a
        // game past its start means the host no longer keeps them (it frees
        // them once the game is stored).
        if (!saw_view_ && history_.empty() && welcome_step_ > 0) history_complete_ = false;
        saw_view_ = true;
        view_ = shared;
        for (auto& s : spectators_) s->PushView(shared);
        break;
      case v1::SpectateUpdate::kEvents:
        view_.reset();  // older than these events; the next view follows them
        if (kept) KeepLocked(kept, std::move(events));
        for (auto& s : spectators_) s->PushOrdered(shared);
        break;
      case v1::SpectateUpdate::kGameOver:
        final_ = sse;
        break;
      case v1::SpectateUpdate::kPaused:
        // Kept while the pause lasts, for spectators who come during it.
        paused_ = update.paused().paused() ? shared : nullptr;
        for (auto& s : spectators_) s->PushOrdered(shared);
        break;
      default:
        break;
    }
  }

  void OnEnd(const grpc::Status& status) override {
    {
      std::lock_guard lock(mutex_);
      if (final_.empty()) {
        // Cancelled because nobody watches any more, or the host refused or lost
        // the stream: what spectators are still there hear why.
        ApiError e = status.ok() ? MakeError(503, "UNAVAILABLE", "the game host ended the stream")
                                 : BackendError(status, "gamehost");
        final_ = SseEvent("error", Dump(ErrorToJson(e)));
      }
      ended_ = true;
      for (auto& s : spectators_) s->Close(final_);
      // Nobody joins an ended game for its events (a spectator who comes
      // before the hub forgets it is told they are not kept); and the hub
      // may be gone once Ended returns.
      DropHistoryLocked();
    }
    hub_->Ended(this);
  }

  // Under the hub's lock.
  std::shared_ptr<Spectator> Add(bool from_start) {
    std::lock_guard lock(mutex_);
    std::vector<SseText> start;
    size_t start_bytes = 0;
    const auto add = [&](SseText text) {
      if (!text || text->empty()) return;
      start_bytes += text->size();
      start.push_back(std::move(text));
    };
    if (delay_.count() > 0) {
      // Said first, and at once: the first view of a game nobody watched
      // comes only after the delay.
      add(std::make_shared<const std::string>(
          SseEvent("notice", Json({{"message", "spectators see this game " + DelayText(delay_) + " behind its players"},
                                   {"delay_ms", delay_.count()}})
                                 .dump())));
    }
    add(welcome_);
    if (from_start) {
      if (!history_complete_) {
        add(std::make_shared<const std::string>(SseEvent(
            "notice",
            Json({{"message", "earlier events are not kept for this game: from the current position on"}}).dump())));
      }
      for (const SseText& text : history_) add(text);
    }
    add(paused_);
    if (clocks_) {
      v1::Events now;
      now.set_step(clocks_step_);
      // As they stand now: the running seat's clock moved on since the host sent them.
      *now.mutable_clocks() = *clocks_;
      protocol::SpendRunningClock(
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - clocks_at_).count(),
          now.mutable_clocks());
      add(std::make_shared<const std::string>(EventsToSse(now)));
    }
    // Its history does not count against how far behind it may fall.
    auto spectator = std::make_shared<Spectator>(options_.max_pending_bytes + start_bytes);
    for (SseText& text : start) spectator->PushOrdered(std::move(text));
    if (view_) spectator->PushView(view_);
    if (ended_) {
      spectator->Close(final_);
    } else {
      spectators_.push_back(spectator);
    }
    return spectator;
  }

  // Under the hub's lock.
  void DropHistory() {
    std::lock_guard lock(mutex_);
    DropHistoryLocked();
  }

  // Under the hub's lock; the spectators left.
  size_t Remove(const std::shared_ptr<Spectator>& spectator) {
    std::lock_guard lock(mutex_);
    std::erase(spectators_, spectator);
    return spectators_.size();
  }

  const std::string& game_id() const { return game_id_; }
  std::unique_ptr<Upstream> upstream;

 private:
  LiveHub* const hub_;
  const std::string game_id_;
  const LiveOptions& options_;
  const std::chrono::milliseconds delay_;
  std::mutex mutex_;
  // The history holds the very texts the spectators were given, shared with
  // them and with late spectators, until `history_block` of them are merged
  // into one text: a long game keeps about one allocation per block, and each
  // step's events without the framing of a message of their own.
  void KeepLocked(const SseText& text, v1::Events events) {
    if (!history_complete_) return;
    if (history_bytes_ + text->size() > options_.max_history_bytes) {
      DropHistoryLocked();
      return;
    }
    history_.push_back(text);
    history_bytes_ += text->size();
    hub_->HistoryBytes(ptrdiff_t(text->size()));
    if (options_.history_block <= 1) return;
    for (v1::Event& event : *events.mutable_events()) *block_.add_events() = std::move(event);
    block_.set_step(events.step());  // the step after the block's last events
    block_texts_ += 1;
    block_bytes_ += text->size();
    if (block_texts_ >= options_.history_block) MergeBlockLocked();
  }

  // The last `block_texts_` texts of the history become one. Printed under
  // the lock: once a block, some microseconds, and a spectator who joins
  // meanwhile must see either the texts or the merged one, never neither.
  void MergeBlockLocked() {
    SseText merged = std::make_shared<const std::string>(EventsToSse(block_));
    history_.resize(history_.size() - block_texts_);
    history_.push_back(merged);
    const ptrdiff_t change = ptrdiff_t(merged->size()) - ptrdiff_t(block_bytes_);
    history_bytes_ = size_t(ptrdiff_t(history_bytes_) + change);
    hub_->HistoryBytes(change);
    ResetBlockLocked();
  }

  void ResetBlockLocked() {
    block_.Clear();
    block_texts_ = 0;
    block_bytes_ = 0;
  }

  void DropHistoryLocked() {
    history_complete_ = false;
    hub_->HistoryBytes(-ptrdiff_t(history_bytes_));
    history_bytes_ = 0;
    history_.clear();
    history_.shrink_to_fit();
    ResetBlockLocked();
  }

  std::string final_;
  SseText welcome_, view_;
  std::optional<v1::Clocks> clocks_;  // the latest clocks, their step and when they came
  uint32_t clocks_step_ = 0;
  std::chrono::steady_clock::time_point clocks_at_;
  std::vector<SseText> history_;  // every events text so far, while complete
  size_t history_bytes_ = 0;
  v1::Events block_;  // the events of the history's last texts, not merged yet
  size_t block_texts_ = 0, block_bytes_ = 0;
  SseText paused_;  // the pause notice while a pause lasts
  bool history_complete_ = true;
  bool saw_view_ = false;
  uint32_t welcome_step_ = 0;
  bool ended_ = false;
  std::vector<std::shared_ptr<Spectator>> spectators_;
};

// ---- LiveHub -------------------------------------------------------------------------

LiveHub::LiveHub(LiveOptions options, UpstreamFactory factory, std::function<void(ptrdiff_t)> on_history_bytes)
    : options_(options), factory_(std::move(factory)), on_history_bytes_(std::move(on_history_bytes)) {
  std::lock_guard lock(mutex_);
  DelayLineFor(options_.spectator_delay);
}

DelayLine* LiveHub::DelayLineFor(std::chrono::milliseconds delay) {
  if (delay.count() <= 0) return nullptr;
  std::unique_ptr<DelayLine>& line = delay_lines_[delay.count()];
  if (!line) {
    static const services::SystemClock system_clock;
    line = std::make_unique<DelayLine>(delay, options_.clock ? options_.clock : &system_clock);
  }
  return line.get();
}

LiveHub::~LiveHub() {
  // The upstreams' ends pass through the delay lines: none may wait for them.
  // (Drained outside the lock: what they pass on may end a channel, which
  // takes it.)
  std::vector<DelayLine*> lines;
  {
    std::lock_guard lock(mutex_);
    for (auto& [delay, line] : delay_lines_) lines.push_back(line.get());
  }
  for (DelayLine* line : lines) line->Drain();
  std::unique_lock lock(mutex_);
  for (auto& [id, channel] : channels_)
    if (channel->upstream) channel->upstream->Cancel();
  all_ended_.wait(lock, [&] { return running_upstreams_ == 0; });
}

bool LiveHub::Subscribe(const std::string& game_id, const std::string& host, bool from_start,
                        std::shared_ptr<Spectator>* out, ApiError* error, std::chrono::milliseconds game_delay) {
  std::lock_guard lock(mutex_);
  if (spectators_ >= options_.max_spectators) {
    *error = MakeError(503, "RESOURCE_EXHAUSTED",
                       "this gateway has its " + std::to_string(options_.max_spectators) +
                           " spectators (--max-spectators); try again later");
    return false;
  }
  auto it = channels_.find(game_id);
  if (it == channels_.end()) {
    if (channels_.size() >= options_.max_games) {
      *error = MakeError(503, "RESOURCE_EXHAUSTED",
                         "this gateway watches its " + std::to_string(options_.max_games) +
                             " live games (--max-live-games); try again later");
      return false;
    }
    const std::chrono::milliseconds delay = std::max(options_.spectator_delay, game_delay);
    auto channel = std::make_shared<Channel>(this, game_id, options_, delay);
    it = channels_.emplace(game_id, channel).first;
    ++running_upstreams_;
    DelayLine* line = DelayLineFor(delay);
    channel->upstream = factory_(game_id, host, line ? line->Wrap(channel) : std::shared_ptr<UpstreamSink>(channel));
  }
  *out = it->second->Add(from_start);
  ++spectators_;
  return true;
}

void LiveHub::Unsubscribe(const std::string& game_id, const std::shared_ptr<Spectator>& spectator) {
  std::lock_guard lock(mutex_);
  --spectators_;
  auto it = channels_.find(game_id);
  if (it == channels_.end()) return;
  if (it->second->Remove(spectator) == 0) {
    // Nobody watches any more: the upstream ends (its OnEnd finds the channel
    // gone from the map), and nobody can join for the history any more.
    it->second->DropHistory();
    if (it->second->upstream) it->second->upstream->Cancel();
    channels_.erase(it);
  }
}

void LiveHub::Ended(Channel* channel) {
  {
    std::lock_guard lock(mutex_);
    auto it = channels_.find(channel->game_id());
    if (it != channels_.end() && it->second.get() == channel) channels_.erase(it);
    --running_upstreams_;
    // Under the lock: once it is released the hub may be destroyed by a
    // waiter that saw the count reach zero.
    all_ended_.notify_all();
  }
}

size_t LiveHub::spectators() const {
  std::lock_guard lock(mutex_);
  return spectators_;
}

void LiveHub::HistoryBytes(ptrdiff_t change) {
  if (change == 0) return;
  history_bytes_.fetch_add(size_t(change));
  if (on_history_bytes_) on_history_bytes_(change);
}

size_t LiveHub::games() const {
  std::lock_guard lock(mutex_);
  return channels_.size();
}

}  // namespace metropolis::gateway
