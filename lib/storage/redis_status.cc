#include "lib/storage/redis_status.h"

#include <string>

#include "lib/common/log.h"
#include "lib/storage/redis.h"

namespace metropolis::storage {

grpc::Status RedisErrorStatus(const char* what, const std::exception& e) {
  if (dynamic_cast<const RedisUnavailable*>(&e) != nullptr)
    return {grpc::StatusCode::UNAVAILABLE, std::string(what) + " unavailable: " + e.what()};
  // Not a passing failure: somebody has to look, so it is logged as an error.
  services::LogError("redis work failed with an error reply", {{"what", what}, {"error", e.what()}});
  return {grpc::StatusCode::INTERNAL, std::string(what) + " failed: " + e.what()};
}

}  // namespace metropolis::storage
