#include "services/gateway/sse_pump.h"

namespace metropolis::gateway {

SsePump::SsePump(std::shared_ptr<Spectator> events, std::chrono::milliseconds interval,
                 std::chrono::milliseconds heartbeat)
    : events_(std::move(events)), interval_(interval), heartbeat_(heartbeat) {}

SsePump::Step SsePump::Next(Clock::time_point now, bool stopping) {
  if (ended_ || stopping) {
    ended_ = true;
    return {};
  }
  if (!first_.empty()) {
    last_write_ = now;
    return {Step::kWrite, std::exchange(first_, {}), {}};
  }
  // Writing at most every interval is what lets views that came meanwhile
  // replace each other: a fast game costs a spectator a few views a second.
  if (interval_.count() > 0 && now < last_write_ + interval_) return {Step::kWait, {}, last_write_ + interval_};
  bool done = false;
  std::string text = events_->TakeNow(&done);
  if (done) ended_ = true;
  if (!text.empty()) {
    last_write_ = now;
    return {Step::kWrite, std::move(text), {}};
  }
  if (ended_) return {};
  if (now >= last_write_ + heartbeat_) {
    last_write_ = now;
    return {Step::kWrite, ": keep-alive\n\n", {}};
  }
  return {Step::kWait, {}, last_write_ + heartbeat_};
}

}  // namespace metropolis::gateway
