// GameConfig <-> v1::GameConfig: defaults for unset fields, complete output,
// and a precise error for each kind of bad field that leaves *out unchanged.
#include <gtest/gtest.h>

#include <string>

#include "lib/protocol/convert.h"
#include "lib/protocol/tests/random_games.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

// A configuration that differs from every default, so that a field the
// conversion forgets shows up as a difference.
GameConfig Unusual() {
  GameConfig c = testing::Config(3, {"robber_locked_until_first_attack=false",
                                     "saboteur=HALF_HAND_VP_GT",
                                     "barbarian_victims=MIN_AMONG_ALL",
                                     "defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK",
                                     "aqueduct_trigger=NO_ADJACENT_NUMBER",
                                     "displace_requires_connection=false",
                                     "knight_path_through_opponents=true",
                                     "deserter_placement=ANY_LEVEL_INACTIVE",
                                     "fiesepeter=true",
                                     "progress_hand_limit=PLAY_OR_DISCARD",
                                     "diplomat_scope=ALL_OPEN_ROADS",
                                     "green_engineer_count=2",
                                     "red_die_table=1,1,3,5,6",
                                     "chase_robber_destination=ANY_OTHER_LAND_HEX",
                                     "progress_takes_resources_only=true",
                                     "defender_by_knight_count=true",
                                     "merchant_adjacency=SETTLEMENT_ONLY",
                                     "harbor3_commodity_output=RESOURCE_ONLY",
                                     "crane_limit=ONE_PER_TURN",
                                     "level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY",
                                     "bank_limited=false",
                                     "victory_points=11",
                                     "start_player=ROLL",
                                     "max_trade_offers_per_turn=5",
                                     "max_actions=12345"});
  c.board = RandomBoard(99);
  return c;
}

TEST(Config, RoundTripIsExactAndComplete) {
  std::vector<GameConfig> configs = testing::TestConfigs();
  configs.push_back(Unusual());
  for (const GameConfig& c : configs) {
    v1::GameConfig msg;
    ConfigToProto(c, &msg);
    // Complete: every optional option is present, the board too.
    EXPECT_TRUE(msg.has_board());
    const auto* options = msg.options().GetDescriptor();
    for (int i = 0; i < options->field_count(); ++i) {
      const auto* f = options->field(i);
      if (f->is_repeated())
        EXPECT_EQ(msg.options().GetReflection()->FieldSize(msg.options(), f), kMaxImprovementLevel) << f->name();
      else
        EXPECT_TRUE(msg.options().GetReflection()->HasField(msg.options(), f)) << f->name();
    }
    v1::GameConfig parsed;
    ASSERT_TRUE(parsed.ParseFromString(msg.SerializeAsString()));
    GameConfig back;
    std::string error;
    ASSERT_TRUE(ConfigFromProto(parsed, &back, &error)) << error;
    EXPECT_EQ(back, c) << OptionsToString(back.options) << "\nvs\n" << OptionsToString(c.options);
  }
}

TEST(Config, UnsetFieldsTakeTheRulesetsDefaults) {
  GameConfig c;
  std::string error;
  ASSERT_TRUE(ConfigFromProto(v1::GameConfig(), &c, &error)) << error;
  GameConfig expected;
  expected.board = DefaultBoard();
  EXPECT_EQ(c, expected);
  EXPECT_EQ(c.rules_version, kRulesVersion);
  EXPECT_EQ(c.num_seats, 4);

  v1::GameConfig base;
  base.mutable_options()->set_ruleset(v1::RULESET_BASE);
  base.mutable_options()->set_max_actions(500);
  base.set_num_seats(3);
  ASSERT_TRUE(ConfigFromProto(base, &c, &error)) << error;
  RulesOptions want = DefaultOptions(Ruleset::kBase);
  want.max_actions = 500;
  EXPECT_EQ(c.options, want);  // 10 VP, not C&K's 13
  EXPECT_EQ(c.num_seats, 3);

  v1::GameConfig random;
  random.set_random_board_seed(42);
  ASSERT_TRUE(ConfigFromProto(random, &c, &error)) << error;
  EXPECT_EQ(c.board, RandomBoard(42));
  EXPECT_NE(c.board, DefaultBoard());
}

// Each case breaks one field of a valid message; the error must be exactly
// this and *out must keep its previous value.
struct BadCase {
  std::string name;
  void (*Break)(v1::GameConfig*);
  std::string error;
};

TEST(Config, EveryBadFieldIsRefusedPrecisely) {
  const BadCase cases[] = {
      {"rules version", [](v1::GameConfig* m) { m->set_rules_version(2); },
       "rules version 2 is not supported by this engine (it reads version 1)"},
      {"huge rules version", [](v1::GameConfig* m) { m->set_rules_version(4000000000u); },
       "rules_version: 4000000000 is not a rules version"},
      {"seats", [](v1::GameConfig* m) { m->set_num_seats(5); }, "num_seats: 5 is not one of 3..4"},
      {"seats wrapping", [](v1::GameConfig* m) { m->set_num_seats(258); }, "num_seats: 258 is not one of 3..4"},
      {"board and seed", [](v1::GameConfig* m) { m->set_random_board_seed(3); },
       "board: set together with random_board_seed; give one of them"},
      {"short terrain", [](v1::GameConfig* m) { m->mutable_board()->mutable_terrain()->RemoveLast(); },
       "board.terrain: 18 values, expected 19"},
      {"long token", [](v1::GameConfig* m) { m->mutable_board()->add_token(5); },
       "board.token: 20 values, expected 19"},
      {"no harbors", [](v1::GameConfig* m) { m->mutable_board()->clear_harbor(); },
       "board.harbor: 0 values, expected 9"},
      {"terrain value", [](v1::GameConfig* m) { m->mutable_board()->set_terrain(4, 256); },
       "board.terrain[4]: 256 is not a terrain (0..5)"},
      {"token value", [](v1::GameConfig* m) { m->mutable_board()->set_token(0, 13); },
       "board.token[0]: 13 is not a number token (0..12)"},
      {"harbor value", [](v1::GameConfig* m) { m->mutable_board()->set_harbor(8, 6); },
       "board.harbor[8]: 6 is not a harbor type (0..5)"},
      {"board rule", [](v1::GameConfig* m) { m->mutable_board()->set_token(0, 7); },
       "board.token[0]: forest needs a number token 2..6 or 8..12, has 7"},
      {"ruleset", [](v1::GameConfig* m) { m->mutable_options()->set_ruleset(v1::Ruleset(2)); },
       "options.ruleset: 2 is not one of 0..1"},
      {"saboteur", [](v1::GameConfig* m) { m->mutable_options()->set_saboteur(7); },
       "options.saboteur: 7 is not one of 0..2"},
      {"start player", [](v1::GameConfig* m) { m->mutable_options()->set_start_player(2); },
       "options.start_player: 2 is not one of 0..1"},
      {"level4 rule", [](v1::GameConfig* m) { m->mutable_options()->set_level4_city_rule(9); },
       "options.level4_city_rule: 9 is not one of 0..1"},
      {"victory points wrapping", [](v1::GameConfig* m) { m->mutable_options()->set_victory_points(269); },
       "options.victory_points: 269 is not one of 0..255"},
      {"victory points rule", [](v1::GameConfig* m) { m->mutable_options()->set_victory_points(0); },
       "options.victory_points: 0 is out of range, expected an integer 1..255"},
      {"engineers", [](v1::GameConfig* m) { m->mutable_options()->set_green_engineer_count(3); },
       "options.green_engineer_count: 3 is out of range, expected an integer 1..2"},
      {"red die table length",
       [](v1::GameConfig* m) {
         m->mutable_options()->clear_red_die_table();
         m->mutable_options()->add_red_die_table(2);
       },
       "options.red_die_table: 1 values, expected 5"},
      {"red die table value",
       [](v1::GameConfig* m) {
         m->mutable_options()->clear_red_die_table();
         for (int v : {2, 3, 4, 5, 300}) m->mutable_options()->add_red_die_table(uint32_t(v));
       },
       "options.red_die_table[4]: 300 is not one of 0..255"},
      {"red die table rule",
       [](v1::GameConfig* m) {
         m->mutable_options()->clear_red_die_table();
         for (int v : {2, 3, 4, 5, 1}) m->mutable_options()->add_red_die_table(uint32_t(v));
       },
       "options.red_die_table: level 5 has 1, below level 4's 5 (values must be non-decreasing)"},
      {"max actions", [](v1::GameConfig* m) { m->mutable_options()->set_max_actions(0); },
       "options.max_actions: 0 is out of range, expected an integer 1..4294967295"},
  };
  GameConfig valid;
  valid.board = DefaultBoard();
  for (const BadCase& c : cases) {
    v1::GameConfig msg;
    ConfigToProto(valid, &msg);
    c.Break(&msg);
    GameConfig out = Unusual();
    const GameConfig before = out;
    std::string error;
    EXPECT_FALSE(ConfigFromProto(msg, &out, &error)) << c.name;
    EXPECT_EQ(error, c.error) << c.name;
    EXPECT_EQ(out, before) << c.name << ": *out changed on error";
  }
}

}  // namespace
}  // namespace metropolis::protocol
