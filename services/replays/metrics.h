// The replays service's Prometheus metrics (docs/OBSERVABILITY.md). The server
// (server.h) makes them on the process's registry (lib/common/metrics.h) and
// passes them to the service; tests pass their own registry, or nothing.
// Calls by method and code, and database errors, are counted for every
// service there.
#pragma once

#include <memory>
#include <string>

namespace prometheus {
class Registry;
}

namespace metropolis::replays {

class ReplaysMetrics {
 public:
  explicit ReplaysMetrics(prometheus::Registry* registry);
  ~ReplaysMetrics();

  // A StoreGame call that stored the game (or found it stored) in `seconds`.
  void GameStored(bool already_stored, double seconds);
  // A StoreGame call refused or failed with `code` ("UNAVAILABLE", ...).
  void StoreFailed(const std::string& code, double seconds);
  // A read: "list", "replay", "position" or "export".
  void Read(const std::string& kind);

  // The analysis worker (analysis_worker.h): jobs waiting in a line ("stored",
  // "requested"); a job dropped from a full line; a job done with `result`
  // "analysed" (costing `cpu_seconds`), "bots_only" (a stored game without a
  // person, left for a request) or "failed".
  void AnalysisWaiting(const std::string& line, size_t jobs);
  void AnalysisDropped(const std::string& line);
  void AnalysisDone(const std::string& result, double cpu_seconds);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace metropolis::replays
