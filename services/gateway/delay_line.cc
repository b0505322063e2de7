#include "services/gateway/delay_line.h"

#include <grpcpp/support/status.h>

#include <algorithm>
#include <utility>

namespace metropolis::gateway {

class DelayLine::Sink final : public UpstreamSink {
 public:
  Sink(DelayLine* line, std::shared_ptr<UpstreamSink> target) : line_(line), target_(std::move(target)) {}
  void OnUpdate(const v1::SpectateUpdate& update) override {
    line_->Hold({.due = 0, .sink = target_, .update = update, .status = {}});
  }
  void OnEnd(const grpc::Status& status) override {
    line_->Hold({.due = 0, .sink = target_, .update = std::nullopt, .status = status});
  }

 private:
  DelayLine* const line_;
  const std::shared_ptr<UpstreamSink> target_;
};

DelayLine::DelayLine(std::chrono::milliseconds delay, const services::Clock* clock)
    : delay_(delay), clock_(clock), thread_([this] { Run(); }) {}

DelayLine::~DelayLine() {
  {
    std::lock_guard lock(mutex_);
    draining_ = stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::shared_ptr<UpstreamSink> DelayLine::Wrap(std::shared_ptr<UpstreamSink> sink) {
  return std::make_shared<Sink>(this, std::move(sink));
}

void DelayLine::Hold(Item item) {
  {
    std::lock_guard lock(mutex_);
    item.due = clock_->Now() + delay_.count();
    items_.push_back(std::move(item));
  }
  wake_.notify_all();
}

void DelayLine::Drain() {
  {
    std::lock_guard lock(mutex_);
    draining_ = true;
  }
  wake_.notify_all();
}

void DelayLine::Poke() { wake_.notify_all(); }

size_t DelayLine::held() const {
  std::lock_guard lock(mutex_);
  return items_.size();
}

void DelayLine::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (items_.empty()) {
      if (stopping_) return;
      wake_.wait(lock);
      continue;
    }
    const services::Millis wait = draining_ ? 0 : items_.front().due - clock_->Now();
    if (wait > 0) {
      // Woken early by a new item, Drain or Poke; a fake clock moves only then.
      wake_.wait_for(lock, std::chrono::milliseconds(std::min<services::Millis>(wait, 1000)));
      continue;
    }
    Item item = std::move(items_.front());
    items_.pop_front();
    // Passed on outside the lock: the hub's channel takes its own locks, and
    // its end may destroy what the sink holds.
    lock.unlock();
    if (item.update) {
      item.sink->OnUpdate(*item.update);
    } else {
      item.sink->OnEnd(item.status);
    }
    item.sink.reset();
    lock.lock();
  }
}

}  // namespace metropolis::gateway
