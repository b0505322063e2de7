// Database work at a service boundary: runs a function on a pooled connection and
// turns what PostgreSQL throws into a gRPC status, so every service reports a
// database outage the same way (UNAVAILABLE: the caller retries) and an internal
// fault without leaking SQL to clients (INTERNAL, details in the log).
#pragma once

#include <grpcpp/support/status.h>

#include <functional>
#include <string>
#include <vector>

#include "lib/storage/pg_pool.h"

namespace metropolis::storage {

grpc::Status RunPg(PgPool* pool, const char* what, const std::function<grpc::Status(pqxx::connection&)>& fn);

// "{1,2,3}": a PostgreSQL array literal for integer parameters (libpqxx 6 has no
// array parameters), to be cast in SQL ($1::bigint[]).
template <typename Ints>
std::string IntArray(const Ints& values) {
  std::string out = "{";
  for (const auto& v : values) out += (out.size() > 1 ? "," : "") + std::to_string(v);
  return out + "}";
}
// "{10,-7,NULL,5}" → {10, -7, 5}: an integer array as PostgreSQL prints it
// (NULL elements are left out).
std::vector<int> ParseIntArray(const std::string& text);
// The same for doubles, exact to the last bit ("%.17g").
std::string DoubleArray(const std::vector<double>& values);

}  // namespace metropolis::storage
