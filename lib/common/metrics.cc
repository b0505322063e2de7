#include "lib/common/metrics.h"

#include <grpcpp/server_builder.h>
#include <grpcpp/support/server_interceptor.h>
#include <malloc.h>
#include <prometheus/collectable.h>
#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "lib/common/grpc_util.h"
#include "lib/common/settings.h"

namespace metropolis::services {
namespace {

// One per call: records the call when it ends (with CANCELLED when no status
// was sent, as when the client went away).
class RpcMetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  RpcMetricsInterceptor(grpc::experimental::ServerRpcInfo* info, ProcessMetrics* metrics)
      : metrics_(metrics),
        unary_(info->type() == grpc::experimental::ServerRpcInfo::Type::UNARY),
        start_(std::chrono::steady_clock::now()) {
    // "/metropolis.v1.Replays/StoreGame"
    const std::string_view method = info->method() ? info->method() : "";
    const size_t slash = method.rfind('/');
    if (slash == std::string_view::npos || slash == 0) {
      service_ = "unknown";
      method_ = std::string(method);
    } else {
      service_ = std::string(method.substr(1, slash - 1));
      method_ = std::string(method.substr(slash + 1));
    }
  }

  ~RpcMetricsInterceptor() override {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    metrics_->CallFinished(service_, method_, StatusCodeName(code_),
                           unary_ ? std::optional<double>(seconds) : std::nullopt);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS))
      code_ = methods->GetSendStatus().error_code();
    methods->Proceed();
  }

 private:
  ProcessMetrics* const metrics_;
  const bool unary_;
  const std::chrono::steady_clock::time_point start_;
  std::string service_, method_;
  grpc::StatusCode code_ = grpc::StatusCode::CANCELLED;
};

class RpcMetricsFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcMetricsFactory(ProcessMetrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new RpcMetricsInterceptor(info, metrics_);
  }

 private:
  ProcessMetrics* const metrics_;
};

// Read at each scrape: the process's resident memory, and how much of its heap
// the allocator holds in use and free. A resident size that grows while the
// heap in use does not is memory the allocator keeps, not a leak.
class ProcessMemory final : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override {
    std::vector<prometheus::MetricFamily> out;
    auto gauge = [&](std::string name, std::string help, double value) {
      prometheus::MetricFamily& f = out.emplace_back();
      f.name = std::move(name);
      f.help = std::move(help);
      f.type = prometheus::MetricType::Gauge;
      f.metric.emplace_back().gauge.value = value;
    };
    long pages = 0, resident = 0;
    if (std::ifstream statm("/proc/self/statm"); statm >> pages >> resident)
      gauge("process_resident_memory_bytes", "Resident memory size in bytes",
            double(resident) * double(::sysconf(_SC_PAGESIZE)));
    const struct mallinfo2 heap = ::mallinfo2();
    gauge("metropolis_process_heap_in_use_bytes",
          "Bytes the process has allocated and not freed (the C allocator's, mmapped blocks included)",
          double(heap.uordblks + heap.hblkhd));
    gauge("metropolis_process_heap_free_bytes", "Bytes freed but kept by the C allocator", double(heap.fordblks));
    return out;
  }
};

}  // namespace

// Every family is registered up front: one with nothing counted yet is not
// exposed, so a process shows only what it has counted, as when each was made on
// first use.
struct ProcessMetrics::Families {
  prometheus::Family<prometheus::Counter>* requests;
  prometheus::Family<prometheus::Histogram>* seconds;
  prometheus::Family<prometheus::Counter>* database_errors;
  prometheus::Family<prometheus::Counter>* redis_errors;
  prometheus::Family<prometheus::Counter>* rate_limited;
  prometheus::Family<prometheus::Counter>* token_checks;
};

ProcessMetrics::ProcessMetrics(prometheus::Registry* r) : registry_(r), families_(std::make_unique<Families>()) {
  using namespace prometheus;
  families_->requests = &BuildCounter()
                             .Name("metropolis_grpc_requests_total")
                             .Help("Finished gRPC calls served, by service, method and status code")
                             .Register(*r);
  families_->seconds = &BuildHistogram()
                            .Name("metropolis_grpc_request_duration_seconds")
                            .Help("Time to answer a unary gRPC call, by service and method")
                            .Register(*r);
  families_->database_errors =
      &BuildCounter()
           .Name("metropolis_database_errors_total")
           .Help("PostgreSQL failures of this process's connection pool, by kind (connection, query)")
           .Register(*r);
  families_->redis_errors = &BuildCounter()
                                 .Name("metropolis_redis_errors_total")
                                 .Help("Redis failures of this process's connection pool, by kind (connection)")
                                 .Register(*r);
  families_->rate_limited = &BuildCounter()
                                 .Name("metropolis_rate_limited_total")
                                 .Help("Calls refused by a rate limit per identity or client address, by service")
                                 .Register(*r);
  // Unavailable lookups are what an operator watches when Accounts is down.
  families_->token_checks = &BuildCounter()
                                 .Name("metropolis_auth_token_checks_total")
                                 .Help("API tokens checked, by result: cached, found, unknown, unavailable")
                                 .Register(*r);
}

ProcessMetrics::~ProcessMetrics() = default;

void ProcessMetrics::CallFinished(const std::string& service, const std::string& method, std::string_view code,
                                  std::optional<double> unary_seconds) {
  families_->requests->Add({{"service", service}, {"method", method}, {"code", std::string(code)}}).Increment();
  if (!unary_seconds) return;
  static const prometheus::Histogram::BucketBoundaries kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                                   0.1,    0.25,  0.5,    1,     2.5,  5,     10};
  families_->seconds->Add({{"service", service}, {"method", method}}, kBuckets).Observe(*unary_seconds);
}

void ProcessMetrics::DatabaseError(std::string_view kind) {
  families_->database_errors->Add({{"kind", std::string(kind)}}).Increment();
}

void ProcessMetrics::RedisError(std::string_view kind) {
  families_->redis_errors->Add({{"kind", std::string(kind)}}).Increment();
}

void ProcessMetrics::RateLimited(std::string_view service) {
  families_->rate_limited->Add({{"service", std::string(service)}}).Increment();
}

void ProcessMetrics::TokenChecked(std::string_view result) {
  families_->token_checks->Add({{"result", std::string(result)}}).Increment();
}

void AddMetricsSetting(Settings* settings, const std::string& address) {
  settings->Add("metrics-listen", "ADDR", address,
                "Prometheus metrics address (GET /metrics); empty turns metrics off");
}

MetricsEndpoint::MetricsEndpoint() = default;
MetricsEndpoint::~MetricsEndpoint() = default;

bool MetricsEndpoint::Start(const std::string& address, std::shared_ptr<prometheus::Registry> registry,
                            std::string* error) {
  if (address.empty()) return true;
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    *error = "--metrics-listen " + address + ": " + e.what();
    return false;
  }
  exposer_->RegisterCollectable(registry);
  memory_ = std::make_shared<ProcessMemory>();
  exposer_->RegisterCollectable(memory_);
  return true;
}

void InstallRpcMetrics(grpc::ServerBuilder* builder, ProcessMetrics* metrics) {
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> factories;
  factories.push_back(std::make_unique<RpcMetricsFactory>(metrics));
  builder->experimental().SetInterceptorCreators(std::move(factories));
}

}  // namespace metropolis::services
