#include "services/storage/redis_group.h"

#include <exception>
#include <utility>
#include <vector>

namespace metropolis::storage {

RedisReply RedisGroupCommit::Run(RedisCommand command) {
  Pending mine{std::move(command), {}, {}, false};
  std::unique_lock lock(mutex_);
  queue_.push_back(&mine);
  while (!mine.done) {
    if (sending_) {
      cv_.wait(lock);
      continue;
    }
    // Nobody is sending: this caller sends everything queued, its own included.
    sending_ = true;
    std::vector<Pending*> batch(queue_.begin(), queue_.end());
    queue_.clear();
    lock.unlock();
    std::vector<RedisCommand> commands;
    commands.reserve(batch.size());
    for (Pending* p : batch) commands.push_back(std::move(p->command));
    std::vector<RedisReply> replies;
    std::string error;
    try {
      pool_->With([&](RedisConnection& c) { replies = c.Pipeline(commands); });
      if (replies.size() != batch.size())
        error = "redis answered " + std::to_string(replies.size()) + " of " + std::to_string(batch.size()) +
                " pipelined commands";
    } catch (const std::exception& e) {
      error = e.what();
    }
    lock.lock();
    for (size_t i = 0; i < batch.size(); ++i) {
      if (error.empty())
        batch[i]->reply = std::move(replies[i]);
      else
        batch[i]->error = error;
      batch[i]->done = true;
    }
    stats_.commands += batch.size();
    ++stats_.pipelines;
    sending_ = false;
    cv_.notify_all();  // the answered return; one of the queued sends next
  }
  if (!mine.error.empty()) throw RedisUnavailable(mine.error);
  return std::move(mine.reply);
}

RedisGroupCommit::Stats RedisGroupCommit::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace metropolis::storage
