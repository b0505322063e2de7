#include "lib/storage/availability.h"

#include <gtest/gtest.h>

#include <string>

namespace metropolis::storage {
namespace {

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// An outage is two lines however many calls fail in it: lost, then restored
// with the count of failed calls.
TEST(AvailabilityTest, LogsALossAndARecoveryOnce) {
  Availability redis("redis");
  testing::internal::CaptureStderr();
  redis.Worked();
  redis.Failed("connection refused");
  redis.Failed("connection refused");
  redis.Failed("connection refused");
  EXPECT_TRUE(redis.down());
  redis.Worked();
  redis.Worked();
  EXPECT_FALSE(redis.down());
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Count(log, "msg=\"redis connection lost\""), 1) << log;
  EXPECT_EQ(Count(log, "msg=\"redis connection restored\""), 1) << log;
  EXPECT_NE(log.find("failed_calls=3"), std::string::npos) << log;
  EXPECT_NE(log.find("error=\"connection refused\""), std::string::npos) << log;
}

}  // namespace
}  // namespace metropolis::storage
