#include "services/gateway/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace metropolis::gateway {

struct GatewayMetrics::Impl {
  prometheus::Family<prometheus::Counter>* requests;
  prometheus::Family<prometheus::Histogram>* seconds;
  prometheus::Family<prometheus::Counter>* backend_errors;
  prometheus::Gauge* spectators;
  prometheus::Gauge* history_bytes;
  prometheus::Gauge* watched_games;
  prometheus::Counter* refused;
  prometheus::Counter* sse_bytes;
  prometheus::Counter *stream_resumes, *stream_resume_batches;
  prometheus::Gauge* play_streams;
  prometheus::Family<prometheus::Counter>* public_reads;
};

GatewayMetrics::GatewayMetrics(prometheus::Registry* r) : impl_(std::make_unique<Impl>()) {
  using namespace prometheus;
  impl_->requests = &BuildCounter()
                         .Name("metropolis_gateway_requests_total")
                         .Help("HTTP requests by route pattern and status")
                         .Register(*r);
  impl_->seconds = &BuildHistogram()
                        .Name("metropolis_gateway_request_seconds")
                        .Help("time to answer a request, by route pattern (live streams: until headers are sent)")
                        .Register(*r);
  impl_->backend_errors = &BuildCounter()
                               .Name("metropolis_gateway_backend_errors_total")
                               .Help("failed calls to the services, by backend and gRPC status")
                               .Register(*r);
  impl_->spectators = &BuildGauge()
                           .Name("metropolis_gateway_spectators")
                           .Help("open live streams (server-sent events)")
                           .Register(*r)
                           .Add({});
  impl_->watched_games = &BuildGauge()
                              .Name("metropolis_gateway_watched_games")
                              .Help("live games watched upstream (one GameHost.Spectate stream each)")
                              .Register(*r)
                              .Add({});
  impl_->history_bytes = &BuildGauge()
                              .Name("metropolis_gateway_live_history_bytes")
                              .Help("events of the watched games kept for spectators who watch from the start")
                              .Register(*r)
                              .Add({});
  impl_->refused = &BuildCounter()
                        .Name("metropolis_gateway_spectators_refused_total")
                        .Help("live streams refused because the gateway was full")
                        .Register(*r)
                        .Add({});
  impl_->sse_bytes = &BuildCounter()
                          .Name("metropolis_gateway_sse_bytes_total")
                          .Help("bytes written to live streams")
                          .Register(*r)
                          .Add({});
  impl_->stream_resumes = &BuildCounter()
                               .Name("metropolis_gateway_stream_resumes_total")
                               .Help("waiting live and play streams resumed to write")
                               .Register(*r)
                               .Add({});
  impl_->stream_resume_batches = &BuildCounter()
                                      .Name("metropolis_gateway_stream_resume_batches_total")
                                      .Help("batches the streams were resumed in (--stream-resume-batch-ms)")
                                      .Register(*r)
                                      .Add({});
  impl_->play_streams = &BuildGauge()
                             .Name("metropolis_gateway_play_streams")
                             .Help("people's open play streams (a GameHost.Play stream each)")
                             .Register(*r)
                             .Add({});
  impl_->public_reads = &BuildCounter()
                             .Name("metropolis_gateway_public_reads_total")
                             .Help(
                                 "API reads by how they were answered: hit (the cache), coalesced (the answer of "
                                 "the same request in flight), miss (the services called), refused (the address's "
                                 "upstream quota spent)")
                             .Register(*r);
}

GatewayMetrics::~GatewayMetrics() = default;

void GatewayMetrics::Request(const std::string& route, int status, double seconds) {
  impl_->requests->Add({{"route", route}, {"code", std::to_string(status)}}).Increment();
  static const prometheus::Histogram::BucketBoundaries kBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                                   0.1,   0.25,   0.5,   1,    2.5,   5};
  impl_->seconds->Add({{"route", route}}, kBuckets).Observe(seconds);
}

void GatewayMetrics::BackendError(const std::string& backend, const std::string& code) {
  impl_->backend_errors->Add({{"backend", backend}, {"code", code}}).Increment();
}

void GatewayMetrics::Spectators(size_t spectators, size_t games) {
  impl_->spectators->Set(double(spectators));
  impl_->watched_games->Set(double(games));
}

void GatewayMetrics::LiveHistoryBytesChanged(ptrdiff_t change) {
  if (change >= 0)
    impl_->history_bytes->Increment(double(change));
  else
    impl_->history_bytes->Decrement(-double(change));
}

void GatewayMetrics::SpectatorRefused() { impl_->refused->Increment(); }

void GatewayMetrics::SseBytes(size_t bytes) { impl_->sse_bytes->Increment(double(bytes)); }

void GatewayMetrics::StreamsResumed(size_t streams) {
  impl_->stream_resumes->Increment(double(streams));
  impl_->stream_resume_batches->Increment();
}

void GatewayMetrics::PublicRead(const std::string& outcome) {
  impl_->public_reads->Add({{"result", outcome}}).Increment();
}

void GatewayMetrics::PlayStreams(size_t streams) { impl_->play_streams->Set(double(streams)); }

}  // namespace metropolis::gateway
