// The game host's Prometheus metrics. A HostMetrics built without a registry
// records nothing, so the game logic runs the same in unit tests.
#pragma once

#include <memory>
#include <string>

namespace prometheus {
class Registry;
}

namespace metropolis::gamehost {

class HostMetrics {
 public:
  HostMetrics();  // records nothing
  explicit HostMetrics(prometheus::Registry* registry);
  ~HostMetrics();

  void GameCreated();
  void GameFinished(const std::string& reason);
  // A seat's answer was applied: the time from sending the decision to the
  // answer, and the host's own processing time for the answer.
  void DecisionAnswered(double round_trip_seconds, double host_seconds);
  void FallbackDecision(const std::string& why);  // "timeout", "disconnected", "built_in"
  void Timeout();
  void Rejected(const std::string& reason);  // "illegal", "malformed", "empty", "stale", "not_your_turn", ...
  void StreamsChanged(int seat_delta, int spectator_delta);
  // The durable outbox (forwarder.h): completed games waiting to reach the
  // replays and ratings services, and deliveries that failed ("replays" or
  // "ratings", with the gRPC status code).
  void OutboxBacklog(size_t games);
  // Completed games the replays service refused for good, set aside in
  // outbox/refused/ for an operator (never stored, never rated until then).
  void OutboxRefused(size_t games);
  void DeliveryFailed(const std::string& to, const std::string& code);
  // Checkpoints (checkpoint.h): each write by its result (CheckpointResultName:
  // "ok", "fenced", "unavailable", ...); games taken over from a host whose lease lapsed ("in") and
  // games another host took from this one ("out").
  void CheckpointWrite(const std::string& result);
  // One round trip of the checkpoint writer (checkpoint_writer.h): how many games'
  // appends it carried.
  void CheckpointBatch(size_t games);
  void GameTakenOver();
  void GameLost();
  // Pauses (game.h): a game stopped releasing steps because the store could not
  // be written, and went on when it could again after `seconds`.
  void GamePaused();
  void GameResumed(double seconds);
  // Lockstep (lockstep.h): a duplicate set's rotation held at a chance draw
  // until the slowest of its set caught up (once per hold, however long).
  void LockstepHold();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace metropolis::gamehost
