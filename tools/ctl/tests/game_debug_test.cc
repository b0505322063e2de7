// metropolisctl game-debug against the real Replays service over its in-memory
// stores: the bot's own token reads its seat as a summary and a table, another
// player's token is refused with the service's words, and the usage errors.
#include <gtest/gtest.h>

#include <map>

#include "services/replays/tests/debug_checks.h"
#include "services/replays/tests/fake_replay_store.h"
#include "services/replays/tests/fake_reveal_store.h"
#include "tools/ctl/commands.h"
#include "tools/ctl/tests/run_command.h"

namespace metropolis::replays {
namespace {

using ctl::testing::Outcome;

class CtlGameDebugTest : public testing::ReplaysServiceTest {
 protected:
  void SetUp() override {
    Serve(&store_, &reveals_);
    bot_token_ = accounts_.Issue({.identity_id = 41, .name = "ore-bot", .kind = "bot"});
    other_token_ = accounts_.Issue({.identity_id = 42, .name = "bo", .kind = "player"});
    v1::CompletedGameRecord g = testing::PlayGame(81, "g-notes");
    g.mutable_seats(0)->set_identity_id(41);
    g.mutable_seats(0)->set_name("ore-bot");
    v1::SeatDebug* d = g.add_debug();
    d->set_seat(0);
    testing::AddStep(d, 4, "ore first", 30)->set_evaluation(0.625);
    testing::AddStep(d, 9, "", 10);
    testing::AddStep(d, 15, "trade wool", 50);
    ASSERT_TRUE(Store(g).ok());
  }

  Outcome Run(std::vector<std::string> args, const std::string& token) {
    return ctl::testing::RunCommand(ctl::RunGameDebug, args, "127.0.0.1:" + std::to_string(client_->port()), token);
  }

  testing::FakeReplayStore store_;
  testing::FakeRevealStore reveals_;
  std::string bot_token_, other_token_;
};

TEST_F(CtlGameDebugTest, TheBotsTokenReadsItsSeatAsASummaryAndATable) {
  Outcome o = Run({"g-notes"}, bot_token_);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("seat 0 (identity 41): 3 answers, think median 30 ms, p90 30 ms, max 50 ms; 2 notes, 0 dropped"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("ore first"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("0.625"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("\n9 "), std::string::npos) << "a step without a note is listed only with --every-step";
  o = Run({"g-notes", "--every-step"}, bot_token_);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\n9 "), std::string::npos) << o.out;
  o = Run({"g-notes", "--json"}, bot_token_);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\"note\":\"trade wool\""), std::string::npos) << o.out;
}

TEST_F(CtlGameDebugTest, AnotherTokenIsRefusedAndBadArgumentsAreUsageErrors) {
  Outcome o = Run({"g-notes"}, other_token_);
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("PERMISSION_DENIED"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("no seat of game g-notes is yours"), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  o = Run({}, bot_token_);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("expected one game id"), std::string::npos) << o.err;
  o = Run({"g-notes", "--identity", "zero"}, bot_token_);
  EXPECT_EQ(o.code, 2) << o.err;
}

}  // namespace
}  // namespace metropolis::replays
