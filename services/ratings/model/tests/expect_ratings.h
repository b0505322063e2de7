// Comparing ratings in tests: relative tolerance, with the index in the message.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "services/ratings/model/model.h"

namespace metropolis::ratings {

inline void ExpectRatingsNear(const std::vector<Rating>& actual, const std::vector<Rating>& expected, double relative) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i].mu, expected[i].mu, relative * std::max(1.0, std::abs(expected[i].mu))) << "player " << i;
    EXPECT_NEAR(actual[i].sigma, expected[i].sigma, relative * expected[i].sigma) << "player " << i;
  }
}

}  // namespace metropolis::ratings
