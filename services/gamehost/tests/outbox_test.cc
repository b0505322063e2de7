// The outbox (outbox.h): a completed game is one durable file before anyone
// hears the game is over; deliveries retry per game, so one that keeps failing
// holds up no other; a game refused for good is set aside and counted; files
// outlive the process; the JSON archive replays with the engine and is pruned.
#include "services/gamehost/outbox.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "engine/game.h"

namespace metropolis::gamehost {
namespace {

namespace fs = std::filesystem;

CompletedGame SampleGame(const std::string& id = "g-test") {
  CompletedGame g;
  g.game_id = id;
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

// Answers each game with the status the test set for it (OK otherwise) and
// counts the attempts.
class FakeResults final : public ResultsClient {
 public:
  grpc::Status StoreThenRate(const v1::CompletedGameRecord& game, const std::string&, std::string* failed_at) override {
    std::lock_guard lock(mutex);
    ++attempts[game.game_id()];
    auto it = answers.find(game.game_id());
    if (it == answers.end() || it->second.ok()) {
      held.insert(game.game_id());
      return grpc::Status::OK;
    }
    *failed_at = "replays";
    return it->second;
  }
  void Answer(const std::string& id, grpc::Status status) {
    std::lock_guard lock(mutex);
    answers[id] = std::move(status);
  }
  bool Holds(const std::string& id) {
    std::lock_guard lock(mutex);
    return held.count(id) > 0;
  }
  int Attempts(const std::string& id) {
    std::lock_guard lock(mutex);
    return attempts[id];
  }
  std::mutex mutex;
  std::map<std::string, grpc::Status> answers;
  std::map<std::string, int> attempts;
  std::set<std::string> held;
};

class OutboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/outbox-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  OutboxOptions Options(ResultsClient* results) {
    return {.dir = dir_ + "/outbox",
            .results = results,
            .archive_dir = dir_ + "/completed",
            .archive_keep = 10,
            .retry_ms = 5,
            .max_retry_ms = 40,
            .metrics = nullptr,
            .on_delivered = {}};
  }
  std::string dir_;
};

TEST_F(OutboxTest, WithoutAResultsServiceTheArchiveIsTheStoreAndTheEngineReadsIt) {
  Outbox outbox(Options(nullptr));
  std::string error;
  ASSERT_TRUE(outbox.Start(&error)) << error;
  const std::string path = dir_ + "/completed/g-test.json";
  bool there_when_told = false;
  outbox.Put(SampleGame(), [&] { there_when_told = fs::exists(path); });
  outbox.WaitStored();
  EXPECT_TRUE(there_when_told);  // the seats hear of the end only once it is on disk
  const std::string text = ReadFile(path);
  EXPECT_NE(text.find("\"game_id\":\"g-test\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"ladder\":\"weekly \\\"open\\\"\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"fallback_decisions\":[0,1,0]"), std::string::npos) << text;
  GameRecord record;
  ASSERT_TRUE(GameRecordFromJson(text, &record, &error)) << error;
  const CompletedGame game = SampleGame();
  EXPECT_EQ(record.config, game.record.config);
  EXPECT_EQ(record.actions, game.record.actions);
  EXPECT_EQ(record.players, game.record.players);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_FALSE(fs::exists(dir_ + "/outbox/g-test.pb"));  // nothing to deliver to
}

TEST_F(OutboxTest, AnUnwritableFolderIsAnErrorAtStart) {
  // A path through a regular file fails for every user, root included.
  fs::create_directories(dir_);
  std::ofstream(dir_ + "/file") << "x";
  OutboxOptions options = Options(nullptr);
  options.dir = dir_ + "/file/outbox";
  Outbox outbox(options);
  std::string error;
  EXPECT_FALSE(outbox.Start(&error));
  EXPECT_NE(error.find(dir_ + "/file/outbox"), std::string::npos) << error;
  OutboxOptions nowhere = Options(nullptr);
  nowhere.archive_dir.clear();
  Outbox nothing(nowhere);
  EXPECT_FALSE(nothing.Start(&error));
  EXPECT_NE(error.find("needs a results service or an archive"), std::string::npos) << error;
}

// The outbox used to stop at its first failing game: every game behind it
// waited. Now each game keeps its own retry time.
TEST_F(OutboxTest, AGameThatKeepsFailingHoldsUpNoOther) {
  FakeResults results;
  results.Answer("stuck", {grpc::StatusCode::UNAVAILABLE, "replays is down for this one"});
  std::vector<std::string> delivered;
  std::mutex mutex;
  OutboxOptions options = Options(&results);
  options.on_delivered = [&](const std::string& id) {
    std::lock_guard lock(mutex);
    delivered.push_back(id);
  };
  Outbox outbox(options);
  std::string error;
  ASSERT_TRUE(outbox.Start(&error)) << error;
  outbox.Put(SampleGame("stuck"), {});
  for (const char* id : {"a", "b", "c"}) outbox.Put(SampleGame(id), {});
  // Whatever the stuck game does, the three behind it are delivered.
  const auto others_held = [&] { return results.Holds("a") && results.Holds("b") && results.Holds("c"); };
  for (int i = 0; i < 1000 && !(others_held() && results.Attempts("stuck") >= 2); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(others_held());
  EXPECT_GE(results.Attempts("stuck"), 2);  // retried meanwhile
  EXPECT_EQ(outbox.pending(), 1u);
  EXPECT_TRUE(fs::exists(dir_ + "/outbox/stuck.pb"));
  results.Answer("stuck", grpc::Status::OK);
  ASSERT_TRUE(outbox.WaitDelivered(10'000));
  EXPECT_EQ(outbox.delivered(), 4u);
  EXPECT_FALSE(fs::exists(dir_ + "/outbox/stuck.pb"));
  std::lock_guard lock(mutex);
  EXPECT_EQ(delivered.size(), 4u);
  EXPECT_EQ(delivered.back(), "stuck");
}

// A game refused for good (and a file that does not parse) is set aside for an
// operator, counted for the alert, and never retried nor dropped.
TEST_F(OutboxTest, AGameRefusedForGoodIsSetAsideAndCounted) {
  fs::create_directories(dir_ + "/outbox");
  std::ofstream(dir_ + "/outbox/broken.pb") << "this is not a CompletedGameRecord";
  FakeResults results;
  results.Answer("judged", {grpc::StatusCode::INVALID_ARGUMENT, "seats: 2 given"});
  prometheus::Registry registry;
  HostMetrics metrics(&registry);
  OutboxOptions options = Options(&results);
  options.metrics = &metrics;
  Outbox outbox(options);
  std::string error;
  ASSERT_TRUE(outbox.Start(&error)) << error;
  outbox.Put(SampleGame("judged"), {});
  outbox.Put(SampleGame("fine"), {});
  ASSERT_TRUE(outbox.WaitDelivered(10'000));
  EXPECT_TRUE(results.Holds("fine"));
  EXPECT_EQ(results.Attempts("judged"), 1);
  EXPECT_TRUE(fs::exists(dir_ + "/outbox/refused/judged.pb"));
  EXPECT_TRUE(fs::exists(dir_ + "/outbox/refused/broken.pb"));
  double refused = -1;
  for (const prometheus::MetricFamily& f : registry.Collect())
    if (f.name == "metropolis_gamehost_outbox_refused") refused = f.metric.at(0).gauge.value;
  EXPECT_EQ(refused, 2);
}

TEST_F(OutboxTest, GamesOutliveTheProcessAndAreDeliveredByTheNextRun) {
  FakeResults down;
  for (const char* id : {"x", "y"}) down.Answer(id, {grpc::StatusCode::UNAVAILABLE, "down"});
  {
    Outbox outbox(Options(&down));
    std::string error;
    ASSERT_TRUE(outbox.Start(&error)) << error;
    outbox.Put(SampleGame("x"), {});
    outbox.Put(SampleGame("y"), {});
    outbox.WaitStored();
  }  // the host goes with its outbox full
  EXPECT_TRUE(fs::exists(dir_ + "/outbox/x.pb"));
  FakeResults up;
  Outbox outbox(Options(&up));
  std::string error;
  ASSERT_TRUE(outbox.Start(&error)) << error;
  ASSERT_TRUE(outbox.WaitDelivered(10'000));
  EXPECT_TRUE(up.Holds("x") && up.Holds("y"));
}

// A game that finishes while the host shuts down is still kept, on the
// caller's thread; its callback, which takes the game's lock the caller may hold,
// is not run.
TEST_F(OutboxTest, AGamePutAfterStopIsKeptWithoutItsCallback) {
  FakeResults results;
  Outbox outbox(Options(&results));
  std::string error;
  ASSERT_TRUE(outbox.Start(&error)) << error;
  outbox.Stop();
  bool called = false;
  outbox.Put(SampleGame("late"), [&] { called = true; });
  EXPECT_TRUE(fs::exists(dir_ + "/outbox/late.pb"));
  EXPECT_FALSE(called);
}

TEST_F(OutboxTest, TheArchiveKeepsTheNewestGamesOnly) {
  FakeResults results;
  OutboxOptions options = Options(&results);
  options.archive_keep = 2;
  {
    Outbox outbox(options);
    std::string error;
    ASSERT_TRUE(outbox.Start(&error)) << error;
    for (const char* id : {"g1", "g2", "g3"}) outbox.Put(SampleGame(id), {});
    ASSERT_TRUE(outbox.WaitDelivered(10'000));
  }
  EXPECT_FALSE(fs::exists(dir_ + "/completed/g1.json"));
  EXPECT_TRUE(fs::exists(dir_ + "/completed/g2.json"));
  // The next run knows what the last one archived.
  Outbox outbox(options);
  std::string error;
  ASSERT_TRUE(outbox.Start(&error)) << error;
  outbox.Put(SampleGame("g4"), {});
  ASSERT_TRUE(outbox.WaitDelivered(10'000));
  EXPECT_FALSE(fs::exists(dir_ + "/completed/g2.json"));
  EXPECT_TRUE(fs::exists(dir_ + "/completed/g3.json"));
  EXPECT_TRUE(fs::exists(dir_ + "/completed/g4.json"));
  options.archive_keep = 0;  // no archive at all
  Outbox none(options);
  ASSERT_TRUE(none.Start(&error)) << error;
  none.Put(SampleGame("g5"), {});
  ASSERT_TRUE(none.WaitDelivered(10'000));
  EXPECT_FALSE(fs::exists(dir_ + "/completed/g5.json"));
  EXPECT_TRUE(results.Holds("g5"));
}

}  // namespace
}  // namespace metropolis::gamehost
