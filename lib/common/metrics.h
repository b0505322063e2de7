// What every service shares for Prometheus (docs/OBSERVABILITY.md): the counters
// of the infrastructure every process runs (the gRPC server's calls, the storage
// pools' errors, rate-limit refusals, API token checks), --metrics-listen and the
// HTTP endpoint. A program's wiring makes one registry, one ProcessMetrics on it
// and one MetricsEndpoint serving it; each service defines its own metrics in its
// metrics.h on that registry, so one endpoint serves a process whatever services
// it runs. Nothing here is global: a test counts on a registry of its own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace grpc {
class ServerBuilder;
}  // namespace grpc

namespace prometheus {
class Collectable;
class Exposer;
class Registry;
}  // namespace prometheus

namespace metropolis::services {

class Settings;

// The infrastructure's counters on `registry`, which must outlive them. Made once
// per process: what counts takes a pointer (null: nothing counted, as most tests
// want). Thread-safe.
class ProcessMetrics {
 public:
  explicit ProcessMetrics(prometheus::Registry* registry);
  ~ProcessMetrics();
  ProcessMetrics(const ProcessMetrics&) = delete;
  ProcessMetrics& operator=(const ProcessMetrics&) = delete;

  // The registry they are on, where the services of the process make their own.
  prometheus::Registry* registry() const { return registry_; }

  // A gRPC call finished with `code` (metropolis_grpc_requests_total); a unary
  // call with the time it took (metropolis_grpc_request_duration_seconds).
  void CallFinished(const std::string& service, const std::string& method, std::string_view code,
                    std::optional<double> unary_seconds);
  // PostgreSQL and Redis failures of the storage pools (lib/storage), by kind:
  // "connection" (could not connect, or the connection broke), and for
  // PostgreSQL "query" (a statement failed; constraint violations, which the
  // services answer, are not counted).
  void DatabaseError(std::string_view kind);
  void RedisError(std::string_view kind);
  // A call refused by a rate limit (rate_limit.h) of `service`.
  void RateLimited(std::string_view service);
  // An API token checked (lib/auth/token_authenticator.h), by how it was answered.
  void TokenChecked(std::string_view result);

 private:
  struct Families;
  prometheus::Registry* const registry_;
  std::unique_ptr<Families> families_;
};

// Declares --metrics-listen (empty: no metrics endpoint), by default `address`.
void AddMetricsSetting(Settings* settings, const std::string& address = "");

// Serves a registry at http://ADDRESS/metrics while it lives: one per process.
class MetricsEndpoint {
 public:
  MetricsEndpoint();
  ~MetricsEndpoint();
  // Nothing with an empty address; false with *error when it cannot listen.
  bool Start(const std::string& address, std::shared_ptr<prometheus::Registry> registry, std::string* error);

 private:
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::shared_ptr<prometheus::Collectable> memory_;  // the process's memory, read at each scrape
};

// Counts every call of the server being built in `metrics` (CallFinished), by
// service, method and status code, with the time unary calls take.
void InstallRpcMetrics(grpc::ServerBuilder* builder, ProcessMetrics* metrics);

}  // namespace metropolis::services
