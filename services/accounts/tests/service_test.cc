// The Accounts service over gRPC, over the stores' fakes (accounts_service_unit_tests)
// and over a real PostgreSQL (accounts_service_tests, label integration): every call works for an administrator and for
// no one else (but the public reads: people_service_test.cc), and malformed or impossible requests are refused with
// precise statuses, changing nothing.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "lib/auth/grpc_account_lookup.h"
#include "lib/auth/identity_names.h"
#include "lib/common/tests/fake_clock.h"
#include "services/accounts/tests/service_fixture.h"
#include "services/accounts/token.h"

namespace metropolis::accounts {
namespace {

using google::protobuf::util::MessageDifferencer;
using grpc::StatusCode;

using testing::AccountsServiceTest;
using testing::kGameHostToken;

// A request and the status and message it must get.
struct Refusal {
  std::string what;
  std::function<grpc::Status()> call;
  StatusCode code;
  std::string message;
};

void ExpectRefusals(const std::vector<Refusal>& cases) {
  for (const Refusal& c : cases) {
    const grpc::Status s = c.call();
    EXPECT_EQ(s.error_code(), c.code) << c.what << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << c.what << ": '" << s.error_message() << "' lacks '" << c.message << "'";
  }
}

// ---- roles ---------------------------------------------------------------------

TEST_F(AccountsServiceTest, OnlyAdministratorsAreServed) {
  Player("alice");
  const v1::IssueTokenResponse player = Issue("alice", false, "laptop");
  Bot("alicebot", "alice");
  const v1::IssueTokenResponse bot = Issue("alicebot");
  const v1::IssueTokenResponse revoked_admin = Issue("alice", true, "old");
  {
    v1::RevokeTokenRequest request;
    request.set_token_id(revoked_admin.token_id());
    v1::RevokeTokenResponse response;
    ASSERT_TRUE(Admin(&v1::Accounts::Stub::RevokeToken, request, &response).ok());
  }
  MakeLadder("open");

  // One valid request per call: each would succeed for the administrator.
  using Stub = v1::Accounts::Stub;
  v1::CreatePlayerRequest create_player;
  create_player.set_name("mallory");
  v1::CreateBotRequest create_bot;
  create_bot.set_name("mallorybot");
  create_bot.set_owner("alice");
  v1::IssueTokenRequest issue;
  issue.set_identity("alice");
  issue.set_admin(true);
  v1::ListTokensRequest list_tokens;
  list_tokens.set_identity("alice");
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(admin_token_id_);
  v1::CreateLadderRequest create_ladder;
  create_ladder.set_id("mallory");
  v1::UpdateLadderRequest update_ladder;
  update_ladder.set_id("open");
  update_ladder.mutable_settings()->set_title("taken over");
  v1::CreateSeasonRequest create_season;
  create_season.set_ladder("open");
  v1::LookupTokenRequest lookup;
  lookup.set_sha256(Sha256(player.token()));
  const std::vector<std::pair<std::string, std::function<grpc::Status(const std::string&)>>> in_order = {
      {"CreatePlayer", [&](const std::string& t) { return CallAny(&Stub::CreatePlayer, create_player, t); }},
      {"CreateBot", [&](const std::string& t) { return CallAny(&Stub::CreateBot, create_bot, t); }},
      {"ListIdentities",
       [&](const std::string& t) { return CallAny(&Stub::ListIdentities, v1::ListIdentitiesRequest(), t); }},
      {"IssueToken", [&](const std::string& t) { return CallAny(&Stub::IssueToken, issue, t); }},
      {"ListTokens", [&](const std::string& t) { return CallAny(&Stub::ListTokens, list_tokens, t); }},
      {"RevokeToken", [&](const std::string& t) { return CallAny(&Stub::RevokeToken, revoke, t); }},
      {"CreateLadder", [&](const std::string& t) { return CallAny(&Stub::CreateLadder, create_ladder, t); }},
      {"UpdateLadder", [&](const std::string& t) { return CallAny(&Stub::UpdateLadder, update_ladder, t); }},
      {"ListLadders", [&](const std::string& t) { return CallAny(&Stub::ListLadders, v1::ListLaddersRequest(), t); }},
      {"CreateSeason", [&](const std::string& t) { return CallAny(&Stub::CreateSeason, create_season, t); }},
      {"LookupToken", [&](const std::string& t) { return CallAny(&Stub::LookupToken, lookup, t); }},
  };
  // Every call of the service is here but the public reads, which any valid
  // token may make (people_service_test.cc): a new one must be added to this
  // test, or to those reads and their test.
  const std::set<std::string> public_reads = {"GetIdentity", "SearchIdentities", "ReadLadders"};
  // What the services' token may call (lib/auth/roles.h): reading, never changing.
  const std::set<std::string> for_services = {"ListLadders", "LookupToken"};
  // The reads for the other services: service tokens and administrators.
  v1::GetLadderRequest get_ladder;
  get_ladder.set_id("open");
  v1::GetIdentityNamesRequest get_names;
  get_names.add_ids(1);
  const std::vector<std::pair<std::string, std::function<grpc::Status(const std::string&)>>> reads = {
      {"GetLadder", [&](const std::string& t) { return CallAny(&Stub::GetLadder, get_ladder, t); }},
      {"GetIdentityNames", [&](const std::string& t) { return CallAny(&Stub::GetIdentityNames, get_names, t); }},
  };
  const google::protobuf::ServiceDescriptor* service =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(v1::Accounts::service_full_name());
  ASSERT_NE(service, nullptr);
  std::vector<std::string> administered;
  for (int i = 0; i < service->method_count(); ++i)
    if (!public_reads.count(service->method(i)->name())) administered.push_back(service->method(i)->name());
  ASSERT_EQ(administered.size(), in_order.size() + reads.size());
  ASSERT_EQ(size_t(service->method_count()), in_order.size() + reads.size() + public_reads.size());
  for (size_t i = 0; i < administered.size(); ++i)
    EXPECT_EQ(administered[i], i < in_order.size() ? in_order[i].first : reads[i - in_order.size()].first);
  auto calls = in_order;

  const std::string before = Snapshot();
  const struct {
    std::string who, token;
    StatusCode code;
  } callers[] = {
      {"no token", "", StatusCode::UNAUTHENTICATED},
      {"a forged token", NewToken(), StatusCode::UNAUTHENTICATED},
      {"not a token", "let-me-in", StatusCode::UNAUTHENTICATED},
      {"a revoked administrator's token", revoked_admin.token(), StatusCode::UNAUTHENTICATED},
      {"a player's token", player.token(), StatusCode::PERMISSION_DENIED},
      {"a bot's token", bot.token(), StatusCode::PERMISSION_DENIED},
      {"the game hosts' service token", kGameHostToken, StatusCode::PERMISSION_DENIED},
  };
  for (const auto& caller : callers) {
    for (const auto& [name, call] : calls) {
      const grpc::Status s = call(caller.token);
      const StatusCode want = caller.token == kGameHostToken && for_services.count(name) ? StatusCode::OK : caller.code;
      EXPECT_EQ(s.error_code(), want) << name << " with " << caller.who << ": " << s.error_message();
    }
  }
  EXPECT_EQ(Snapshot(), before) << "a refused call changed something";
  for (const auto& caller : callers) {
    const bool service_token = caller.token == kGameHostToken;
    for (const auto& [name, call] : reads) {
      const grpc::Status s = call(caller.token);
      EXPECT_EQ(s.error_code(), service_token ? StatusCode::OK : caller.code)
          << name << " with " << caller.who << ": " << s.error_message();
    }
  }
  for (const auto& [name, call] : reads) EXPECT_TRUE(call(admin_token_).ok()) << name;

  // Looking up tokens is the services' alone: an administrator may not.
  ASSERT_EQ(calls.back().first, "LookupToken");
  EXPECT_EQ(calls.back().second(admin_token_).error_code(), StatusCode::PERMISSION_DENIED);
  calls.pop_back();

  // The same calls succeed for an administrator (the last revokes the
  // administrator's own token, so it comes last).
  std::rotate(calls.begin() + 5, calls.begin() + 6, calls.end());
  for (const auto& [name, call] : calls) {
    const grpc::Status s = call(admin_token_);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
  }
  EXPECT_NE(Snapshot(), before);
  v1::ListIdentitiesResponse identities;
  EXPECT_EQ(Call(&Stub::ListIdentities, v1::ListIdentitiesRequest(), &identities, admin_token_).error_code(),
            StatusCode::UNAUTHENTICATED)
      << "the administrator revoked its own token";
}

// ---- identities ----------------------------------------------------------------

TEST_F(AccountsServiceTest, CreatesAndListsPlayersAndBots) {
  const v1::Identity alice = Player("alice");
  EXPECT_GT(alice.id(), 0);
  EXPECT_EQ(alice.kind(), "player");
  EXPECT_EQ(alice.name(), "alice");
  EXPECT_EQ(alice.owner(), "");
  EXPECT_GT(alice.created_unix_ms(), 1'600'000'000'000);
  const v1::Identity bot = Bot("alice.greedy-v2_0", "alice");
  EXPECT_GT(bot.id(), alice.id());
  EXPECT_EQ(bot.kind(), "bot");
  EXPECT_EQ(bot.owner(), "alice");

  v1::ListIdentitiesResponse list;
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::ListIdentities, v1::ListIdentitiesRequest(), &list).ok());
  ASSERT_EQ(list.identities_size(), 3);
  EXPECT_EQ(list.identities(0).name(), "root");
  EXPECT_TRUE(MessageDifferencer::Equals(list.identities(1), alice)) << list.identities(1).DebugString();
  EXPECT_TRUE(MessageDifferencer::Equals(list.identities(2), bot)) << list.identities(2).DebugString();
}

TEST_F(AccountsServiceTest, RefusesBadIdentitiesAndChangesNothing) {
  Player("alice");
  Bot("alicebot", "alice");
  const std::string before = Snapshot();
  auto player = [this](const std::string& name) {
    return [this, name] {
      v1::CreatePlayerRequest r;
      r.set_name(name);
      v1::Identity out;
      return Admin(&v1::Accounts::Stub::CreatePlayer, r, &out);
    };
  };
  auto bot = [this](const std::string& name, const std::string& owner) {
    return [this, name, owner] {
      v1::CreateBotRequest r;
      r.set_name(name);
      r.set_owner(owner);
      v1::Identity out;
      return Admin(&v1::Accounts::Stub::CreateBot, r, &out);
    };
  };
  ExpectRefusals({
      {"empty name", player(""), StatusCode::INVALID_ARGUMENT, "name: '' is not 1 to 64"},
      {"name with a space", player("carol smith"), StatusCode::INVALID_ARGUMENT, "name: 'carol smith'"},
      {"name too long", player(std::string(65, 'c')), StatusCode::INVALID_ARGUMENT, "name: "},
      // A page at /players/.. could never be reached.
      {"name of one dot", player("."), StatusCode::INVALID_ARGUMENT, "name: '.' is not 1 to 64"},
      {"name of two dots", player(".."), StatusCode::INVALID_ARGUMENT, "name: '..' is not 1 to 64"},
      // Quoted in part, not sent back whole (docs/SECURITY.md).
      {"name of 100 kB", player(std::string(100000, 'c')), StatusCode::INVALID_ARGUMENT,
       "name: '" + std::string(80, 'c') + "...' (100000 bytes) is not"},
      {"taken name", player("alice"), StatusCode::ALREADY_EXISTS, "name 'alice' is taken"},
      {"taken in another case", player("ALICE"), StatusCode::ALREADY_EXISTS, "name 'ALICE' is taken (by 'alice')"},
      {"bot without owner", bot("carolbot", ""), StatusCode::INVALID_ARGUMENT, "owner: bot 'carolbot' needs an owner"},
      {"bot with a bad name", bot("carol bot", "alice"), StatusCode::INVALID_ARGUMENT, "name: 'carol bot'"},
      {"bot of an unknown owner", bot("carolbot", "carol"), StatusCode::NOT_FOUND, "owner: no identity named 'carol'"},
      {"bot of a bot", bot("botbot", "alicebot"), StatusCode::INVALID_ARGUMENT, "owner: 'alicebot' is a bot"},
      {"bot under a taken name", bot("alicebot", "alice"), StatusCode::ALREADY_EXISTS, "name 'alicebot' is taken"},
  });
  EXPECT_EQ(Snapshot(), before);
}

// ---- tokens --------------------------------------------------------------------

TEST_F(AccountsServiceTest, IssuesListsAndRevokesTokens) {
  Player("alice");
  const v1::IssueTokenResponse plain = Issue("alice", false, "laptop");
  const v1::IssueTokenResponse admin = Issue("alice", true, "ops");
  EXPECT_TRUE(LooksLikeToken(plain.token()));
  EXPECT_NE(plain.token(), admin.token());
  EXPECT_GT(admin.token_id(), plain.token_id());

  // The tokens work, each with its own rights.
  Principal p;
  ASSERT_TRUE(accounts_->Authenticate(plain.token(), &p).ok());
  EXPECT_EQ(p.name, "alice");
  EXPECT_FALSE(p.admin);
  v1::ListIdentitiesResponse identities;
  EXPECT_EQ(
      Call(&v1::Accounts::Stub::ListIdentities, v1::ListIdentitiesRequest(), &identities, plain.token()).error_code(),
      StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(Call(&v1::Accounts::Stub::ListIdentities, v1::ListIdentitiesRequest(), &identities, admin.token()).ok());

  v1::ListTokensRequest list;
  list.set_identity("alice");
  v1::ListTokensResponse tokens;
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::ListTokens, list, &tokens).ok());
  ASSERT_EQ(tokens.tokens_size(), 2);
  EXPECT_EQ(tokens.tokens(0).id(), plain.token_id());
  EXPECT_EQ(tokens.tokens(0).label(), "laptop");
  EXPECT_FALSE(tokens.tokens(0).admin());
  EXPECT_GT(tokens.tokens(0).created_unix_ms(), 1'600'000'000'000);
  EXPECT_EQ(tokens.tokens(0).revoked_unix_ms(), 0);
  EXPECT_EQ(tokens.tokens(1).id(), admin.token_id());
  EXPECT_TRUE(tokens.tokens(1).admin());
  // Listing never shows a token, in any form.
  const std::string listed = tokens.SerializeAsString();
  for (const std::string& t : {plain.token(), admin.token()}) {
    EXPECT_EQ(listed.find(t), std::string::npos);
    EXPECT_EQ(listed.find(t.substr(4)), std::string::npos);
  }

  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(plain.token_id());
  v1::RevokeTokenResponse revoked;
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::RevokeToken, revoke, &revoked).ok());
  EXPECT_EQ(accounts_->Authenticate(plain.token(), &p).error_code(), StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::ListTokens, list, &tokens).ok());
  EXPECT_GT(tokens.tokens(0).revoked_unix_ms(), 0);
  EXPECT_EQ(tokens.tokens(1).revoked_unix_ms(), 0);
}

// Whoever holds a revoked token can present it as often as they like: 500 tries
// in a minute, with `per_minute` lines allowed, and the "revoked token refused"
// lines written (the last one a minute on).
std::vector<std::string> RevokedTokenLines(AccountStore* accounts, const std::string& token, int per_minute) {
  services::testing::FakeClock clock(1'000'000);
  accounts->LimitRevokedTokenLogs(per_minute, &clock);
  Principal p;
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(accounts->Authenticate(token, &p).error_code(), StatusCode::UNAUTHENTICATED);
    clock.Advance(100);
  }
  clock.Advance(60'000);
  EXPECT_EQ(accounts->Authenticate(token, &p).error_code(), StatusCode::UNAUTHENTICATED);
  const std::string log = ::testing::internal::GetCapturedStderr();
  accounts->LimitRevokedTokenLogs(10);
  std::vector<std::string> lines;
  for (size_t start = 0, end; start < log.size(); start = end + 1) {
    end = std::min(log.find('\n', start), log.size());
    std::string line = log.substr(start, end - start);
    if (line.find("revoked token refused") != std::string::npos) lines.push_back(std::move(line));
  }
  return lines;
}

TEST_F(AccountsServiceTest, ARevokedTokenPresentedOverAndOverIsLoggedAFewLinesAMinute) {
  Player("alice");
  const v1::IssueTokenResponse plain = Issue("alice", false, "laptop");
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(plain.token_id());
  v1::RevokeTokenResponse revoked;
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::RevokeToken, revoke, &revoked).ok());
  const std::vector<std::string> lines = RevokedTokenLines(accounts_.get(), plain.token(), 10);
  // 500 tries over 50 s: 10 lines, then, a minute on, one that counts the rest.
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_NE(lines[0].find("identity=alice"), std::string::npos) << lines[0];
  EXPECT_NE(lines[10].find("suppressed=490"), std::string::npos) << lines[10];
  // Negative control: without the limit every try is a line.
  EXPECT_EQ(RevokedTokenLines(accounts_.get(), plain.token(), 0).size(), 501u);
}

TEST_F(AccountsServiceTest, ChangesAreLoggedWithWhoMadeThemButNoToken) {
  Player("alice");
  ::testing::internal::CaptureStderr();
  const v1::IssueTokenResponse issued = Issue("alice", true, "laptop");
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(issued.token_id());
  v1::RevokeTokenResponse revoked;
  const grpc::Status s = Admin(&v1::Accounts::Stub::RevokeToken, revoke, &revoked);
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(s.ok()) << s.error_message();
  const std::string by = "by=root by_token_id=" + std::to_string(admin_token_id_);
  EXPECT_NE(log.find("msg=\"token issued\" identity=alice token_id=" + std::to_string(issued.token_id())),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("msg=\"token revoked\" token_id=" + std::to_string(issued.token_id()) + " " + by),
            std::string::npos)
      << log;
  for (const std::string& secret : {issued.token(), issued.token().substr(4), admin_token_, admin_token_.substr(4)})
    EXPECT_EQ(log.find(secret), std::string::npos) << log;
}

TEST_F(AccountsServiceTest, RefusesBadTokenRequestsAndChangesNothing) {
  Player("alice");
  const v1::IssueTokenResponse revoked = Issue("alice");
  {
    v1::RevokeTokenRequest r;
    r.set_token_id(revoked.token_id());
    v1::RevokeTokenResponse out;
    ASSERT_TRUE(Admin(&v1::Accounts::Stub::RevokeToken, r, &out).ok());
  }
  const std::string before = Snapshot();
  auto issue = [this](const std::string& identity, const std::string& label) {
    return [this, identity, label] {
      v1::IssueTokenRequest r;
      r.set_identity(identity);
      r.set_label(label);
      v1::IssueTokenResponse out;
      return Admin(&v1::Accounts::Stub::IssueToken, r, &out);
    };
  };
  auto list = [this](const std::string& identity) {
    return [this, identity] {
      v1::ListTokensRequest r;
      r.set_identity(identity);
      v1::ListTokensResponse out;
      return Admin(&v1::Accounts::Stub::ListTokens, r, &out);
    };
  };
  auto revoke = [this](int64_t id) {
    return [this, id] {
      v1::RevokeTokenRequest r;
      r.set_token_id(id);
      v1::RevokeTokenResponse out;
      return Admin(&v1::Accounts::Stub::RevokeToken, r, &out);
    };
  };
  ExpectRefusals({
      {"issue for nobody", issue("", ""), StatusCode::INVALID_ARGUMENT, "identity: required"},
      {"issue for a malformed name", issue("a b", ""), StatusCode::INVALID_ARGUMENT, "identity: 'a b' is not a name"},
      {"issue for an unknown identity", issue("bob", ""), StatusCode::NOT_FOUND, "no identity named 'bob'"},
      {"issue for another case", issue("Alice", ""), StatusCode::NOT_FOUND, "no identity named 'Alice'"},
      {"label too long", issue("alice", std::string(201, 'l')), StatusCode::INVALID_ARGUMENT, "label: longer than 200"},
      {"label on two lines", issue("alice", "a\nb"), StatusCode::INVALID_ARGUMENT, "label: control characters"},
      {"list for nobody", list(""), StatusCode::INVALID_ARGUMENT, "identity: required"},
      {"list for a malformed name", list("a/b"), StatusCode::INVALID_ARGUMENT, "identity: 'a/b' is not a name"},
      {"list for an unknown identity", list("bob"), StatusCode::NOT_FOUND, "no identity named 'bob'"},
      {"revoke token 0", revoke(0), StatusCode::INVALID_ARGUMENT, "token_id: 0 is not a token id"},
      {"revoke a negative id", revoke(-3), StatusCode::INVALID_ARGUMENT, "token_id: -3"},
      {"revoke an unknown token", revoke(revoked.token_id() + 1000), StatusCode::NOT_FOUND, "no token with id"},
      {"revoke twice", revoke(revoked.token_id()), StatusCode::FAILED_PRECONDITION, "was already revoked"},
  });
  EXPECT_EQ(Snapshot(), before);
}

// ---- ladders -------------------------------------------------------------------

TEST_F(AccountsServiceTest, CreatesLaddersWithDefaultsOrEverySettingGiven) {
  const v1::Ladder plain = MakeLadder("open");
  const LadderSpec d;
  EXPECT_EQ(plain.id(), "open");
  EXPECT_EQ(plain.title(), "");
  EXPECT_EQ(plain.ruleset(), d.ruleset);
  EXPECT_EQ(plain.options(), "");
  EXPECT_EQ(plain.seats(), d.seats);
  EXPECT_EQ(plain.placement_games(), d.placement_games);
  EXPECT_EQ(plain.mu(), d.mu);
  EXPECT_EQ(plain.sigma(), d.sigma);
  EXPECT_EQ(plain.beta(), d.beta);
  EXPECT_EQ(plain.kappa(), d.kappa);
  EXPECT_EQ(plain.tau(), d.tau);
  EXPECT_EQ(plain.allow_three_after_ms(), -1);
  EXPECT_EQ(plain.bot_fill_after_ms(), -1);
  EXPECT_EQ(plain.decision_ms(), d.decision_ms);
  EXPECT_EQ(plain.time_bank_ms(), d.time_bank_ms);
  EXPECT_GT(plain.created_unix_ms(), 1'600'000'000'000);
  EXPECT_EQ(plain.season(), 0u);
  EXPECT_EQ(plain.season_started_unix_ms(), 0);

  v1::LadderSettings all;
  all.set_title("Base, three seats");
  all.set_ruleset("base");
  all.set_options("victory_points=12 bank_limited=false");
  all.set_seats(3);
  all.set_placement_games(0);
  all.set_mu(1500);
  all.set_sigma(350);
  all.set_beta(175);
  all.set_kappa(0.001);
  all.set_tau(0);
  all.set_allow_three_after_ms(-1);
  all.set_bot_fill_after_ms(30'000);
  all.set_decision_ms(2'000);
  all.set_time_bank_ms(0);
  const v1::Ladder made = MakeLadder("base-3", all);
  EXPECT_EQ(made.title(), "Base, three seats");
  EXPECT_EQ(made.ruleset(), "base");
  EXPECT_EQ(made.options(), "victory_points=12 bank_limited=false");
  EXPECT_EQ(made.seats(), 3);
  EXPECT_EQ(made.placement_games(), 0);
  EXPECT_EQ(made.mu(), 1500);
  EXPECT_EQ(made.sigma(), 350);
  EXPECT_EQ(made.beta(), 175);
  EXPECT_EQ(made.kappa(), 0.001);
  EXPECT_EQ(made.tau(), 0);
  EXPECT_EQ(made.allow_three_after_ms(), -1);
  EXPECT_EQ(made.bot_fill_after_ms(), 30'000);
  EXPECT_EQ(made.decision_ms(), 2'000);
  EXPECT_EQ(made.time_bank_ms(), 0);

  // What the call answered is what was stored.
  const std::vector<v1::Ladder> listed = Ladders();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_TRUE(MessageDifferencer::Equals(listed[0], made)) << listed[0].DebugString() << made.DebugString();
  EXPECT_TRUE(MessageDifferencer::Equals(listed[1], plain)) << listed[1].DebugString() << plain.DebugString();
}

TEST_F(AccountsServiceTest, RefusesBadLaddersAndChangesNothing) {
  MakeLadder("open");
  const std::string before = Snapshot();
  auto create = [this](const std::string& id, std::function<void(v1::LadderSettings*)> set) {
    return [this, id, set] {
      v1::CreateLadderRequest r;
      r.set_id(id);
      if (set) set(r.mutable_settings());
      v1::Ladder out;
      return Admin(&v1::Accounts::Stub::CreateLadder, r, &out);
    };
  };
  using S = v1::LadderSettings;
  ExpectRefusals({
      {"no id", create("", nullptr), StatusCode::INVALID_ARGUMENT, "id: required"},
      {"upper case id", create("Open2", nullptr), StatusCode::INVALID_ARGUMENT, "id: 'Open2' is not a ladder id"},
      {"taken id", create("open", nullptr), StatusCode::ALREADY_EXISTS, "ladder 'open' exists"},
      {"title on two lines", create("x", [](S* s) { s->set_title("a\nb"); }), StatusCode::INVALID_ARGUMENT,
       "title: control characters"},
      {"title too long", create("x", [](S* s) { s->set_title(std::string(201, 't')); }), StatusCode::INVALID_ARGUMENT,
       "title: longer than 200"},
      {"ruleset", create("x", [](S* s) { s->set_ruleset("seafarers"); }), StatusCode::INVALID_ARGUMENT,
       "ruleset: 'seafarers'"},
      {"unknown option", create("x", [](S* s) { s->set_options("victory_points=12 nosuch=1"); }),
       StatusCode::INVALID_ARGUMENT, "options: unknown option 'nosuch'"},
      {"bad option value", create("x", [](S* s) { s->set_options("victory_points=many"); }),
       StatusCode::INVALID_ARGUMENT, "options: "},
      {"ruleset among the options", create("x", [](S* s) { s->set_options("ruleset=base"); }),
       StatusCode::INVALID_ARGUMENT, "options: 'ruleset=base': the ruleset is the ladder's ruleset field"},
      {"seats", create("x", [](S* s) { s->set_seats(5); }), StatusCode::INVALID_ARGUMENT, "seats: 5"},
      {"placement games", create("x", [](S* s) { s->set_placement_games(-1); }), StatusCode::INVALID_ARGUMENT,
       "placement_games: -1"},
      {"sigma", create("x", [](S* s) { s->set_sigma(0); }), StatusCode::INVALID_ARGUMENT, "sigma: 0 is not positive"},
      {"mu", create("x", [](S* s) { s->set_mu(std::numeric_limits<double>::quiet_NaN()); }),
       StatusCode::INVALID_ARGUMENT, "mu: not a finite number"},
      {"tau", create("x", [](S* s) { s->set_tau(-1); }), StatusCode::INVALID_ARGUMENT, "tau: -1"},
      {"three of three", create("x", [](S* s) { s->set_seats(3), s->set_allow_three_after_ms(0); }),
       StatusCode::INVALID_ARGUMENT, "allow_three_after_ms: only for 4-seat ladders"},
      {"three after -2", create("x", [](S* s) { s->set_allow_three_after_ms(-2); }), StatusCode::INVALID_ARGUMENT,
       "allow_three_after_ms: -1 (never) or 0 to"},
      {"bots after too long", create("x", [](S* s) { s->set_bot_fill_after_ms(int64_t(1) << 31); }),
       StatusCode::INVALID_ARGUMENT, "bot_fill_after_ms: -1 (never) or 0 to"},
      {"no time to decide", create("x", [](S* s) { s->set_decision_ms(0); }), StatusCode::INVALID_ARGUMENT,
       "decision_ms: 0 is not positive"},
      {"negative time bank", create("x", [](S* s) { s->set_time_bank_ms(-1); }), StatusCode::INVALID_ARGUMENT,
       "time_bank_ms: -1 is negative"},
  });
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(AccountsServiceTest, UpdatesOnlyWhatIsGiven) {
  v1::LadderSettings settings;
  settings.set_title("Open");
  settings.set_allow_three_after_ms(60'000);
  const v1::Ladder created = MakeLadder("open", settings);
  v1::CreateSeasonRequest season;
  season.set_ladder("open");
  v1::CreateSeasonResponse opened;
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::CreateSeason, season, &opened).ok());

  v1::UpdateLadderRequest request;
  request.set_id("open");
  request.mutable_settings()->set_decision_ms(3'000);
  request.mutable_settings()->set_options("victory_points=11");
  v1::Ladder updated;
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::UpdateLadder, request, &updated).ok());
  v1::Ladder expected = created;
  expected.set_decision_ms(3'000);
  expected.set_options("victory_points=11");
  expected.set_season(1);
  expected.set_latest_season(1);
  expected.set_season_started_unix_ms(updated.season_started_unix_ms());
  EXPECT_GT(updated.season_started_unix_ms(), 0);
  EXPECT_TRUE(MessageDifferencer::Equals(updated, expected)) << updated.DebugString() << expected.DebugString();
  ASSERT_EQ(Ladders().size(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(Ladders()[0], expected));

  // Set to "never" and to empty: present fields count even at their zero value.
  request.Clear();
  request.set_id("open");
  request.mutable_settings()->set_allow_three_after_ms(-1);
  request.mutable_settings()->set_seats(3);
  request.mutable_settings()->set_title("");
  request.mutable_settings()->set_placement_games(0);
  ASSERT_TRUE(Admin(&v1::Accounts::Stub::UpdateLadder, request, &updated).ok());
  EXPECT_EQ(updated.allow_three_after_ms(), -1);
  EXPECT_EQ(updated.seats(), 3);
  EXPECT_EQ(updated.title(), "");
  EXPECT_EQ(updated.placement_games(), 0);
  EXPECT_EQ(updated.decision_ms(), 3'000);
  EXPECT_TRUE(MessageDifferencer::Equals(Ladders()[0], updated));
}

TEST_F(AccountsServiceTest, RefusesBadUpdatesAndChangesNothing) {
  v1::LadderSettings settings;
  settings.set_allow_three_after_ms(60'000);
  MakeLadder("open", settings);
  const std::string before = Snapshot();
  auto update = [this](const std::string& id, std::function<void(v1::LadderSettings*)> set) {
    return [this, id, set] {
      v1::UpdateLadderRequest r;
      r.set_id(id);
      if (set) set(r.mutable_settings());
      v1::Ladder out;
      return Admin(&v1::Accounts::Stub::UpdateLadder, r, &out);
    };
  };
  using S = v1::LadderSettings;
  ExpectRefusals({
      {"no id", update("", [](S* s) { s->set_seats(3); }), StatusCode::INVALID_ARGUMENT, "id: required"},
      {"malformed id", update("open ladder", [](S* s) { s->set_seats(3); }), StatusCode::INVALID_ARGUMENT,
       "id: 'open ladder' is not a ladder id"},
      {"unknown ladder", update("closed", [](S* s) { s->set_seats(3); }), StatusCode::NOT_FOUND, "no ladder 'closed'"},
      {"nothing to change", update("open", nullptr), StatusCode::INVALID_ARGUMENT, "settings: none given"},
      // Valid alone, not with what the ladder has: it forms tables of 3 after a wait.
      {"three seats with a wait for three", update("open", [](S* s) { s->set_seats(3); }), StatusCode::INVALID_ARGUMENT,
       "allow_three_after_ms: only for 4-seat ladders"},
      {"a good change with a bad one", update("open", [](S* s) { s->set_title("new"), s->set_kappa(0); }),
       StatusCode::INVALID_ARGUMENT, "kappa: 0 is not positive"},
      {"an unknown option", update("open", [](S* s) { s->set_options("nosuch=2"); }), StatusCode::INVALID_ARGUMENT,
       "options: unknown option 'nosuch'"},
  });
  EXPECT_EQ(Snapshot(), before);
}

// ---- seasons -------------------------------------------------------------------

TEST_F(AccountsServiceTest, SeasonsFollowOneAnother) {
  MakeLadder("open");
  MakeLadder("other");
  v1::CreateSeasonRequest request;
  request.set_ladder("open");
  v1::CreateSeasonResponse response;
  for (uint32_t expected = 1; expected <= 2; ++expected) {
    ASSERT_TRUE(Admin(&v1::Accounts::Stub::CreateSeason, request, &response).ok());
    EXPECT_EQ(response.ladder(), "open");
    EXPECT_EQ(response.season(), expected);
  }
  const std::vector<v1::Ladder> ladders = Ladders();
  ASSERT_EQ(ladders.size(), 2u);
  EXPECT_EQ(ladders[0].season(), 2u);
  EXPECT_GT(ladders[0].season_started_unix_ms(), ladders[0].created_unix_ms() - 1);
  EXPECT_EQ(ladders[1].season(), 0u);

  const std::string before = Snapshot();
  auto open = [this](const std::string& ladder) {
    return [this, ladder] {
      v1::CreateSeasonRequest r;
      r.set_ladder(ladder);
      v1::CreateSeasonResponse out;
      return Admin(&v1::Accounts::Stub::CreateSeason, r, &out);
    };
  };
  ExpectRefusals({
      {"no ladder", open(""), StatusCode::INVALID_ARGUMENT, "ladder: required"},
      {"malformed ladder", open("Open"), StatusCode::INVALID_ARGUMENT, "ladder: 'Open' is not a ladder id"},
      {"unknown ladder", open("closed"), StatusCode::NOT_FOUND, "no ladder 'closed'"},
  });
  EXPECT_EQ(Snapshot(), before);
}

// ---- token lookups (the other services' authenticators) ------------------------

TEST_F(AccountsServiceTest, LooksUpATokenByItsHashForServicesOnly) {
  const v1::Identity alice = Player("alice");
  const v1::IssueTokenResponse plain = Issue("alice", false, "laptop");
  const v1::IssueTokenResponse admin = Issue("alice", true, "ops");
  auto lookup = [this](const std::string& sha256, v1::LookupTokenResponse* out, const std::string& token) {
    v1::LookupTokenRequest request;
    request.set_sha256(sha256);
    return Call(&v1::Accounts::Stub::LookupToken, request, out, token);
  };
  v1::LookupTokenResponse found;
  ASSERT_TRUE(lookup(Sha256(admin.token()), &found, kGameHostToken).ok());
  EXPECT_TRUE(found.found());
  EXPECT_EQ(found.identity_id(), alice.id());
  EXPECT_EQ(found.name(), "alice");
  EXPECT_EQ(found.kind(), "player");
  EXPECT_TRUE(found.admin());
  EXPECT_EQ(found.token_id(), admin.token_id());
  ASSERT_TRUE(lookup(Sha256(plain.token()), &found, kGameHostToken).ok());
  EXPECT_TRUE(found.found());
  EXPECT_FALSE(found.admin());

  v1::LookupTokenResponse unknown;
  ASSERT_TRUE(lookup(Sha256(NewToken()), &unknown, kGameHostToken).ok());
  EXPECT_FALSE(unknown.found());
  EXPECT_EQ(unknown.name(), "");
  {
    v1::RevokeTokenRequest request;
    request.set_token_id(plain.token_id());
    v1::RevokeTokenResponse response;
    ASSERT_TRUE(Admin(&v1::Accounts::Stub::RevokeToken, request, &response).ok());
  }
  v1::LookupTokenResponse revoked;
  ASSERT_TRUE(lookup(Sha256(plain.token()), &revoked, kGameHostToken).ok());
  EXPECT_FALSE(revoked.found());

  v1::LookupTokenResponse refused;
  ExpectRefusals({
      {"short hash", [&] { return lookup("abc", &refused, kGameHostToken); }, StatusCode::INVALID_ARGUMENT,
       "sha256: 32 bytes"},
      {"the token, not its hash", [&] { return lookup(admin.token(), &refused, kGameHostToken); },
       StatusCode::INVALID_ARGUMENT, "sha256: 32 bytes"},
      {"an API token asking about itself", [&] { return lookup(Sha256(admin.token()), &refused, admin.token()); },
       StatusCode::PERMISSION_DENIED, "needs a service token"},
      {"no token", [&] { return lookup(Sha256(admin.token()), &refused, ""); }, StatusCode::UNAUTHENTICATED, "missing"},
  });
  EXPECT_FALSE(refused.found());
}

// The client the services read names with (lib/auth/identity_names.h): names of
// identities, others left out, more ids than one call takes, and Accounts'
// refusal passed on with nothing filled in.
TEST_F(AccountsServiceTest, OtherServicesReadNamesThroughIdentityNames) {
  const v1::Identity alice = Player("alice");
  const v1::Identity bob = Player("bob");
  auth::IdentityNames names(grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()), kGameHostToken);
  std::vector<int64_t> ids = {alice.id(), bob.id()};
  for (int64_t i = 0; i < int64_t(auth::IdentityNames::kPerCall); ++i) ids.push_back(1'000'000 + i);  // none
  std::unordered_map<int64_t, std::string> got;
  ASSERT_TRUE(names.Names(ids, &got).ok());
  EXPECT_EQ(got, (std::unordered_map<int64_t, std::string>{{alice.id(), "alice"}, {bob.id(), "bob"}}));

  auth::IdentityNames refused(grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()), "not-a-token");
  std::unordered_map<int64_t, std::string> none;
  EXPECT_EQ(refused.Names({alice.id()}, &none).error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(none.empty());
}

TEST_F(AccountsServiceTest, AnotherServiceAuthenticatesThroughTheLookup) {
  const v1::Identity bob = Player("bob");
  const v1::IssueTokenResponse token = Issue("bob", false, "bot");
  auth::GrpcAccountLookup lookup(
      v1::Accounts::NewStub(grpc::CreateChannel(address_, grpc::InsecureChannelCredentials())), kGameHostToken);
  auth::TokenAuthenticator remote(&lookup, {{"another-service-secret", "gamehost"}}, {.ttl_ms = 0});
  Principal p;
  ASSERT_TRUE(remote.Authenticate(token.token(), &p).ok());
  EXPECT_EQ(p.identity_id, bob.id());
  EXPECT_EQ(p.name, "bob");
  EXPECT_EQ(p.token_id, token.token_id());
  EXPECT_FALSE(p.service);
  EXPECT_EQ(remote.Authenticate(NewToken(), &p).error_code(), StatusCode::UNAUTHENTICATED);

  // A lookup whose own service token Accounts refuses must not make good tokens
  // look bad: UNAVAILABLE, never UNAUTHENTICATED.
  auth::GrpcAccountLookup misconfigured(
      v1::Accounts::NewStub(grpc::CreateChannel(address_, grpc::InsecureChannelCredentials())), "wrong-secret");
  auth::TokenAuthenticator broken(&misconfigured, {}, {.ttl_ms = 30'000});
  EXPECT_EQ(broken.Authenticate(token.token(), &p).error_code(), StatusCode::UNAVAILABLE);
  // And an Accounts that cannot be reached is UNAVAILABLE too.
  auth::GrpcAccountLookup nowhere(
      v1::Accounts::NewStub(grpc::CreateChannel("127.0.0.1:1", grpc::InsecureChannelCredentials())), kGameHostToken,
      500);
  auth::TokenAuthenticator unreachable(&nowhere, {}, {.ttl_ms = 30'000});
  EXPECT_EQ(unreachable.Authenticate(token.token(), &p).error_code(), StatusCode::UNAVAILABLE);
}

// ---- reads for the other services ------------------------------------------

// The ratings service reads a ladder's rating parameters and seasons, and the
// names of the identities on its leaderboards.
TEST_F(AccountsServiceTest, GivesOtherServicesLaddersAndNames) {
  v1::LadderSettings settings;
  settings.set_mu(30);
  settings.set_placement_games(3);
  MakeLadder("open", settings);
  v1::CreateSeasonRequest season;
  season.set_ladder("open");
  v1::CreateSeasonResponse opened;
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(Admin(&v1::Accounts::Stub::CreateSeason, season, &opened).ok());

  v1::GetLadderRequest get;
  get.set_id("open");
  v1::Ladder ladder;
  ASSERT_TRUE(Call(&v1::Accounts::Stub::GetLadder, get, &ladder, kGameHostToken).ok());
  EXPECT_EQ(ladder.mu(), 30);
  EXPECT_EQ(ladder.placement_games(), 3);
  EXPECT_EQ(ladder.season(), 2u);
  EXPECT_EQ(ladder.latest_season(), 2u);
  get.set_id("closed");
  grpc::Status s = Call(&v1::Accounts::Stub::GetLadder, get, &ladder, kGameHostToken);
  EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND) << s.error_message();
  get.set_id("Bad Id");
  EXPECT_EQ(Call(&v1::Accounts::Stub::GetLadder, get, &ladder, kGameHostToken).error_code(),
            StatusCode::INVALID_ARGUMENT);

  const v1::Identity alice = Player("alice");
  const v1::Identity bob = Player("bob");
  v1::GetIdentityNamesRequest names;
  names.add_ids(alice.id());
  names.add_ids(bob.id());
  names.add_ids(999'999);  // no identity: left out
  v1::GetIdentityNamesResponse got;
  ASSERT_TRUE(Call(&v1::Accounts::Stub::GetIdentityNames, names, &got, kGameHostToken).ok());
  ASSERT_EQ(got.names_size(), 2);
  EXPECT_EQ(got.names().at(alice.id()), "alice");
  EXPECT_EQ(got.names().at(bob.id()), "bob");
  for (int i = 0; i < 1000; ++i) names.add_ids(i + 1);
  EXPECT_EQ(Call(&v1::Accounts::Stub::GetIdentityNames, names, &got, kGameHostToken).error_code(),
            StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace metropolis::accounts
