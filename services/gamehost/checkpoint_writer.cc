#include "services/gamehost/checkpoint_writer.h"

#include <algorithm>
#include <string>
#include <vector>

#include "lib/common/log.h"
#include "services/gamehost/metrics.h"

namespace metropolis::gamehost {

CheckpointWriter::CheckpointWriter(CheckpointStore* store, HostMetrics* metrics, size_t max_batch)
    : store_(store), metrics_(metrics), max_batch_(std::max<size_t>(1, max_batch)) {
  thread_ = std::thread([this] { Loop(); });
}

CheckpointWriter::~CheckpointWriter() { Stop(); }

void CheckpointWriter::Submit(AppendRequest request, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.emplace_back(std::move(request), std::move(done));
      if (queue_.size() == 1) cv_.notify_one();
      return;
    }
  }
  done({grpc::StatusCode::UNAVAILABLE,
        "game " + request.game_id + ": the host is stopping; the checkpoint is not written"});
}

void CheckpointWriter::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void CheckpointWriter::Loop() {
  std::vector<AppendRequest> requests;
  std::vector<Done> dones;
  for (;;) {
    requests.clear();
    dones.clear();
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued is written
      while (!queue_.empty() && requests.size() < max_batch_) {
        requests.push_back(std::move(queue_.front().first));
        dones.push_back(std::move(queue_.front().second));
        queue_.pop_front();
      }
      out_ = requests.size();
    }
    std::vector<grpc::Status> statuses = store_->AppendMany(requests);
    if (statuses.size() != requests.size()) {
      // A store that breaks its contract: no game may take a missing answer for a write.
      services::LogError("the checkpoint store answered a batch with the wrong number of statuses",
                         {{"appends", std::to_string(requests.size())}, {"statuses", std::to_string(statuses.size())}});
      statuses.assign(requests.size(), {grpc::StatusCode::INTERNAL, "the checkpoint store answered a batch wrongly"});
    }
    if (metrics_) metrics_->CheckpointBatch(requests.size());
    for (size_t i = 0; i < dones.size(); ++i) dones[i](std::move(statuses[i]));
    std::lock_guard lock(mutex_);
    out_ = 0;
  }
}

size_t CheckpointWriter::pending() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + out_;
}

}  // namespace metropolis::gamehost
