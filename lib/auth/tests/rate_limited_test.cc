// The per-identity limit in front of an authenticator: identities apart, every
// token of one identity on one budget, service tokens and refusals passed through.
#include "lib/auth/rate_limited.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>

#include "lib/common/metrics.h"
#include "lib/common/tests/fake_clock.h"

namespace metropolis::auth {
namespace {

// Tokens "alice-1", "alice-2" (identity 1), "bob" (2) and "svc" (a service).
class FakeAuthenticator final : public Authenticator {
 public:
  grpc::Status Authenticate(const std::string& token, Principal* out) override {
    static const std::map<std::string, Principal> kKnown = {
        {"alice-1", {.identity_id = 1, .name = "alice", .kind = "player"}},
        {"alice-2", {.identity_id = 1, .name = "alice", .kind = "player"}},
        {"bob", {.identity_id = 2, .name = "bob", .kind = "bot"}},
        {"svc", {.name = "gamehost", .kind = "service", .service = true}},
    };
    auto it = kKnown.find(token);
    if (it == kKnown.end()) return {grpc::StatusCode::UNAUTHENTICATED, "unknown or revoked token"};
    *out = it->second;
    return grpc::Status::OK;
  }
};

class RateLimitedAuthenticatorTest : public ::testing::Test {
 protected:
  grpc::StatusCode Call(const std::string& token) {
    Principal p;
    return auth_.Authenticate(token, &p).error_code();
  }
  // metropolis_rate_limited_total{service="test"}.
  double Refusals() {
    for (const prometheus::MetricFamily& f : registry_.Collect())
      if (f.name == "metropolis_rate_limited_total")
        for (const prometheus::ClientMetric& m : f.metric)
          if (m.label.size() == 1 && m.label[0].name == "service" && m.label[0].value == "test") return m.counter.value;
    return 0;
  }
  FakeAuthenticator inner_;
  services::testing::FakeClock clock_{5000};
  prometheus::Registry registry_;
  services::ProcessMetrics metrics_{&registry_};
  RateLimitedAuthenticator auth_{&inner_, {.per_second = 1, .burst = 2}, "test", &metrics_, &clock_};
};

TEST_F(RateLimitedAuthenticatorTest, EveryTokenOfAnIdentitySharesItsBudget) {
  EXPECT_EQ(Call("alice-1"), grpc::StatusCode::OK);
  EXPECT_EQ(Call("alice-2"), grpc::StatusCode::OK);
  EXPECT_EQ(Call("alice-1"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Call("alice-2"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Call("bob"), grpc::StatusCode::OK);  // another identity, another budget
  clock_.Advance(1000);
  EXPECT_EQ(Call("alice-2"), grpc::StatusCode::OK);
}

TEST_F(RateLimitedAuthenticatorTest, TheRefusalSaysWhenToRetry) {
  Principal p;
  ASSERT_TRUE(auth_.Authenticate("bob", &p).ok());
  ASSERT_TRUE(auth_.Authenticate("bob", &p).ok());
  p = {};
  const grpc::Status s = auth_.Authenticate("bob", &p);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(s.error_message(), "rate limit: 1 calls per second (bursts of 2) for this caller; retry in 1000 ms");
  EXPECT_EQ(p.identity_id, 0);
}

TEST_F(RateLimitedAuthenticatorTest, ServiceTokensAndUnknownTokensAreNotCounted) {
  for (int i = 0; i < 10; ++i) ASSERT_EQ(Call("svc"), grpc::StatusCode::OK);
  for (int i = 0; i < 10; ++i) ASSERT_EQ(Call("nobody"), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Refusals(), 0);
}

TEST_F(RateLimitedAuthenticatorTest, EachRefusalIsCounted) {
  EXPECT_EQ(Call("bob"), grpc::StatusCode::OK);
  EXPECT_EQ(Call("bob"), grpc::StatusCode::OK);
  EXPECT_EQ(Call("bob"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Call("bob"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Refusals(), 2);
}

}  // namespace
}  // namespace metropolis::auth
