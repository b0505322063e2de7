// How long a fallback or built-in bot may think per decision (HostOptions::
// max_bot_think_ms, --max-bot-think-ms), and that a game's bot work is posted
// under its id, the key the bot threads share their time by (FairPool).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/common/settings.h"
#include "services/gamehost/server.h"
#include "services/gamehost/tests/fakes.h"

namespace metropolis::gamehost::testing {
namespace {

v1::CreateGameRequest FourSeats(const std::string& game_id) {
  v1::CreateGameRequest request;
  request.set_game_id(game_id);
  for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
  return request;
}

TEST(BotLimits, ABotThatMayThinkLongerThanTheLimitIsRefusedAndNothingIsCreated) {
  TestHost t;  // the default limit, 2000 ms
  v1::CreateGameRequest request = FourSeats("slow");
  request.mutable_seats(2)->set_fallback_bot("search:ms=3600000");
  v1::CreateGameResponse response;
  const grpc::Status s = t.host->CreateGame(kAdmin, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "seats[2].fallback_bot: 'search:ms=3600000' thinks up to 3600000 ms per decision; this host's bots may "
            "think at most 2000 ms");
  EXPECT_EQ(response.game_id(), "");
  EXPECT_EQ(t.host->live_games(), 0u);
  EXPECT_FALSE(t.directory->Lookup("slow").has_value());
  Host::Target target;
  EXPECT_EQ(t.host->FindForViewing(kAdmin, "slow", &target).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(t.bots.size(), 0u);

  // A built-in seat's bot is held to the same limit.
  v1::CreateGameRequest built_in = FourSeats("slow-built-in");
  built_in.mutable_seats(0)->set_built_in(true);
  built_in.mutable_seats(0)->set_fallback_bot("search:ms=2001");
  EXPECT_EQ(t.host->CreateGame(kAdmin, built_in, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(t.host->live_games(), 0u);
}

TEST(BotLimits, ABotAtTheLimitOrWithoutATimeBudgetIsAccepted) {
  TestHost t;
  v1::CreateGameRequest request = FourSeats("at-the-limit");
  request.mutable_seats(0)->set_fallback_bot("search:ms=2000");
  request.mutable_seats(1)->set_fallback_bot("search:iterations=400");  // ended at the limit by the game
  request.mutable_seats(2)->set_fallback_bot("heuristic");
  v1::CreateGameResponse response;
  const grpc::Status s = t.host->CreateGame(kAdmin, request, &response);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(response.game_id(), "at-the-limit");
  EXPECT_EQ(t.host->live_games(), 1u);
}

TEST(BotLimits, TheLimitIsTheHostsOption) {
  EXPECT_EQ(CheckBotSpec("search:ms=50", 50), "");
  EXPECT_EQ(CheckBotSpec("search:ms=50.5", 50),
            "'search:ms=50.5' thinks up to 50.5 ms per decision; this host's bots may think at most 50 ms");
  EXPECT_EQ(CheckBotSpec("search:iterations=1000000,threads=2", 1), "");
  EXPECT_NE(CheckBotSpec("telepath", 2000).find("unknown bot"), std::string::npos);
}

// The flags: a default fallback bot over the limit is refused at start-up.
std::string ReadFlags(std::vector<std::string> args) {
  services::Settings settings("metropolis-gamehost", "test", "METROPOLIS_BOT_LIMITS_TEST_");
  AddPlaySettings(&settings);
  args.insert(args.begin(), "metropolis-gamehost");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  int exit_code = 0;
  if (!settings.Parse(int(argv.size()), argv.data(), &exit_code)) return "parse failed";
  GameHostConfig config;
  std::string error;
  if (!ReadPlaySettings(settings, &config, &error)) return error;
  return "ok " + std::to_string(config.options.max_bot_think_ms);
}

TEST(BotLimits, TheDefaultFallbackBotIsCheckedAgainstTheLimitAtStartUp) {
  EXPECT_EQ(ReadFlags({}), "ok 2000");
  EXPECT_EQ(ReadFlags({"--fallback-bot", "search:ms=2000"}), "ok 2000");
  EXPECT_EQ(ReadFlags({"--fallback-bot", "search:ms=5000"}),
            "--fallback-bot: 'search:ms=5000' thinks up to 5000 ms per decision; this host's bots may think at most "
            "2000 ms (--max-bot-think-ms)");
  EXPECT_EQ(ReadFlags({"--fallback-bot", "search:ms=5000", "--max-bot-think-ms", "5000"}), "ok 5000");
  EXPECT_NE(ReadFlags({"--max-bot-think-ms", "0"}).find("--max-bot-think-ms"), std::string::npos);
}

// Records the key each task is posted under, and runs them when told.
class KeyRecordingExecutor final : public Executor {
 public:
  void Post(std::function<void()> task) override {
    keys.push_back("(no key)");
    tasks.Post(std::move(task));
  }
  void PostFor(const std::string& key, std::function<void()> task) override {
    keys.push_back(key);
    tasks.Post(std::move(task));
  }
  std::vector<std::string> keys;  // posted from the test's thread only: the work runs inline
  ManualExecutor tasks;
};

TEST(BotLimits, AGamesBotDecisionsArePostedUnderItsId) {
  FakeClock clock;
  ManualTimers timers(&clock);
  KeyRecordingExecutor bots;
  MemorySink sink;
  InMemoryDirectory directory;
  HostMetrics metrics;
  HostOptions options;
  options.admin_token = kAdmin;
  Host host(options, &clock, &timers, &bots, &sink, &directory, &metrics);
  v1::CreateGameRequest request;
  request.set_game_id("table-7");
  for (int i = 0; i < 3; ++i) {
    request.add_seats()->set_built_in(true);
    request.mutable_seats(i)->set_fallback_bot("random");
  }
  v1::CreateGameResponse response;
  ASSERT_TRUE(host.CreateGame(kAdmin, request, &response).ok());
  for (int i = 0; i < 100000 && bots.tasks.RunAll() > 0; ++i) host.WaitStored();
  host.WaitStored();
  ASSERT_EQ(sink.games.size(), 1u);
  ASSERT_FALSE(bots.keys.empty());
  EXPECT_EQ(std::count(bots.keys.begin(), bots.keys.end(), "table-7"), std::ptrdiff_t(bots.keys.size()));
}

}  // namespace
}  // namespace metropolis::gamehost::testing
