// The token buckets of rate_limit.h on a fake clock: bursts, refills, the
// retry time, keys apart, idle keys forgotten and the map bounded.
#include "lib/common/rate_limit.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/common/tests/fake_clock.h"

namespace metropolis::services {
namespace {

using testing::FakeClock;

TEST(RateLimiter, AllowsABurstThenRefusesWithTheTimeToTheNextToken) {
  FakeClock clock(1'000'000);
  RateLimiter limiter(RateLimit{.per_second = 2, .burst = 3}, 10, &clock);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Take("alice"), 0) << "call " << i;
  EXPECT_EQ(limiter.Take("alice"), 500);  // 2 per second: one every 500 ms
  clock.Advance(200);
  EXPECT_EQ(limiter.Take("alice"), 300);  // a refused call takes nothing
  clock.Advance(300);
  EXPECT_EQ(limiter.Take("alice"), 0);
  EXPECT_EQ(limiter.Take("alice"), 500);
}

TEST(RateLimiter, RefillsNoFurtherThanTheBurst) {
  FakeClock clock(1'000'000);
  RateLimiter limiter(RateLimit{.per_second = 10, .burst = 2}, 10, &clock);
  EXPECT_EQ(limiter.Take("k"), 0);
  clock.Advance(60'000);  // a minute idle gives 2 tokens, not 600
  EXPECT_EQ(limiter.Take("k"), 0);
  EXPECT_EQ(limiter.Take("k"), 0);
  EXPECT_GT(limiter.Take("k"), 0);
}

TEST(RateLimiter, KeysHaveBucketsOfTheirOwn) {
  FakeClock clock(1'000'000);
  RateLimiter limiter(RateLimit{.per_second = 1, .burst = 1}, 10, &clock);
  EXPECT_EQ(limiter.Take("alice"), 0);
  EXPECT_EQ(limiter.Take("alice"), 1000);
  EXPECT_EQ(limiter.Take("bob"), 0);
}

TEST(RateLimiter, OffMeansEveryCallGoesAhead) {
  FakeClock clock(1'000'000);
  RateLimiter limiter(RateLimit{.per_second = 0, .burst = 1}, 10, &clock);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(limiter.Take("k"), 0);
  EXPECT_EQ(limiter.keys(), 0u);
}

TEST(RateLimiter, ForgetsIdleKeysWhenFull) {
  FakeClock clock(1'000'000);
  RateLimiter limiter(RateLimit{.per_second = 1, .burst = 2}, 3, &clock);
  for (const char* key : {"a", "b", "c"}) EXPECT_EQ(limiter.Take(key), 0);
  EXPECT_EQ(limiter.keys(), 3u);
  clock.Advance(2000);  // every bucket is full again: nothing to remember
  EXPECT_EQ(limiter.Take("d"), 0);
  EXPECT_EQ(limiter.keys(), 1u);
}

TEST(RateLimiter, NewKeysBeyondTheBoundShareOneBucketAndKnownKeysKeepTheirs) {
  FakeClock clock(1'000'000);
  RateLimiter limiter(RateLimit{.per_second = 1, .burst = 2}, 2, &clock);
  EXPECT_EQ(limiter.Take("a"), 0);
  EXPECT_EQ(limiter.Take("b"), 0);
  // Full of busy keys: newcomers draw from one overflow bucket of 2.
  EXPECT_EQ(limiter.Take("x1"), 0);
  EXPECT_EQ(limiter.Take("x2"), 0);
  EXPECT_GT(limiter.Take("x3"), 0);
  EXPECT_EQ(limiter.keys(), 2u);
  // The known keys were not touched by the flood.
  EXPECT_EQ(limiter.Take("a"), 0);
  EXPECT_GT(limiter.Take("a"), 0);
}

TEST(RateLimited, IsResourceExhaustedWithTheLimitAndTheWait) {
  const grpc::Status s = RateLimited("test", RateLimit{.per_second = 5, .burst = 10}, 200, nullptr);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(s.error_message(), "rate limit: 5 calls per second (bursts of 10) for this caller; retry in 200 ms");
}

}  // namespace
}  // namespace metropolis::services
