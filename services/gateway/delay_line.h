// Spectators behind the players (--spectator-delay-ms): a live game's upstream
// is held for a fixed time before the hub fans it out, so that what anyone
// watching sees is that old: nobody outside a game can follow it as it
// happens and advise a player (say, with a bot's analysis), as a tournament's
// broadcast delay. Spectators see only the public view; the delay is applied
// once per game, to the one upstream its spectators share (live.h), not per
// connection.
#pragma once

#include <grpcpp/support/status.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "lib/common/clock.h"
#include "services/gateway/live.h"

namespace metropolis::gateway {

class DelayLine {
 public:
  // Time is `clock`'s monotonic time (a fake one in tests, with Poke).
  DelayLine(std::chrono::milliseconds delay, const services::Clock* clock);
  ~DelayLine();  // passes on what is still held, then stops

  // A sink that passes each update, and then the end, to `sink` once the
  // delay has passed since it came, in the order they came.
  std::shared_ptr<UpstreamSink> Wrap(std::shared_ptr<UpstreamSink> sink);
  // From now on nothing waits: what is held, and what comes later, goes on at
  // once (the hub's end, which waits for its upstreams to end).
  void Drain();
  // The clock moved: look again (tests; the system clock needs none).
  void Poke();
  // Items held now.
  size_t held() const;

 private:
  class Sink;
  struct Item {
    services::Millis due;
    std::shared_ptr<UpstreamSink> sink;
    std::optional<v1::SpectateUpdate> update;  // unset: the end, with `status`
    grpc::Status status;
  };
  void Hold(Item item);
  void Run();

  const std::chrono::milliseconds delay_;
  const services::Clock* const clock_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  // One delay for every item: due times ascend in the order items come, so a
  // queue keeps each game's order and the earliest due at its front.
  std::deque<Item> items_;
  bool draining_ = false, stopping_ = false;
  std::thread thread_;
};

}  // namespace metropolis::gateway
