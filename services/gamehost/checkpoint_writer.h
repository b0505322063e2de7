// The checkpoint writer: games hand it their appends instead of writing to the
// store themselves, and its one thread sends every append waiting at that
// moment as one round trip (CheckpointStore::AppendMany). No game thread waits
// on Redis: a game whose steps are being written parks its strand (game.h) and
// goes on from the reply, so the writes in flight are not bounded by the game
// threads. While one round trip is out the next batch gathers: the busier the
// host, the more each round trip carries.
#pragma once

#include <grpcpp/support/status.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "services/gamehost/checkpoint.h"

namespace metropolis::gamehost {

class HostMetrics;

class CheckpointWriter {
 public:
  // Called on the writer's thread with the append's status (checkpoint.h); it
  // must not block (a game posts its continuation to its own threads).
  using Done = std::function<void(grpc::Status)>;

  // `metrics` may be null. At most `max_batch` appends go in one round trip.
  CheckpointWriter(CheckpointStore* store, HostMetrics* metrics, size_t max_batch = 256);
  ~CheckpointWriter();  // Stop()
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  void Submit(AppendRequest request, Done done);
  // Writes what is queued, then stops the thread; an append submitted after
  // that is answered UNAVAILABLE at once.
  void Stop();
  // Appends submitted whose Done has not returned yet (queued or out).
  size_t pending() const;

 private:
  void Loop();

  CheckpointStore* const store_;
  HostMetrics* const metrics_;
  const size_t max_batch_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::pair<AppendRequest, Done>> queue_;
  size_t out_ = 0;  // taken from the queue, Done not yet returned
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace metropolis::gamehost
