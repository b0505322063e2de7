// metropolisctl's accounts commands against the real Accounts service (label
// integration): what an operator types, what is printed, and the exit codes.
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "services/accounts/tests/service_fixture.h"
#include "tools/ctl/commands.h"
#include "tools/ctl/tests/run_command.h"

namespace metropolis::accounts {
namespace {

using ctl::testing::Outcome;
using ctl::testing::RunFn;
using testing::AccountsServiceTest;

class CtlAccountsTest : public AccountsServiceTest {
 protected:
  // Runs one command as metropolisctl's main would, with the server and `token`
  // from the environment.
  Outcome Run(RunFn run, std::vector<std::string> args, const std::string& token) {
    return ctl::testing::RunCommand(run, args, address_, token);
  }
  Outcome Admin(RunFn run, std::vector<std::string> args) { return Run(run, std::move(args), admin_token_); }
};

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST_F(CtlAccountsTest, IdentitiesAndTokens) {
  Outcome o = Admin(ctl::RunCreatePlayer, {"alice"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex("^created player alice \\(id [0-9]+\\)\n$"))) << o.out;
  o = Admin(ctl::RunCreateBot, {"alicebot", "--owner", "alice", "--json"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex(R"(^\{"id":[0-9]+,"kind":"bot","name":"alicebot","owner":"alice")")))
      << o.out;
  o = Admin(ctl::RunIdentities, {});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex("^id +kind +name +owner +created\n"))) << o.out;
  EXPECT_TRUE(std::regex_search(o.out, std::regex("\n[0-9]+ +bot +alicebot +alice +[0-9]{4}-"))) << o.out;

  o = Admin(ctl::RunIssueToken, {"alice", "--label", "laptop", "--json"});
  EXPECT_EQ(o.code, 0) << o.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(o.out, m, std::regex(R"re("id":([0-9]+).*"token":"(mtp_[0-9a-f]{64})")re"))) << o.out;
  const std::string id = m[1], token = m[2];
  Principal p;
  ASSERT_TRUE(accounts_->Authenticate(token, &p).ok()) << "the printed token is alice's";
  EXPECT_EQ(p.name, "alice");
  EXPECT_FALSE(p.admin);

  o = Admin(ctl::RunTokens, {"alice"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex("\n" + id + " +laptop +no +[0-9]{4}-[^\n]* -\n"))) << o.out;
  EXPECT_EQ(o.out.find("mtp_"), std::string::npos);

  o = Admin(ctl::RunRevokeToken, {id});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_HAS(o.out, "revoked token " + id);
  EXPECT_EQ(accounts_->Authenticate(token, &p).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  o = Admin(ctl::RunRevokeToken, {id});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "metropolisctl revoke-token: RevokeToken failed: FAILED_PRECONDITION: token " + id);

  o = Admin(ctl::RunCreatePlayer, {"Alice"});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "ALREADY_EXISTS: name 'Alice' is taken (by 'alice')");
  o = Admin(ctl::RunCreateBot, {"carolbot", "--owner", "carol"});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "NOT_FOUND: owner: no identity named 'carol'");
}

TEST_F(CtlAccountsTest, LaddersAndSeasons) {
  Outcome o = Admin(ctl::RunCreateLadder, {"open", "--title", "Open", "--decision-ms", "2000", "--three-after-ms",
                                           "60000", "--options", "victory_points=12"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_HAS(o.out, "created ladder open; open its first season with: metropolisctl create-season open\n");
  EXPECT_HAS(o.out, "\ndecision           2s\n");
  EXPECT_HAS(o.out, "\ntables of 3 after  60s\n");
  EXPECT_HAS(o.out, "\nseason             none open\n");

  // The service judges the values: a 3-seat ladder cannot wait for tables of 3.
  o = Admin(ctl::RunUpdateLadder, {"open", "--seats", "3"});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "UpdateLadder failed: INVALID_ARGUMENT: allow_three_after_ms: only for 4-seat ladders");
  o = Admin(ctl::RunUpdateLadder, {"open", "--seats", "3", "--three-after-ms", "never", "--json"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_HAS(o.out, R"("seats":3,)");
  EXPECT_HAS(o.out, R"("allow_three_after_ms":-1,)");
  EXPECT_HAS(o.out, R"("decision_ms":2000,)");

  o = Admin(ctl::RunCreateSeason, {"open"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "ladder open: season 1 is open\n");
  o = Admin(ctl::RunCreateSeason, {"open", "--json"});
  EXPECT_EQ(o.out, "{\"ladder\":\"open\",\"season\":2}\n");
  o = Admin(ctl::RunCreateSeason, {"closed"});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "NOT_FOUND: no ladder 'closed'");

  o = Admin(ctl::RunLadders, {});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex("\nopen +Open +cities_and_knights +3 +10 +25 .* 2 +[0-9]{4}-")))
      << o.out;
  o = Admin(ctl::RunLadders, {"--json"});
  EXPECT_TRUE(std::regex_search(o.out, std::regex(R"(^\[\{"id":"open","title":"Open",.*"season":2,)"))) << o.out;
}

TEST_F(CtlAccountsTest, RefusalsAndUsageErrors) {
  Identity bob;
  ASSERT_TRUE(accounts_->CreateIdentity("player", "bob", "", &bob).ok());
  IssuedToken plain;
  ASSERT_TRUE(accounts_->IssueToken("bob", "", false, &plain).ok());

  Outcome o = Run(ctl::RunIdentities, {}, "");
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "UNAUTHENTICATED");
  EXPECT_HAS(o.err, "(no token given: --token or METROPOLIS_TOKEN)");
  o = Run(ctl::RunCreatePlayer, {"mallory"}, plain.token);
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_HAS(o.err, "CreatePlayer failed: PERMISSION_DENIED: managing accounts and ladders needs an administrator");

  const struct {
    RunFn run;
    std::vector<std::string> args;
    std::string error;
  } usage[] = {
      {ctl::RunCreatePlayer, {}, "metropolisctl create-player: NAME is missing"},
      {ctl::RunCreatePlayer, {"a", "b"}, "unexpected argument 'b'"},
      {ctl::RunCreateBot, {"b"}, "--owner PLAYER is required"},
      {ctl::RunIdentities, {"x"}, "unexpected argument 'x'"},
      {ctl::RunIssueToken, {}, "NAME is missing"},
      {ctl::RunIssueToken, {"bob", "--bogus"}, "unknown flag '--bogus'"},
      {ctl::RunTokens, {}, "NAME is missing"},
      {ctl::RunRevokeToken, {"abc"}, "ID: 'abc' is not a token id (a positive integer)"},
      {ctl::RunRevokeToken, {"0"}, "ID: '0' is not a token id"},
      {ctl::RunCreateLadder, {}, "ID is missing"},
      {ctl::RunCreateLadder, {"x", "--seats", "four"}, "flag '--seats': 'four' is not an integer"},
      {ctl::RunUpdateLadder, {"x"}, "nothing to update"},
      {ctl::RunUpdateLadder, {"x", "--mu", "high"}, "flag '--mu': 'high' is not a number"},
      {ctl::RunLadders, {"x"}, "unexpected argument 'x'"},
      {ctl::RunCreateSeason, {}, "LADDER is missing"},
  };
  const std::string before = Snapshot();
  for (const auto& u : usage) {
    o = Admin(u.run, u.args);
    EXPECT_EQ(o.code, ctl::kExitUsage) << u.error;
    EXPECT_HAS(o.err, u.error);
  }
  EXPECT_EQ(Snapshot(), before);

  // --help works on every command, names it and changes nothing.
  for (RunFn run :
       {ctl::RunCreatePlayer, ctl::RunCreateBot, ctl::RunIdentities, ctl::RunIssueToken, ctl::RunTokens,
        ctl::RunRevokeToken, ctl::RunCreateLadder, ctl::RunUpdateLadder, ctl::RunLadders, ctl::RunCreateSeason}) {
    o = Admin(run, {"--help"});
    EXPECT_EQ(o.code, 0);
    EXPECT_HAS(o.out, "usage: metropolisctl ");
    EXPECT_HAS(o.out, "Needs an administrator's token");
  }
  EXPECT_EQ(Snapshot(), before);
}

}  // namespace
}  // namespace metropolis::accounts
