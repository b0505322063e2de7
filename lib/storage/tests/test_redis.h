// The Redis the test command started (METROPOLIS_REDIS_ADDR), with a key prefix
// of the test's own so that tests running side by side never see each other's
// keys. Without that server the test fails: an integration test never skips.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "lib/storage/redis.h"

namespace metropolis::storage::testing {

inline std::string RedisAddress() {
  const char* address = std::getenv("METROPOLIS_REDIS_ADDR");
  if (address == nullptr || *address == '\0') {
    ADD_FAILURE() << "METROPOLIS_REDIS_ADDR is not set: run the integration tests through scripts/test.sh, "
                     "which starts Redis, or start one with scripts/lib/services.sh";
    return "";
  }
  return address;
}

inline std::string UniquePrefix() {
  std::random_device rd;
  return "test" + std::to_string(rd()) + std::to_string(rd() % 1000);
}

// Deletes every key under `prefix`: what "Redis lost the data" means for one test.
inline void DeleteKeys(const std::string& address, const std::string& prefix) {
  RedisConnection redis(address, 2000);
  std::string cursor = "0";
  do {
    const RedisReply reply = redis.Run({"SCAN", cursor, "MATCH", prefix + ":*", "COUNT", "1000"});
    ASSERT_EQ(reply.elements.size(), 2u);
    cursor = reply.elements[0].str;
    for (const RedisReply& key : reply.elements[1].elements) redis.Run({"DEL", key.str});
  } while (cursor != "0");
}

}  // namespace metropolis::storage::testing
