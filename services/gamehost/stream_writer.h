// The write side of a server stream under the callback API: a queue of
// messages with at most one write in flight, coalescing of messages that can
// be merged while they wait (a seat that falls behind gets one Events message
// instead of fifty), and a Finish that waits for the queue to drain.
//
// Send and Finish are called from any thread (the game's, with its lock
// held); they never block and never call into gRPC with the writer's mutex
// held, because a reaction may run inline on the calling thread.
#pragma once

#include <grpcpp/support/status.h>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace metropolis::gamehost {

template <typename Update>
class StreamWriter {
 public:
  struct Ops {
    std::function<void(const Update*)> start_write;
    std::function<void(const grpc::Status&)> finish;
    // Returns the merge of two queued messages, or nullptr when they do not merge.
    std::function<std::shared_ptr<const Update>(const Update& older, const Update& newer)> merge;
  };
  explicit StreamWriter(Ops ops) : ops_(std::move(ops)) {}

  void Send(std::shared_ptr<const Update> update) {
    const Update* to_write = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (finish_called_ || finish_pending_ || broken_) return;
      // Only messages not yet handed to gRPC may merge (the front is in flight).
      if (queue_.size() >= 2 && ops_.merge) {
        if (auto merged = ops_.merge(*queue_.back(), *update)) {
          queue_.back() = std::move(merged);
          return;
        }
      }
      queue_.push_back(std::move(update));
      if (writing_) return;
      writing_ = true;
      to_write = queue_.front().get();
    }
    ops_.start_write(to_write);
  }

  void Finish(const grpc::Status& status) {
    {
      std::lock_guard lock(mutex_);
      if (finish_called_ || finish_pending_) return;
      if (writing_) {
        finish_pending_ = status;
        return;
      }
      finish_called_ = true;
    }
    ops_.finish(status);
  }

  // From the reactor's OnWriteDone.
  void WriteDone(bool ok) {
    const Update* to_write = nullptr;
    std::optional<grpc::Status> finish;
    {
      std::lock_guard lock(mutex_);
      queue_.pop_front();
      if (!ok) {  // the stream is broken: nothing more will go out
        queue_.clear();
        broken_ = true;
      }
      if (!queue_.empty()) {
        to_write = queue_.front().get();
      } else {
        writing_ = false;
        if (finish_pending_) {
          finish = std::move(finish_pending_);
          finish_pending_.reset();
          finish_called_ = true;
        }
      }
    }
    if (to_write) ops_.start_write(to_write);
    if (finish) ops_.finish(*finish);
  }

  size_t queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
  }

 private:
  Ops ops_;
  mutable std::mutex mutex_;
  std::deque<std::shared_ptr<const Update>> queue_;  // front: in flight while writing_
  bool writing_ = false;
  bool finish_called_ = false;
  bool broken_ = false;
  std::optional<grpc::Status> finish_pending_;
};

}  // namespace metropolis::gamehost
