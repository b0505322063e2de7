// Accounts against a real PostgreSQL (label integration): identities with every
// refusal, tokens issued, used and revoked, stored only hashed and never logged;
// the authenticator's service tokens and its cache; ladders and seasons.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <pqxx/pqxx>
#include <thread>

#include "lib/common/log.h"
#include "lib/common/tests/fake_clock.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/tests/test_database.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/pg_account_store.h"
#include "services/accounts/pg_ladder_store.h"
#include "services/accounts/token.h"

namespace metropolis::accounts {
namespace {

using grpc::StatusCode;

class AccountsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pool_ = storage::testing::MigratedPool(database_, METROPOLIS_MIGRATIONS_DIR, 4);
    ASSERT_NE(pool_, nullptr);
    store_ = std::make_unique<PgAccountStore>(pool_.get());
    ladders_ = std::make_unique<PgLadderStore>(pool_.get());
  }

  Identity Create(const std::string& kind, const std::string& name, const std::string& owner = "") {
    Identity out;
    const grpc::Status s = store_->CreateIdentity(kind, name, owner, &out);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
    return out;
  }
  IssuedToken Issue(const std::string& name, bool admin = false, const std::string& label = "") {
    IssuedToken out;
    const grpc::Status s = store_->IssueToken(name, label, admin, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }
  int64_t Count(const std::string& table) {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    return tx.exec1("SELECT count(*) FROM " + table)[0].as<int64_t>();
  }

  storage::testing::TestDatabase database_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<AccountStore> store_;
  std::unique_ptr<LadderStore> ladders_;
};

LadderSpec Ladder(const std::string& id) {
  LadderSpec spec;
  spec.id = id;
  return spec;
}

using services::testing::FakeClock;

// ---- identities ----------------------------------------------------------------

TEST_F(AccountsTest, CreatesPlayersAndTheirBots) {
  const Identity alice = Create("player", "alice");
  EXPECT_GT(alice.id, 0);
  EXPECT_EQ(alice.kind, "player");
  EXPECT_EQ(alice.owner_name, "");
  EXPECT_GT(alice.created_unix_ms, 1'600'000'000'000);
  const Identity bot = Create("bot", "alice.greedy-v2_0", "alice");
  EXPECT_EQ(bot.kind, "bot");
  EXPECT_EQ(bot.owner_name, "alice");
  Create("player", std::string(64, 'z'));

  Identity found;
  ASSERT_TRUE(store_->FindIdentity("alice.greedy-v2_0", &found).ok());
  EXPECT_EQ(found.id, bot.id);
  EXPECT_EQ(found.kind, "bot");
  EXPECT_EQ(found.owner_name, "alice");
  EXPECT_EQ(store_->FindIdentity("bob", &found).error_code(), StatusCode::NOT_FOUND);

  std::vector<Identity> all;
  ASSERT_TRUE(store_->ListIdentities(&all).ok());
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name, "alice");
  EXPECT_EQ(all[1].name, "alice.greedy-v2_0");
  EXPECT_EQ(all[1].owner_name, "alice");
  EXPECT_EQ(all[2].name, std::string(64, 'z'));
}

TEST_F(AccountsTest, RefusesBadIdentitiesPrecisely) {
  Create("player", "alice");
  Create("bot", "alicebot", "alice");
  struct Case {
    std::string kind, name, owner;
    StatusCode code;
    std::string message;
  } cases[] = {
      {"admin", "carol", "", StatusCode::INVALID_ARGUMENT, "kind: 'admin' is neither 'player' nor 'bot'"},
      {"", "carol", "", StatusCode::INVALID_ARGUMENT, "kind"},
      {"player", "", "", StatusCode::INVALID_ARGUMENT, "name: '' is not 1 to 64"},
      {"player", std::string(65, 'a'), "", StatusCode::INVALID_ARGUMENT, "is not 1 to 64"},
      {"player", "carol smith", "", StatusCode::INVALID_ARGUMENT, "is not 1 to 64"},
      {"player", "carol/1", "", StatusCode::INVALID_ARGUMENT, "is not 1 to 64"},
      {"player", "caról", "", StatusCode::INVALID_ARGUMENT, "is not 1 to 64"},
      {"bot", "carolbot", "", StatusCode::INVALID_ARGUMENT, "needs an owner"},
      {"player", "carol", "alice", StatusCode::INVALID_ARGUMENT, "cannot have an owner"},
      {"player", "alice", "", StatusCode::ALREADY_EXISTS, "name 'alice' is taken"},
      {"bot", "alice", "alice", StatusCode::ALREADY_EXISTS, "name 'alice' is taken"},
      {"player", "Alice", "", StatusCode::ALREADY_EXISTS, "name 'Alice' is taken (by 'alice')"},
      {"bot", "carolbot", "carol", StatusCode::NOT_FOUND, "owner: no identity named 'carol'"},
      {"bot", "carolbot", "ALICE", StatusCode::NOT_FOUND, "owner: no identity named 'ALICE'"},
      {"bot", "botbot", "alicebot", StatusCode::INVALID_ARGUMENT, "'alicebot' is a bot"},
  };
  for (const Case& c : cases) {
    Identity out;
    const grpc::Status s = store_->CreateIdentity(c.kind, c.name, c.owner, &out);
    EXPECT_EQ(s.error_code(), c.code) << c.kind << " " << c.name << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos) << s.error_message();
  }
  EXPECT_EQ(Count("identities"), 2);
}

// ---- tokens --------------------------------------------------------------------

TEST_F(AccountsTest, IssuedTokenAuthenticatesUntilRevoked) {
  const Identity alice = Create("player", "alice");
  Create("bot", "alicebot", "alice");
  const IssuedToken admin = Issue("alice", true, "laptop");
  const IssuedToken bot = Issue("alicebot");
  EXPECT_TRUE(LooksLikeToken(admin.token));
  EXPECT_NE(admin.id, bot.id);

  TokenAuthenticator auth(store_.get(), {}, {.ttl_ms = 0});
  Principal p;
  ASSERT_TRUE(auth.Authenticate(admin.token, &p).ok());
  EXPECT_EQ(p.identity_id, alice.id);
  EXPECT_EQ(p.name, "alice");
  EXPECT_EQ(p.kind, "player");
  EXPECT_TRUE(p.admin);
  EXPECT_FALSE(p.service);
  EXPECT_EQ(p.token_id, admin.id);
  ASSERT_TRUE(auth.Authenticate(bot.token, &p).ok());
  EXPECT_EQ(p.name, "alicebot");
  EXPECT_EQ(p.kind, "bot");
  EXPECT_FALSE(p.admin);

  ASSERT_TRUE(store_->RevokeToken(admin.id).ok());
  grpc::Status s = auth.Authenticate(admin.token, &p);
  EXPECT_EQ(s.error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(s.error_message(), "unknown or revoked token");
  EXPECT_EQ(store_->Authenticate(admin.token, &p).error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(auth.Authenticate(bot.token, &p).ok()) << "revoking one token leaves the others";

  s = store_->RevokeToken(admin.id);
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("already revoked"), std::string::npos) << s.error_message();
  EXPECT_EQ(store_->RevokeToken(999999).error_code(), StatusCode::NOT_FOUND);

  std::vector<TokenInfo> tokens;
  ASSERT_TRUE(store_->ListTokens("alice", &tokens).ok());
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].id, admin.id);
  EXPECT_EQ(tokens[0].label, "laptop");
  EXPECT_TRUE(tokens[0].admin);
  EXPECT_GT(tokens[0].created_unix_ms, 0);
  EXPECT_GE(tokens[0].revoked_unix_ms, tokens[0].created_unix_ms);
  ASSERT_TRUE(store_->ListTokens("alicebot", &tokens).ok());
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].revoked_unix_ms, 0);
  EXPECT_EQ(store_->ListTokens("nobody", &tokens).error_code(), StatusCode::NOT_FOUND);
}

TEST_F(AccountsTest, RefusesBadTokenRequests) {
  Create("player", "alice");
  IssuedToken out;
  EXPECT_EQ(store_->IssueToken("nobody", "", false, &out).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(store_->IssueToken("alice", std::string(kMaxLabelLength + 1, 'x'), false, &out).error_code(),
            StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(store_->IssueToken("alice", "two\nlines", false, &out).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Count("api_tokens"), 0);
  Principal p;
  EXPECT_EQ(store_->Authenticate("", &p).error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(store_->Authenticate(NewToken(), &p).error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(store_->AuthenticateSha256("short", &p).error_code(), StatusCode::UNAUTHENTICATED);
}

TEST_F(AccountsTest, StoresTokensOnlyAsTheirHash) {
  Create("player", "alice");
  std::vector<IssuedToken> issued = {Issue("alice"), Issue("alice", true, "ci"), Issue("alice")};
  pqxx::connection db(database_.conninfo());
  pqxx::read_transaction tx(db);
  // Every row of every table, as text: neither the token nor its hex part.
  std::string everything;
  for (const auto& table : tx.exec("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
    for (const auto& row : tx.exec("SELECT t::text FROM " + tx.quote_name(table[0].as<std::string>()) + " t"))
      everything += row[0].as<std::string>() + "\n";
  }
  EXPECT_NE(everything.find("alice"), std::string::npos) << "the dump should hold the rows";
  for (const IssuedToken& t : issued) {
    EXPECT_EQ(everything.find(t.token), std::string::npos);
    EXPECT_EQ(everything.find(t.token.substr(4)), std::string::npos);
    const pqxx::row row = tx.exec_params1("SELECT token_sha256 FROM api_tokens WHERE id = $1", t.id);
    EXPECT_EQ(pqxx::binarystring(row[0]).str(), Sha256(t.token));
  }
}

TEST_F(AccountsTest, ServiceTokensComeFirstAndNeedNoStore) {
  TokenAuthenticator alone(nullptr, {{"host-secret", "gamehost"}, {"", "nobody"}, {"rating-secret", "ratings"}});
  Principal p;
  ASSERT_TRUE(alone.Authenticate("host-secret", &p).ok());
  EXPECT_TRUE(p.service);
  EXPECT_EQ(p.name, "gamehost");
  EXPECT_EQ(p.kind, "service");
  EXPECT_EQ(p.identity_id, 0);
  EXPECT_FALSE(p.admin);
  ASSERT_TRUE(alone.Authenticate("rating-secret", &p).ok());
  EXPECT_EQ(p.name, "ratings");
  for (const std::string bad : {"host-secre", "host-secret ", "HOST-SECRET", "x"})
    EXPECT_EQ(alone.Authenticate(bad, &p).error_code(), StatusCode::UNAUTHENTICATED) << bad;
  grpc::Status missing = alone.Authenticate("", &p);
  EXPECT_EQ(missing.error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(missing.error_message(), "missing 'authorization: Bearer <token>' metadata");
  // Without a store an API token is just unknown.
  EXPECT_EQ(alone.Authenticate(NewToken(), &p).error_code(), StatusCode::UNAUTHENTICATED);

  Create("player", "alice");
  const IssuedToken t = Issue("alice");
  TokenAuthenticator both(store_.get(), {{"host-secret", "gamehost"}}, {.ttl_ms = 0});
  ASSERT_TRUE(both.Authenticate("host-secret", &p).ok());
  EXPECT_TRUE(p.service);
  ASSERT_TRUE(both.Authenticate(t.token, &p).ok());
  EXPECT_FALSE(p.service);
  EXPECT_EQ(p.name, "alice");
}

// ---- the cache -----------------------------------------------------------------

TEST_F(AccountsTest, CacheServesARevokedTokenAtMostForItsTtl) {
  Create("player", "alice");
  const IssuedToken t = Issue("alice");
  FakeClock clock(1'000'000);
  TokenAuthenticator auth(store_.get(), {}, {.ttl_ms = 30'000, .clock = &clock});
  Principal p;
  clock.Set(1'000'000);
  ASSERT_TRUE(auth.Authenticate(t.token, &p).ok());
  ASSERT_TRUE(store_->RevokeToken(t.id).ok());
  clock.Set(1'000'000 + 29'999);
  EXPECT_TRUE(auth.Authenticate(t.token, &p).ok()) << "still remembered";
  clock.Set(1'000'000 + 30'000);
  EXPECT_EQ(auth.Authenticate(t.token, &p).error_code(), StatusCode::UNAUTHENTICATED);
  clock.Set(1'000'000 + 30'001);
  EXPECT_EQ(auth.Authenticate(t.token, &p).error_code(), StatusCode::UNAUTHENTICATED);
}

TEST_F(AccountsTest, CacheRemembersAnUnknownTokenForOneSecond) {
  const Identity alice = Create("player", "alice");
  const std::string token = NewToken();
  FakeClock clock(1'000'000);
  TokenAuthenticator auth(store_.get(), {}, {.ttl_ms = 30'000, .clock = &clock});
  Principal p;
  clock.Set(5'000);
  EXPECT_EQ(auth.Authenticate(token, &p).error_code(), StatusCode::UNAUTHENTICATED);
  {  // the token becomes valid behind the cache's back
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec_params("INSERT INTO api_tokens (identity_id, token_sha256) VALUES ($1, $2)", alice.id,
                   pqxx::binarystring(Sha256(token)));
    tx.commit();
  }
  clock.Set(5'999);
  EXPECT_EQ(auth.Authenticate(token, &p).error_code(), StatusCode::UNAUTHENTICATED);
  clock.Set(6'000);
  ASSERT_TRUE(auth.Authenticate(token, &p).ok());
  EXPECT_EQ(p.name, "alice");
}

TEST_F(AccountsTest, DatabaseFailuresAreReportedAndNotRemembered) {
  // Nothing listens on port 1.
  storage::PgPool down("host=127.0.0.1 port=1 dbname=none connect_timeout=2", 1);
  PgAccountStore store(&down);
  TokenAuthenticator auth(&store, {}, {.ttl_ms = 30'000});
  Principal p;
  const std::string token = NewToken();
  for (int i = 0; i < 2; ++i) EXPECT_EQ(auth.Authenticate(token, &p).error_code(), StatusCode::UNAVAILABLE);
  Identity identity;
  EXPECT_EQ(store.CreateIdentity("player", "alice", "", &identity).error_code(), StatusCode::UNAVAILABLE);
}

TEST_F(AccountsTest, AuthenticatesFromManyThreads) {
  Create("player", "alice");
  const IssuedToken good = Issue("alice"), revoked = Issue("alice");
  ASSERT_TRUE(store_->RevokeToken(revoked.id).ok());
  const std::string unknown = NewToken();
  TokenAuthenticator auth(store_.get(), {{"svc", "gamehost"}}, {.ttl_ms = 30'000});
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      Principal p;
      for (int i = 0; i < 300; ++i) {
        wrong += !auth.Authenticate(good.token, &p).ok() || p.name != "alice";
        wrong += auth.Authenticate(revoked.token, &p).error_code() != StatusCode::UNAUTHENTICATED;
        wrong += auth.Authenticate(unknown, &p).error_code() != StatusCode::UNAUTHENTICATED;
        wrong += !auth.Authenticate("svc", &p).ok() || !p.service;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

// ---- logs ----------------------------------------------------------------------

TEST_F(AccountsTest, TokensNeverAppearInLogsOrStatuses) {
  Create("player", "alice");
  const IssuedToken good = Issue("alice", true), revoked = Issue("alice");
  ASSERT_TRUE(store_->RevokeToken(revoked.id).ok());
  const std::string unknown = NewToken(), malformed = "not-a-token-but-a-secret-anyway";
  storage::PgPool down("host=127.0.0.1 port=1 dbname=none connect_timeout=2", 1);
  PgAccountStore down_store(&down);
  TokenAuthenticator auth(store_.get(), {{"service-secret-123", "gamehost"}}, {.ttl_ms = 0});
  TokenAuthenticator down_auth(&down_store, {}, {.ttl_ms = 0});

  services::SetLogLevel(services::LogLevel::kDebug);
  std::vector<grpc::Status> statuses;
  Principal p;
  ::testing::internal::CaptureStderr();
  for (const std::string& t : {good.token, revoked.token, unknown, malformed, std::string("service-secret-123"),
                               std::string("service-secret-12")}) {
    statuses.push_back(auth.Authenticate(t, &p));
    statuses.push_back(store_->Authenticate(t, &p));
    statuses.push_back(down_auth.Authenticate(t, &p));
  }
  const std::string log = ::testing::internal::GetCapturedStderr();
  services::SetLogLevel(services::LogLevel::kInfo);

  // The logs said something about each kind of call, by id or fingerprint.
  EXPECT_NE(log.find("token_id=" + std::to_string(good.id)), std::string::npos) << log;
  EXPECT_NE(log.find("token_id=" + std::to_string(revoked.id)), std::string::npos) << log;
  EXPECT_NE(log.find(TokenFingerprint(Sha256(unknown))), std::string::npos) << log;
  EXPECT_NE(log.find("database unavailable"), std::string::npos) << log;
  for (const std::string& secret : {good.token, revoked.token, unknown, malformed, std::string("service-secret-12"),
                                    good.token.substr(4), revoked.token.substr(4), unknown.substr(4)}) {
    EXPECT_EQ(log.find(secret), std::string::npos) << "log holds " << secret << ":\n" << log;
    for (const grpc::Status& s : statuses) EXPECT_EQ(s.error_message().find(secret), std::string::npos);
  }
}

// ---- ladders -------------------------------------------------------------------

TEST_F(AccountsTest, CreatesLaddersWithTheTableDefaults) {
  ASSERT_TRUE(ladders_->CreateLadder(Ladder("main")).ok());
  LadderSpec three;
  three.id = "three-b_1";
  three.title = "Three seats, base game";
  three.ruleset = "base";
  three.seats = 3;
  three.placement_games = 0;
  three.mu = 1500;
  three.sigma = 350;
  three.beta = 175;
  three.kappa = 0.001;
  three.tau = 0;
  ASSERT_TRUE(ladders_->CreateLadder(three).ok());

  std::vector<LadderInfo> ladders;
  ASSERT_TRUE(ladders_->ListLadders(&ladders).ok());
  ASSERT_EQ(ladders.size(), 2u);
  const LadderSpec& m = ladders[0].spec;
  EXPECT_EQ(m.id, "main");
  EXPECT_EQ(m.ruleset, "cities_and_knights");
  EXPECT_EQ(m.seats, 4);
  EXPECT_EQ(m.placement_games, 10);
  EXPECT_DOUBLE_EQ(m.mu, 25);
  EXPECT_DOUBLE_EQ(m.sigma, 25.0 / 3);
  EXPECT_DOUBLE_EQ(m.beta, 25.0 / 6);
  EXPECT_DOUBLE_EQ(m.kappa, 0.0001);
  EXPECT_DOUBLE_EQ(m.tau, 25.0 / 300);
  EXPECT_EQ(ladders[0].season, 0);
  EXPECT_GT(ladders[0].created_unix_ms, 0);
  const LadderSpec& t = ladders[1].spec;
  EXPECT_EQ(t.title, "Three seats, base game");
  EXPECT_EQ(t.ruleset, "base");
  EXPECT_EQ(t.seats, 3);
  EXPECT_EQ(t.placement_games, 0);
  EXPECT_DOUBLE_EQ(t.sigma, 350);
  EXPECT_DOUBLE_EQ(t.tau, 0);
  {  // the table's own defaults are the spec's
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec("INSERT INTO ladders (id) VALUES ('defaults')");
    const pqxx::row r = tx.exec1(
        "SELECT mu, sigma, beta, kappa, tau, placement_games, seats FROM ladders "
        "WHERE id = 'defaults'");
    const LadderSpec d;
    EXPECT_EQ(r[0].as<double>(), d.mu);
    EXPECT_EQ(r[1].as<double>(), d.sigma);
    EXPECT_EQ(r[2].as<double>(), d.beta);
    EXPECT_EQ(r[3].as<double>(), d.kappa);
    EXPECT_EQ(r[4].as<double>(), d.tau);
    EXPECT_EQ(r[5].as<int>(), d.placement_games);
    EXPECT_EQ(r[6].as<int>(), d.seats);
  }
}

TEST_F(AccountsTest, RefusesBadLadders) {
  ASSERT_TRUE(ladders_->CreateLadder(Ladder("main")).ok());
  auto with = [](auto change) {
    LadderSpec s;
    s.id = "other";
    change(s);
    return s;
  };
  const std::pair<LadderSpec, std::string> cases[] = {
      {with([](LadderSpec& s) { s.id = ""; }), "id: ''"},
      {with([](LadderSpec& s) { s.id = "Main"; }), "id: 'Main'"},
      {with([](LadderSpec& s) { s.id = "-main"; }), "id: '-main'"},
      {with([](LadderSpec& s) { s.id = std::string(65, 'a'); }), "id: "},
      {with([](LadderSpec& s) { s.title = "a\tb"; }), "title: control characters"},
      {with([](LadderSpec& s) { s.ruleset = "seafarers"; }), "ruleset: 'seafarers'"},
      {with([](LadderSpec& s) { s.seats = 5; }), "seats: 5"},
      {with([](LadderSpec& s) { s.placement_games = -1; }), "placement_games: -1"},
      {with([](LadderSpec& s) { s.sigma = 0; }), "sigma: 0 is not positive"},
      {with([](LadderSpec& s) { s.beta = -1; }), "beta: -1 is not positive"},
      {with([](LadderSpec& s) { s.kappa = 0; }), "kappa: 0 is not positive"},
      {with([](LadderSpec& s) { s.tau = -0.5; }), "tau: -0.5 is not zero or positive"},
      {with([](LadderSpec& s) { s.mu = std::numeric_limits<double>::infinity(); }), "mu: not a finite number"},
      // The matchmaker would leave these ladders out of matchmaking.
      {with([](LadderSpec& s) { s.options = "nosuch=1"; }), "options: unknown option 'nosuch'"},
      {with([](LadderSpec& s) { s.options = "victory_points=12  fiesepeter"; }), "options: "},
      {with([](LadderSpec& s) { s.options = "ruleset=base"; }), "options: 'ruleset=base'"},
      {with([](LadderSpec& s) { s.options = std::string(1001, ' '); }), "options: longer than 1000"},
  };
  for (const auto& [spec, message] : cases) {
    const grpc::Status s = ladders_->CreateLadder(spec);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << message;
    EXPECT_NE(s.error_message().find(message), std::string::npos) << s.error_message();
  }
  LadderSpec again = Ladder("main");
  again.title = "again";
  const grpc::Status taken = ladders_->CreateLadder(again);
  EXPECT_EQ(taken.error_code(), StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(Count("ladders"), 1);
}

TEST_F(AccountsTest, ReadsOptionsAsTheMatchmakerDoes) {
  LadderSpec spec = Ladder("spaced");
  spec.options = "  victory_points=12   bank_limited=false ";
  EXPECT_TRUE(ladders_->CreateLadder(spec).ok());
  spec = Ladder("base");
  spec.ruleset = "base";
  spec.options = "victory_points=8";
  EXPECT_TRUE(ladders_->CreateLadder(spec).ok());
}

TEST_F(AccountsTest, UpdatesApplyToWhatTheLastOneLeft) {
  LadderInfo created;
  ASSERT_TRUE(ladders_->CreateLadder(Ladder("main"), &created).ok());
  EXPECT_GT(created.created_unix_ms, 0);
  LadderUpdate empty;
  EXPECT_EQ(ladders_->UpdateLadder("main", empty, nullptr).error_code(), StatusCode::INVALID_ARGUMENT);
  LadderUpdate title;
  title.title = "Main";
  EXPECT_EQ(ladders_->UpdateLadder("nosuch", title).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(ladders_->UpdateLadder("No Such", title).error_code(), StatusCode::NOT_FOUND);

  // Administrators changing different settings of one ladder at once: each
  // update reads the ladder the others left, so no change is lost.
  constexpr int kUpdates = 25;
  std::atomic<int> failures{0};
  const std::function<void(LadderUpdate*, int)> setters[] = {
      [](LadderUpdate* u, int i) { u->decision_ms = 1000 + i; },
      [](LadderUpdate* u, int i) { u->time_bank_ms = 5000 + i; },
      [](LadderUpdate* u, int i) { u->placement_games = i; },
      [](LadderUpdate* u, int i) { u->bot_fill_after_ms = 100 + i; },
  };
  std::vector<std::thread> threads;
  for (const auto& set : setters) {
    threads.emplace_back([&] {
      for (int i = 1; i <= kUpdates; ++i) {
        LadderUpdate u;
        set(&u, i);
        failures += !ladders_->UpdateLadder("main", u).ok();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  LadderInfo after;
  ASSERT_TRUE(ladders_->GetLadder("main", &after).ok());
  EXPECT_EQ(after.spec.decision_ms, 1000 + kUpdates);
  EXPECT_EQ(after.spec.time_bank_ms, 5000 + kUpdates);
  EXPECT_EQ(after.spec.placement_games, kUpdates);
  EXPECT_EQ(after.spec.bot_fill_after_ms, 100 + kUpdates);
  EXPECT_EQ(after.created_unix_ms, created.created_unix_ms);
  EXPECT_EQ(ladders_->GetLadder("nosuch", &after).error_code(), StatusCode::NOT_FOUND);
}

TEST_F(AccountsTest, SeasonsFollowOneAnother) {
  int season = 0;
  EXPECT_EQ(ladders_->CreateSeason("main", &season).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(ladders_->CreateSeason("Not A Ladder", &season).error_code(), StatusCode::NOT_FOUND);
  ASSERT_TRUE(ladders_->CreateLadder(Ladder("main")).ok());
  ASSERT_TRUE(ladders_->CreateLadder(Ladder("other")).ok());
  for (int expected = 1; expected <= 3; ++expected) {
    ASSERT_TRUE(ladders_->CreateSeason("main", &season).ok());
    EXPECT_EQ(season, expected);
  }
  ASSERT_TRUE(ladders_->CreateSeason("other", &season).ok());
  EXPECT_EQ(season, 1) << "each ladder counts its own seasons";

  pqxx::connection db(database_.conninfo());
  pqxx::read_transaction tx(db);
  const pqxx::result rows = tx.exec(
      "SELECT season, ends_at IS NULL, ends_at = lead(starts_at) OVER (ORDER BY season) FROM seasons "
      "WHERE ladder_id = 'main' ORDER BY season");
  ASSERT_EQ(rows.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_FALSE(rows[i][1].as<bool>()) << "season " << i + 1 << " is closed";
    EXPECT_TRUE(rows[i][2].as<bool>()) << "season " << i + 2 << " starts when " << i + 1 << " ends";
  }
  EXPECT_TRUE(rows[2][1].as<bool>()) << "the last season is open";

  std::vector<LadderInfo> ladders;
  ASSERT_TRUE(ladders_->ListLadders(&ladders).ok());
  ASSERT_EQ(ladders.size(), 2u);
  EXPECT_EQ(ladders[0].season, 3);
  EXPECT_GT(ladders[0].season_started_unix_ms, 0);
  EXPECT_EQ(ladders[1].season, 1);
}

TEST_F(AccountsTest, ConcurrentSeasonsGetDistinctNumbers) {
  ASSERT_TRUE(ladders_->CreateLadder(Ladder("main")).ok());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        int season = 0;
        failures += !ladders_->CreateSeason("main", &season).ok();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  pqxx::connection db(database_.conninfo());
  pqxx::read_transaction tx(db);
  const pqxx::row r = tx.exec1(
      "SELECT count(*), max(season), count(*) FILTER (WHERE ends_at IS NULL) FROM seasons WHERE ladder_id = 'main'");
  EXPECT_EQ(r[0].as<int>(), 20);
  EXPECT_EQ(r[1].as<int>(), 20);
  EXPECT_EQ(r[2].as<int>(), 1);
}

}  // namespace
}  // namespace metropolis::accounts
