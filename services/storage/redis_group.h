// Group commit for Redis: many threads each waiting for one command's reply
// share round trips. The first caller to find no pipeline in flight sends every
// command queued so far as one pipeline (RedisConnection::Pipeline) and hands
// each caller its reply; callers arriving meanwhile queue for the next one.
//
// Why: a game host writes every step of every live game to Redis before the step
// goes out (services/gamehost/checkpoint.h). One round trip per step made the
// writes, not the rules, the limit of a saturated host; under load the queue
// grows while a pipeline is in flight, so the round trips per command fall by
// themselves, and a lone caller waits no longer than it would alone.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>

#include "services/storage/redis.h"

namespace metropolis::storage {

class RedisGroupCommit {
 public:
  // Commands go through `pool`, one connection at a time; it must outlive this.
  explicit RedisGroupCommit(RedisPool* pool) : pool_(pool) {}

  // Sends `command` (moved from) in the next pipeline and answers its reply.
  // Throws RedisUnavailable, as RedisConnection::Run does, when the pipeline
  // carrying it fails; every command of that pipeline gets the same error.
  RedisReply Run(RedisCommand command);

  struct Stats {
    uint64_t commands = 0;
    uint64_t pipelines = 0;
  };
  Stats stats() const;

 private:
  struct Pending {
    RedisCommand command;
    RedisReply reply;
    std::string error;  // set when its pipeline failed
    bool done = false;
  };

  RedisPool* const pool_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Pending*> queue_;
  bool sending_ = false;
  Stats stats_;
};

}  // namespace metropolis::storage
