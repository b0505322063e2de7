// Small pieces every gRPC service of Metropolis shares: bearer tokens from the
// call metadata, status code names for logs and metrics, and the server
// options (health checking, reflection).
#pragma once

#include <grpcpp/support/status.h>

#include <string>
#include <string_view>

namespace grpc {
class ServerContextBase;
class Server;
}  // namespace grpc

namespace metropolis::services {

// The token of "authorization: Bearer <token>", or empty when the call has
// none (or another scheme).
std::string BearerToken(const grpc::ServerContextBase& context);

// `text` quoted for an error message: whole when it is short, otherwise its
// first `max` bytes and its length, so that a status quoting what a client sent
// stays far below gRPC's limit on trailing metadata (8 kB), which a longer one
// would break (the client would get INTERNAL instead of the precise error).
std::string Quoted(std::string_view text, size_t max = 80);

// "OK", "INVALID_ARGUMENT", ... for logs and metric labels.
const char* StatusCodeName(grpc::StatusCode code);

// Turns on the standard health service (grpc.health.v1) and server reflection
// (v1alpha, what gRPC 1.51 serves), which describes the health service too.
// Call before building the server.
void EnableHealthAndReflection();
// Sets the health status of the whole server ("") and of `service` (e.g.
// "metropolis.v1.GameHost"), which is what probes ask for.
void SetServing(grpc::Server& server, const std::string& service, bool serving);

}  // namespace metropolis::services
