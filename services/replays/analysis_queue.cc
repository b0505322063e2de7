#include "services/replays/analysis_queue.h"

#include "lib/common/negative_control.h"

namespace metropolis::replays {

AnalysisQueue::Offered AnalysisQueue::Offer(AnalysisJob job) {
  std::lock_guard lock(mutex_);
  if (stopped_) return Offered::kClosed;
  if (auto it = held_.find(job.game_id); it != held_.end()) {
    if (job.line == AnalysisLine::kRequested) it->second = true;
    return Offered::kAlreadyQueued;
  }
  std::deque<AnalysisJob>& line = lines_[int(job.line)];
  // The bound (negative control "analysis_bound", lib/common/negative_control.h).
  if (line.size() >= capacity_ && !services::ProtectionRemoved("analysis_bound")) return Offered::kFull;
  held_.emplace(job.game_id, false);
  line.push_back(std::move(job));
  ready_.notify_one();
  return Offered::kQueued;
}

bool AnalysisQueue::Take(AnalysisJob* out) {
  std::unique_lock lock(mutex_);
  ++takers_;
  ready_.wait(lock, [&] { return stopped_ || !lines_[0].empty() || !lines_[1].empty(); });
  --takers_;
  if (stopped_) return false;
  std::deque<AnalysisJob>& line = lines_[0].empty() ? lines_[1] : lines_[0];
  *out = std::move(line.front());
  line.pop_front();
  return true;
}

bool AnalysisQueue::Finish(const std::string& game_id) {
  std::lock_guard lock(mutex_);
  auto it = held_.find(game_id);
  if (it == held_.end()) return false;
  if (it->second) {
    it->second = false;
    return true;
  }
  held_.erase(it);
  return false;
}

bool AnalysisQueue::Holds(const std::string& game_id) const {
  std::lock_guard lock(mutex_);
  return held_.count(game_id) > 0;
}

size_t AnalysisQueue::waiting(AnalysisLine line) const {
  std::lock_guard lock(mutex_);
  return lines_[int(line)].size();
}

int AnalysisQueue::takers() const {
  std::lock_guard lock(mutex_);
  return takers_;
}

void AnalysisQueue::Stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  ready_.notify_all();
}

}  // namespace metropolis::replays
