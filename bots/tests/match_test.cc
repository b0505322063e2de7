#include "bots/match.h"

#include <gtest/gtest.h>

namespace metropolis::bots {
namespace {

TEST(Statistics, WilsonIntervalKnownValues) {
  // Values from the closed form, checked against published tables.
  Interval a = WilsonInterval(50, 100);
  EXPECT_NEAR(a.low, 0.4038, 1e-4);
  EXPECT_NEAR(a.high, 0.5962, 1e-4);
  Interval b = WilsonInterval(8, 10);
  EXPECT_NEAR(b.low, 0.4902, 1e-4);
  EXPECT_NEAR(b.high, 0.9433, 1e-4);
  Interval c = WilsonInterval(0, 10);
  EXPECT_NEAR(c.low, 0.0, 1e-12);
  EXPECT_NEAR(c.high, 0.2775, 1e-4);
  Interval d = WilsonInterval(10, 10);
  EXPECT_NEAR(d.low, 0.7225, 1e-4);
  EXPECT_NEAR(d.high, 1.0, 1e-12);
  Interval e = WilsonInterval(800, 1000);
  EXPECT_NEAR(e.low, 0.7740, 1e-4);
  EXPECT_NEAR(e.high, 0.8236, 1e-4);
  Interval none = WilsonInterval(0, 0);
  EXPECT_EQ(none.low, 0.0);
  EXPECT_EQ(none.high, 1.0);
}

TEST(Statistics, ZScore) {
  EXPECT_NEAR(ZScore(0.3, 100, 0.25), 1.1547, 1e-4);
  EXPECT_NEAR(ZScore(0.25, 400, 0.25), 0.0, 1e-12);
  EXPECT_NEAR(ZScore(0.4, 400, 0.25), 6.9282, 1e-4);
}

}  // namespace
}  // namespace metropolis::bots
