// Making secrets (lib/common/secret.h); comparing them is in credentials_test.cc.
#include "lib/common/secret.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace metropolis::services {
namespace {

TEST(RandomSecretHex, GivesTwoLowercaseHexDigitsPerByte) {
  for (size_t bytes : {size_t(1), size_t(8), size_t(16), size_t(32), size_t(33)}) {
    const std::string s = RandomSecretHex(bytes);
    ASSERT_EQ(s.size(), 2 * bytes);
    for (char c : s) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << s;
  }
  EXPECT_EQ(RandomSecretHex(0), "");
}

TEST(RandomSecretHex, NeverRepeatsItself) {
  // 1,000 draws of 64 bits: a repeat means the source is not random.
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(seen.insert(RandomSecretHex(8)).second);
  // Every nibble value turns up among 64,000 of them.
  std::set<char> digits;
  for (const std::string& s : seen) digits.insert(s.begin(), s.end());
  EXPECT_EQ(digits.size(), 16u);
}

}  // namespace
}  // namespace metropolis::services
