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

// The account page (issue 31): a new password signs out every other session of
// the person, and keeps the one asking.
TEST_F(PeopleTest, ANewPasswordEndsTheOtherSessionsAndKeepsThisOne) {
  Session here, phone, cafe, bobs, found;
  std::string here_cookie, phone_cookie, cafe_cookie, bob_cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &here, &here_cookie, &error));
  ASSERT_TRUE(people_.SignIn("alice", "correct horse", "10.0.0.2", &phone, &phone_cookie, &error));
  ASSERT_TRUE(people_.SignIn("alice", "correct horse", "10.0.0.3", &cafe, &cafe_cookie, &error));
  ASSERT_TRUE(people_.SignUp("bob", "bobs password", &bobs, &bob_cookie, &error));
  int ended = -1;
  ASSERT_TRUE(people_.ChangePassword(here, "correct horse", "battery staple", "10.0.0.1", &ended, &error))
      << error.message;
  EXPECT_EQ(ended, 2);
  EXPECT_TRUE(people_.Authenticate(here_cookie, &found, &error));
  EXPECT_FALSE(people_.Authenticate(phone_cookie, &found, &error));
  EXPECT_EQ(error.http, 401);
  EXPECT_FALSE(people_.Authenticate(cafe_cookie, &found, &error));
  EXPECT_TRUE(people_.Authenticate(bob_cookie, &found, &error));  // another person's: untouched
  // The old password no longer signs in; the new one does.
  EXPECT_FALSE(people_.SignIn("alice", "correct horse", "10.0.0.4", &found, &phone_cookie, &error));
  EXPECT_EQ(error.http, 401);
  EXPECT_TRUE(people_.SignIn("alice", "battery staple", "10.0.0.4", &found, &phone_cookie, &error));
}

TEST_F(PeopleTest, AWrongOldPasswordChangesNothingAndCountsAsAFailedSignIn) {
  Session here, phone, found;
  std::string here_cookie, phone_cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &here, &here_cookie, &error));
  ASSERT_TRUE(people_.SignIn("alice", "correct horse", "10.0.0.2", &phone, &phone_cookie, &error));
  int ended = -1;
  EXPECT_FALSE(people_.ChangePassword(here, "correct horsf", "battery staple", "1.2.3.4", &ended, &error));
  EXPECT_EQ(error.http, 401);
  EXPECT_EQ(error.message, "old_password: wrong password");
  EXPECT_EQ(error.parameter, "old_password");
  EXPECT_EQ(store_.people[here.person.id].second, "hash:correct horse");
  EXPECT_TRUE(people_.Authenticate(phone_cookie, &found, &error));
  EXPECT_TRUE(people_.Authenticate(here_cookie, &found, &error));
  // Guessing here is guessing at sign-in: one count for the name and address.
  for (int i = 0; i < 2; ++i)
    EXPECT_FALSE(
        people_.ChangePassword(here, "guess" + std::to_string(i), "battery staple", "1.2.3.4", &ended, &error));
  const int lookups = store_.password_lookups;
  EXPECT_FALSE(people_.ChangePassword(here, "correct horse", "battery staple", "1.2.3.4", &ended, &error));
  EXPECT_EQ(error.http, 429);
  EXPECT_FALSE(people_.SignIn("alice", "correct horse", "1.2.3.4", &found, &phone_cookie, &error));
  EXPECT_EQ(error.http, 429);
  EXPECT_EQ(store_.password_lookups, lookups);
  EXPECT_EQ(store_.people[here.person.id].second, "hash:correct horse");
  EXPECT_TRUE(people_.ChangePassword(here, "correct horse", "battery staple", "5.6.7.8", &ended, &error))
      << error.message;
}

TEST_F(PeopleTest, PasswordChangesAreCheckedByFieldFirst) {
  Session here;
  std::string cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &here, &cookie, &error));
  const int lookups = store_.password_lookups;
  int ended = -1;
  EXPECT_FALSE(people_.ChangePassword(here, "", "battery staple", "1.2.3.4", &ended, &error));
  EXPECT_EQ(error.http, 400);
  EXPECT_EQ(error.message, "old_password: required");
  EXPECT_FALSE(people_.ChangePassword(here, "correct horse", "1234567", "1.2.3.4", &ended, &error));
  EXPECT_EQ(error.parameter, "new_password");
  EXPECT_EQ(error.message, "new_password: must be 8 to 128 bytes, not 7");
  EXPECT_FALSE(people_.ChangePassword(here, "correct horse", std::string(129, 'x'), "1.2.3.4", &ended, &error));
  EXPECT_EQ(error.parameter, "new_password");
  EXPECT_EQ(store_.password_lookups, lookups);
  EXPECT_EQ(store_.people[here.person.id].second, "hash:correct horse");
}

TEST_F(PeopleTest, SessionsAreListedNewestFirstAndEndedByTheirId) {
  Session first, second, third, bobs, found;
  std::string first_cookie, second_cookie, third_cookie, bob_cookie;
  ApiError error;
  ASSERT_TRUE(people_.SignUp("alice", "correct horse", &first, &first_cookie, &error));
  ASSERT_TRUE(people_.SignIn("alice", "correct horse", "1.2.3.4", &second, &second_cookie, &error));
  ASSERT_TRUE(people_.SignIn("alice", "correct horse", "1.2.3.4", &third, &third_cookie, &error));
  ASSERT_TRUE(people_.SignUp("bob", "bobs password", &bobs, &bob_cookie, &error));
  std::vector<SessionInfo> list;
  ASSERT_TRUE(people_.ListSessions(second, &list, &error));
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].id, HexOf(auth::Sha256(third_cookie)).substr(0, 16));
  EXPECT_EQ(list[1].id, HexOf(auth::Sha256(second_cookie)).substr(0, 16));
  EXPECT_EQ(list[2].id, HexOf(auth::Sha256(first_cookie)).substr(0, 16));
  EXPECT_TRUE(!list[0].current && list[1].current && !list[2].current);

  bool signed_out = true;
  for (const std::string& bad :
       std::vector<std::string>{"", "abc", std::string(16, 'A'), std::string(17, 'a'), "../../../../etc/x"}) {
    EXPECT_FALSE(people_.EndSession(second, bad, &signed_out, &error)) << bad;
    EXPECT_EQ(error.http, 400);
    EXPECT_EQ(error.parameter, "session");
  }
  // Bob's session is no session of alice's, and stays.
  const std::string bob_id = HexOf(auth::Sha256(bob_cookie)).substr(0, 16);
  EXPECT_FALSE(people_.EndSession(second, bob_id, &signed_out, &error));
  EXPECT_EQ(error.http, 404);
  EXPECT_EQ(error.message, "session: you have no session " + bob_id);
  EXPECT_TRUE(people_.Authenticate(bob_cookie, &found, &error));

  ASSERT_TRUE(people_.EndSession(second, list[2].id, &signed_out, &error)) << error.message;
  EXPECT_FALSE(signed_out);
  EXPECT_FALSE(people_.Authenticate(first_cookie, &found, &error));
  EXPECT_TRUE(people_.Authenticate(second_cookie, &found, &error));
  EXPECT_FALSE(people_.EndSession(second, list[2].id, &signed_out, &error));
  EXPECT_EQ(error.http, 404);
  // Ending this one is signing out.
  ASSERT_TRUE(people_.EndSession(second, list[1].id, &signed_out, &error));
  EXPECT_TRUE(signed_out);
  EXPECT_FALSE(people_.Authenticate(second_cookie, &found, &error));
  EXPECT_TRUE(people_.Authenticate(third_cookie, &found, &error));
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
