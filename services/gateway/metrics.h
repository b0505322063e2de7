// The gateway's Prometheus metrics (docs/GATEWAY.md, "Metrics").
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace prometheus {
class Registry;
}

namespace metropolis::gateway {

class GatewayMetrics {
 public:
  explicit GatewayMetrics(prometheus::Registry* registry);
  ~GatewayMetrics();

  // A finished request: its route pattern (never the raw path, which would make
  // a label per game), status and time.
  void Request(const std::string& route, int status, double seconds);
  void BackendError(const std::string& backend, const std::string& code);
  void Spectators(size_t spectators, size_t games);
  // The live games' events kept for spectators who watch from the start grew
  // (or shrank) by `change` bytes.
  void LiveHistoryBytesChanged(ptrdiff_t change);
  void SpectatorRefused();
  void SseBytes(size_t bytes);
  // Streams resumed to write, and the batches they were resumed in
  // (HttpServer: one batch, one look of each event loop at its waiting streams).
  void StreamsResumed(size_t streams);
  // People's open play streams (GET /api/v1/play/{game}/events).
  void PlayStreams(size_t streams);
  // An API read, by PublicReads::OutcomeName: hit, coalesced, miss, refused.
  void PublicRead(const std::string& outcome);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace metropolis::gateway
