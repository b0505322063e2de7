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
class ServerBuilder;
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

// The metadata (headers) a server's transport accepts on one call. gRPC 1.51
// answers a call whose metadata is over this limit by closing its whole HTTP/2
// connection, every other call on it included — and a proxy's connection, or a
// bot kit's, carries many. At gRPC's 8 KiB default one oversized header from one
// client dropped every stream it shared a connection with; at 256 KiB no honest
// call comes near (a call's metadata is a bearer token and a request id), and
// the usual proxies refuse headers well below it (Envoy 60 KiB, nginx 8 to 32 KiB),
// so behind one the oversized call is refused alone, before the connection.
inline constexpr int kMaxMetadataBytes = 256 * 1024;
void AcceptLargeMetadata(grpc::ServerBuilder* builder);

// Turns on the standard health service (grpc.health.v1) and server reflection
// (v1alpha, what gRPC 1.51 serves), which describes the health service too.
// Call before building the server.
void EnableHealthAndReflection();
// Sets the health status of the whole server ("") and of `service` (e.g.
// "metropolis.v1.GameHost"), which is what probes ask for.
void SetServing(grpc::Server& server, const std::string& service, bool serving);

}  // namespace metropolis::services
