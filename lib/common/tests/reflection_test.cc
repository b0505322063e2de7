// The standard services every server runs (grpc_util.h): reflection describes
// the health service. A program of its own, linked as a server is: nothing in it
// may name the health service's generated classes (the reflection client only),
// or it would link in the very descriptor it checks the servers carry.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "lib/common/grpc_util.h"

namespace metropolis::services {
namespace {

// Found by an outside client: reflection listed grpc.health.v1.Health but had no
// descriptor for it, so generic clients could not call or describe it.
TEST(HealthAndReflection, ReflectionDescribesTheHealthService) {
  EnableHealthAndReflection();
  grpc::ServerBuilder builder;
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_TRUE(server);
  namespace reflection = grpc::reflection::v1alpha;
  auto stub = reflection::ServerReflection::NewStub(server->InProcessChannel({}));
  grpc::ClientContext context;
  auto stream = stub->ServerReflectionInfo(&context);
  reflection::ServerReflectionRequest request;
  request.set_list_services("");
  ASSERT_TRUE(stream->Write(request));
  reflection::ServerReflectionResponse listed;
  ASSERT_TRUE(stream->Read(&listed));
  bool health_listed = false;
  for (const auto& s : listed.list_services_response().service()) health_listed |= s.name() == "grpc.health.v1.Health";
  EXPECT_TRUE(health_listed);
  request.set_file_containing_symbol("grpc.health.v1.Health");
  ASSERT_TRUE(stream->Write(request));
  reflection::ServerReflectionResponse described;
  ASSERT_TRUE(stream->Read(&described));
  EXPECT_FALSE(described.has_error_response()) << described.error_response().error_message();
  ASSERT_TRUE(described.has_file_descriptor_response());
  EXPECT_GE(described.file_descriptor_response().file_descriptor_proto_size(), 1);
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  server->Shutdown();
}

}  // namespace
}  // namespace metropolis::services
