#include "services/gamehost/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace metropolis::gamehost {

struct HostMetrics::Impl {
  prometheus::Registry* registry;
  prometheus::Gauge* live_games;
  prometheus::Counter* games_created;
  prometheus::Family<prometheus::Counter>* games_finished;
  prometheus::Counter* decisions;
  prometheus::Histogram* round_trip;
  prometheus::Histogram* host_time;
  prometheus::Family<prometheus::Counter>* fallback;
  prometheus::Counter* timeouts;
  prometheus::Family<prometheus::Counter>* rejected;
  prometheus::Gauge* seat_streams;
  prometheus::Gauge* spectator_streams;
  prometheus::Gauge* outbox_backlog;
  prometheus::Gauge* outbox_refused;
  prometheus::Family<prometheus::Counter>* delivery_failures;
  prometheus::Family<prometheus::Counter>* checkpoint_writes;
  prometheus::Histogram* checkpoint_batch;
  prometheus::Family<prometheus::Counter>* takeovers;
  prometheus::Gauge* paused_games;
  prometheus::Counter* pauses;
  prometheus::Histogram* pause_seconds;
  prometheus::Counter* lockstep_holds;
};

HostMetrics::HostMetrics() = default;
HostMetrics::~HostMetrics() = default;

HostMetrics::HostMetrics(prometheus::Registry* r) : impl_(std::make_unique<Impl>()) {
  using namespace prometheus;
  Impl& m = *impl_;
  m.registry = r;
  m.live_games = &BuildGauge().Name("metropolis_gamehost_live_games").Help("Games being played").Register(*r).Add({});
  m.games_created =
      &BuildCounter().Name("metropolis_gamehost_games_created_total").Help("Games created").Register(*r).Add({});
  m.games_finished = &BuildCounter()
                          .Name("metropolis_gamehost_games_finished_total")
                          .Help("Games finished and stored, by how they ended")
                          .Register(*r);
  m.decisions = &BuildCounter()
                     .Name("metropolis_gamehost_decisions_total")
                     .Help("Decisions answered by the seats' own streams")
                     .Register(*r)
                     .Add({});
  // Buckets from 0.5 ms to 10 s: bots that answer at once up to slow thinkers.
  const Histogram::BucketBoundaries rtt_buckets{0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05,
                                                0.1,    0.25,  0.5,   1,     2.5,  5,     10};
  m.round_trip = &BuildHistogram()
                      .Name("metropolis_gamehost_decision_round_trip_seconds")
                      .Help("From sending a decision to receiving its applied answer")
                      .Register(*r)
                      .Add({}, rtt_buckets);
  const Histogram::BucketBoundaries host_buckets{0.00001, 0.00002, 0.00005, 0.0001, 0.0002, 0.0005,
                                                 0.001,   0.002,   0.005,   0.01,   0.05};
  m.host_time = &BuildHistogram()
                     .Name("metropolis_gamehost_answer_processing_seconds")
                     .Help("Host time from receiving an answer to sending the next decision")
                     .Register(*r)
                     .Add({}, host_buckets);
  m.fallback = &BuildCounter()
                    .Name("metropolis_gamehost_fallback_decisions_total")
                    .Help("Decisions a bot took for a seat, by why")
                    .Register(*r);
  m.timeouts = &BuildCounter()
                    .Name("metropolis_gamehost_timeouts_total")
                    .Help("Decisions whose limit and time bank ran out")
                    .Register(*r)
                    .Add({});
  m.rejected = &BuildCounter()
                    .Name("metropolis_gamehost_rejected_answers_total")
                    .Help("Answers refused on the stream, by reason")
                    .Register(*r);
  m.seat_streams =
      &BuildGauge().Name("metropolis_gamehost_seat_streams").Help("Open Play streams").Register(*r).Add({});
  m.spectator_streams =
      &BuildGauge().Name("metropolis_gamehost_spectator_streams").Help("Open Spectate streams").Register(*r).Add({});
  m.outbox_backlog = &BuildGauge()
                          .Name("metropolis_gamehost_outbox_backlog")
                          .Help("Completed games in the durable outbox, not yet stored and rated")
                          .Register(*r)
                          .Add({});
  m.outbox_refused = &BuildGauge()
                          .Name("metropolis_gamehost_outbox_refused")
                          .Help("Completed games refused for good by the replays service, set aside in outbox/refused/")
                          .Register(*r)
                          .Add({});
  m.delivery_failures = &BuildCounter()
                             .Name("metropolis_gamehost_outbox_delivery_failures_total")
                             .Help("Failed deliveries from the outbox, by service (replays, ratings) and status code")
                             .Register(*r);
  m.checkpoint_writes = &BuildCounter()
                             .Name("metropolis_gamehost_checkpoint_writes_total")
                             .Help("Checkpoint writes of live games, by result (ok, fenced, unavailable)")
                             .Register(*r);
  m.checkpoint_batch = &BuildHistogram()
                            .Name("metropolis_gamehost_checkpoint_batch_games")
                            .Help("Games' appends carried by one round trip of the checkpoint writer")
                            .Register(*r)
                            .Add({}, Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128, 256, 512});
  m.takeovers = &BuildCounter()
                     .Name("metropolis_gamehost_takeovers_total")
                     .Help("Games taken over from a host whose lease lapsed (in) or by another host (out)")
                     .Register(*r);
  m.paused_games = &BuildGauge()
                        .Name("metropolis_gamehost_paused_games")
                        .Help("Games paused now because their checkpoint cannot be written")
                        .Register(*r)
                        .Add({});
  m.pauses = &BuildCounter()
                  .Name("metropolis_gamehost_pauses_total")
                  .Help("Times a game paused because its checkpoint could not be written")
                  .Register(*r)
                  .Add({});
  m.pause_seconds = &BuildHistogram()
                         .Name("metropolis_gamehost_pause_seconds")
                         .Help("How long paused games waited for the store before going on")
                         .Register(*r)
                         .Add({}, Histogram::BucketBoundaries{0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900});
  m.lockstep_holds = &BuildCounter()
                          .Name("metropolis_gamehost_lockstep_holds_total")
                          .Help("Times a duplicate set's rotation waited at a chance draw for the slowest of its set")
                          .Register(*r)
                          .Add({});
}

void HostMetrics::LockstepHold() {
  if (impl_) impl_->lockstep_holds->Increment();
}

void HostMetrics::GameCreated() {
  if (!impl_) return;
  impl_->games_created->Increment();
  impl_->live_games->Increment();
}

void HostMetrics::GameFinished(const std::string& reason) {
  if (!impl_) return;
  impl_->live_games->Decrement();
  impl_->games_finished->Add({{"reason", reason}}).Increment();
}

void HostMetrics::DecisionAnswered(double round_trip_seconds, double host_seconds) {
  if (!impl_) return;
  impl_->decisions->Increment();
  impl_->round_trip->Observe(round_trip_seconds);
  impl_->host_time->Observe(host_seconds);
}

void HostMetrics::FallbackDecision(const std::string& why) {
  if (impl_) impl_->fallback->Add({{"why", why}}).Increment();
}

void HostMetrics::Timeout() {
  if (impl_) impl_->timeouts->Increment();
}

void HostMetrics::Rejected(const std::string& reason) {
  if (impl_) impl_->rejected->Add({{"reason", reason}}).Increment();
}

void HostMetrics::OutboxBacklog(size_t games) {
  if (impl_) impl_->outbox_backlog->Set(double(games));
}

void HostMetrics::OutboxRefused(size_t games) {
  if (impl_) impl_->outbox_refused->Set(double(games));
}

void HostMetrics::DeliveryFailed(const std::string& to, const std::string& code) {
  if (impl_) impl_->delivery_failures->Add({{"to", to}, {"code", code}}).Increment();
}

void HostMetrics::CheckpointWrite(const std::string& result) {
  if (impl_) impl_->checkpoint_writes->Add({{"result", result}}).Increment();
}

void HostMetrics::CheckpointBatch(size_t games) {
  if (impl_) impl_->checkpoint_batch->Observe(double(games));
}

void HostMetrics::GameTakenOver() {
  if (!impl_) return;
  impl_->live_games->Increment();
  impl_->takeovers->Add({{"direction", "in"}}).Increment();
}

void HostMetrics::GameLost() {
  if (!impl_) return;
  impl_->live_games->Decrement();
  impl_->takeovers->Add({{"direction", "out"}}).Increment();
}

void HostMetrics::StreamsChanged(int seat_delta, int spectator_delta) {
  if (!impl_) return;
  impl_->seat_streams->Increment(seat_delta);
  impl_->spectator_streams->Increment(spectator_delta);
}

void HostMetrics::GamePaused() {
  if (!impl_) return;
  impl_->paused_games->Increment();
  impl_->pauses->Increment();
}

void HostMetrics::GameResumed(double seconds) {
  if (!impl_) return;
  impl_->paused_games->Decrement();
  impl_->pause_seconds->Observe(seconds);
}

}  // namespace metropolis::gamehost
