// metropolisctl without a server: command-line splitting, global flags, the
// CreateGameRequest the flags make, and the shape of the output.

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <map>

#include "engine/config.h"
#include "engine/event.h"
#include "lib/protocol/convert.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

GetEnv FakeEnv(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

cli::Flags CreateFlags(const std::vector<std::string>& args) {
  cli::Flags flags = CreateGameFlags();
  AddGlobalFlags(&flags);
  std::string error;
  EXPECT_TRUE(flags.Parse(args, &error)) << error;
  return flags;
}

// The request for `args`, or the error.
std::string Build(const std::vector<std::string>& args, v1::CreateGameRequest* out) {
  std::string error;
  return BuildCreateGameRequest(CreateFlags(args), out, &error) ? "" : error;
}

TEST(CtlCommandLine, GlobalFlagsBeforeTheCommandAreSplitOff) {
  std::string command, error;
  std::vector<std::string> global, rest;
  ASSERT_TRUE(SplitCommandLine({"--host", "h:1", "--json", "--token=t", "get-game", "g1", "--timeout-ms", "5"},
                               &command, &global, &rest, &error))
      << error;
  EXPECT_EQ(command, "get-game");
  EXPECT_EQ(global, (std::vector<std::string>{"--host", "h:1", "--json", "--token=t"}));
  EXPECT_EQ(rest, (std::vector<std::string>{"g1", "--timeout-ms", "5"}));
}

TEST(CtlCommandLine, CommandFlagsBeforeTheCommandAreRefused) {
  std::string command, error;
  std::vector<std::string> global, rest;
  EXPECT_FALSE(SplitCommandLine({"--seats", "a,b,c", "create-game"}, &command, &global, &rest, &error));
  EXPECT_NE(error.find("--seats"), std::string::npos) << error;
  EXPECT_FALSE(SplitCommandLine({"--host"}, &command, &global, &rest, &error));
  EXPECT_NE(error.find("needs a value"), std::string::npos) << error;
}

TEST(CtlCommandLine, OnlyHelpLeavesTheCommandEmpty) {
  std::string command, error;
  std::vector<std::string> global, rest;
  ASSERT_TRUE(SplitCommandLine({"--help"}, &command, &global, &rest, &error));
  EXPECT_TRUE(command.empty());
  EXPECT_EQ(global, std::vector<std::string>{"--help"});
}

TEST(CtlGlobalFlags, EnvironmentFillsWhatFlagsLeaveOut) {
  cli::Flags flags("x", "", "");
  AddGlobalFlags(&flags);
  std::string error;
  ASSERT_TRUE(flags.Parse({"--token", "from-flag"}, &error));
  GlobalOptions g;
  ASSERT_TRUE(
      ReadGlobalFlags(flags, FakeEnv({{"METROPOLIS_HOST", "env:7"}, {"METROPOLIS_TOKEN", "from-env"}}), &g, &error));
  EXPECT_EQ(g.host, "env:7");
  EXPECT_EQ(g.token, "from-flag");
  EXPECT_EQ(g.timeout_ms, kDefaultTimeoutMs);
  EXPECT_FALSE(g.timeout_given);

  ASSERT_TRUE(ReadGlobalFlags(flags, FakeEnv({}), &g, &error));
  EXPECT_EQ(g.host, kDefaultHost);
}

TEST(CtlGlobalFlags, BadTimeoutIsNamed) {
  cli::Flags flags("x", "", "");
  AddGlobalFlags(&flags);
  std::string error;
  ASSERT_TRUE(flags.Parse({"--timeout-ms", "0"}, &error));
  GlobalOptions g;
  EXPECT_FALSE(ReadGlobalFlags(flags, FakeEnv({}), &g, &error));
  EXPECT_NE(error.find("--timeout-ms"), std::string::npos) << error;
}

TEST(CtlCreateGame, SeatsBuiltinsAndFallback) {
  v1::CreateGameRequest r;
  ASSERT_EQ(Build({"--seats", "alice,bob,bot", "--builtin", "2:search:ms=50", "--fallback-bot", "random"}, &r), "");
  ASSERT_EQ(r.seats_size(), 3);
  EXPECT_EQ(r.config().num_seats(), 3u);
  EXPECT_EQ(r.seats(0).name(), "alice");
  EXPECT_FALSE(r.seats(0).built_in());
  EXPECT_EQ(r.seats(0).fallback_bot(), "random");
  EXPECT_TRUE(r.seats(2).built_in());
  EXPECT_EQ(r.seats(2).fallback_bot(), "search:ms=50");
  // Nothing else asked, nothing else sent: the host's defaults apply.
  EXPECT_FALSE(r.config().has_options());
  EXPECT_FALSE(r.config().has_board());
  EXPECT_EQ(r.config().rules_version(), 0u);
  EXPECT_FALSE(r.has_deadlines());
  EXPECT_EQ(r.chance_seed(), 0u);
  EXPECT_EQ(r.game_id(), "");
}

TEST(CtlCreateGame, EverythingElse) {
  v1::CreateGameRequest r;
  ASSERT_EQ(Build({"--seats=a,b,c,d", "--seed", "42", "--decision-ms", "300", "--time-bank-ms", "5000", "--game-id",
                   "ladder-1_x", "--random-board", "7", "--ladder", "weekly"},
                  &r),
            "");
  EXPECT_EQ(r.config().num_seats(), 4u);
  EXPECT_EQ(r.chance_seed(), 42u);
  EXPECT_EQ(r.deadlines().decision_ms(), 300u);
  EXPECT_EQ(r.deadlines().time_bank_ms(), 5000u);
  EXPECT_EQ(r.game_id(), "ladder-1_x");
  EXPECT_EQ(r.config().random_board_seed(), 7u);
  EXPECT_EQ(r.ladder(), "weekly");
}

TEST(CtlCreateGame, OnlyTheNamedOptionsAreSent) {
  v1::CreateGameRequest r;
  ASSERT_EQ(Build({"--seats", "a,b,c", "--options", "saboteur=SABOTAGE_CITY", "--options", "red_die_table=1,2,3,4,5",
                   "--options", "fiesepeter=true"},
                  &r),
            "");
  const v1::RulesOptions& o = r.config().options();
  EXPECT_TRUE(o.has_saboteur());
  EXPECT_EQ(o.saboteur(), 2u);
  EXPECT_TRUE(o.has_fiesepeter());
  EXPECT_TRUE(o.fiesepeter());
  EXPECT_EQ(std::vector<uint32_t>(o.red_die_table().begin(), o.red_die_table().end()),
            (std::vector<uint32_t>{1, 2, 3, 4, 5}));
  EXPECT_FALSE(o.has_ruleset());
  EXPECT_FALSE(o.has_victory_points());
  EXPECT_FALSE(o.has_robber_locked_until_first_attack());
}

TEST(CtlCreateGame, RulesetComesFirstWhereverItIsGiven) {
  // Parsed after victory_points, ruleset=base would move 13 (C&K's default)
  // to 10 (the base game's); it is parsed first, so the 13 asked for stays.
  v1::CreateGameRequest r;
  ASSERT_EQ(Build({"--seats", "a,b,c", "--options", "victory_points=13", "--ruleset", "base"}, &r), "");
  EXPECT_EQ(r.config().options().ruleset(), v1::RULESET_BASE);
  EXPECT_EQ(r.config().options().victory_points(), 13u);

  ASSERT_EQ(Build({"--seats", "a,b,c", "--options", "victory_points=13", "--options", "ruleset=base"}, &r), "");
  EXPECT_EQ(r.config().options().victory_points(), 13u);
  EXPECT_NE(Build({"--seats", "a,b,c", "--ruleset", "base", "--options", "ruleset=base"}, &r), "");
}

TEST(CtlCreateGame, ErrorsNameTheFlag) {
  v1::CreateGameRequest r;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "--seats is required"},
      {{"--seats", "a,b"}, "2 names, expected 3 or 4"},
      {{"--seats", "a,,c"}, "seat 1 has an empty name"},
      {{"--seats", "a,b,c", "--builtin", "3:random"}, "SEAT 0..2"},
      {{"--seats", "a,b,c", "--builtin", "x"}, "expected SEAT:BOT"},
      {{"--seats", "a,b,c", "--builtin", "1:nosuchbot"}, "--builtin '1:nosuchbot'"},
      {{"--seats", "a,b,c", "--builtin", "1:random", "--builtin", "1:heuristic"}, "seat 1 is given twice"},
      {{"--seats", "a,b,c", "--fallback-bot", "gpt"}, "--fallback-bot"},
      {{"--seats", "a,b,c", "--options", "nosuch=1"}, "unknown option 'nosuch'"},
      {{"--seats", "a,b,c", "--options", "victory_points"}, "expected name=value"},
      {{"--seats", "a,b,c", "--ruleset", "chess"}, "--ruleset: option 'ruleset': bad value 'chess'"},
      {{"--seats", "a,b,c", "--seed", "-1"}, "--seed"},
      {{"--seats", "a,b,c", "--decision-ms", "0"}, "--decision-ms"},
      {{"--seats", "a,b,c", "--game-id", "a b"}, "--game-id 'a b'"},
      {{"--seats", "a,b,c", "--game-id", std::string(65, 'x')}, "--game-id"},
      {{"--seats", "a,b,c", "--random-board", "0"}, "must not be 0"},
  };
  for (const auto& [args, expected] : cases) {
    const std::string error = Build(args, &r);
    EXPECT_NE(error.find(expected), std::string::npos) << "error '" << error << "' lacks '" << expected << "'";
  }
}

TEST(CtlCreateGame, EveryOptionOfTheProtoIsAnEngineOption) {
  // Options go from the engine's parser to proto fields by name; a rename on
  // either side must show here rather than as an option the host never sees.
  const google::protobuf::Descriptor* d = v1::RulesOptions::descriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    RulesOptions options;
    const std::string error = ParseOption(d->field(i)->name() + "=?", &options);
    EXPECT_EQ(error.find("unknown option"), std::string::npos) << error;
  }
  v1::CreateGameRequest r;
  ASSERT_EQ(Build({"--seats", "a,b,c", "--options", "max_actions=500", "--options", "bank_limited=false"}, &r), "");
  EXPECT_EQ(r.config().options().max_actions(), 500u);
  EXPECT_TRUE(r.config().options().has_bank_limited());
  EXPECT_FALSE(r.config().options().bank_limited());
}

TEST(CtlOutput, CreateGameJsonIsTheResponsesFourFields) {
  v1::CreateGameResponse response;
  response.set_game_id("g1");
  response.add_seat_tokens("t0");
  response.add_seat_tokens("");
  response.add_seat_tokens("t\"2");
  response.set_host("127.0.0.1:5");
  response.set_chance_commitment("abc");  // bytes: base64 in the proto's JSON
  EXPECT_EQ(CreateGameJson(response),
            R"({"game_id":"g1","seat_tokens":["t0","","t\"2"],"host":"127.0.0.1:5","chance_commitment":"YWJj"})");
  EXPECT_EQ(CreateGameJson(v1::CreateGameResponse()),
            R"({"game_id":"","seat_tokens":[],"host":"","chance_commitment":""})");
}

TEST(CtlOutput, GameInfoJsonShowsEnumNamesAndZeroCounts) {
  v1::GameInfo info;
  info.set_game_id("g1");
  info.set_status(v1::GAME_STATUS_FINISHED);
  v1::PlayerInfo* p = info.add_players();
  p->set_seat(0);
  p->set_name("alice");
  p->set_decisions(12);
  info.mutable_result()->set_reason(v1::END_REASON_WON);
  const std::string json = MessageJson(info);
  EXPECT_NE(json.find(R"("status":"GAME_STATUS_FINISHED")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("decisions":12)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("fallback_decisions":0)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("connected":false)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("reason":"END_REASON_WON")"), std::string::npos) << json;
}

TEST(CtlOutput, Tables) {
  v1::GameInfo info;
  info.set_game_id("g1");
  info.set_status(v1::GAME_STATUS_FINISHED);
  info.add_vp(10);
  v1::PlayerInfo* p = info.add_players();
  p->set_name("alice");
  p->set_connected(true);
  p->set_decisions(3);
  p->set_fallback_decisions(1);
  v1::GameResult* r = info.mutable_result();
  r->set_reason(v1::END_REASON_WON);
  r->set_winner(0);
  r->add_vp(10);
  r->set_actions(99);
  r->set_turns(7);
  const std::string table = GameInfoTable(info);
  EXPECT_NE(table.find("status   FINISHED"), std::string::npos) << table;
  EXPECT_NE(table.find("result   WON, winner seat 0, vp 10, 99 actions, 7 turns"), std::string::npos) << table;
  EXPECT_NE(table.find("0     alice  client     yes        3          1         10"), std::string::npos) << table;

  EXPECT_EQ(FormatTable({{"a", "bb"}, {"ccc", "d"}}), "a    bb\nccc  d\n");
  EXPECT_EQ(FormatUnixMs(0), "-");
  EXPECT_EQ(FormatUnixMs(86'400'000), "1970-01-02 00:00:00 UTC");
}

// The ladder commands' durations are exact, as metropolis-admin prints them; the
// tournament commands' (a recurrence) are rounded to their two largest units.
TEST(CtlOutput, DurationsExactAndRounded) {
  const struct {
    int64_t ms;
    std::string exact, rounded;
  } cases[] = {
      {-1, "never", "-1ms"},
      {0, "0ms", "0ms"},
      {500, "500ms", "500ms"},
      {1500, "1500ms", "1s"},
      {10'000, "10s", "10s"},
      {60'000, "60s", "1m"},
      {90'000, "90s", "1m 30s"},
      {3'601'000, "3601s", "1h 1s"},
      {9'000'000, "9000s", "2h 30m"},
      {86'400'000, "86400s", "1d"},
      {90'061'500, "90061500ms", "1d 1h"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(FormatDurationMs(c.ms, DurationStyle::kExact), c.exact) << c.ms;
    EXPECT_EQ(FormatDurationMs(c.ms, DurationStyle::kRounded), c.rounded) << c.ms;
  }
}

TEST(CtlWatch, EventsAreLinesOfTheEnginesText) {
  v1::SpectateUpdate update;
  update.mutable_events()->set_step(5);
  Event e;
  e.type = EventType::kBarbariansAdvance;
  e.a = 3;
  protocol::EventToProto(e, update.mutable_events()->add_events());
  const std::vector<std::string> lines = SpectateLines(update);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "step 5: " + EventToString(e));

  // A batch of two steps: each line carries the step its action made.
  v1::SpectateUpdate batch;
  batch.mutable_events()->set_step(9);
  Event roll;
  roll.type = EventType::kAction;
  roll.seat = 1;
  roll.action = Action::Roll();
  Event dice;
  dice.type = EventType::kAction;
  dice.seat = -2;
  dice.action = Action::Dice(3, 4, 0);
  for (const Event& x : {roll, dice, e}) protocol::EventToProto(x, batch.mutable_events()->add_events());
  EXPECT_EQ(SpectateLines(batch),
            (std::vector<std::string>{"step 8: " + EventToString(roll), "step 9: " + EventToString(dice),
                                      "step 9: " + EventToString(e)}));

  v1::SpectateUpdate over;
  over.mutable_game_over()->mutable_result()->set_reason(v1::END_REASON_LENGTH_CAP);
  over.mutable_game_over()->mutable_result()->set_winner(-1);
  EXPECT_EQ(SpectateLines(over), std::vector<std::string>{"game over: LENGTH_CAP, no winner, 0 actions, 0 turns"});
  v1::SpectateUpdate view;
  view.mutable_view();
  EXPECT_TRUE(SpectateLines(view).empty());
}

// ---- accounts ------------------------------------------------------------------

v1::LadderSettings Settings(const std::vector<std::string>& args, std::string* error) {
  cli::Flags flags("update-ladder", "ID", "");
  AddLadderFlags(&flags);
  AddGlobalFlags(&flags);
  flags.AllowPositionals();
  v1::LadderSettings out;
  EXPECT_TRUE(flags.Parse(args, error)) << *error;
  error->clear();
  if (!BuildLadderSettings(flags, &out, error)) out.Clear();
  return out;
}

TEST(CtlAccounts, LadderFlagsSetOnlyTheSettingsGiven) {
  std::string error;
  v1::LadderSettings s = Settings({"open", "--decision-ms", "3000"}, &error);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(s.has_decision_ms());
  EXPECT_EQ(s.decision_ms(), 3000);
  EXPECT_FALSE(s.has_title());
  EXPECT_FALSE(s.has_seats());
  EXPECT_FALSE(s.has_mu());
  EXPECT_FALSE(s.has_allow_three_after_ms());
  EXPECT_EQ(Settings({"open"}, &error).ByteSizeLong(), 0u);

  s = Settings({"open",
                "--title",
                "",
                "--ruleset",
                "base",
                "--options",
                "victory_points=12",
                "--options",
                "bank_limited=false",
                "--seats",
                "3",
                "--placement-games",
                "0",
                "--mu",
                "1500",
                "--sigma",
                "350.5",
                "--beta",
                "1e2",
                "--kappa",
                "0.001",
                "--tau",
                "0",
                "--three-after-ms",
                "never",
                "--bots-after-ms",
                "30000",
                "--time-bank-ms",
                "0"},
               &error);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(s.has_title());  // given empty: clears the title
  EXPECT_EQ(s.title(), "");
  EXPECT_EQ(s.ruleset(), "base");
  EXPECT_EQ(s.options(), "victory_points=12 bank_limited=false");
  EXPECT_EQ(s.seats(), 3);
  EXPECT_TRUE(s.has_placement_games());
  EXPECT_EQ(s.placement_games(), 0);
  EXPECT_EQ(s.mu(), 1500);
  EXPECT_EQ(s.sigma(), 350.5);
  EXPECT_EQ(s.beta(), 100);
  EXPECT_EQ(s.kappa(), 0.001);
  EXPECT_TRUE(s.has_tau());
  EXPECT_EQ(s.tau(), 0);
  EXPECT_EQ(s.allow_three_after_ms(), -1);
  EXPECT_EQ(s.bot_fill_after_ms(), 30000);
  EXPECT_TRUE(s.has_time_bank_ms());
  EXPECT_FALSE(s.has_decision_ms());
  EXPECT_EQ(Settings({"open", "--bots-after-ms", "-1"}, &error).bot_fill_after_ms(), -1);
  // What the values may be is the service's to say: the flags pass them on.
  EXPECT_EQ(Settings({"open", "--seats", "5"}, &error).seats(), 5);
  EXPECT_EQ(error, "");
}

TEST(CtlAccounts, LadderFlagErrorsNameTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--seats", "four"}, "flag '--seats': 'four' is not an integer"},
      {{"--seats", "3000000000"}, "flag '--seats': '3000000000' is not an integer"},
      {{"--decision-ms", "1.5"}, "flag '--decision-ms': '1.5'"},
      {{"--three-after-ms", "soon"}, "flag '--three-after-ms': 'soon' is not a number of milliseconds or 'never'"},
      {{"--bots-after-ms", ""}, "flag '--bots-after-ms': ''"},
      {{"--mu", "lots"}, "flag '--mu': 'lots' is not a number"},
      {{"--tau", "1x"}, "flag '--tau': '1x' is not a number"},
  };
  for (const auto& [args, expected] : cases) {
    std::string error;
    std::vector<std::string> all = {"open"};
    all.insert(all.end(), args.begin(), args.end());
    Settings(all, &error);
    EXPECT_NE(error.find(expected), std::string::npos) << "error '" << error << "' lacks '" << expected << "'";
  }
}

TEST(CtlAccounts, IdentitiesAsTableAndAsMetropolisAdminsJson) {
  v1::ListIdentitiesResponse list;
  v1::Identity* alice = list.add_identities();
  alice->set_id(1);
  alice->set_kind("player");
  alice->set_name("alice");
  alice->set_created_unix_ms(86'400'000);
  v1::Identity* bot = list.add_identities();
  bot->set_id(2);
  bot->set_kind("bot");
  bot->set_name("alice\"bot");
  bot->set_owner("alice");
  bot->set_created_unix_ms(86'401'000);
  EXPECT_EQ(IdentitiesJson(list),
            R"([{"id":1,"kind":"player","name":"alice","owner":null,"created_unix_ms":86400000},)"
            R"({"id":2,"kind":"bot","name":"alice\"bot","owner":"alice","created_unix_ms":86401000}])");
  EXPECT_EQ(IdentitiesJson(v1::ListIdentitiesResponse()), "[]");
  EXPECT_EQ(IdentitiesTable(list),
            "id  kind    name       owner  created\n"
            "1   player  alice      -      1970-01-02 00:00:00 UTC\n"
            "2   bot     alice\"bot  alice  1970-01-02 00:00:01 UTC\n");
  EXPECT_EQ(CreatedIdentityText(*bot), "created bot alice\"bot (id 2), owned by alice\n");
  EXPECT_EQ(CreatedIdentityText(*alice), "created player alice (id 1)\n");
}

TEST(CtlAccounts, TokensNeverShowButOnIssue) {
  v1::IssueTokenRequest request;
  request.set_identity("alice");
  request.set_label("laptop");
  request.set_admin(true);
  v1::IssueTokenResponse issued;
  issued.set_token_id(7);
  issued.set_token("mtp_0123");
  EXPECT_EQ(IssuedTokenJson(request, issued),
            R"({"id":7,"identity":"alice","label":"laptop","admin":true,"token":"mtp_0123"})");
  const std::string text = IssuedTokenText(request, issued);
  EXPECT_EQ(text.rfind("token 7 for alice (admin), label 'laptop':\n\n  mtp_0123\n\n", 0), 0u) << text;
  EXPECT_NE(text.find("will not be shown again"), std::string::npos);

  v1::ListTokensResponse list;
  v1::ApiToken* t = list.add_tokens();
  t->set_id(7);
  t->set_label("laptop");
  t->set_admin(true);
  t->set_created_unix_ms(86'400'000);
  t = list.add_tokens();
  t->set_id(9);
  t->set_created_unix_ms(86'400'000);
  t->set_revoked_unix_ms(172'800'000);
  EXPECT_EQ(TokensJson(list),
            R"([{"id":7,"label":"laptop","admin":true,"created_unix_ms":86400000,"revoked_unix_ms":null},)"
            R"({"id":9,"label":"","admin":false,"created_unix_ms":86400000,"revoked_unix_ms":172800000}])");
  EXPECT_EQ(TokensTable(list),
            "id  label   admin  created                  revoked\n"
            "7   laptop  yes    1970-01-02 00:00:00 UTC  -\n"
            "9   -       no     1970-01-02 00:00:00 UTC  1970-01-03 00:00:00 UTC\n");
}

v1::Ladder SampleLadder() {
  v1::Ladder l;
  l.set_id("open");
  l.set_title("Open");
  l.set_ruleset("cities_and_knights");
  l.set_options("victory_points=12");
  l.set_seats(4);
  l.set_placement_games(10);
  l.set_mu(25);
  l.set_sigma(25.0 / 3);
  l.set_beta(25.0 / 6);
  l.set_kappa(0.0001);
  l.set_tau(25.0 / 300);
  l.set_allow_three_after_ms(60'000);
  l.set_bot_fill_after_ms(-1);
  l.set_decision_ms(1'500);
  l.set_time_bank_ms(60'000);
  l.set_created_unix_ms(86'400'000);
  l.set_season(2);
  l.set_season_started_unix_ms(172'800'000);
  return l;
}

TEST(CtlAccounts, LaddersAsJsonTableAndText) {
  v1::ListLaddersResponse list;
  *list.add_ladders() = SampleLadder();
  v1::Ladder* bare = list.add_ladders();
  bare->set_id("bare");
  bare->set_seats(3);
  bare->set_allow_three_after_ms(-1);
  bare->set_bot_fill_after_ms(0);
  // Numbers read back exactly: 25/3 is not 8.33333.
  EXPECT_EQ(LaddersJson(list),
            R"([{"id":"open","title":"Open","ruleset":"cities_and_knights","options":"victory_points=12","seats":4,)"
            R"("placement_games":10,"mu":25,"sigma":8.333333333333334,"beta":4.166666666666667,"kappa":0.0001,)"
            R"("tau":0.08333333333333333,"allow_three_after_ms":60000,"bot_fill_after_ms":-1,"decision_ms":1500,)"
            R"("time_bank_ms":60000,"season":2,"season_started_unix_ms":172800000,"created_unix_ms":86400000},)"
            R"({"id":"bare","title":"","ruleset":"","options":"","seats":3,"placement_games":0,"mu":0,"sigma":0,)"
            R"("beta":0,"kappa":0,"tau":0,"allow_three_after_ms":-1,"bot_fill_after_ms":0,"decision_ms":0,)"
            R"("time_bank_ms":0,"season":0,"season_started_unix_ms":0,"created_unix_ms":0}])");
  // metropolis-admin's columns first, so that what reads one reads the other.
  EXPECT_EQ(
      LaddersTable(list),
      "id    title  ruleset             seats  placement  mu  sigma    beta     kappa   tau        season  since  "
      "                  decision  bank  3 after  bots after  options\n"
      "open  Open   cities_and_knights  4      10         25  8.33333  4.16667  0.0001  0.0833333  2       "
      "1970-01-03 00:00:00 UTC  1500ms    60s   60s      never       victory_points=12\n"
      "bare  -                          3      0          0   0        0        0       0          -       -    "
      "                    0ms       0ms   never    0ms         -\n");
  const std::string text = LadderText(SampleLadder());
  for (const std::string line : {"ladder             open\n", "options            victory_points=12\n",
                                 "tables of 3 after  60s\n", "bots fill after    never\n",
                                 "decision           1500ms\n", "season             2 since 1970-01-03 00:00:00 UTC\n",
                                 "rating             mu 25, sigma 8.333333333333334, beta 4.166666666666667, "
                                 "kappa 0.0001, tau 0.08333333333333333\n"})
    EXPECT_NE(text.find(line), std::string::npos) << "'" << line << "' not in\n" << text;
}

TEST(CtlAccounts, JsonNumbersAreShortestExact) {
  for (double v : {0.0, 1.0, -2.5, 25.0 / 3, 1e-300, 0.1, 123456789.125}) {
    const std::string text = JsonNumber(v);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
  }
  EXPECT_EQ(JsonNumber(0.1), "0.1");
  EXPECT_EQ(JsonNumber(30), "30");
}

TEST(CtlUsage, NamesTheProgramAndTheExitCodes) {
  const std::string usage = CommandUsage(CreateGameFlags());
  EXPECT_EQ(usage.rfind("usage: metropolisctl create-game ", 0), 0u) << usage;
  EXPECT_NE(usage.find("exit status"), std::string::npos);
}

}  // namespace
}  // namespace metropolis::ctl
