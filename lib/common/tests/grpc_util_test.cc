// Quoting what a client sent in an error message (grpc_util.h).
#include "lib/common/grpc_util.h"

#include <gtest/gtest.h>

#include <string>

namespace metropolis::services {
namespace {

TEST(Quoted, QuotesShortTextWhole) {
  EXPECT_EQ(Quoted("ladder-1"), "'ladder-1'");
  EXPECT_EQ(Quoted(""), "''");
  EXPECT_EQ(Quoted(std::string(80, 'x')), "'" + std::string(80, 'x') + "'");
}

TEST(Quoted, ClipsLongTextAndSaysItsLength) {
  EXPECT_EQ(Quoted(std::string(100'000, 'x')), "'" + std::string(80, 'x') + "...' (100000 bytes)");
  EXPECT_EQ(Quoted("abcdef", 3), "'abc...' (6 bytes)");
}

}  // namespace
}  // namespace metropolis::services
