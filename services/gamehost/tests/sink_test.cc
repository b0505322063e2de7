// FileSink: a completed game is one durable file that the engine replays.
#include "services/gamehost/sink.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/game.h"

namespace metropolis::gamehost {
namespace {

CompletedGame SampleGame() {
  CompletedGame g;
  g.game_id = "g-test";
  g.ladder = "weekly \"open\"";
  g.record.config.num_seats = 3;
  g.record.config.board = DefaultBoard();
  g.record.actions = {Action::BuildSettlement(12)};
  g.record.players = {"a", "b", "c"};
  g.record.seed = 9;
  g.reason = EndReason::kLengthCap;
  g.vp = {2, 0, 0};
  g.fallback_decisions = {0, 1, 0};
  g.created_unix_ms = 1000;
  g.finished_unix_ms = 2000;
  return g;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FileSink, StoresOneFileThatTheEngineReadsBack) {
  const std::string dir = ::testing::TempDir() + "/sink-" + std::to_string(::getpid());
  FileSink sink(dir + "/completed");
  std::string error;
  ASSERT_TRUE(sink.Open(&error)) << error;
  const CompletedGame game = SampleGame();
  ASSERT_TRUE(sink.Store(game, &error)) << error;
  const std::string text = ReadFile(sink.PathOf("g-test"));
  EXPECT_NE(text.find("\"game_id\":\"g-test\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"ladder\":\"weekly \\\"open\\\"\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"fallback_decisions\":[0,1,0]"), std::string::npos) << text;
  GameRecord record;
  ASSERT_TRUE(GameRecordFromJson(text, &record, &error)) << error;
  EXPECT_EQ(record.config, game.record.config);
  EXPECT_EQ(record.actions, game.record.actions);
  EXPECT_EQ(record.players, game.record.players);
  EXPECT_FALSE(std::filesystem::exists(sink.PathOf("g-test") + ".tmp"));

  // Idempotent: a second store of the same id keeps the first file.
  CompletedGame again = game;
  again.ladder = "other";
  ASSERT_TRUE(sink.Store(again, &error)) << error;
  EXPECT_EQ(ReadFile(sink.PathOf("g-test")), text);
  std::filesystem::remove_all(dir);
}

TEST(FileSink, UnwritableDirectoryIsAnError) {
  // A path through a regular file fails for every user, root included.
  const std::string file = ::testing::TempDir() + "/sink-file-" + std::to_string(::getpid());
  std::ofstream(file) << "x";
  FileSink sink(file + "/completed");
  std::string error;
  EXPECT_FALSE(sink.Open(&error));
  EXPECT_NE(error.find(file), std::string::npos) << error;
  EXPECT_FALSE(sink.Store(SampleGame(), &error));
  EXPECT_EQ(error.rfind("open ", 0), 0u) << error;
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace metropolis::gamehost
