// The People service and the Accounts service's public reads through a real
// gRPC server: who may call them, sign-up and sign-in, sessions, held seats and
// people's queue tokens. Built twice, as service_test.cc is: over the stores'
// fakes (tests/fake_stores.h, hermetic), and with METROPOLIS_ACCOUNTS_ON_POSTGRES
// over a fresh database (label integration), which holds the fakes to the real
// stores. What a case plants or reads behind the service's back is one helper
// with a body for each.
#include "services/accounts/people_service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <latch>
#include <thread>

#include "services/accounts/authenticator.h"
#include "services/accounts/seat_sealer.h"
#include "services/accounts/tests/service_fixture.h"
#include "services/accounts/token.h"

#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
#include "services/accounts/pg_catalog_store.h"
#include "services/accounts/pg_people_store.h"
#endif

namespace metropolis::accounts {
namespace {

constexpr char kGatewayToken[] = "gateway-service-secret";

// The real hasher, counting verifications: an unknown name must cost one too.
// `after_verify`, when set, runs after each verification (a test's rendezvous).
class CountingHasher : public PasswordHasher {
 public:
  bool Hash(std::string_view password, std::string* out) override { return real_.Hash(password, out); }
  bool Verify(std::string_view password, const std::string& hash) override {
    ++verifications;
    const bool right = real_.Verify(password, hash);
    if (after_verify) after_verify();
    return right;
  }
  std::atomic<int> verifications{0};
  std::function<void()> after_verify;

 private:
  SodiumPasswordHasher real_;
};

class PeopleServiceTest : public testing::AccountsServiceTest {
 protected:
  void SetUp() override {
    AccountsServiceTest::SetUp();
    ASSERT_FALSE(HasFatalFailure());
    // A second server beside the fixture's: People and the public reads, the
    // gateway's token known as the matchmaker's wiring knows it.
    gateway_auth_ = std::make_unique<TokenAuthenticator>(
        accounts_.get(),
        std::vector<std::pair<std::string, std::string>>{{testing::kGameHostToken, std::string(kGameHostRole)},
                                                         {kGatewayToken, std::string(kGatewayRole)}},
        auth::TokenAuthenticatorOptions{.ttl_ms = 0});
#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
    people_store_ = std::make_unique<PgPeopleStore>(pool_.get(), &sealer_);
    catalog_ = std::make_unique<PgCatalogStore>(pool_.get());
#else
    people_store_ = std::make_unique<testing::FakePeopleStore>(&db_);
    catalog_ = std::make_unique<testing::FakeCatalogStore>(&db_);
#endif
    people_ = std::make_unique<PeopleService>(people_store_.get(), accounts_.get(), &hasher_, gateway_auth_.get());
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(people_.get());
    reads_ = RegisterAccountsService(builder, accounts_.get(), ladders_.get(), gateway_auth_.get(), catalog_.get());
    server2_ = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
    people_stub_ = v1::People::NewStub(channel);
    reads_stub_ = v1::Accounts::NewStub(channel);
  }
  void TearDown() override {
    if (server2_) server2_->Shutdown();
    AccountsServiceTest::TearDown();
  }

  template <typename Stub, typename Request, typename Response>
  static grpc::Status On(Stub& stub, grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                         const Request& request, Response* response, const std::string& token = kGatewayToken) {
    grpc::ClientContext context;
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return (stub.*method)(&context, request, response);
  }
  template <typename Request, typename Response>
  grpc::Status People(grpc::Status (v1::People::Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                      const Request& request, Response* response, const std::string& token = kGatewayToken) {
    return On(*people_stub_, method, request, response, token);
  }

  grpc::Status SignUp(const std::string& name, const std::string& password, v1::Person* out = nullptr) {
    v1::SignUpRequest request;
    request.set_name(name);
    request.set_password(password);
    v1::Person person;
    const grpc::Status s = People(&v1::People::Stub::SignUp, request, &person);
    if (out) *out = person;
    return s;
  }
  grpc::Status Check(const std::string& name, const std::string& password, v1::Person* out = nullptr) {
    v1::CheckPasswordRequest request;
    request.set_name(name);
    request.set_password(password);
    v1::Person person;
    const grpc::Status s = People(&v1::People::Stub::CheckPassword, request, &person);
    if (out) *out = person;
    return s;
  }
  grpc::Status NewSession(const std::string& sha, int64_t identity_id, int64_t expires) {
    v1::CreateSessionRequest request;
    request.set_token_sha256(sha);
    request.set_identity_id(identity_id);
    request.set_expires_unix_ms(expires);
    v1::CreateSessionResponse response;
    return People(&v1::People::Stub::CreateSession, request, &response);
  }
  grpc::Status FindSession(const std::string& sha, int64_t now, v1::WebSession* out = nullptr) {
    v1::FindSessionRequest request;
    request.set_token_sha256(sha);
    request.set_now_unix_ms(now);
    v1::WebSession session;
    const grpc::Status s = People(&v1::People::Stub::FindSession, request, &session);
    if (out) *out = session;
    return s;
  }

  // The account page's calls.
  grpc::Status ChangePassword(int64_t id, const std::string& old_password, const std::string& new_password,
                              const std::string& keep, uint32_t* ended = nullptr) {
    v1::ChangePasswordRequest request;
    request.set_identity_id(id);
    request.set_old_password(old_password);
    request.set_new_password(new_password);
    request.set_keep_token_sha256(keep);
    v1::ChangePasswordResponse response;
    const grpc::Status s = People(&v1::People::Stub::ChangePassword, request, &response);
    if (ended) *ended = response.sessions_ended();
    return s;
  }
  grpc::Status ListSessions(int64_t id, int64_t now, const std::string& current, v1::ListSessionsResponse* out) {
    v1::ListSessionsRequest request;
    request.set_identity_id(id);
    request.set_now_unix_ms(now);
    request.set_current_token_sha256(current);
    return People(&v1::People::Stub::ListSessions, request, out);
  }
  grpc::Status EndSession(int64_t id, const std::string& session_id) {
    v1::EndSessionRequest request;
    request.set_identity_id(id);
    request.set_id(session_id);
    v1::EndSessionResponse response;
    return People(&v1::People::Stub::EndSession, request, &response);
  }
  static int64_t WallMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  // The fixture's tables and the people's (the fake's snapshot has them all).
  std::string PeopleSnapshot() {
    std::string out = Snapshot();
#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    for (const char* table : {"player_passwords", "web_sessions", "web_seats"}) {
      out += std::string(table) + ":\n";
      for (const auto& row :
           tx.exec(std::string("SELECT row_to_json(t)::text FROM ") + table + " t ORDER BY row_to_json(t)::text"))
        out += row[0].as<std::string>() + "\n";
    }
#endif
    return out;
  }

  // The password hash stored for `identity_id`.
  std::string StoredHash(int64_t identity_id) {
#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    return tx.exec_params1("SELECT password_hash FROM player_passwords WHERE identity_id = $1", identity_id)[0]
        .as<std::string>();
#else
    std::lock_guard lock(db_.mutex);
    return db_.passwords.at(identity_id);
#endif
  }

  // What migrations/accounts/0030 leaves behind when `person`, now "Alice-9", was
  // "Alice", and so was a bot of hers, "helper", now "Helper-10".
  void PlantMigrationRenames(int64_t person) {
#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    const int64_t bot = tx.exec_params1(
                              "INSERT INTO identities (kind, name, owner_id) VALUES ('bot', 'Helper-10', $1) "
                              "RETURNING id",
                              person)[0]
                            .as<int64_t>();
    tx.exec_params(
        "INSERT INTO identity_renames (identity_id, old_name, new_name) VALUES ($1, 'Alice', 'Alice-9'), "
        "($2, 'helper', 'Helper-10')",
        person, bot);
    tx.commit();
#else
    std::lock_guard lock(db_.mutex);
    const int64_t bot = db_.AddIdentity("bot", "Helper-10", person);
    db_.renames.push_back({{person, "Alice", "Alice-9"}, false});
    db_.renames.push_back({{bot, "helper", "Helper-10"}, false});
#endif
  }

  // Renames no one has been told of yet.
  int UntoldRenames() {
#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    return tx.exec1("SELECT count(*) FROM identity_renames WHERE told_at IS NULL")[0].as<int>();
#else
    std::lock_guard lock(db_.mutex);
    return int(std::count_if(db_.renames.begin(), db_.renames.end(), [](const auto& r) { return !r.told; }));
#endif
  }

  CountingHasher hasher_;
  const SeatSealer sealer_{std::string(32, 's')};  // the PostgreSQL store's seat key
  std::unique_ptr<TokenAuthenticator> gateway_auth_;
  std::unique_ptr<PeopleStore> people_store_;
  std::unique_ptr<CatalogStore> catalog_;
  std::unique_ptr<PeopleService> people_;
  std::unique_ptr<AccountsService> reads_;
  std::unique_ptr<grpc::Server> server2_;
  std::unique_ptr<v1::People::Stub> people_stub_;
  std::unique_ptr<v1::Accounts::Stub> reads_stub_;
};

TEST_F(PeopleServiceTest, OnlyTheGatewaysTokenMayCall) {
  const std::string before = PeopleSnapshot();
  v1::Person person;
  v1::SignUpRequest request;
  request.set_name("alice");
  request.set_password("correct horse");
  EXPECT_EQ(People(&v1::People::Stub::SignUp, request, &person, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(People(&v1::People::Stub::SignUp, request, &person, "mtp_nothing").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // An administrator is not the gateway, nor is another service.
  EXPECT_EQ(People(&v1::People::Stub::SignUp, request, &person, admin_token_).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(People(&v1::People::Stub::SignUp, request, &person, testing::kGameHostToken).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(PeopleSnapshot(), before);
  EXPECT_TRUE(SignUp("alice", "correct horse").ok());
}

TEST_F(PeopleServiceTest, SignUpThenTheRightPasswordOnlySignsIn) {
  v1::Person alice, found;
  ASSERT_TRUE(SignUp("Alice", "correct horse", &alice).ok());
  EXPECT_GT(alice.identity_id(), 0);
  EXPECT_EQ(alice.name(), "Alice");
  // Any letter case finds her; the name comes back as created.
  ASSERT_TRUE(Check("alice", "correct horse", &found).ok());
  EXPECT_EQ(found.identity_id(), alice.identity_id());
  EXPECT_EQ(found.name(), "Alice");
  const grpc::Status wrong = Check("Alice", "correct horsf");
  EXPECT_EQ(wrong.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(wrong.error_message(), "wrong name or password");
  // The hash never leaves: not even a hash-shaped answer.
  EXPECT_EQ(StoredHash(alice.identity_id()).rfind("$argon2id$", 0), 0u);
  EXPECT_EQ(found.DebugString().find("argon2"), std::string::npos);
}

TEST_F(PeopleServiceTest, UnknownNamesAndPasswordlessIdentitiesGetTheSameAnswerAtTheSameCost) {
  Player("operator");  // made by an administrator: no password
  for (const char* name : {"nobody", "operator", "b o b"}) {
    const int before = hasher_.verifications;
    const grpc::Status s = Check(name, "correct horse");
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << name;
    EXPECT_EQ(s.error_message(), "wrong name or password") << name;
    EXPECT_EQ(hasher_.verifications, before + 1) << name;
  }
}

TEST_F(PeopleServiceTest, ATakenNameInAnyCaseIsRefusedAndChangesNothing) {
  ASSERT_TRUE(SignUp("alice", "correct horse").ok());
  Player("Root2");
  const std::string before = PeopleSnapshot();
  EXPECT_EQ(SignUp("ALICE", "another pass").error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(SignUp("root2", "another pass").error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(PeopleSnapshot(), before);
  // The first password still holds, the second never did.
  EXPECT_TRUE(Check("alice", "correct horse").ok());
  EXPECT_FALSE(Check("alice", "another pass").ok());
}

// Names that differed only in case were renamed once by a migration
// (migrations/accounts/0030, issue #14): the person so renamed still signs in
// with the old name, exactly as it was, until told; the answer tells them of
// their own rename and their bots', once; the older name's owner is untouched.
TEST_F(PeopleServiceTest, APersonRenamedByAMigrationIsToldOnceAtTheNextSignIn) {
  v1::Person older, renamed, found;
  ASSERT_TRUE(SignUp("alice", "older password", &older).ok());
  ASSERT_TRUE(SignUp("Alice-9", "renamed password", &renamed).ok());
  PlantMigrationRenames(renamed.identity_id());
  // The old name in another case is the older person's, and not her password.
  EXPECT_EQ(Check("ALICE", "renamed password").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(Check("Alice", "renamed password", &found).ok());
  EXPECT_EQ(found.identity_id(), renamed.identity_id());
  EXPECT_EQ(found.name(), "Alice-9");
  ASSERT_EQ(found.renamed_size(), 2);
  EXPECT_EQ(found.renamed(0).old_name(), "Alice");
  EXPECT_EQ(found.renamed(0).new_name(), "Alice-9");
  EXPECT_EQ(found.renamed(1).old_name(), "helper");
  EXPECT_EQ(found.renamed(1).new_name(), "Helper-10");
  // Told once: the old name no longer signs in, the new one does, quietly.
  EXPECT_EQ(Check("Alice", "renamed password").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(Check("alice-9", "renamed password", &found).ok());
  EXPECT_EQ(found.renamed_size(), 0);
  // The older "alice" was never renamed and is never told anything.
  ASSERT_TRUE(Check("Alice", "older password", &found).ok());
  EXPECT_EQ(found.identity_id(), older.identity_id());
  EXPECT_EQ(found.renamed_size(), 0);
  EXPECT_EQ(UntoldRenames(), 0);
}

TEST_F(PeopleServiceTest, BadNamesAndPasswordsAreRefusedByName) {
  const std::string before = PeopleSnapshot();
  grpc::Status s = SignUp("no spaces", "correct horse");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("name: ", 0), 0u) << s.error_message();
  // Dots alone are path segments: the person's page could never be reached.
  for (const std::string dots : {".", ".."}) {
    s = SignUp(dots, "correct horse");
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << dots;
    EXPECT_EQ(s.error_message().rfind("name: '" + dots + "' is not a name", 0), 0u) << s.error_message();
  }
  s = SignUp("alice", "1234567");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "password: must be 8 to 128 bytes, not 7");
  EXPECT_EQ(SignUp("alice", std::string(129, 'x')).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(PeopleSnapshot(), before);
}

TEST_F(PeopleServiceTest, SessionsExpireAndSignOutEndsThem) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  const std::string a = Sha256("cookie a"), b = Sha256("cookie b");
  // The gateway's clock, near PostgreSQL's: sessions a day past their end go
  // when the next one is made.
  const int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  ASSERT_TRUE(NewSession(a, alice.identity_id(), now + 60'000).ok());
  ASSERT_TRUE(NewSession(b, alice.identity_id(), now + 60'000).ok());
  v1::WebSession found;
  ASSERT_TRUE(FindSession(a, now, &found).ok());
  EXPECT_EQ(found.person().name(), "alice");
  EXPECT_EQ(found.expires_unix_ms(), now + 60'000);
  EXPECT_EQ(FindSession(a, now + 60'000).error_code(), grpc::StatusCode::NOT_FOUND);  // expired at that instant
  EXPECT_EQ(FindSession(Sha256("never issued"), now).error_code(), grpc::StatusCode::NOT_FOUND);

  v1::DeleteSessionRequest out;
  out.set_token_sha256(a);
  v1::DeleteSessionResponse ignored;
  ASSERT_TRUE(People(&v1::People::Stub::DeleteSession, out, &ignored).ok());
  EXPECT_EQ(FindSession(a, now).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(FindSession(b, now).ok());                                      // the other session is untouched
  EXPECT_TRUE(People(&v1::People::Stub::DeleteSession, out, &ignored).ok());  // again: nothing to do
}

TEST_F(PeopleServiceTest, SessionsAreForPeopleAndKeyedBySha256) {
  const v1::Identity operator_ = Player("operator");
  const std::string before = PeopleSnapshot();
  EXPECT_EQ(NewSession(Sha256("x"), operator_.id(), 1).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(NewSession("short", operator_.id(), 1).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(FindSession("short", 1).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(PeopleSnapshot(), before);
}

// The account page (issue 31): a new password ends every other session of the
// person in the same transaction, and keeps the one asking.
TEST_F(PeopleServiceTest, ANewPasswordEndsTheOtherSessionsAndKeepsThisOne) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "bobs password", &bob).ok());
  const int64_t now = WallMs();
  const std::string here = Sha256("here"), phone = Sha256("phone"), cafe = Sha256("cafe"), stale = Sha256("stale"),
                    bobs = Sha256("bob's");
  for (const std::string& sha : {here, phone, cafe})
    ASSERT_TRUE(NewSession(sha, alice.identity_id(), now + 60'000).ok());
  ASSERT_TRUE(NewSession(stale, alice.identity_id(), now - 1'000).ok());  // expired: not counted
  ASSERT_TRUE(NewSession(bobs, bob.identity_id(), now + 60'000).ok());
  const std::string before = StoredHash(alice.identity_id());

  uint32_t ended = 99;
  const grpc::Status s = ChangePassword(alice.identity_id(), "correct horse", "battery staple", here, &ended);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(ended, 2u);
  EXPECT_TRUE(FindSession(here, now).ok());
  EXPECT_EQ(FindSession(phone, now).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(FindSession(cafe, now).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(FindSession(bobs, now).ok());  // another person's: untouched
  v1::ListSessionsResponse left;
  ASSERT_TRUE(ListSessions(alice.identity_id(), now, here, &left).ok());
  ASSERT_EQ(left.sessions_size(), 1);
  EXPECT_EQ(left.sessions(0).id(), people::SessionId(here));
  // The old password no longer signs in; the new one does; the hash is new.
  EXPECT_EQ(Check("alice", "correct horse").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(Check("alice", "battery staple").ok());
  EXPECT_NE(StoredHash(alice.identity_id()), before);
  EXPECT_EQ(StoredHash(alice.identity_id()).rfind("$argon2id$", 0), 0u);
  EXPECT_TRUE(Check("bob", "bobs password").ok());

  // Alone now: the next change ends nothing.
  ASSERT_TRUE(ChangePassword(alice.identity_id(), "battery staple", "correct horse", here, &ended).ok());
  EXPECT_EQ(ended, 0u);
  EXPECT_TRUE(FindSession(here, now).ok());
}

TEST_F(PeopleServiceTest, AWrongOldPasswordChangesNothing) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "bobs password", &bob).ok());
  const int64_t now = WallMs();
  const std::string here = Sha256("here"), phone = Sha256("phone");
  ASSERT_TRUE(NewSession(here, alice.identity_id(), now + 60'000).ok());
  ASSERT_TRUE(NewSession(phone, alice.identity_id(), now + 60'000).ok());
  const std::string before = PeopleSnapshot();
  // Wrong, too long to be anyone's, empty, and bob's password for alice.
  for (const std::string& old :
       {std::string("correct horsf"), std::string(129, 'x'), std::string(), std::string("bobs password")}) {
    const grpc::Status s = ChangePassword(alice.identity_id(), old, "battery staple", here);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << old;
    EXPECT_EQ(s.error_message(), "wrong password") << old;
  }
  // Alice's password is not bob's either.
  EXPECT_EQ(ChangePassword(bob.identity_id(), "correct horse", "battery staple", here).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(PeopleSnapshot(), before);
  EXPECT_TRUE(FindSession(phone, now).ok());
  EXPECT_TRUE(Check("alice", "correct horse").ok());
  EXPECT_FALSE(Check("alice", "battery staple").ok());
  EXPECT_TRUE(Check("bob", "bobs password").ok());
}

TEST_F(PeopleServiceTest, AccountCallsAreCheckedByFieldAndForTheGatewayOnly) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  const int64_t id = alice.identity_id();
  const std::string here = Sha256("here");
  ASSERT_TRUE(NewSession(here, id, WallMs() + 60'000).ok());
  const std::string before = PeopleSnapshot();
  auto refused = [](const grpc::Status& s, const std::string& message) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_EQ(s.error_message(), message);
  };
  refused(ChangePassword(0, "correct horse", "battery staple", here),
          "identity_id: 0 is not an identity id (a positive integer)");
  refused(ChangePassword(id, "correct horse", "1234567", here), "new_password: must be 8 to 128 bytes, not 7");
  refused(ChangePassword(id, "correct horse", std::string(129, 'x'), here),
          "new_password: must be 8 to 128 bytes, not 129");
  refused(ChangePassword(id, "correct horse", "battery staple", "short"),
          "keep_token_sha256: 5 bytes, not the 32 of a SHA-256");
  refused(ChangePassword(id, "correct horse", "battery staple", ""),
          "keep_token_sha256: 0 bytes, not the 32 of a SHA-256");
  v1::ListSessionsResponse list;
  refused(ListSessions(-1, WallMs(), here, &list), "identity_id: -1 is not an identity id (a positive integer)");
  refused(ListSessions(id, WallMs(), "short", &list), "current_token_sha256: 5 bytes, not the 32 of a SHA-256");
  refused(EndSession(0, people::SessionId(here)), "identity_id: 0 is not an identity id (a positive integer)");
  for (const std::string bad : {"", "0123", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcdef0"})
    EXPECT_EQ(EndSession(id, bad).error_message(), "id: '" + bad + "' is not a session id (16 lower-case hex digits)");
  // Only the gateway: nobody else may change or end anyone's.
  for (const std::string& token : {std::string(), admin_token_, std::string(testing::kGameHostToken)}) {
    const grpc::StatusCode want =
        token.empty() ? grpc::StatusCode::UNAUTHENTICATED : grpc::StatusCode::PERMISSION_DENIED;
    v1::ChangePasswordRequest change;
    change.set_identity_id(id);
    change.set_old_password("correct horse");
    change.set_new_password("battery staple");
    change.set_keep_token_sha256(here);
    v1::ChangePasswordResponse changed;
    EXPECT_EQ(People(&v1::People::Stub::ChangePassword, change, &changed, token).error_code(), want);
    v1::ListSessionsRequest ask;
    ask.set_identity_id(id);
    EXPECT_EQ(People(&v1::People::Stub::ListSessions, ask, &list, token).error_code(), want);
    v1::EndSessionRequest end;
    end.set_identity_id(id);
    end.set_id(people::SessionId(here));
    v1::EndSessionResponse ended;
    EXPECT_EQ(People(&v1::People::Stub::EndSession, end, &ended, token).error_code(), want);
  }
  EXPECT_EQ(PeopleSnapshot(), before);
  EXPECT_TRUE(Check("alice", "correct horse").ok());
  // An operator made by an administrator has no password to change.
  EXPECT_EQ(ChangePassword(Player("operator").id(), "correct horse", "battery staple", here).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(PeopleServiceTest, SessionsAreListedNewestFirstAndEndedByTheirId) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "bobs password", &bob).ok());
  const int64_t now = WallMs();
  const std::string first = Sha256("first"), second = Sha256("second"), third = Sha256("third"),
                    expired = Sha256("expired"), bobs = Sha256("bob's");
  ASSERT_TRUE(NewSession(first, alice.identity_id(), now + 10'000).ok());
  ASSERT_TRUE(NewSession(expired, alice.identity_id(), now - 1).ok());
  ASSERT_TRUE(NewSession(second, alice.identity_id(), now + 20'000).ok());
  ASSERT_TRUE(NewSession(third, alice.identity_id(), now + 30'000).ok());
  ASSERT_TRUE(NewSession(bobs, bob.identity_id(), now + 60'000).ok());

  v1::ListSessionsResponse list;
  ASSERT_TRUE(ListSessions(alice.identity_id(), now, second, &list).ok());
  ASSERT_EQ(list.sessions_size(), 3);
  const std::string ids[] = {people::SessionId(third), people::SessionId(second), people::SessionId(first)};
  for (int i = 0; i < 3; ++i) {
    const v1::SessionInfo& s = list.sessions(i);
    EXPECT_EQ(s.id(), ids[i]) << i;
    EXPECT_EQ(s.id().size(), 16u);
    EXPECT_EQ(s.expires_unix_ms(), now + 10'000 * (3 - i)) << i;
    EXPECT_EQ(s.current(), i == 1) << i;
    if (i > 0) {
      EXPECT_GE(list.sessions(i - 1).created_unix_ms(), s.created_unix_ms());
    }
  }
  // The hashes never leave: the id is no more than their first 8 bytes.
  EXPECT_EQ(list.DebugString().find(HexOf(second)), std::string::npos);
  // Expiry on the caller's clock; no current session named, none marked.
  ASSERT_TRUE(ListSessions(alice.identity_id(), now + 15'000, "", &list).ok());
  ASSERT_EQ(list.sessions_size(), 2);
  EXPECT_FALSE(list.sessions(0).current() || list.sessions(1).current());

  // Bob's session, by its id, is no session of alice's: refused as an unknown
  // one, and left as it was.
  const std::string before = PeopleSnapshot();
  const grpc::Status others = EndSession(alice.identity_id(), people::SessionId(bobs));
  EXPECT_EQ(others.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(others.error_message(), "you have no session with id '" + people::SessionId(bobs) + "'");
  EXPECT_EQ(EndSession(alice.identity_id(), "0000000000000000").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(PeopleSnapshot(), before);
  EXPECT_TRUE(FindSession(bobs, now).ok());

  ASSERT_TRUE(EndSession(alice.identity_id(), people::SessionId(first)).ok());
  EXPECT_EQ(FindSession(first, now).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(FindSession(second, now).ok());
  EXPECT_TRUE(FindSession(third, now).ok());
  EXPECT_EQ(EndSession(alice.identity_id(), people::SessionId(first)).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(ListSessions(alice.identity_id(), now, second, &list).ok());
  ASSERT_EQ(list.sessions_size(), 2);
  EXPECT_EQ(list.sessions(1).id(), people::SessionId(second));
  // Bob's list is his alone.
  ASSERT_TRUE(ListSessions(bob.identity_id(), now, bobs, &list).ok());
  ASSERT_EQ(list.sessions_size(), 1);
  EXPECT_TRUE(list.sessions(0).current());
}

// Two changes at once, both from the old password, both verified before either
// writes (the hasher holds each until the other has verified too): one wins, and
// the other, checked again against the hash the first left, is a wrong password.
// Without the guard both would succeed, the second undoing the first.
TEST_F(PeopleServiceTest, OfTwoConcurrentChangesOneWinsTheOtherIsAWrongPassword) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  const std::string here = Sha256("here");
  ASSERT_TRUE(NewSession(here, alice.identity_id(), WallMs() + 60'000).ok());
  std::latch both_verified(2);
  std::atomic<int> held{0};
  hasher_.after_verify = [&] {
    if (++held <= 2) both_verified.arrive_and_wait();
  };
  std::future<grpc::Status> a = std::async(
      std::launch::async, [&] { return ChangePassword(alice.identity_id(), "correct horse", "first new one", here); });
  std::future<grpc::Status> b = std::async(
      std::launch::async, [&] { return ChangePassword(alice.identity_id(), "correct horse", "second new one", here); });
  const grpc::Status sa = a.get(), sb = b.get();
  hasher_.after_verify = nullptr;
  ASSERT_NE(sa.ok(), sb.ok()) << sa.error_message() << " / " << sb.error_message();
  const grpc::Status& lost = sa.ok() ? sb : sa;
  EXPECT_EQ(lost.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(lost.error_message(), "wrong password");
  const std::string won = sa.ok() ? "first new one" : "second new one",
                    other = sa.ok() ? "second new one" : "first new one";
  EXPECT_TRUE(Check("alice", won).ok());
  EXPECT_FALSE(Check("alice", other).ok());
  EXPECT_FALSE(Check("alice", "correct horse").ok());
}

TEST_F(PeopleServiceTest, HeldSeatsAreSavedFoundAndFinished) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "correct horse", &bob).ok());
  auto save = [&](int64_t id, const std::string& game, int seat) {
    v1::SaveSeatRequest request;
    request.set_identity_id(id);
    request.mutable_seat()->set_game_id(game);
    request.mutable_seat()->set_host("127.0.0.1:1");
    request.mutable_seat()->set_seat_token("seat-" + game);
    request.mutable_seat()->set_seat(uint32_t(seat));
    v1::SaveSeatResponse ignored;
    return People(&v1::People::Stub::SaveSeat, request, &ignored);
  };
  auto latest = [&](int64_t id, v1::WebSeat* out) {
    v1::LatestOpenSeatRequest request;
    request.set_identity_id(id);
    return People(&v1::People::Stub::LatestOpenSeat, request, out);
  };
  v1::WebSeat seat;
  EXPECT_EQ(latest(alice.identity_id(), &seat).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(save(alice.identity_id(), "g-1", 2).ok());
  ASSERT_TRUE(save(alice.identity_id(), "g-2", 0).ok());
  ASSERT_TRUE(latest(alice.identity_id(), &seat).ok());
  EXPECT_EQ(seat.game_id(), "g-2");
  EXPECT_EQ(seat.seat_token(), "seat-g-2");

  v1::FindSeatRequest find;
  find.set_identity_id(alice.identity_id());
  find.set_game_id("g-1");
  ASSERT_TRUE(People(&v1::People::Stub::FindSeat, find, &seat).ok());
  EXPECT_EQ(seat.seat(), 2u);
  find.set_identity_id(bob.identity_id());  // bob holds no seat there
  EXPECT_EQ(People(&v1::People::Stub::FindSeat, find, &seat).error_code(), grpc::StatusCode::NOT_FOUND);

  v1::FinishSeatRequest finish;
  finish.set_identity_id(alice.identity_id());
  finish.set_game_id("g-2");
  v1::FinishSeatResponse ignored;
  ASSERT_TRUE(People(&v1::People::Stub::FinishSeat, finish, &ignored).ok());
  ASSERT_TRUE(latest(alice.identity_id(), &seat).ok());
  EXPECT_EQ(seat.game_id(), "g-1");

  const std::string before = PeopleSnapshot();
  EXPECT_EQ(save(alice.identity_id(), "", 0).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(save(0, "g-3", 0).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(PeopleSnapshot(), before);
}

// Practice slots (the gateway's --max-practice-games): reserved before the game
// is created, filled in by SaveSeat, freed by FinishSeat.
TEST_F(PeopleServiceTest, PracticeSeatsAreReservedUpToTheLimitAndFreedByFinishing) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "correct horse", &bob).ok());
  auto reserve = [&](int64_t id, const std::string& game, uint32_t max_open = 2) {
    v1::ReservePracticeSeatRequest request;
    request.set_identity_id(id);
    request.set_game_id(game);
    request.set_max_open(max_open);
    v1::ReservePracticeSeatResponse ignored;
    return People(&v1::People::Stub::ReservePracticeSeat, request, &ignored);
  };
  auto open = [&](int64_t id) {
    v1::OpenPracticeSeatsRequest request;
    request.set_identity_id(id);
    v1::OpenPracticeSeatsResponse response;
    EXPECT_TRUE(People(&v1::People::Stub::OpenPracticeSeats, request, &response).ok());
    std::vector<std::string> out;
    for (const auto& seat : response.seats()) out.push_back(seat.game_id() + "@" + seat.host());
    return out;
  };
  const int64_t a = alice.identity_id();
  ASSERT_TRUE(reserve(a, "p-1").ok());
  ASSERT_TRUE(reserve(a, "p-2").ok());
  const grpc::Status third = reserve(a, "p-3");
  EXPECT_EQ(third.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(third.error_message(), "2 practice games unfinished, the most at once is 2");
  EXPECT_TRUE(reserve(bob.identity_id(), "p-3").ok());  // a slot is the person's own
  EXPECT_EQ(reserve(a, "p-1", 5).error_code(), grpc::StatusCode::ALREADY_EXISTS);

  // A reservation is no seat until SaveSeat fills it in.
  v1::WebSeat seat;
  v1::FindSeatRequest find;
  find.set_identity_id(a);
  find.set_game_id("p-1");
  EXPECT_EQ(People(&v1::People::Stub::FindSeat, find, &seat).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::LatestOpenSeatRequest latest;
  latest.set_identity_id(a);
  EXPECT_EQ(People(&v1::People::Stub::LatestOpenSeat, latest, &seat).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(open(a), (std::vector<std::string>{"p-1@", "p-2@"}));
  v1::SaveSeatRequest save;
  save.set_identity_id(a);
  save.mutable_seat()->set_game_id("p-1");
  save.mutable_seat()->set_host("127.0.0.1:1");
  save.mutable_seat()->set_seat_token("seat-p-1");
  v1::SaveSeatResponse saved;
  ASSERT_TRUE(People(&v1::People::Stub::SaveSeat, save, &saved).ok());
  ASSERT_TRUE(People(&v1::People::Stub::FindSeat, find, &seat).ok());
  EXPECT_EQ(seat.seat_token(), "seat-p-1");
  EXPECT_EQ(open(a), (std::vector<std::string>{"p-1@127.0.0.1:1", "p-2@"}));

  // Seats of ladder games (SaveSeat without a reservation) take no slot.
  save.mutable_seat()->set_game_id("ladder-1");
  ASSERT_TRUE(People(&v1::People::Stub::SaveSeat, save, &saved).ok());
  EXPECT_EQ(reserve(a, "p-3").error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);

  // A finished game frees its slot.
  v1::FinishSeatRequest finish;
  finish.set_identity_id(a);
  finish.set_game_id("p-1");
  v1::FinishSeatResponse finished;
  ASSERT_TRUE(People(&v1::People::Stub::FinishSeat, finish, &finished).ok());
  EXPECT_TRUE(reserve(a, "p-3").ok());
  EXPECT_EQ(open(a), (std::vector<std::string>{"p-2@", "p-3@"}));

  const std::string before = PeopleSnapshot();
  EXPECT_EQ(reserve(a, "p-4", 0).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(reserve(a, "p-4", 101).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(reserve(a, "", 5).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(PeopleSnapshot(), before);
}

// Simultaneous starts by one person never take more slots than there are.
TEST_F(PeopleServiceTest, ConcurrentPracticeReservationsStayWithinTheLimit) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  std::atomic<int> reserved{0}, refused{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      v1::ReservePracticeSeatRequest request;
      request.set_identity_id(alice.identity_id());
      request.set_game_id("p-" + std::to_string(i));
      request.set_max_open(2);
      v1::ReservePracticeSeatResponse ignored;
      const grpc::Status s = People(&v1::People::Stub::ReservePracticeSeat, request, &ignored);
      if (s.ok()) ++reserved;
      if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) ++refused;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(reserved, 2);
  EXPECT_EQ(refused, 6);
}

TEST_F(PeopleServiceTest, PersonTokensAreNeverAdminsAndOnlyForPeople) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "correct horse", &bob).ok());
  v1::IssuePersonTokenRequest issue;
  issue.set_identity_id(alice.identity_id());
  issue.set_label("web queue");
  v1::IssuePersonTokenResponse token;
  ASSERT_TRUE(People(&v1::People::Stub::IssuePersonToken, issue, &token).ok());
  const std::string alices = token.token();
  Principal who;
  ASSERT_TRUE(accounts_->Authenticate(alices, &who).ok());
  EXPECT_EQ(who.name, "alice");
  EXPECT_FALSE(who.admin);
  const int64_t alices_id = who.token_id;
  EXPECT_EQ(alices_id, token.token_id());

  // Not for an administrator's identity, nor a bot: they have no password.
  issue.set_identity_id(Player("ops").id());
  EXPECT_EQ(People(&v1::People::Stub::IssuePersonToken, issue, &token).error_code(), grpc::StatusCode::NOT_FOUND);

  // Revoked by its person only, and once.
  v1::RevokePersonTokenRequest revoke;
  revoke.set_identity_id(bob.identity_id());
  revoke.set_token_id(alices_id);
  v1::RevokePersonTokenResponse ignored;
  EXPECT_EQ(People(&v1::People::Stub::RevokePersonToken, revoke, &ignored).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(accounts_->Authenticate(alices, &who).ok());  // bob's try left it valid
  revoke.set_identity_id(alice.identity_id());
  ASSERT_TRUE(People(&v1::People::Stub::RevokePersonToken, revoke, &ignored).ok());
  EXPECT_FALSE(accounts_->Authenticate(alices, &who).ok());
  EXPECT_EQ(People(&v1::People::Stub::RevokePersonToken, revoke, &ignored).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

// A person's own bots ("Self-service bots"): helpers over the five calls.
class PersonBotsTest : public PeopleServiceTest {
 protected:
  grpc::Status CreateBot(int64_t person, const std::string& name, v1::PersonBot* out = nullptr) {
    v1::CreatePersonBotRequest request;
    request.set_identity_id(person);
    request.set_name(name);
    v1::PersonBot bot;
    const grpc::Status s = People(&v1::People::Stub::CreatePersonBot, request, &bot);
    if (out) *out = bot;
    return s;
  }
  v1::ListPersonBotsResponse Bots(int64_t person) {
    v1::ListPersonBotsRequest request;
    request.set_identity_id(person);
    v1::ListPersonBotsResponse out;
    const grpc::Status s = People(&v1::People::Stub::ListPersonBots, request, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }
  grpc::Status IssueFor(int64_t person, const std::string& bot, const std::string& label,
                        v1::IssueBotTokenResponse* out = nullptr) {
    v1::IssueBotTokenRequest request;
    request.set_identity_id(person);
    request.set_bot(bot);
    request.set_label(label);
    v1::IssueBotTokenResponse response;
    const grpc::Status s = People(&v1::People::Stub::IssueBotToken, request, &response);
    if (out) *out = response;
    return s;
  }
  grpc::Status TokensOf(int64_t person, const std::string& bot, v1::ListBotTokensResponse* out) {
    v1::ListBotTokensRequest request;
    request.set_identity_id(person);
    request.set_bot(bot);
    return People(&v1::People::Stub::ListBotTokens, request, out);
  }
  grpc::Status Revoke(int64_t person, const std::string& bot, int64_t token_id) {
    v1::RevokeBotTokenRequest request;
    request.set_identity_id(person);
    request.set_bot(bot);
    request.set_token_id(token_id);
    v1::RevokeBotTokenResponse ignored;
    return People(&v1::People::Stub::RevokeBotToken, request, &ignored);
  }
};

TEST_F(PersonBotsTest, APersonCreatesBotsAndTokensThatAuthenticateAsTheBot) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  v1::PersonBot bot;
  ASSERT_TRUE(CreateBot(alice.identity_id(), "alice-bot", &bot).ok());
  EXPECT_EQ(bot.name(), "alice-bot");
  EXPECT_GT(bot.identity_id(), 0);
  EXPECT_GT(bot.created_unix_ms(), 0);
  // An identity like any other bot: owned by alice, for everyone to read.
  v1::GetIdentityRequest get;
  get.set_name("alice-bot");
  v1::Identity identity;
  ASSERT_TRUE(On(*reads_stub_, &v1::Accounts::Stub::GetIdentity, get, &identity).ok());
  EXPECT_EQ(identity.kind(), "bot");
  EXPECT_EQ(identity.owner(), "alice");

  v1::IssueBotTokenResponse issued;
  ASSERT_TRUE(IssueFor(alice.identity_id(), "alice-bot", "laptop", &issued).ok());
  Principal who;
  ASSERT_TRUE(accounts_->Authenticate(issued.token(), &who).ok());
  EXPECT_EQ(who.name, "alice-bot");
  EXPECT_EQ(who.kind, "bot");
  EXPECT_FALSE(who.admin);
  EXPECT_EQ(who.token_id, issued.token_id());

  const v1::ListPersonBotsResponse listed = Bots(alice.identity_id());
  ASSERT_EQ(listed.bots_size(), 1);
  EXPECT_EQ(listed.bots(0).name(), "alice-bot");
  EXPECT_EQ(listed.bots(0).live_tokens(), 1u);
  EXPECT_EQ(listed.max_bots(), 10u);  // the defaults
  EXPECT_EQ(listed.max_tokens_per_bot(), 5u);

  v1::ListBotTokensResponse tokens;
  ASSERT_TRUE(TokensOf(alice.identity_id(), "alice-bot", &tokens).ok());
  ASSERT_EQ(tokens.tokens_size(), 1);
  EXPECT_EQ(tokens.tokens(0).id(), issued.token_id());
  EXPECT_EQ(tokens.tokens(0).label(), "laptop");
  EXPECT_GT(tokens.tokens(0).created_unix_ms(), 0);
  EXPECT_EQ(tokens.tokens(0).revoked_unix_ms(), 0);

  ASSERT_TRUE(Revoke(alice.identity_id(), "alice-bot", issued.token_id()).ok());
  EXPECT_FALSE(accounts_->Authenticate(issued.token(), &who).ok());
  ASSERT_TRUE(TokensOf(alice.identity_id(), "alice-bot", &tokens).ok());
  ASSERT_EQ(tokens.tokens_size(), 1);
  EXPECT_GT(tokens.tokens(0).revoked_unix_ms(), 0);
  EXPECT_EQ(Revoke(alice.identity_id(), "alice-bot", issued.token_id()).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Bots(alice.identity_id()).bots(0).live_tokens(), 0u);
}

TEST_F(PersonBotsTest, BadAndTakenNamesAndLabelsAreRefusedAndChangeNothing) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(CreateBot(alice.identity_id(), "Helper").ok());
  const int64_t ops = Player("ops").id();
  const std::string before = PeopleSnapshot();
  for (const std::string& name : std::vector<std::string>{"", "..", "has space", std::string(65, 'x'), "a/b"}) {
    const grpc::Status s = CreateBot(alice.identity_id(), name);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    EXPECT_NE(s.error_message().find("name:"), std::string::npos) << s.error_message();
  }
  EXPECT_EQ(CreateBot(alice.identity_id(), "alice").error_code(), grpc::StatusCode::ALREADY_EXISTS);
  const grpc::Status taken = CreateBot(alice.identity_id(), "helper");
  EXPECT_EQ(taken.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(taken.error_message(), "name 'helper' is taken (by 'Helper')");
  EXPECT_EQ(IssueFor(alice.identity_id(), "Helper", std::string(201, 'l')).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(IssueFor(alice.identity_id(), "Helper", "two\nlines").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // Spelt as created: another spelling is no bot of hers.
  EXPECT_EQ(IssueFor(alice.identity_id(), "helper", "x").error_code(), grpc::StatusCode::NOT_FOUND);
  // Only a person's: an administrator-made player has no password.
  EXPECT_EQ(CreateBot(ops, "ops-bot").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(CreateBot(0, "zero").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(PeopleSnapshot(), before);
}

TEST_F(PersonBotsTest, NobodyReachesAnotherPersonsBotsOrTokens) {
  v1::Person alice, bob;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(SignUp("bob", "correct horse", &bob).ok());
  ASSERT_TRUE(CreateBot(alice.identity_id(), "alice-bot").ok());
  v1::IssueBotTokenResponse issued;
  ASSERT_TRUE(IssueFor(alice.identity_id(), "alice-bot", "mine", &issued).ok());
  // A bot an administrator gave bob is his, but alice's calls do not reach it.
  Bot("ops-made", "bob");
  const std::string before = PeopleSnapshot();

  const grpc::Status issue = IssueFor(bob.identity_id(), "alice-bot", "stolen");
  EXPECT_EQ(issue.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(issue.error_message(), "you own no bot named 'alice-bot'");
  v1::ListBotTokensResponse tokens;
  EXPECT_EQ(TokensOf(bob.identity_id(), "alice-bot", &tokens).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(tokens.tokens_size(), 0);
  EXPECT_EQ(Revoke(bob.identity_id(), "alice-bot", issued.token_id()).error_code(), grpc::StatusCode::NOT_FOUND);
  // Nor through a bot of his own: the token is alice-bot's.
  EXPECT_EQ(Revoke(bob.identity_id(), "ops-made", issued.token_id()).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(PeopleSnapshot(), before);
  ASSERT_TRUE(CreateBot(bob.identity_id(), "bob-bot").ok());
  EXPECT_EQ(Revoke(bob.identity_id(), "bob-bot", issued.token_id()).error_code(), grpc::StatusCode::NOT_FOUND);
  // Nor a person's own identity, which is a player, nor a bot by its owner's id.
  EXPECT_EQ(IssueFor(alice.identity_id(), "alice", "x").error_code(), grpc::StatusCode::NOT_FOUND);
  Principal who;
  EXPECT_TRUE(accounts_->Authenticate(issued.token(), &who).ok());  // bob's tries left it valid
  EXPECT_EQ(TokensOf(alice.identity_id(), "alice-bot", &tokens).error_code(), grpc::StatusCode::OK);
  EXPECT_EQ(tokens.tokens_size(), 1);

  // Each lists their own only.
  const v1::ListPersonBotsResponse alices = Bots(alice.identity_id());
  ASSERT_EQ(alices.bots_size(), 1);
  EXPECT_EQ(alices.bots(0).name(), "alice-bot");
  const v1::ListPersonBotsResponse bobs = Bots(bob.identity_id());
  ASSERT_EQ(bobs.bots_size(), 2);
  EXPECT_EQ(bobs.bots(0).name(), "bob-bot");
  EXPECT_EQ(bobs.bots(1).name(), "ops-made");
}

TEST_F(PersonBotsTest, QuotasOfBotsAndLiveTokensAreEnforcedAndChangeNothingBeyond) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(CreateBot(alice.identity_id(), "b" + std::to_string(i)).ok()) << i;
  std::string before = PeopleSnapshot();
  grpc::Status s = CreateBot(alice.identity_id(), "b10");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(s.error_message(), "you own 10 bots, the most a person may own is 10");
  EXPECT_EQ(PeopleSnapshot(), before);

  std::vector<int64_t> ids;
  for (int i = 0; i < 5; ++i) {
    v1::IssueBotTokenResponse issued;
    ASSERT_TRUE(IssueFor(alice.identity_id(), "b0", "t" + std::to_string(i), &issued).ok()) << i;
    ids.push_back(issued.token_id());
  }
  before = PeopleSnapshot();
  s = IssueFor(alice.identity_id(), "b0", "one too many");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(s.error_message(), "bot 'b0' has 5 unrevoked tokens, the most a bot may have is 5: revoke one first");
  EXPECT_EQ(PeopleSnapshot(), before);
  // Per bot: another bot of hers has its own five.
  EXPECT_TRUE(IssueFor(alice.identity_id(), "b1", "other").ok());
  // A revoked token no longer counts.
  ASSERT_TRUE(Revoke(alice.identity_id(), "b0", ids[2]).ok());
  EXPECT_TRUE(IssueFor(alice.identity_id(), "b0", "replacement").ok());
  EXPECT_EQ(IssueFor(alice.identity_id(), "b0", "again too many").error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
}

// Creations and issues at once never pass the quotas: counted under a lock.
TEST_F(PersonBotsTest, ConcurrentCreationsAndIssuesStayWithinTheQuotas) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(CreateBot(alice.identity_id(), "b" + std::to_string(i)).ok());
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(IssueFor(alice.identity_id(), "b0", "early").ok());
  std::atomic<int> created{0}, refused_bots{0}, issued{0}, refused_tokens{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      const grpc::Status s = CreateBot(alice.identity_id(), "race" + std::to_string(i));
      if (s.ok()) ++created;
      if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) ++refused_bots;
      const grpc::Status t = IssueFor(alice.identity_id(), "b0", "race");
      if (t.ok()) ++issued;
      if (t.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) ++refused_tokens;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(created, 3);
  EXPECT_EQ(refused_bots, 5);
  EXPECT_EQ(issued, 3);
  EXPECT_EQ(refused_tokens, 5);
  EXPECT_EQ(Bots(alice.identity_id()).bots_size(), 10);
}

#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
// The race the quotas must not lose, made certain: another transaction holds the
// row the count is made under and fills the quota meanwhile. A call that counted
// without waiting for it would pass the quota; one that waits counts what it
// committed and is refused.
TEST_F(PersonBotsTest, AQuotaIsCountedAfterAConcurrentTransactionCommits) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  ASSERT_TRUE(CreateBot(alice.identity_id(), "b0").ok());
  const int64_t bot = Bots(alice.identity_id()).bots(0).identity_id();
  for (const bool tokens : {false, true}) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec_params1("SELECT 1 FROM identities WHERE id = $1 FOR UPDATE", tokens ? bot : alice.identity_id());
    std::future<grpc::Status> call = std::async(std::launch::async, [&] {
      return tokens ? IssueFor(alice.identity_id(), "b0", "late") : CreateBot(alice.identity_id(), "late");
    });
    EXPECT_EQ(call.wait_for(std::chrono::milliseconds(500)), std::future_status::timeout)
        << (tokens ? "IssueBotToken" : "CreatePersonBot") << " did not wait for the row's lock";
    if (tokens)
      tx.exec_params(
          "INSERT INTO api_tokens (identity_id, token_sha256, label, is_admin) SELECT $1, "
          "decode(md5('t' || n) || md5('u' || n), 'hex'), 'planted', false FROM generate_series(1, 5) n",
          bot);
    else
      tx.exec_params(
          "INSERT INTO identities (kind, name, owner_id) SELECT 'bot', 'planted' || n, $1 FROM generate_series(1, 9) n",
          alice.identity_id());
    tx.commit();
    const grpc::Status s = call.get();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  }
  EXPECT_EQ(Bots(alice.identity_id()).bots_size(), 10);
  EXPECT_EQ(Bots(alice.identity_id()).bots(0).live_tokens(), 5u);
}
#endif

TEST_F(PersonBotsTest, OnlyTheGatewayMayCall) {
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  const std::string before = PeopleSnapshot();
  v1::CreatePersonBotRequest request;
  request.set_identity_id(alice.identity_id());
  request.set_name("sneaky");
  v1::PersonBot bot;
  EXPECT_EQ(People(&v1::People::Stub::CreatePersonBot, request, &bot, "").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(People(&v1::People::Stub::CreatePersonBot, request, &bot, admin_token_).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(People(&v1::People::Stub::CreatePersonBot, request, &bot, testing::kGameHostToken).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(PeopleSnapshot(), before);
}

// Quotas other than the defaults, as the flags set them.
TEST_F(PersonBotsTest, ConfiguredQuotasApply) {
  PeopleService small(people_store_.get(), accounts_.get(), &hasher_, gateway_auth_.get(),
                      BotQuotas{.max_bots = 1, .max_tokens_per_bot = 1});
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&small);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  auto stub =
      v1::People::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  v1::Person alice;
  ASSERT_TRUE(SignUp("alice", "correct horse", &alice).ok());
  v1::CreatePersonBotRequest create;
  create.set_identity_id(alice.identity_id());
  create.set_name("only");
  v1::PersonBot bot;
  ASSERT_TRUE(On(*stub, &v1::People::Stub::CreatePersonBot, create, &bot).ok());
  create.set_name("second");
  EXPECT_EQ(On(*stub, &v1::People::Stub::CreatePersonBot, create, &bot).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  v1::IssueBotTokenRequest issue;
  issue.set_identity_id(alice.identity_id());
  issue.set_bot("only");
  v1::IssueBotTokenResponse issued;
  ASSERT_TRUE(On(*stub, &v1::People::Stub::IssueBotToken, issue, &issued).ok());
  EXPECT_EQ(On(*stub, &v1::People::Stub::IssueBotToken, issue, &issued).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  v1::ListPersonBotsRequest list;
  list.set_identity_id(alice.identity_id());
  v1::ListPersonBotsResponse listed;
  ASSERT_TRUE(On(*stub, &v1::People::Stub::ListPersonBots, list, &listed).ok());
  EXPECT_EQ(listed.max_bots(), 1u);
  EXPECT_EQ(listed.max_tokens_per_bot(), 1u);
  server->Shutdown();
}

TEST_F(PeopleServiceTest, PublicReadsTakeAnyValidToken) {
  const v1::Identity alice = Player("Alice");
  Bot("alicebot", "Alice");
  Player("bob");
  const std::string plain = Issue("bob").token();
  v1::GetIdentityRequest get;
  get.set_name("alice");
  v1::Identity found;
  for (const std::string& token : {plain, std::string(kGatewayToken), admin_token_}) {
    ASSERT_TRUE(On(*reads_stub_, &v1::Accounts::Stub::GetIdentity, get, &found, token).ok());
    EXPECT_EQ(found.id(), alice.id());
    EXPECT_EQ(found.name(), "Alice");
  }
  EXPECT_EQ(On(*reads_stub_, &v1::Accounts::Stub::GetIdentity, get, &found, "").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  get.set_name("carol");
  const grpc::Status missing = On(*reads_stub_, &v1::Accounts::Stub::GetIdentity, get, &found, plain);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(missing.error_message(), "player 'carol' does not exist");

  v1::SearchIdentitiesRequest search;
  search.set_prefix("ali");
  search.set_limit(10);
  v1::ListIdentitiesResponse list;
  ASSERT_TRUE(On(*reads_stub_, &v1::Accounts::Stub::SearchIdentities, search, &list, plain).ok());
  ASSERT_EQ(list.identities_size(), 2);
  EXPECT_EQ(list.identities(0).name(), "Alice");
  EXPECT_EQ(list.identities(1).name(), "alicebot");
  EXPECT_EQ(list.identities(1).owner(), "Alice");
  search.set_limit(0);
  EXPECT_EQ(On(*reads_stub_, &v1::Accounts::Stub::SearchIdentities, search, &list, plain).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(PeopleServiceTest, ReadLaddersHasEverySeason) {
  MakeLadder("open");
  MakeLadder("quiet");
  for (int i = 0; i < 2; ++i) {
    v1::CreateSeasonRequest request;
    request.set_ladder("open");
    v1::CreateSeasonResponse response;
    ASSERT_TRUE(Admin(&v1::Accounts::Stub::CreateSeason, request, &response).ok());
  }
  v1::ReadLaddersRequest request;
  v1::ListLaddersResponse response;
  ASSERT_TRUE(On(*reads_stub_, &v1::Accounts::Stub::ReadLadders, request, &response).ok());
  ASSERT_EQ(response.ladders_size(), 2);
  const v1::Ladder& open = response.ladders(0);
  EXPECT_EQ(open.id(), "open");
  ASSERT_EQ(open.seasons_size(), 2);
  EXPECT_EQ(open.seasons(0).season(), 1u);
  EXPECT_EQ(open.seasons(0).ends_unix_ms(), open.seasons(1).starts_unix_ms());  // seasons abut
  EXPECT_EQ(open.seasons(1).ends_unix_ms(), 0);
  EXPECT_EQ(open.season(), 2u);
  EXPECT_EQ(response.ladders(1).seasons_size(), 0);

  request.set_ladder("quiet");
  ASSERT_TRUE(On(*reads_stub_, &v1::Accounts::Stub::ReadLadders, request, &response).ok());
  ASSERT_EQ(response.ladders_size(), 1);
  request.set_ladder("nope");
  const grpc::Status missing = On(*reads_stub_, &v1::Accounts::Stub::ReadLadders, request, &response);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(missing.error_message(), "ladder 'nope' does not exist");
}

}  // namespace
}  // namespace metropolis::accounts
