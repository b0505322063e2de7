// Request ids (request_id.h) over real gRPC calls: a handler's log lines carry
// the caller's x-request-id (or a new one) and the game id, and a call made
// while serving passes both on; and every call is counted (metrics.h).
#include "lib/common/request_id.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "grpc/health/v1/health.grpc.pb.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"

namespace metropolis::services {
namespace {

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

// Everything written to stderr (where log lines go) while it lives.
class CapturedStderr {
 public:
  CapturedStderr() : file_(std::tmpfile()) {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    ::dup2(::fileno(file_), STDERR_FILENO);
  }
  ~CapturedStderr() {
    Stop();
    std::fclose(file_);
  }
  std::string Text() {
    Stop();
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0) text.append(buffer, n);
    return text;
  }

 private:
  void Stop() {
    if (saved_ < 0) return;
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_ = -1;
};

// The line of `text` holding `msg=<message>`.
std::string LineWith(const std::string& text, const std::string& message) {
  const size_t at = text.find("msg=" + message);
  if (at == std::string::npos) return "";
  const size_t begin = text.rfind('\n', at);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, text.find('\n', at) - (begin + 1));
}

// A service whose Check opens a CallLogContext with the requested "service" as
// its game id, logs, and runs `then` (a call onwards) inside it.
class LoggingService final : public Health::Service {
 public:
  std::function<void()> then;
  std::string seen_request_id, seen_game_id;

  grpc::Status Check(grpc::ServerContext* context, const HealthCheckRequest* request,
                     HealthCheckResponse* response) override {
    CallLogContext call(*context, request->service());
    {
      std::lock_guard lock(mutex_);
      seen_request_id = call.request_id();
      seen_game_id = call.game_id();
    }
    LogInfo("checked", {{"name", name_}});
    if (then) then();
    response->set_status(HealthCheckResponse::SERVING);
    if (request->service() == "refuse") return {grpc::StatusCode::NOT_FOUND, "no such thing"};
    return grpc::Status::OK;
  }
  void set_name(std::string name) { name_ = std::move(name); }

 private:
  std::mutex mutex_;
  std::string name_;
};

// A server as the programs build it, its calls counted (in `metrics`, or in a
// registry of its own).
struct TestServer {
  explicit TestServer(const std::string& name, ProcessMetrics* metrics = nullptr) {
    service.set_name(name);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    InstallRpcMetrics(&builder, metrics ? metrics : &own_metrics);
    server = builder.BuildAndStart();
    stub =
        Health::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  }
  ~TestServer() { server->Shutdown(); }
  prometheus::Registry own_registry;
  ProcessMetrics own_metrics{&own_registry};
  LoggingService service;
  int port = 0;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<Health::Stub> stub;
};

grpc::Status Check(Health::Stub* stub, const std::string& game, const std::string& request_id) {
  grpc::ClientContext context;
  if (!request_id.empty()) context.AddMetadata(kRequestIdMetadata, request_id);
  HealthCheckRequest request;
  request.set_service(game);
  HealthCheckResponse response;
  return stub->Check(&context, request, &response);
}

TEST(RequestId, NewIdsAreSixteenHexDigitsAndDiffer) {
  const std::string a = NewRequestId(), b = NewRequestId();
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
  EXPECT_TRUE(ValidRequestId(a));
}

TEST(RequestId, ValidIds) {
  EXPECT_TRUE(ValidRequestId("m-0123abcd"));
  EXPECT_TRUE(ValidRequestId("trace.1:2_x"));
  EXPECT_FALSE(ValidRequestId(""));
  EXPECT_FALSE(ValidRequestId("has space"));
  EXPECT_FALSE(ValidRequestId("quote\"d"));
  EXPECT_FALSE(ValidRequestId(std::string(65, 'a')));
}

TEST(RequestId, LogLinesCarryTheContextAndNest) {
  CapturedStderr captured;
  LogInfo("before");
  {
    LogContext outer("req-outer", "g-1");
    LogInfo("outer line");
    LogInfo("names its game", {{"game", "g-other"}});
    {
      LogContext inner("req-inner");
      LogInfo("inner line");
    }
    LogInfo("outer again");
  }
  LogInfo("after");
  const std::string text = captured.Text();
  EXPECT_EQ(LineWith(text, "before").find("request_id="), std::string::npos);
  EXPECT_NE(LineWith(text, "\"outer line\"").find("request_id=req-outer game=g-1"), std::string::npos) << text;
  const std::string named = LineWith(text, "\"names its game\"");
  EXPECT_NE(named.find("game=g-other"), std::string::npos);
  EXPECT_EQ(named.find("game=g-1"), std::string::npos) << "a line's own game is not repeated: " << named;
  const std::string inner = LineWith(text, "\"inner line\"");
  EXPECT_NE(inner.find("request_id=req-inner"), std::string::npos);
  EXPECT_EQ(inner.find("game="), std::string::npos) << inner;
  EXPECT_NE(LineWith(text, "\"outer again\"").find("request_id=req-outer"), std::string::npos);
  EXPECT_EQ(LineWith(text, "after").find("request_id="), std::string::npos);
  EXPECT_EQ(CurrentLogContext(), nullptr);
}

TEST(RequestId, AHandlerLogsTheCallersRequestIdAndTheGame) {
  TestServer server("replays-like");
  CapturedStderr captured;
  ASSERT_TRUE(Check(server.stub.get(), "g-42", "abc-123").ok());
  const std::string line = LineWith(captured.Text(), "checked");
  EXPECT_NE(line.find("request_id=abc-123"), std::string::npos) << line;
  EXPECT_NE(line.find("game=g-42"), std::string::npos) << line;
  EXPECT_EQ(server.service.seen_request_id, "abc-123");
}

TEST(RequestId, AHandlerMakesAnIdWhenTheCallHasNoneOrAnOddOne) {
  TestServer server("replays-like");
  ASSERT_TRUE(Check(server.stub.get(), "", "").ok());
  const std::string made = server.service.seen_request_id;
  EXPECT_EQ(made.size(), 16u);
  ASSERT_TRUE(Check(server.stub.get(), "", "not valid!").ok());
  EXPECT_EQ(server.service.seen_request_id.size(), 16u);
  EXPECT_NE(server.service.seen_request_id, made);
  EXPECT_TRUE(server.service.seen_game_id.empty());
}

// The matchmaker calls the game host, which calls replays: one id all along,
// and the game id passed on as x-game-id.
TEST(RequestId, CallsMadeWhileServingPassTheIdAndTheGameOn) {
  TestServer downstream("downstream");
  TestServer upstream("upstream");
  upstream.service.then = [&] {
    grpc::ClientContext context;
    const std::string sent = PropagateRequestId(&context);
    EXPECT_EQ(sent, CurrentLogContext()->request_id());
    HealthCheckRequest request;  // no game in the message: it comes as x-game-id
    HealthCheckResponse response;
    EXPECT_TRUE(downstream.stub->Check(&context, request, &response).ok());
  };
  CapturedStderr captured;
  ASSERT_TRUE(Check(upstream.stub.get(), "g-7", "chain-1").ok());
  EXPECT_EQ(downstream.service.seen_request_id, "chain-1");
  EXPECT_EQ(downstream.service.seen_game_id, "g-7");
  const std::string text = captured.Text();
  for (const char* name : {"name=upstream", "name=downstream"}) {
    const size_t at = text.find(name);
    ASSERT_NE(at, std::string::npos) << text;
    const std::string line = text.substr(text.rfind('\n', at) + 1, text.find('\n', at) - text.rfind('\n', at) - 1);
    EXPECT_NE(line.find("request_id=chain-1"), std::string::npos) << line;
    EXPECT_NE(line.find("game=g-7"), std::string::npos) << line;
  }
}

TEST(RequestId, WorkOutsideACallGetsAFreshIdOnItsCalls) {
  grpc::ClientContext context;
  const std::string sent = PropagateRequestId(&context, "g-9");
  EXPECT_EQ(sent.size(), 16u);
  TestServer server("replays-like");
  {
    LogContext round("round-5");
    grpc::ClientContext call;
    EXPECT_EQ(PropagateRequestId(&call, "m-1"), "round-5");
    HealthCheckRequest request;
    HealthCheckResponse response;
    ASSERT_TRUE(server.stub->Check(&call, request, &response).ok());
  }
  EXPECT_EQ(server.service.seen_request_id, "round-5");
  EXPECT_EQ(server.service.seen_game_id, "m-1");
}

double Sample(prometheus::Registry& registry, const std::string& family,
              const std::map<std::string, std::string>& labels) {
  for (const prometheus::MetricFamily& f : registry.Collect()) {
    if (f.name != family) continue;
    for (const prometheus::ClientMetric& m : f.metric) {
      size_t matched = 0;
      for (const prometheus::ClientMetric::Label& l : m.label)
        matched += labels.count(l.name) && labels.at(l.name) == l.value;
      if (matched != labels.size()) continue;
      return f.type == prometheus::MetricType::Histogram ? double(m.histogram.sample_count) : m.counter.value;
    }
  }
  return 0;
}

TEST(RpcMetrics, EveryCallIsCountedByMethodAndCode) {
  const std::map<std::string, std::string> ok = {
      {"service", "grpc.health.v1.Health"}, {"method", "Check"}, {"code", "OK"}};
  const std::map<std::string, std::string> refused = {
      {"service", "grpc.health.v1.Health"}, {"method", "Check"}, {"code", "NOT_FOUND"}};
  prometheus::Registry registry;
  ProcessMetrics metrics(&registry);
  {
    TestServer server("counted", &metrics);
    ASSERT_TRUE(Check(server.stub.get(), "g-1", "").ok());
    ASSERT_TRUE(Check(server.stub.get(), "g-2", "").ok());
    ASSERT_EQ(Check(server.stub.get(), "refuse", "").error_code(), grpc::StatusCode::NOT_FOUND);
  }  // the server shut down: every call has ended and been recorded
  EXPECT_EQ(Sample(registry, "metropolis_grpc_requests_total", ok), 2);
  EXPECT_EQ(Sample(registry, "metropolis_grpc_requests_total", refused), 1);
  EXPECT_EQ(Sample(registry, "metropolis_grpc_request_duration_seconds",
                   {{"service", "grpc.health.v1.Health"}, {"method", "Check"}}),
            3);
}

// Families with nothing counted are not exposed: a process shows only what it
// counted, whatever the infrastructure it could count.
TEST(ProcessMetrics, ShowNothingUntilSomethingIsCounted) {
  prometheus::Registry registry;
  ProcessMetrics metrics(&registry);
  EXPECT_TRUE(registry.Collect().empty());
  metrics.DatabaseError("query");
  metrics.RedisError("connection");
  metrics.RateLimited("test");
  metrics.TokenChecked("found");
  std::map<std::string, double> counted;
  for (const prometheus::MetricFamily& f : registry.Collect())
    for (const prometheus::ClientMetric& m : f.metric)
      counted[f.name + "{" + m.label.at(0).value + "}"] += m.counter.value;
  EXPECT_EQ(counted, (std::map<std::string, double>{{"metropolis_auth_token_checks_total{found}", 1},
                                                    {"metropolis_database_errors_total{query}", 1},
                                                    {"metropolis_rate_limited_total{test}", 1},
                                                    {"metropolis_redis_errors_total{connection}", 1}}));
}

}  // namespace
}  // namespace metropolis::services
