// metropolis-bot's flags, the built-in deciders and the retry rule, without a host.

#include <gtest/gtest.h>

#include <map>

#include "botkits/cpp/bot_settings.h"
#include "botkits/cpp/builtin.h"

namespace metropolis::botkit {
namespace {

GetEnv FakeEnv(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

// The error, or "" when the arguments parse.
std::string Parse(const std::vector<std::string>& args, BotSettings* out, const GetEnv& env = FakeEnv({})) {
  bool help = false;
  std::string error;
  return ParseBotSettings(args, env, out, &help, &error) ? "" : error;
}

const std::vector<std::string> kRequired = {"--host", "h:1", "--game", "g1", "--token", "t", "--bot", "heuristic"};

std::vector<std::string> With(std::vector<std::string> extra) {
  std::vector<std::string> args = kRequired;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(BotSettings, RequiredFlags) {
  BotSettings s;
  ASSERT_EQ(Parse(kRequired, &s), "");
  EXPECT_EQ(s.client.host, "h:1");
  EXPECT_EQ(s.client.game_id, "g1");
  EXPECT_EQ(s.client.token, "t");
  EXPECT_EQ(s.bot, "heuristic");
  EXPECT_FALSE(s.seed_given);
  EXPECT_FALSE(s.client.take_over);
  EXPECT_EQ(s.client.disconnect_after, 0);
  EXPECT_EQ(s.client.stall_after, 0);

  EXPECT_NE(Parse({"--game", "g1", "--token", "t", "--bot", "random"}, &s).find("--host"), std::string::npos);
  EXPECT_NE(Parse({"--host", "h", "--token", "t", "--bot", "random"}, &s).find("--game"), std::string::npos);
  EXPECT_NE(Parse({"--host", "h", "--game", "g", "--bot", "random"}, &s).find("--token"), std::string::npos);
  EXPECT_NE(Parse({"--host", "h", "--game", "g", "--token", "t"}, &s).find("--bot"), std::string::npos);
}

TEST(BotSettings, EnvironmentFillsHostAndTokenButFlagsWin) {
  BotSettings s;
  const GetEnv env = FakeEnv({{"METROPOLIS_HOST", "env:2"}, {"METROPOLIS_TOKEN", "env-token"}});
  ASSERT_EQ(Parse({"--game", "g", "--bot", "random"}, &s, env), "");
  EXPECT_EQ(s.client.host, "env:2");
  EXPECT_EQ(s.client.token, "env-token");
  ASSERT_EQ(Parse({"--game", "g", "--bot", "random", "--host", "flag:3"}, &s, env), "");
  EXPECT_EQ(s.client.host, "flag:3");
}

TEST(BotSettings, OptionalFlagsAndTestingAids) {
  BotSettings s;
  ASSERT_EQ(Parse(With({"--seed", "7", "--take-over", "--quiet", "--disconnect-after", "3", "--reconnect-delay-ms",
                        "50", "--stall-after", "9", "--max-reconnects", "2"}),
                  &s),
            "");
  EXPECT_TRUE(s.seed_given);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_TRUE(s.client.take_over);
  EXPECT_TRUE(s.quiet);
  EXPECT_EQ(s.client.disconnect_after, 3);
  EXPECT_EQ(s.client.reconnect_delay_ms, 50);
  EXPECT_EQ(s.client.stall_after, 9);
  EXPECT_EQ(s.client.max_reconnect_attempts, 2);
}

TEST(BotSettings, ErrorsNameTheFlag) {
  BotSettings s;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--seed", "x"}, "--seed"},
      {{"--disconnect-after", "0"}, "--disconnect-after"},
      {{"--stall-after", "-1"}, "--stall-after"},
      {{"--reconnect-delay-ms", "5"}, "only applies with --disconnect-after"},
      {{"--quiet", "--verbose"}, "exclude each other"},
      {{"--frobnicate"}, "unknown flag '--frobnicate'"},
  };
  for (const auto& [extra, expected] : cases) {
    const std::string error = Parse(With(extra), &s);
    EXPECT_NE(error.find(expected), std::string::npos) << "error '" << error << "' lacks '" << expected << "'";
  }
  for (const char* spec : {"nosuch", "search:nosuch=1"}) {
    const std::string error = Parse({"--host", "h", "--game", "g", "--token", "t", "--bot", spec}, &s);
    EXPECT_EQ(error.rfind("--bot: ", 0), 0u) << error;
  }
}

TEST(BotSettings, CompeteModeTakesItsSeatsFromTheMatchmaker) {
  BotSettings s;
  const std::vector<std::string> compete = {"--compete", "--matchmaker", "a:1,b:2", "--api-token",
                                            "k",         "--bot",        "random"};
  ASSERT_EQ(Parse(compete, &s), "");
  EXPECT_TRUE(s.compete);
  EXPECT_EQ(s.compete_options.matchmaker, "a:1,b:2");
  EXPECT_EQ(s.compete_options.api_token, "k");
  EXPECT_EQ(s.compete_options.capacity, 1);
  EXPECT_EQ(s.games, 0) << "until stopped";
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = compete;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  ASSERT_EQ(Parse(with({"--capacity", "4", "--games", "10"}), &s), "");
  EXPECT_EQ(s.compete_options.capacity, 4);
  EXPECT_EQ(s.games, 10);
  EXPECT_NE(Parse(with({"--capacity", "17"}), &s).find("capacity"), std::string::npos);
  EXPECT_NE(Parse(with({"--ladder", "open"}), &s).find("exclude"), std::string::npos);
  EXPECT_NE(Parse(with({"--game", "g"}), &s).find("--compete"), std::string::npos);
  EXPECT_NE(Parse({"--compete", "--api-token", "k", "--bot", "random"}, &s).find("--matchmaker"), std::string::npos);
  EXPECT_NE(Parse(With({"--capacity", "2"}), &s).find("--capacity needs --compete"), std::string::npos);
  // Separate sessions: one stream each, played until stopped.
  ASSERT_EQ(Parse(with({"--sessions", "4"}), &s), "");
  EXPECT_EQ(s.sessions, 4);
  EXPECT_NE(Parse(with({"--sessions", "4", "--games", "3"}), &s).find("--games needs one session"), std::string::npos);
  EXPECT_NE(Parse(with({"--sessions", "17"}), &s).find("sessions"), std::string::npos);
  EXPECT_NE(Parse(With({"--sessions", "2"}), &s).find("--sessions needs --compete"), std::string::npos);
  EXPECT_EQ(SplitAddresses("a:1,,b:2,"), (std::vector<std::string>{"a:1", "b:2"}));
}

TEST(BotSettings, HelpStopsParsingAndNamesTheProgram) {
  BotSettings s;
  bool help = false;
  std::string error;
  ASSERT_TRUE(ParseBotSettings({"--help"}, FakeEnv({}), &s, &help, &error));
  EXPECT_TRUE(help);
  const std::string usage = BotUsage(BotFlags());
  EXPECT_EQ(usage.rfind("usage: metropolis-bot --host", 0), 0u) << usage;
  EXPECT_NE(usage.find("testing aid"), std::string::npos);
  EXPECT_NE(usage.find("exit status"), std::string::npos);
}

TEST(Builtin, ChoosesAroundRejectedActions) {
  const View view = MakeView(State(), 0);  // seat 0 places its first settlement
  ASSERT_GT(view.legal.size(), 2u);
  std::string error;
  auto bot = bots::MakeBot("random", &error);
  ASSERT_TRUE(bot) << error;
  const std::vector<Action> excluded(view.legal.begin() + 1, view.legal.end());
  for (int i = 0; i < 20; ++i) {
    uint64_t rng = uint64_t(i);
    EXPECT_EQ(ChooseExcluding(*bot, view, excluded, &rng), view.legal[0]);
  }
  // Nothing left: the last refused action, which the Client does not resend.
  uint64_t rng = 1;
  EXPECT_EQ(ChooseExcluding(*bot, view, view.legal, &rng), view.legal.back());
}

TEST(Retry, OnlyFailuresOfTheConnectionOrTheHost) {
  EXPECT_TRUE(RetryableAfterDrop(grpc::StatusCode::UNAVAILABLE, false));
  EXPECT_TRUE(RetryableAfterDrop(grpc::StatusCode::INTERNAL, false));
  EXPECT_FALSE(RetryableAfterDrop(grpc::StatusCode::UNAUTHENTICATED, true));
  EXPECT_FALSE(RetryableAfterDrop(grpc::StatusCode::NOT_FOUND, true));
  EXPECT_FALSE(RetryableAfterDrop(grpc::StatusCode::ABORTED, true));  // taken over
  EXPECT_FALSE(RetryableAfterDrop(grpc::StatusCode::ALREADY_EXISTS, false));
  EXPECT_TRUE(RetryableAfterDrop(grpc::StatusCode::ALREADY_EXISTS, true));
  EXPECT_EQ(StatusCodeName(grpc::StatusCode::FAILED_PRECONDITION), "FAILED_PRECONDITION");
}

}  // namespace
}  // namespace metropolis::botkit
