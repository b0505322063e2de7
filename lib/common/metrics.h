// What every service shares for Prometheus (docs/OBSERVABILITY.md): the
// process's registry, --metrics-listen and its HTTP endpoint, the gRPC server
// metrics every call is counted in, and the storage errors of the PostgreSQL
// and Redis pools. Each service defines its own metrics in its metrics.h on
// this registry, so one endpoint serves a process whatever services it runs.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace grpc {
class ServerBuilder;
}  // namespace grpc

namespace prometheus {
class Exposer;
class Registry;
}  // namespace prometheus

namespace metropolis::services {

class Settings;

// The registry of this process, made on first use and never destroyed.
std::shared_ptr<prometheus::Registry> MetricsRegistry();

// Declares --metrics-listen (empty: no metrics endpoint), by default `address`.
void AddMetricsSetting(Settings* settings, const std::string& address = "");

// Serves the process's registry at http://ADDRESS/metrics while it lives.
class MetricsEndpoint {
 public:
  MetricsEndpoint();
  ~MetricsEndpoint();
  // Nothing with an empty address; false with *error when it cannot listen.
  bool Start(const std::string& address, std::string* error);

 private:
  std::unique_ptr<prometheus::Exposer> exposer_;
};

// Counts every call of the server being built, by service, method and status
// code, with the time unary calls take (metropolis_grpc_requests_total,
// metropolis_grpc_request_duration_seconds).
void InstallRpcMetrics(grpc::ServerBuilder* builder);

// PostgreSQL and Redis failures of the storage pools (lib/storage), by
// kind: "connection" (could not connect, or the connection broke), and for
// PostgreSQL "query" (a statement failed; constraint violations, which the
// services answer, are not counted).
void CountDatabaseError(std::string_view kind);
void CountRedisError(std::string_view kind);

}  // namespace metropolis::services
