// Redis work at a service boundary, the counterpart of RunPg (pg_status.h): what
// the Redis client throws becomes a gRPC status the same way in every service.
#pragma once

#include <grpcpp/support/status.h>

#include <exception>

namespace metropolis::storage {

// The status for an exception thrown by Redis work on `what` ("ticket store"):
//   RedisUnavailable (no connection, or a server that cannot take writes now)
//     -> UNAVAILABLE: the caller retries, as it would for PostgreSQL;
//   RedisCommandError (an error reply: a failed script, NOPERM, WRONGTYPE) and
//   anything else -> INTERNAL: a retry would get the same answer.
// The message names `what` and the error; it holds no keys or values.
grpc::Status RedisErrorStatus(const char* what, const std::exception& e);

// Runs `fn` (Redis work on `what`) and answers OK, or the status of what it
// threw: the one place where a Redis store's exceptions become statuses.
template <typename Fn>
grpc::Status RunRedis(const char* what, Fn&& fn) {
  try {
    fn();
    return grpc::Status::OK;
  } catch (const std::exception& e) {
    return RedisErrorStatus(what, e);
  }
}

}  // namespace metropolis::storage
