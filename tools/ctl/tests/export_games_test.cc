// metropolisctl export-games against the real Replays service over its
// in-memory stores: the JSON lines written, the progress and the cursor on
// stderr, a resume that repeats and skips nothing, a hidden duplicate set left
// out until revealed, and the usage errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "services/replays/tests/export_fixture.h"
#include "tools/ctl/commands.h"
#include "tools/ctl/tests/run_command.h"

namespace metropolis::replays {
namespace {

using testing::Lines;

using ctl::testing::Outcome;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The cursor the last progress line names ("... --cursor C").
std::string LastCursor(const std::string& err) {
  std::smatch m;
  std::string last;
  for (const std::string& line : Lines(err))
    if (std::regex_search(line, m, std::regex("--cursor (\\S+)$"))) last = m[1];
  return last;
}

class CtlExportTest : public testing::ExportFixture {
 protected:
  void SetUp() override {
    testing::ExportFixture::SetUp();
    path_ = ::testing::TempDir() + "export-games-" + std::to_string(getpid()) + ".jsonl";
    std::remove(path_.c_str());
  }
  void TearDown() override {
    std::remove(path_.c_str());
    testing::ExportFixture::TearDown();
  }

  Outcome Run(std::vector<std::string> args) {
    return ctl::testing::RunCommand(ctl::RunExportGames, args, "127.0.0.1:" + std::to_string(client_->port()),
                                    testing::kReadToken);
  }
  std::string path_;
};

TEST_F(CtlExportTest, WritesEveryGameAsALineAndResumesByTheCursorItPrints) {
  const std::vector<std::string> all = Records({"g-w0", "g-w1", "g-w2", "g-w3", "g-w4"});
  Outcome o = Run({"--ladder", "weekly", "--page-size", "2"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(Lines(o.out), all);
  EXPECT_NE(o.err.find("export-games: 2 games written\n"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("done, 5 games written"), std::string::npos) << o.err;
  EXPECT_FALSE(LastCursor(o.err).empty()) << o.err;

  // Interrupted by --limit in the middle of a page, then resumed into the same
  // file: every game once, in order.
  o = Run({"--ladder", "weekly", "--page-size", "2", "--limit", "3", "--output", path_});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(Lines(ReadFile(path_)), std::vector<std::string>(all.begin(), all.begin() + 3));
  EXPECT_NE(o.err.find("more follow"), std::string::npos) << o.err;
  const std::string cursor = LastCursor(o.err);
  ASSERT_FALSE(cursor.empty()) << o.err;
  o = Run({"--ladder", "weekly", "--page-size", "2", "--cursor", cursor, "--output", path_});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(Lines(ReadFile(path_)), all);
  EXPECT_NE(o.err.find("done, 2 games written"), std::string::npos) << o.err;

  // A game stored since: the final cursor resumes with it alone.
  ASSERT_TRUE(Store(testing::PlayGame(80, "g-w5", "weekly", 1'800'000'009'000)).ok());
  o = Run({"--ladder", "weekly", "--cursor", LastCursor(o.err)});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(Lines(o.out), Records({"g-w5"}));
}

TEST_F(CtlExportTest, AHiddenDuplicateSetIsLeftOutUntilRevealed) {
  Outcome o = Run({"--tournament", "dup"});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("ExportGames failed: NOT_FOUND"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("t-dup"), std::string::npos) << "a hidden game's id leaked: " << o.err;

  ASSERT_TRUE(RevealIds("dup", {"t-dup-0-1", "t-dup-1-1"}).ok());
  o = Run({"--tournament", "dup", "--page-size", "1"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(Lines(o.out), Records({"t-dup-0-1", "t-dup-1-1"}));
  EXPECT_NE(o.err.find("done, 2 games written"), std::string::npos) << o.err;
}

TEST_F(CtlExportTest, UsageErrorsNameTheFlag) {
  Outcome o = Run({});
  EXPECT_EQ(o.code, ctl::kExitUsage);
  EXPECT_NE(o.err.find("give one of --ladder and --tournament"), std::string::npos) << o.err;
  o = Run({"--ladder", "weekly", "--tournament", "dup"});
  EXPECT_EQ(o.code, ctl::kExitUsage);
  o = Run({"--ladder", "weekly", "--page-size", "501"});
  EXPECT_EQ(o.code, ctl::kExitUsage);
  EXPECT_NE(o.err.find("--page-size: '501'"), std::string::npos) << o.err;
  o = Run({"--ladder", "weekly", "--limit", "0"});
  EXPECT_EQ(o.code, ctl::kExitUsage);
  o = Run({"--ladder", "weekly", "--cursor", "not-a-cursor"});
  EXPECT_EQ(o.code, ctl::kExitRpcFailed);
  EXPECT_NE(o.err.find("INVALID_ARGUMENT: cursor"), std::string::npos) << o.err;
  EXPECT_EQ(o.out, "");
  o = Run({"--help"});
  EXPECT_EQ(o.code, ctl::kExitOk);
  EXPECT_NE((o.out + o.err).find("--cursor C"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace metropolis::replays
