#include "lib/storage/pg_status.h"

#include <cstdio>
#include <pqxx/except>

#include "lib/common/log.h"

namespace metropolis::storage {

grpc::Status RunPg(PgPool* pool, const char* what, const std::function<grpc::Status(pqxx::connection&)>& fn) {
  grpc::Status status;
  try {
    pool->With([&](pqxx::connection& c) { status = fn(c); });
  } catch (const pqxx::broken_connection& e) {
    services::LogWarning("database unavailable", {{"op", what}, {"error", e.what()}});
    return {grpc::StatusCode::UNAVAILABLE, std::string("database unavailable: ") + e.what()};
  } catch (const pqxx::in_doubt_error& e) {
    // The commit may or may not have happened; the caller's retry is safe
    // because every write of the services is idempotent.
    services::LogWarning("commit in doubt", {{"op", what}, {"error", e.what()}});
    return {grpc::StatusCode::UNAVAILABLE, std::string(what) + ": the database connection broke during commit"};
  } catch (const std::exception& e) {
    services::LogError("database error", {{"op", what}, {"error", e.what()}});
    return {grpc::StatusCode::INTERNAL, std::string(what) + ": database error"};
  }
  return status;
}

std::vector<int> ParseIntArray(const std::string& text) {
  std::vector<int> out;
  int value = 0, sign = 1;
  bool in_number = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      in_number = true;
    } else if (c == '-' && !in_number) {
      sign = -1;
    } else {
      if (in_number) out.push_back(sign * value);
      value = 0;
      sign = 1;
      in_number = false;
    }
  }
  if (in_number) out.push_back(sign * value);
  return out;
}

std::string DoubleArray(const std::vector<double>& values) {
  std::string out = "{";
  char buffer[32];
  for (double v : values) {
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    if (out.size() > 1) out += ',';
    out += buffer;
  }
  return out + "}";
}

}  // namespace metropolis::storage
