// The authenticator over a small fake lookup and a fake clock: service tokens,
// the cache and its ttl, revocations seen once it ends, unknown tokens kept for
// about a second, and a lookup that cannot answer (UNAVAILABLE, never cached).
#include "lib/auth/token_authenticator.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>
#include <string>
#include <vector>

#include "lib/auth/tests/fake_account_lookup.h"
#include "lib/auth/token.h"
#include "lib/common/metrics.h"
#include "lib/common/tests/fake_clock.h"

namespace metropolis::auth {
namespace {

using grpc::StatusCode;

using FakeLookup = testing::FakeAccountLookup;

// metropolis_auth_token_checks_total{result}, as `registry` has it.
double Checks(prometheus::Registry& registry, const std::string& result) {
  for (const prometheus::MetricFamily& f : registry.Collect()) {
    if (f.name != "metropolis_auth_token_checks_total") continue;
    for (const prometheus::ClientMetric& m : f.metric)
      for (const prometheus::ClientMetric::Label& l : m.label)
        if (l.name == "result" && l.value == result) return m.counter.value;
  }
  return 0;
}

class TokenAuthenticatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    lookup_.Add(alice_, {.identity_id = 7, .name = "alice", .kind = "player", .admin = true, .token_id = 70});
  }
  grpc::Status Check(const std::string& token, Principal* out = nullptr) {
    Principal p;
    grpc::Status s = auth_.Authenticate(token, out ? out : &p);
    return s;
  }

  FakeLookup lookup_;
  services::testing::FakeClock clock_{1'000'000};
  const std::string alice_ = NewToken();
  prometheus::Registry registry_;
  services::ProcessMetrics metrics_{&registry_};
  TokenAuthenticator auth_{&lookup_,
                           {{"host-secret", "gamehost"}, {"", "nobody"}},
                           {.ttl_ms = 30'000, .clock = &clock_, .metrics = &metrics_}};
};

TEST_F(TokenAuthenticatorTest, AGoodTokenIsItsOwner) {
  Principal p;
  ASSERT_TRUE(Check(alice_, &p).ok());
  EXPECT_EQ(p.identity_id, 7);
  EXPECT_EQ(p.name, "alice");
  EXPECT_EQ(p.kind, "player");
  EXPECT_TRUE(p.admin);
  EXPECT_FALSE(p.service);
  EXPECT_EQ(p.token_id, 70);
}

TEST_F(TokenAuthenticatorTest, AGoodTokenIsRememberedForTheTtl) {
  ASSERT_TRUE(Check(alice_).ok());
  clock_.Advance(29'999);
  ASSERT_TRUE(Check(alice_).ok());
  EXPECT_EQ(lookup_.lookups, 1);
  clock_.Advance(1);
  ASSERT_TRUE(Check(alice_).ok());
  EXPECT_EQ(lookup_.lookups, 2);
}

TEST_F(TokenAuthenticatorTest, ARevocationIsSeenOnceTheTtlEnds) {
  ASSERT_TRUE(Check(alice_).ok());
  lookup_.Revoke(alice_);
  clock_.Advance(10'000);
  EXPECT_TRUE(Check(alice_).ok()) << "within the ttl the cache answers";
  clock_.Advance(20'000);
  EXPECT_EQ(Check(alice_).error_code(), StatusCode::UNAUTHENTICATED);
}

TEST_F(TokenAuthenticatorTest, AnUnknownTokenIsRememberedForASecondOnly) {
  const std::string stranger = NewToken();
  EXPECT_EQ(Check(stranger).error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Check(stranger).error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(lookup_.lookups, 1) << "a flood of one bad token is one lookup a second";
  // Issued meanwhile: accepted once the second is over, not after the ttl.
  lookup_.Add(stranger, {.identity_id = 8, .name = "bob", .kind = "bot", .token_id = 80});
  clock_.Advance(TokenAuthenticator::kUnknownTtlMs);
  Principal p;
  ASSERT_TRUE(Check(stranger, &p).ok());
  EXPECT_EQ(p.name, "bob");
  EXPECT_EQ(lookup_.lookups, 2);
}

TEST_F(TokenAuthenticatorTest, ALookupThatCannotAnswerIsUnavailableAndNotRemembered) {
  lookup_.available = false;
  EXPECT_EQ(Check(alice_).error_code(), StatusCode::UNAVAILABLE);
  EXPECT_EQ(Check(alice_).error_code(), StatusCode::UNAVAILABLE);
  EXPECT_EQ(lookup_.lookups, 2) << "each call asks again";
  lookup_.available = true;
  EXPECT_TRUE(Check(alice_).ok()) << "a failure is not remembered as a refusal";
}

TEST_F(TokenAuthenticatorTest, ServiceTokensNeedNoLookup) {
  Principal p;
  ASSERT_TRUE(Check("host-secret", &p).ok());
  EXPECT_TRUE(p.service);
  EXPECT_EQ(p.kind, "service");
  EXPECT_EQ(p.name, "gamehost");
  EXPECT_FALSE(p.admin);
  EXPECT_EQ(p.identity_id, 0);
  EXPECT_EQ(Check("host-secre").error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Check("host-secret2").error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(lookup_.lookups, 0) << "nothing that is not an API token's shape is looked up";
}

TEST_F(TokenAuthenticatorTest, AnEmptyServiceTokenLetsNobodyIn) {
  EXPECT_EQ(Check("").error_code(), StatusCode::UNAUTHENTICATED);
}

TEST_F(TokenAuthenticatorTest, AServiceTokenCannotBeOverriddenByTheLookup) {
  // Even an API token whose owner the lookup says is a service is an identity.
  lookup_.Add(alice_, {.identity_id = 7, .name = "gamehost", .kind = "player", .service = true, .token_id = 70});
  Principal p;
  ASSERT_TRUE(Check(alice_, &p).ok());
  EXPECT_FALSE(p.service);
}

TEST_F(TokenAuthenticatorTest, WithoutALookupOnlyServiceTokensPass) {
  TokenAuthenticator alone(nullptr, {{"host-secret", "gamehost"}});
  Principal p;
  EXPECT_TRUE(alone.Authenticate("host-secret", &p).ok());
  EXPECT_EQ(alone.Authenticate(alice_, &p).error_code(), StatusCode::UNAUTHENTICATED);
}

TEST_F(TokenAuthenticatorTest, EachCheckIsCountedByHowItWasAnswered) {
  ASSERT_TRUE(Check(alice_).ok());
  ASSERT_TRUE(Check(alice_).ok());
  ASSERT_EQ(Check(NewToken()).error_code(), StatusCode::UNAUTHENTICATED);
  lookup_.available = false;
  ASSERT_EQ(Check(NewToken()).error_code(), StatusCode::UNAVAILABLE);
  ASSERT_TRUE(Check("host-secret").ok());  // a service token is no API token: not counted
  EXPECT_EQ(Checks(registry_, "found"), 1);
  EXPECT_EQ(Checks(registry_, "cached"), 1);
  EXPECT_EQ(Checks(registry_, "unknown"), 1);
  EXPECT_EQ(Checks(registry_, "unavailable"), 1);
}

TEST_F(TokenAuthenticatorTest, WithoutMetricsNothingIsCounted) {
  TokenAuthenticator uncounted(&lookup_, {}, {.clock = &clock_});
  Principal p;
  ASSERT_TRUE(uncounted.Authenticate(alice_, &p).ok());
  ASSERT_TRUE(uncounted.Authenticate(alice_, &p).ok());
  EXPECT_TRUE(registry_.Collect().empty());  // the counted authenticator's, untouched
}

TEST_F(TokenAuthenticatorTest, TheCacheIsBounded) {
  // Fill it with unknown tokens to its bound: the next one clears it, so alice's
  // remembered answer is gone and she is looked up again.
  ASSERT_TRUE(Check(alice_).ok());
  for (size_t i = 0; i + 1 < TokenAuthenticator::kMaxCacheEntries; ++i) {
    char token[69];
    snprintf(token, sizeof token, "mtp_%064zx", i);
    ASSERT_EQ(Check(token).error_code(), StatusCode::UNAUTHENTICATED);
  }
  const int before = lookup_.lookups;
  ASSERT_TRUE(Check(alice_).ok());
  EXPECT_EQ(lookup_.lookups, before) << "still remembered just below the bound";
  ASSERT_EQ(Check(NewToken()).error_code(), StatusCode::UNAUTHENTICATED);  // clears the full cache
  ASSERT_TRUE(Check(alice_).ok());
  EXPECT_EQ(lookup_.lookups, before + 2);
}

// Lines of `log` (captured stderr) that say a token was refused.
std::vector<std::string> RefusalLines(const std::string& log) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string line = log.substr(start, end - start);
    if (line.find("msg=\"token refused\"") != std::string::npos || line.find("msg=token refused") != std::string::npos)
      out.push_back(line);
    start = end + 1;
  }
  return out;
}

// 1,000 bad tokens from outside in one minute: `refusal_logs_per_minute` lines,
// then, a minute on, one line that carries the count of those held back.
std::vector<std::string> RefusalLogsOfAFlood(int per_minute) {
  services::testing::FakeClock clock(1'000'000);
  FakeLookup lookup;
  TokenAuthenticator auth(&lookup, {}, {.clock = &clock, .refusal_logs_per_minute = per_minute});
  Principal p;
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(auth.Authenticate(i % 2 ? NewToken() : "not-a-token-" + std::to_string(i), &p).error_code(),
              StatusCode::UNAUTHENTICATED);
    clock.Advance(10);
  }
  clock.Advance(60'000);
  EXPECT_EQ(auth.Authenticate(NewToken(), &p).error_code(), StatusCode::UNAUTHENTICATED);
  return RefusalLines(::testing::internal::GetCapturedStderr());
}

TEST(TokenRefusalLogs, AFloodOfBadTokensIsLoggedAFewLinesAMinuteWithTheRestCounted) {
  const std::vector<std::string> lines = RefusalLogsOfAFlood(10);
  // 1,000 refusals over 10 s: the first 10 are written, then, a minute on, one
  // that says how many were held back.
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[0].find("suppressed="), std::string::npos) << lines[0];
  EXPECT_NE(lines[10].find("suppressed=990"), std::string::npos) << lines[10];
}

TEST(TokenRefusalLogs, NegativeControlWithoutTheLimitEveryRefusalIsALine) {
  // The limit switched off: the flood above writes every line, so the check
  // above is what the limit changes.
  EXPECT_EQ(RefusalLogsOfAFlood(0).size(), 1001u);
}

}  // namespace
}  // namespace metropolis::auth
