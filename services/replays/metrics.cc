#include "services/replays/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace metropolis::replays {

struct ReplaysMetrics::Impl {
  prometheus::Counter* stored;
  prometheus::Counter* already_stored;
  prometheus::Family<prometheus::Counter>* failures;
  prometheus::Histogram* store_seconds;
  prometheus::Family<prometheus::Counter>* reads;
};

ReplaysMetrics::ReplaysMetrics(prometheus::Registry* r) : impl_(std::make_unique<Impl>()) {
  using namespace prometheus;
  auto& games = BuildCounter()
                    .Name("metropolis_replays_games_stored_total")
                    .Help("StoreGame calls that stored a game (result=stored) or found it stored (already_stored)")
                    .Register(*r);
  impl_->stored = &games.Add({{"result", "stored"}});
  impl_->already_stored = &games.Add({{"result", "already_stored"}});
  impl_->failures = &BuildCounter()
                         .Name("metropolis_replays_store_failures_total")
                         .Help("StoreGame calls that stored nothing, by gRPC status code")
                         .Register(*r);
  // A game is a few kilobytes in one transaction: milliseconds, seconds when the database struggles.
  impl_->store_seconds = &BuildHistogram()
                              .Name("metropolis_replays_store_seconds")
                              .Help("Time to check and store a completed game (every StoreGame call)")
                              .Register(*r)
                              .Add({}, Histogram::BucketBoundaries{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                                   0.5, 1, 2.5, 5, 10});
  impl_->reads = &BuildCounter()
                      .Name("metropolis_replays_reads_total")
                      .Help("Reads of stored games, by kind (list, replay, position, export)")
                      .Register(*r);
}

ReplaysMetrics::~ReplaysMetrics() = default;

void ReplaysMetrics::GameStored(bool already_stored, double seconds) {
  (already_stored ? impl_->already_stored : impl_->stored)->Increment();
  impl_->store_seconds->Observe(seconds);
}

void ReplaysMetrics::StoreFailed(const std::string& code, double seconds) {
  impl_->failures->Add({{"code", code}}).Increment();
  impl_->store_seconds->Observe(seconds);
}

void ReplaysMetrics::Read(const std::string& kind) { impl_->reads->Add({{"kind", kind}}).Increment(); }

}  // namespace metropolis::replays
