#include "engine/game.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace metropolis {
namespace {

GameRecord SampleRecord() {
  GameRecord r;
  r.config.board = DefaultBoard();
  r.config.num_seats = 3;
  EXPECT_EQ(ParseOption("victory_points=10", &r.config.options), "");
  r.actions = {Action::BuildSettlement(12), Action::BuildRoad(17), Action::Dice(4, 3, kEventShip),
               Action::MoveRobber(7, 2), Action::EndTurn()};
  CardCounts give, want;
  give[kBrick] = 2;
  want[kOre] = 1;
  r.actions.push_back(Action::TradeOffer(give, want, 0b0110));
  r.seed = 18446744073709551557ull;  // above 2^53: must not pass through a double
  r.winner = 1;
  r.players = {"greedy", "random", "ran\"dom\\"};
  return r;
}

void ExpectSameRecord(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.actions, b.actions);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_EQ(a.players, b.players);
}

// A record with one field's text replaced, for the error tests.
std::string WithField(std::string json, const std::string& key, const std::string& value) {
  std::string needle = "\"" + key + "\":";
  size_t at = json.find(needle);
  EXPECT_NE(at, std::string::npos) << key;
  size_t start = at + needle.size();
  // The value ends at the comma or brace that closes it at depth 0.
  int depth = 0;
  bool in_string = false;
  size_t end = start;
  for (; end < json.size(); ++end) {
    char c = json[end];
    if (in_string) {
      if (c == '\\')
        ++end;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}') {
      if (depth == 0) break;
      --depth;
    } else if (c == ',' && depth == 0)
      break;
  }
  return json.substr(0, start) + value + json.substr(end);
}

std::string ErrorOf(std::string_view json) {
  GameRecord r;
  std::string error;
  EXPECT_FALSE(GameRecordFromJson(json, &r, &error)) << json;
  return error;
}

TEST(GameRecordTest, JsonRoundTrip) {
  GameRecord r = SampleRecord();
  std::string json = GameRecordToJson(r);
  EXPECT_EQ(json.find('\n'), std::string::npos) << "one line per game";
  GameRecord back;
  std::string error;
  ASSERT_TRUE(GameRecordFromJson(json, &back, &error)) << error;
  ExpectSameRecord(r, back);
  EXPECT_EQ(GameRecordToJson(back), json);
}

TEST(GameRecordTest, JsonRoundTripRandomBoards) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    GameRecord r;
    r.config.board = RandomBoard(seed);
    GameRecord back;
    std::string error;
    ASSERT_TRUE(GameRecordFromJson(GameRecordToJson(r), &back, &error)) << error;
    ExpectSameRecord(r, back);
  }
}

TEST(GameRecordTest, ShapeOfTheLine) {
  GameRecord r;
  r.config.board = DefaultBoard();
  r.actions = {Action::BuildSettlement(12)};
  std::string json = GameRecordToJson(r);
  EXPECT_EQ(json.rfind("{\"rules_version\":1,\"num_seats\":4,\"board\":{\"terrain\":\"", 0), 0u) << json;
  EXPECT_NE(json.find("\"options\":\"\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"actions\":[\"" + ActionToString(Action::BuildSettlement(12)) + "\"]}"), std::string::npos)
      << json;
  // Optional fields are absent unless set.
  EXPECT_EQ(json.find("\"seed\""), std::string::npos);
  EXPECT_EQ(json.find("\"winner\""), std::string::npos);
  EXPECT_EQ(json.find("\"players\""), std::string::npos);
}

TEST(GameRecordTest, AcceptsWhitespaceKeyOrderAndUnknownKeys) {
  GameRecord r = SampleRecord();
  std::string json = GameRecordToJson(r);
  // Actions first, version last, unknown keys of every kind in between.
  size_t actions = json.find("\"actions\":");
  std::string reordered =
      "{ " + json.substr(actions, json.size() - 1 - actions) +
      ",\n \"comment\": {\"x\": [1, 2.5e3, -0.5, true, false, null, \"\\u00e9\\ud83d\\ude00\"]},\n" +
      json.substr(1, actions - 2) + "\n}\n";
  GameRecord back;
  std::string error;
  ASSERT_TRUE(GameRecordFromJson(reordered, &back, &error)) << error << "\n" << reordered;
  ExpectSameRecord(r, back);
}

TEST(GameRecordTest, SyntaxErrorsSayWhere) {
  EXPECT_EQ(ErrorOf(""), "JSON at offset 0: unexpected end of input, expected a value");
  EXPECT_EQ(ErrorOf("{"), "JSON at offset 1: expected a key in quotes");
  EXPECT_EQ(ErrorOf("{\"a\" 1}"), "JSON at offset 5: expected ':' after key \"a\"");
  EXPECT_EQ(ErrorOf("{\"a\":1} x"), "JSON at offset 8: unexpected text after the JSON object");
  EXPECT_EQ(ErrorOf("{\"a\":01}"), "JSON at offset 6: expected ',' or '}' in an object");
  EXPECT_EQ(ErrorOf("{\"a\":\"x\ty\"}"), "JSON at offset 7: control character in a string");
  EXPECT_EQ(ErrorOf("{\"a\":\"\\q\"}"), "JSON at offset 7: invalid escape '\\q'");
  EXPECT_EQ(ErrorOf("{\"a\":1,\"a\":2}"), "JSON at offset 12: duplicate key \"a\"");
  EXPECT_EQ(ErrorOf("{\"a\":[1,]}"), "JSON at offset 8: unexpected character ']'");
  EXPECT_EQ(ErrorOf("[]"), "game record: expected an object, got an array");
  EXPECT_EQ(ErrorOf(std::string(100, '[')), "JSON at offset 33: nested too deeply");
}

TEST(GameRecordTest, FieldErrorsNameTheField) {
  std::string json = GameRecordToJson(SampleRecord());
  EXPECT_EQ(ErrorOf(WithField(json, "num_seats", "\"4\"")), "num_seats: expected a number, got a string");
  EXPECT_EQ(ErrorOf(WithField(json, "num_seats", "3.5")), "num_seats: expected an integer, got 3.5");
  EXPECT_EQ(ErrorOf(WithField(json, "num_seats", "7")).rfind("configuration: ", 0), 0u);
  EXPECT_EQ(ErrorOf(WithField(json, "terrain", "\"HF\"")), "board.terrain: expected 19 letters, got 2");
  EXPECT_EQ(ErrorOf(WithField(json, "terrain", "\"" + std::string(19, 'Z') + "\"")),
            "board.terrain: 'Z' at hex 0 is not a terrain letter");
  EXPECT_EQ(ErrorOf(WithField(json, "tokens", "[1,2]")), "board.tokens: expected 19 numbers, got 2");
  EXPECT_EQ(ErrorOf(WithField(json, "harbors", "\"xxxxxxxxx\"")),
            "board.harbors: 'x' at slot 0 is not a harbor (a resource letter or '3')");
  EXPECT_EQ(ErrorOf(WithField(json, "seed", "-1")), "seed: -1 is out of range");
  EXPECT_EQ(ErrorOf(WithField(json, "winner", "5")), "winner: 5 is not a seat");
  EXPECT_EQ(ErrorOf(WithField(json, "actions", "[\"end_turn\", 3]")), "actions[1]: expected a string, got a number");
  EXPECT_EQ(ErrorOf(WithField(json, "actions", "[\"fly_away n3\"]")).rfind("actions[0] 'fly_away n3': ", 0), 0u);
  EXPECT_EQ(ErrorOf(WithField(json, "options", "\"no_such_option=1\"")).rfind("options: ", 0), 0u);
  EXPECT_EQ(ErrorOf("{\"rules_version\":1}"), "missing \"num_seats\"");
  EXPECT_EQ(ErrorOf("{\"num_seats\":4}"), "missing \"rules_version\"");
}

TEST(GameRecordTest, RefusesOtherRulesVersionsBeforeReadingActions) {
  std::string json = GameRecordToJson(SampleRecord());
  for (int version : {0, 2, 99, -1}) {
    ASSERT_NE(CheckRulesVersion(version), "") << version;
    // Actions that this version cannot read: the version must be refused first.
    std::string other = WithField(WithField(json, "rules_version", std::to_string(version)), "actions",
                                  "[\"something_from_the_future h1\"]");
    EXPECT_EQ(ErrorOf(other), CheckRulesVersion(version));
  }
}

// A seeded random game through the engine, keeping every state.
struct PlayedGame {
  GameRecord record;
  std::vector<State> states;  // states[k] after k actions
};

PlayedGame PlayRandomGame(uint64_t seed, int max_actions) {
  PlayedGame g;
  g.record.config.board = RandomBoard(seed);
  State s(g.record.config);
  std::string error;
  EXPECT_TRUE(NewGame(g.record.config, &s, &error)) << error;
  g.states.push_back(s);
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  ActionList legal;
  for (int i = 0; i < max_actions && !s.IsTerminal(); ++i) {
    Action a;
    if (s.IsChanceNode()) {
      a = s.SampleChance(double(next() >> 11) * 0x1.0p-53);
    } else {
      s.LegalActions(&legal);
      a = legal.items[next() % uint64_t(legal.size)];
    }
    s.ApplyUnchecked(a);
    g.record.actions.push_back(a);
    g.states.push_back(s);
  }
  return g;
}

TEST(ReplayGameTest, ReplayOfARandomGameEqualsThePlayedStates) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    PlayedGame g = PlayRandomGame(seed, 3000);
    GameRecord record;
    std::string error;
    ASSERT_TRUE(GameRecordFromJson(GameRecordToJson(g.record), &record, &error)) << error;
    int calls = 0;
    bool ok = ReplayGame(
        record,
        [&](int step, const State& s, const Action* a, const std::vector<Event>& events) {
          ASSERT_EQ(step, calls++);
          ASSERT_LT(size_t(step), g.states.size());
          EXPECT_TRUE(s == g.states[step]) << "seed " << seed << " step " << step;
          if (step == 0) {
            EXPECT_EQ(a, nullptr);
            EXPECT_TRUE(events.empty());
          } else {
            ASSERT_NE(a, nullptr);
            EXPECT_EQ(*a, g.record.actions[step - 1]);
            ASSERT_FALSE(events.empty());
            EXPECT_EQ(events.front().type, EventType::kAction);
          }
        },
        &error);
    ASSERT_TRUE(ok) << error;
    EXPECT_EQ(size_t(calls), g.states.size());
  }
}

TEST(ReplayGameTest, StopsAtTheFirstIllegalActionWithItsStep) {
  PlayedGame g = PlayRandomGame(7, 40);
  GameRecord record = g.record;
  record.actions.resize(10);
  const State& at = g.states[10];
  // An action the position refuses: the one the engine says is wrong.
  Action bad = Action::EndTurn();
  std::string expected_reason = at.CheckAction(bad);
  ASSERT_NE(expected_reason, "") << "end_turn is legal here; pick another position";
  record.actions.push_back(bad);
  record.actions.push_back(Action::EndTurn());
  std::string error;
  int last_step = -1;
  EXPECT_FALSE(ReplayGame(
      record, [&](int step, const State&, const Action*, const std::vector<Event>&) { last_step = step; }, &error));
  EXPECT_EQ(error, "step 11: " + ActionToString(bad) + ": " + expected_reason);
  EXPECT_EQ(last_step, 10);
}

TEST(ReplayGameTest, RefusesAnInvalidConfiguration) {
  GameRecord record;
  record.config.board = DefaultBoard();
  record.config.num_seats = 9;
  std::string error;
  EXPECT_FALSE(ReplayGame(record, nullptr, &error));
  EXPECT_EQ(error.rfind("configuration: ", 0), 0u) << error;
  record.config.num_seats = 4;
  record.config.rules_version = 2;
  EXPECT_FALSE(ReplayGame(record, nullptr, &error));
  EXPECT_EQ(error, CheckRulesVersion(2));
}

}  // namespace
}  // namespace metropolis
