#include "services/gateway/sse_pump.h"

#include <algorithm>
#include <cstring>

namespace metropolis::gateway {
namespace {

// A browser's EventSource reconnects after this many milliseconds.
const SseText kRetry = std::make_shared<const std::string>("retry: 2000\n\n");
const SseText kHeartbeat = std::make_shared<const std::string>(": keep-alive\n\n");

}  // namespace

std::string SsePump::Step::Text() const {
  std::string out;
  for (const SseText& text : texts) out += *text;
  return out;
}

SsePump::SsePump(std::shared_ptr<Spectator> events, std::chrono::milliseconds interval,
                 std::chrono::milliseconds heartbeat)
    : events_(std::move(events)), interval_(interval), heartbeat_(heartbeat) {}

SsePump::Step SsePump::Next(Clock::time_point now, bool stopping) {
  if (ended_ || stopping) {
    ended_ = true;
    return {};
  }
  if (!started_) {
    started_ = true;
    last_write_ = now;
    return {Step::kWrite, {kRetry}, {}};
  }
  bool done = false;
  // Writing views at most every interval is what lets views that came
  // meanwhile replace each other: a fast game costs a spectator a few views a
  // second. Events are never merged, so holding them back would only delay
  // them: they go at once, and the view after them waits out the interval.
  if (interval_.count() > 0 && now < last_view_ + interval_) {
    std::vector<SseText> texts = events_->TakeOrdered(&done);
    if (done) ended_ = true;
    if (!texts.empty()) {
      last_write_ = now;
      return {Step::kWrite, std::move(texts), {}};
    }
    if (ended_) return {};
    return {Step::kWait, {}, last_view_ + interval_, true};
  }
  bool with_view = false;
  std::vector<SseText> texts = events_->TakeNow(&done, &with_view);
  if (done) ended_ = true;
  if (!texts.empty()) {
    last_write_ = now;
    if (with_view) last_view_ = now;
    return {Step::kWrite, std::move(texts), {}};
  }
  if (ended_) return {};
  if (now >= last_write_ + heartbeat_) {
    last_write_ = now;
    return {Step::kWrite, {kHeartbeat}, {}};
  }
  return {Step::kWait, {}, last_write_ + heartbeat_};
}

void SseOutbox::Set(std::vector<SseText> texts) {
  texts_ = std::move(texts);
  next_ = offset_ = 0;
}

size_t SseOutbox::Fill(char* buffer, size_t max) {
  max = std::min(max, kMaxWrite);
  size_t n = 0;
  while (n < max && next_ < texts_.size()) {
    const std::string& text = *texts_[next_];
    const size_t take = std::min(max - n, text.size() - offset_);
    std::memcpy(buffer + n, text.data() + offset_, take);
    n += take;
    offset_ += take;
    if (offset_ == text.size()) {
      ++next_;
      offset_ = 0;
    }
  }
  if (next_ == texts_.size()) {  // all written: not held while the stream waits
    texts_.clear();
    next_ = 0;
  }
  return n;
}

}  // namespace metropolis::gateway
