// The real libsodium hasher (the People service's tests use it too, through a
// server) and the spellings a name search looks up.
#include "services/accounts/passwords.h"

#include <gtest/gtest.h>

#include "services/accounts/catalog_store.h"

namespace metropolis::accounts {
namespace {

TEST(SodiumPasswordHasher, HashesWithSaltAndVerifies) {
  ASSERT_TRUE(SodiumPasswordHasher::Init());
  SodiumPasswordHasher hasher;
  std::string a, b;
  ASSERT_TRUE(hasher.Hash("correct horse", &a));
  ASSERT_TRUE(hasher.Hash("correct horse", &b));
  EXPECT_EQ(a.rfind("$argon2id$", 0), 0u) << a;
  EXPECT_NE(a, b);  // salted
  EXPECT_TRUE(hasher.Verify("correct horse", a));
  EXPECT_FALSE(hasher.Verify("correct horsf", a));
  EXPECT_FALSE(hasher.Verify("correct horse", ""));
  EXPECT_FALSE(hasher.Verify("correct horse", "not a hash"));
}

TEST(NameSearchSpellings, TypedLowerAndCapitalised) {
  EXPECT_EQ(NameSearchSpellings("aLi"), (std::vector<std::string>{"aLi", "ali", "Ali"}));
  EXPECT_EQ(NameSearchSpellings("ali"), (std::vector<std::string>{"ali", "Ali"}));
  EXPECT_EQ(NameSearchSpellings("7"), (std::vector<std::string>{"7"}));
}

}  // namespace
}  // namespace metropolis::accounts
