#include "services/replays/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace metropolis::replays {

struct ReplaysMetrics::Impl {
  prometheus::Counter* stored;
  prometheus::Counter* already_stored;
  prometheus::Family<prometheus::Counter>* failures;
  prometheus::Histogram* store_seconds;
  prometheus::Family<prometheus::Counter>* reads;
  prometheus::Family<prometheus::Gauge>* analysis_waiting;
  prometheus::Family<prometheus::Counter>* analysis_dropped;
  prometheus::Family<prometheus::Counter>* analyses;
  prometheus::Counter* analysis_cpu;
  prometheus::Histogram* analysis_seconds;
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
  impl_->reads =
      &BuildCounter()
           .Name("metropolis_replays_reads_total")
           .Help("Reads of stored games, by kind (list, replay, position, export, export_games, analysis, luck, debug)")
           .Register(*r);
  impl_->analysis_waiting = &BuildGauge()
                                 .Name("metropolis_replays_analysis_waiting")
                                 .Help("Analysis jobs waiting, by line (stored: games just stored; requested)")
                                 .Register(*r);
  impl_->analysis_dropped = &BuildCounter()
                                 .Name("metropolis_replays_analysis_dropped_total")
                                 .Help("Analysis jobs refused because their line was full, by line")
                                 .Register(*r);
  impl_->analyses = &BuildCounter()
                         .Name("metropolis_replays_analyses_total")
                         .Help("Analysis jobs done, by result (analysed, bots_only, failed)")
                         .Register(*r);
  impl_->analysis_cpu = &BuildCounter()
                             .Name("metropolis_replays_analysis_cpu_seconds_total")
                             .Help("CPU seconds spent analysing games")
                             .Register(*r)
                             .Add({});
  // The budget is 0.5 core-seconds a game on average (docs/ANALYSIS.md).
  impl_->analysis_seconds = &BuildHistogram()
                                 .Name("metropolis_replays_analysis_game_cpu_seconds")
                                 .Help("CPU seconds of one game's analysis")
                                 .Register(*r)
                                 .Add({}, Histogram::BucketBoundaries{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5});
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

void ReplaysMetrics::AnalysisWaiting(const std::string& line, size_t jobs) {
  impl_->analysis_waiting->Add({{"line", line}}).Set(double(jobs));
}

void ReplaysMetrics::AnalysisDropped(const std::string& line) {
  impl_->analysis_dropped->Add({{"line", line}}).Increment();
}

void ReplaysMetrics::AnalysisDone(const std::string& result, double cpu_seconds) {
  impl_->analyses->Add({{"result", result}}).Increment();
  if (result == "analysed") {
    impl_->analysis_cpu->Increment(cpu_seconds);
    impl_->analysis_seconds->Observe(cpu_seconds);
  }
}

}  // namespace metropolis::replays
