#include "lib/common/metrics.h"

#include <grpcpp/server_builder.h>
#include <grpcpp/support/server_interceptor.h>
#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <chrono>

#include "lib/common/grpc_util.h"
#include "lib/common/settings.h"

namespace metropolis::services {
namespace {

struct RpcFamilies {
  prometheus::Family<prometheus::Counter>* requests;
  prometheus::Family<prometheus::Histogram>* seconds;
};

RpcFamilies& Rpc() {
  static RpcFamilies* families = [] {
    using namespace prometheus;
    auto* f = new RpcFamilies;
    Registry& r = *MetricsRegistry();
    f->requests = &BuildCounter()
                       .Name("metropolis_grpc_requests_total")
                       .Help("Finished gRPC calls served, by service, method and status code")
                       .Register(r);
    f->seconds = &BuildHistogram()
                      .Name("metropolis_grpc_request_duration_seconds")
                      .Help("Time to answer a unary gRPC call, by service and method")
                      .Register(r);
    return f;
  }();
  return *families;
}

enum class Store { kPostgres, kRedis };

prometheus::Family<prometheus::Counter>& StorageErrors(Store store) {
  static prometheus::Family<prometheus::Counter>* database =
      &prometheus::BuildCounter()
           .Name("metropolis_database_errors_total")
           .Help("PostgreSQL failures of this process's connection pool, by kind (connection, query)")
           .Register(*MetricsRegistry());
  static prometheus::Family<prometheus::Counter>* redis_errors =
      &prometheus::BuildCounter()
           .Name("metropolis_redis_errors_total")
           .Help("Redis failures of this process's connection pool, by kind (connection)")
           .Register(*MetricsRegistry());
  return store == Store::kRedis ? *redis_errors : *database;
}

// One per call: records the call when it ends (with CANCELLED when no status
// was sent, as when the client went away).
class RpcMetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit RpcMetricsInterceptor(grpc::experimental::ServerRpcInfo* info)
      : unary_(info->type() == grpc::experimental::ServerRpcInfo::Type::UNARY),
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
    RpcFamilies& f = Rpc();
    f.requests->Add({{"service", service_}, {"method", method_}, {"code", StatusCodeName(code_)}}).Increment();
    if (unary_) {
      static const prometheus::Histogram::BucketBoundaries kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                                       0.1,    0.25,  0.5,    1,     2.5,  5,     10};
      f.seconds->Add({{"service", service_}, {"method", method_}}, kBuckets).Observe(seconds);
    }
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS))
      code_ = methods->GetSendStatus().error_code();
    methods->Proceed();
  }

 private:
  const bool unary_;
  const std::chrono::steady_clock::time_point start_;
  std::string service_, method_;
  grpc::StatusCode code_ = grpc::StatusCode::CANCELLED;
};

class RpcMetricsFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new RpcMetricsInterceptor(info);
  }
};

}  // namespace

std::shared_ptr<prometheus::Registry> MetricsRegistry() {
  static auto* registry = new std::shared_ptr<prometheus::Registry>(std::make_shared<prometheus::Registry>());
  return *registry;
}

void AddMetricsSetting(Settings* settings, const std::string& address) {
  settings->Add("metrics-listen", "ADDR", address,
                "Prometheus metrics address (GET /metrics); empty turns metrics off");
}

MetricsEndpoint::MetricsEndpoint() = default;
MetricsEndpoint::~MetricsEndpoint() = default;

bool MetricsEndpoint::Start(const std::string& address, std::string* error) {
  if (address.empty()) return true;
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    *error = "--metrics-listen " + address + ": " + e.what();
    return false;
  }
  exposer_->RegisterCollectable(MetricsRegistry());
  return true;
}

void InstallRpcMetrics(grpc::ServerBuilder* builder) {
  Rpc();  // the families exist (with no calls yet) from the start
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> factories;
  factories.push_back(std::make_unique<RpcMetricsFactory>());
  builder->experimental().SetInterceptorCreators(std::move(factories));
}

void CountDatabaseError(std::string_view kind) {
  StorageErrors(Store::kPostgres).Add({{"kind", std::string(kind)}}).Increment();
}

void CountRedisError(std::string_view kind) {
  StorageErrors(Store::kRedis).Add({{"kind", std::string(kind)}}).Increment();
}

}  // namespace metropolis::services
