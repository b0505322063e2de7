// Tokens without a database: the hash is SHA-256 (FIPS 180-2 vectors), and new
// tokens have one shape and never repeat.
#include "lib/auth/token.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/hex.h"

namespace metropolis::auth {
namespace {

TEST(Sha256, MatchesTheFipsTestVectors) {
  EXPECT_EQ(HexOf(Sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(HexOf(Sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(HexOf(Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256("abc").size(), 32u);
}

TEST(Sha256, HashesEmbeddedZeroBytes) { EXPECT_NE(Sha256(std::string("a\0b", 3)), Sha256("a")); }

TEST(NewToken, IsThePrefixAnd64LowercaseHexDigits) {
  const std::string token = NewToken();
  ASSERT_EQ(token.size(), 68u);
  EXPECT_EQ(token.substr(0, 4), "mtp_");
  for (char c : token.substr(4)) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << token;
  EXPECT_TRUE(LooksLikeToken(token));
}

TEST(NewToken, NeverRepeats) {
  std::set<std::string> seen;
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(seen.insert(NewToken()).second);
}

TEST(NewToken, UsesEveryHexDigit) {
  // 100 tokens are 6400 digits: a digit never drawn would mean a broken encoding.
  std::set<char> digits;
  for (int i = 0; i < 100; ++i)
    for (char c : NewToken().substr(4)) digits.insert(c);
  EXPECT_EQ(digits.size(), 16u);
}

TEST(LooksLikeToken, RefusesOtherShapes) {
  const std::string good = "mtp_" + std::string(64, 'a');
  EXPECT_TRUE(LooksLikeToken(good));
  EXPECT_FALSE(LooksLikeToken(""));
  EXPECT_FALSE(LooksLikeToken("mtp_"));
  EXPECT_FALSE(LooksLikeToken(good + "a"));
  EXPECT_FALSE(LooksLikeToken(good.substr(0, 67)));
  EXPECT_FALSE(LooksLikeToken("mtx_" + std::string(64, 'a')));
  EXPECT_FALSE(LooksLikeToken("mtp_" + std::string(63, 'a') + "A"));
  EXPECT_FALSE(LooksLikeToken("mtp_" + std::string(63, 'a') + "g"));
}

TEST(TokenFingerprint, IsTheFirstEightHexDigitsOfTheHash) { EXPECT_EQ(TokenFingerprint(Sha256("abc")), "ba7816bf"); }

}  // namespace
}  // namespace metropolis::auth
