// Found by an outside client: one call with oversized metadata dropped its whole
// HTTP/2 connection, and every other stream on it (grpc_util.h,
// AcceptLargeMetadata). Over real TCP, since the in-process transport has no
// headers to limit: a Watch stream open on one connection, then a call with 20 KB
// of metadata on the same connection.
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "grpc/health/v1/health.grpc.pb.h"
#include "lib/common/grpc_util.h"

namespace metropolis::services {
namespace {

namespace health = grpc::health::v1;

struct Outcome {
  grpc::Status big_call;
  bool other_stream_alive = false;
};

// A server as Serve() builds one, with or without AcceptLargeMetadata; a client
// that watches a service's health on one connection while it sends a call with
// `metadata_bytes` of metadata on the same one; then the health changes: does
// the watch still hear of it?
Outcome SendBigMetadata(bool accept_large, size_t metadata_bytes) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();  // a sync service: its threads serve health
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  if (accept_large) AcceptLargeMetadata(&builder);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  EXPECT_TRUE(server && port != 0);
  Outcome outcome;
  if (!server) return outcome;
  server->GetHealthCheckService()->SetServingStatus("watched", true);
  auto stub = health::Health::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));

  grpc::ClientContext watch_context;
  health::HealthCheckRequest watched;
  watched.set_service("watched");
  auto watch = stub->Watch(&watch_context, watched);
  health::HealthCheckResponse update;
  EXPECT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), health::HealthCheckResponse::SERVING);

  grpc::ClientContext big;
  big.AddMetadata("x-padding", std::string(metadata_bytes, 'a'));
  health::HealthCheckResponse ignored;
  outcome.big_call = stub->Check(&big, health::HealthCheckRequest(), &ignored);

  server->GetHealthCheckService()->SetServingStatus("watched", false);
  outcome.other_stream_alive = watch->Read(&update) && update.status() == health::HealthCheckResponse::NOT_SERVING;
  watch_context.TryCancel();
  watch->Finish();
  server->Shutdown();
  return outcome;
}

TEST(Metadata, AnOversizedHeaderLeavesTheOtherCallsOnItsConnectionAlone) {
  const Outcome outcome = SendBigMetadata(/*accept_large=*/true, 20'000);
  EXPECT_TRUE(outcome.big_call.ok()) << outcome.big_call.error_message();
  EXPECT_TRUE(outcome.other_stream_alive);
}

TEST(Metadata, NegativeControlAtGrpcsDefaultLimitTheConnectionDiesWithIt) {
  // gRPC 1.51's own limit (8 KiB): the oversized call fails, and so does every
  // other stream on its connection. Should a later gRPC fail the call alone,
  // this control fails: then the limit above may come down.
  const Outcome outcome = SendBigMetadata(/*accept_large=*/false, 20'000);
  EXPECT_EQ(outcome.big_call.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_FALSE(outcome.other_stream_alive);
}

}  // namespace
}  // namespace metropolis::services
