// Sign-up, sign-in, sessions and the sign-in limiter with an in-memory store
// and a fake clock (the People service's own rules: services/accounts/tests).
#include "services/gateway/people.h"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <algorithm>

#include "engine/hex.h"
#include "lib/auth/token.h"
#include "lib/common/tests/fake_clock.h"
#include "services/gateway/queue.h"
#include "services/gateway/tests/people_fakes.h"

namespace metropolis::gateway {
namespace {

class PeopleTest : public ::testing::Test {
 protected:
  PeopleTest()
      : people_(
            &store_, &clock_, [this] { return NextToken(); },
            {.session_ttl = std::chrono::hours(1), .limiter = {.max_failures = 3, .window = std::chrono::minutes(5)}}) {
  }

  std::string NextToken() {
    char hex[65];
    snprintf(hex, sizeof hex, "%064x", ++tokens_);
    return hex;
  }

  FakeStore store_;
  services::testing::FakeClock clock_{0, 1'700'000'000'000};
  int tokens_ = 0;
  People people_;
};

TEST_F(PeopleTest, SignUpStartsASessionThatTheCookieFinds) {
  Session session, found;
  std::string cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &session, &cookie, &error)) << error.message;
  EXPECT_EQ(session.person.name, "alice");
  EXPECT_EQ(session.expires_unix_ms, clock_.UnixMillis() + 3'600'000);
  // The store holds the cookie's hash, never the cookie.
  EXPECT_EQ(store_.sessions.count(cookie), 0u);
  EXPECT_EQ(store_.sessions.count(auth::Sha256(cookie)), 1u);
  ASSERT_TRUE(people_.Authenticate(cookie, &found, &error));
  EXPECT_EQ(found.person.id, session.person.id);
  EXPECT_EQ(store_.people[session.person.id].second, "hash:correct horse");
}

TEST_F(PeopleTest, SignUpRefusesBadNamesAndPasswordsAndChangesNothing) {
  Session session;
  std::string cookie;
  ApiError error;
  EXPECT_FALSE(people_.SignUp("no spaces", "correct horse", &session, &cookie, &error));
  EXPECT_EQ(error.http, 400);
  EXPECT_EQ(error.parameter, "name");
  EXPECT_FALSE(people_.SignUp(std::string(65, 'a'), "correct horse", &session, &cookie, &error));
  EXPECT_EQ(error.parameter, "name");
  EXPECT_FALSE(people_.SignUp("alice", "1234567", &session, &cookie, &error));
  EXPECT_EQ(error.parameter, "password");
  EXPECT_EQ(error.message, "password: must be 8 to 128 bytes, not 7");
  EXPECT_FALSE(people_.SignUp("alice", std::string(129, 'x'), &session, &cookie, &error));
  EXPECT_EQ(error.parameter, "password");
  EXPECT_TRUE(store_.people.empty());
  EXPECT_TRUE(store_.sessions.empty());
  // The bounds themselves are allowed.
  EXPECT_TRUE(people_.SignUp("a", "12345678", &session, &cookie, &error)) << error.message;
  EXPECT_TRUE(people_.SignUp(std::string(64, 'b'), std::string(128, 'x'), &session, &cookie, &error));
}

TEST_F(PeopleTest, ATakenNameInAnyCaseIsAConflict) {
  Session session;
  std::string cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &session, &cookie, &error));
  EXPECT_FALSE(people_.SignUp("ALICE", "another pass", &session, &cookie, &error));
  EXPECT_EQ(error.http, 409);
  EXPECT_EQ(error.parameter, "name");
  EXPECT_EQ(store_.people.size(), 1u);
}

TEST_F(PeopleTest, WrongPasswordAndUnknownNameGetTheSameAnswer) {
  Session session;
  std::string cookie;
  ApiError wrong, unknown, malformed;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &session, &cookie, &wrong));
  EXPECT_FALSE(people_.SignIn("alice", "battery staple", "10.0.0.1", &session, &cookie, &wrong));
  EXPECT_FALSE(people_.SignIn("bob", "battery staple", "10.0.0.1", &session, &cookie, &unknown));
  EXPECT_FALSE(people_.SignIn("b o b", "battery staple", "10.0.0.1", &session, &cookie, &malformed));
  for (const ApiError* e : {&wrong, &unknown, &malformed}) {
    EXPECT_EQ(e->http, 401);
    EXPECT_EQ(e->message, "wrong name or password");
    EXPECT_EQ(e->parameter, "");
  }
  ASSERT_TRUE(people_.SignIn("Alice", "correct horse", "10.0.0.1", &session, &cookie, &wrong)) << wrong.message;
  EXPECT_EQ(session.person.name, "alice");
}

TEST_F(PeopleTest, SignInIsLimitedPerNameAndAddress) {
  Session session;
  std::string cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &session, &cookie, &error));
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(people_.SignIn("alice", "guess" + std::to_string(i), "1.2.3.4", &session, &cookie, &error));
  // Refused before the password is looked at, even the right one.
  const int lookups = store_.password_lookups;
  EXPECT_FALSE(people_.SignIn("alice", "correct horse", "1.2.3.4", &session, &cookie, &error));
  EXPECT_EQ(error.http, 429);
  EXPECT_EQ(store_.password_lookups, lookups);
  EXPECT_EQ(people_.SignInRetryAfterMs("alice", "1.2.3.4"), 5 * 60'000);
  EXPECT_EQ(people_.SignInRetryAfterMs("alice", "5.6.7.8"), 0);
  // Another address, and the same name in another case from the first one.
  EXPECT_TRUE(people_.SignIn("alice", "correct horse", "5.6.7.8", &session, &cookie, &error)) << error.message;
  EXPECT_FALSE(people_.SignIn("ALICE", "correct horse", "1.2.3.4", &session, &cookie, &error));
  EXPECT_EQ(error.http, 429);
  clock_.Advance(5 * 60'000);
  EXPECT_TRUE(people_.SignIn("alice", "correct horse", "1.2.3.4", &session, &cookie, &error)) << error.message;
}

TEST_F(PeopleTest, SessionsExpireAndSignOutEndsThem) {
  Session session, found;
  std::string cookie, second;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &session, &cookie, &error));
  ASSERT_TRUE(people_.SignIn("alice", "correct horse", "1.2.3.4", &found, &second, &error));
  EXPECT_NE(cookie, second);
  ASSERT_TRUE(people_.SignOut(session, &error));
  EXPECT_FALSE(people_.Authenticate(cookie, &found, &error));
  EXPECT_EQ(error.http, 401);
  EXPECT_EQ(error.message, "not signed in");
  // The other session is untouched, until it expires (fixed, not sliding).
  clock_.Advance(3'600'000 - 1);
  EXPECT_TRUE(people_.Authenticate(second, &found, &error));
  clock_.Advance(1);
  EXPECT_FALSE(people_.Authenticate(second, &found, &error));
  EXPECT_EQ(error.http, 401);
}

TEST_F(PeopleTest, CookiesOfAnotherShapeAreNotLookedUp) {
  Session found;
  ApiError error;
  for (const char* cookie : {"", "abc", "mtp_0000", "../../etc/passwd"}) {
    EXPECT_FALSE(people_.Authenticate(cookie, &found, &error)) << cookie;
    EXPECT_EQ(error.http, 401);
  }
  EXPECT_FALSE(people_.Authenticate(std::string(64, 'A'), &found, &error));  // upper-case hex is never issued
}

TEST_F(PeopleTest, AStoreThatIsDownIsUnavailableAndCreatesNobody) {
  Session session;
  std::string cookie;
  ApiError error;
  store_.down = true;
  EXPECT_FALSE(people_.SignUp("alice", "correct horse", &session, &cookie, &error));
  EXPECT_EQ(error.http, 503);
  EXPECT_TRUE(store_.people.empty());
}

TEST(Cookies, ValueAndHeaders) {
  EXPECT_EQ(CookieValue("metropolis_session=abc", "metropolis_session"), "abc");
  EXPECT_EQ(CookieValue("a=1; metropolis_session=abc; b=2", "metropolis_session"), "abc");
  EXPECT_EQ(CookieValue("xmetropolis_session=abc", "metropolis_session"), "");
  EXPECT_EQ(CookieValue("a=1", "metropolis_session"), "");
  EXPECT_EQ(SessionCookie("abc", 60), "metropolis_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Strict");
  EXPECT_EQ(ClearedSessionCookie(), "metropolis_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict");
  EXPECT_EQ(SessionCookie("abc", 60, CookieTransport::kHttpsOnly),
            "metropolis_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Strict; Secure");
  const std::string token = NewSessionToken();
  EXPECT_EQ(token.size(), 64u);
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(token, NewSessionToken());
}

TEST(Digests, Sha256AndHexAreTheStandardOnes) {
  // FIPS 180-2's "abc".
  EXPECT_EQ(HexOf(auth::Sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  unsigned char direct[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>("cookie"), 6, direct);
  EXPECT_EQ(auth::Sha256("cookie"), std::string(reinterpret_cast<const char*>(direct), sizeof direct));
  EXPECT_EQ(HexOf(std::string("\x00\xff", 2)), "00ff");
}

TEST(QueueStateJson, EveryFieldPresentNullWhenAbsent) {
  QueueState q;
  Json j = QueueStateToJson(q);
  EXPECT_EQ(j["state"], "none");
  EXPECT_TRUE(j["ladder"].is_null() && j["game_id"].is_null() && j["seat"].is_null() && j["queue_size"].is_null());
  q.state = "matched";
  q.ladder = "open";
  q.game_id = "m-1";
  q.seat = 2;
  q.queue_size = 5;
  j = QueueStateToJson(q);
  EXPECT_EQ(j["game_id"], "m-1");
  EXPECT_EQ(j["seat"], 2);
  EXPECT_EQ(j["queue_size"], 5);
}

}  // namespace
}  // namespace metropolis::gateway
