#include "lib/common/grpc_util.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/server_context.h>

#include "grpc/health/v1/health.pb.h"

namespace metropolis::services {

std::string BearerToken(const grpc::ServerContextBase& context) {
  const auto& md = context.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) return "";
  std::string_view value(it->second.data(), it->second.size());
  constexpr std::string_view kScheme = "Bearer ";
  if (value.size() <= kScheme.size() || value.substr(0, kScheme.size()) != kScheme) return "";
  return std::string(value.substr(kScheme.size()));
}

std::string Quoted(std::string_view text, size_t max) {
  if (text.size() <= max) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, max)) + "...' (" + std::to_string(text.size()) + " bytes)";
}

const char* StatusCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::OK:
      return "OK";
    case grpc::CANCELLED:
      return "CANCELLED";
    case grpc::UNKNOWN:
      return "UNKNOWN";
    case grpc::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::ABORTED:
      return "ABORTED";
    case grpc::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::INTERNAL:
      return "INTERNAL";
    case grpc::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN";
  }
}

void AcceptLargeMetadata(grpc::ServerBuilder* builder) {
  builder->AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE, kMaxMetadataBytes);
}

void EnableHealthAndReflection() {
  grpc::EnableDefaultHealthCheckService(true);
  // gRPC's health service is not built from protobuf classes, so nothing puts
  // its descriptor in the pool reflection answers from, and reflection clients
  // (grpcurl, metropolisctl) could list it but not describe or call it. Naming
  // the generated file's descriptor links it in.
  static const google::protobuf::Descriptor* const health = grpc::health::v1::HealthCheckRequest::descriptor();
  (void)health;
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
}

void SetServing(grpc::Server& server, const std::string& service, bool serving) {
  grpc::HealthCheckServiceInterface* health = server.GetHealthCheckService();
  if (!health) return;
  health->SetServingStatus(serving);
  health->SetServingStatus(service, serving);
}

}  // namespace metropolis::services
