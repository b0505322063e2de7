#include "engine/config.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/topology.h"
#include "engine/types.h"

namespace metropolis {
namespace {

// ---------------------------------------------------------------------------
// Names and letters (types.h).

TEST(TypesTest, CardNamesAndLetters) {
  const char* names[] = {"brick", "lumber", "wool", "grain", "ore", "cloth", "coin", "paper"};
  const std::string letters = "blwgocmp";
  for (int c = 0; c < kNumCardTypes; ++c) {
    EXPECT_EQ(CardName(c), names[c]);
    EXPECT_EQ(CardLetter(c), letters[c]);
    EXPECT_EQ(CardFromLetter(letters[c]), c);
  }
  EXPECT_EQ(CardFromLetter('x'), -1);
  EXPECT_EQ(CardFromLetter('B'), -1);
}

TEST(TypesTest, TerrainNamesAndLetters) {
  const char* names[] = {"hills", "forest", "pasture", "fields", "mountains", "desert"};
  const std::string letters = "HFPGMD";
  for (int t = 0; t < kNumTerrains; ++t) {
    EXPECT_EQ(TerrainName(t), names[t]);
    EXPECT_EQ(TerrainLetter(t), letters[t]);
    EXPECT_EQ(TerrainFromLetter(letters[t]), t);
  }
  EXPECT_EQ(TerrainFromLetter('h'), -1);
  EXPECT_EQ(TerrainFromLetter('X'), -1);
}

TEST(TypesTest, TrackNames) {
  EXPECT_EQ(TrackName(kTrade), "trade");
  EXPECT_EQ(TrackName(kPolitics), "politics");
  EXPECT_EQ(TrackName(kScience), "science");
}

// ---------------------------------------------------------------------------
// Boards.

GameConfig ValidConfig() {
  GameConfig c;
  c.board = DefaultBoard();
  return c;
}

int Pips(int token) { return token == 0 ? 0 : 6 - std::abs(7 - token); }

bool RedNumbersAdjacent(const Board& b) {
  const Topology& t = GetTopology();
  for (int h = 0; h < kNumHexes; ++h) {
    for (int n : t.hex_neighbors[h]) {
      if (n < 0) continue;
      const bool red_h = b.token[h] == 6 || b.token[h] == 8, red_n = b.token[n] == 6 || b.token[n] == 8;
      if (red_h && red_n) return true;
    }
  }
  return false;
}

std::string TerrainString(const Board& b) {
  std::string s;
  for (uint8_t t : b.terrain) s += TerrainLetter(t);
  return s;
}

TEST(BoardTest, DefaultBoardIsValidAndBalanced) {
  const Board b = DefaultBoard();
  EXPECT_EQ(ValidateConfig(ValidConfig()), "");
  EXPECT_FALSE(RedNumbersAdjacent(b));
  // No number repeats on adjacent hexes.
  const Topology& t = GetTopology();
  for (int h = 0; h < kNumHexes; ++h) {
    for (int n : t.hex_neighbors[h]) {
      if (n >= 0) {
        EXPECT_NE(b.token[h], b.token[n]) << "hexes " << h << " and " << n;
      }
    }
  }
  // Every commodity terrain has at least one good number.
  for (int terrain : {kForest, kPasture, kMountains}) {
    bool good = false;
    for (int h = 0; h < kNumHexes; ++h) {
      const int tok = b.token[h];
      if (b.terrain[h] == terrain && (tok == 5 || tok == 6 || tok == 8 || tok == 9)) good = true;
    }
    EXPECT_TRUE(good) << TerrainName(terrain);
  }
  // Plenty of grain: fields produce the most.
  std::array<int, kNumTerrains> pips{};
  for (int h = 0; h < kNumHexes; ++h) pips[b.terrain[h]] += Pips(b.token[h]);
  for (int terrain = 0; terrain < kNumResources; ++terrain) {
    if (terrain != kFields) {
      EXPECT_GT(pips[kFields], pips[terrain]) << TerrainName(terrain);
    }
  }
  EXPECT_EQ(b.terrain[9], kDesert);
  // No 2:1 harbor touches a good hex of its own resource.
  for (int k = 0; k < kNumHarbors; ++k) {
    if (b.harbor[k] == kGenericHarbor) continue;
    for (int v : t.harbor_nodes[k]) {
      for (int h : t.node_hexes[v]) {
        if (h < 0 || b.terrain[h] != b.harbor[k]) continue;
        EXPECT_GT(std::abs(7 - b.token[h]), 2) << "harbor " << k << " hex " << h;
      }
    }
  }
}

TEST(BoardTest, RandomBoardDeterministicAndVaried) {
  EXPECT_EQ(RandomBoard(7), RandomBoard(7));
  EXPECT_NE(RandomBoard(7), RandomBoard(8));
  std::set<std::string> layouts;
  for (uint64_t seed = 0; seed < 100; ++seed) layouts.insert(TerrainString(RandomBoard(seed)));
  EXPECT_GT(layouts.size(), 95u);
}

// Pins the generator so that a seed means the same board on every platform
// and after every refactoring (the seed is stored in game records).
TEST(BoardTest, RandomBoardGolden) {
  const Board b = RandomBoard(42);
  std::ostringstream s;
  s << TerrainString(b) << ' ';
  for (uint8_t t : b.token) s << int(t) << ',';
  s << ' ';
  for (uint8_t h : b.harbor) s << int(h);
  // Cross-checked against an independent implementation of the same draw order.
  EXPECT_EQ(s.str(), "HDFHFPMMGGGPGMPFFHP 5,0,8,8,4,3,3,2,11,12,6,10,10,9,9,5,11,4,6, 515345025");
}

TEST(BoardTest, RandomBoardsValidWithoutAdjacentRedNumbers) {
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    GameConfig c;
    c.board = RandomBoard(seed);
    ASSERT_EQ(ValidateConfig(c), "") << "seed " << seed;
    ASSERT_FALSE(RedNumbersAdjacent(c.board)) << "seed " << seed;
  }
}

TEST(BoardTest, RandomBoardOptions) {
  RandomBoardOptions keep_harbors;
  keep_harbors.shuffle_harbors = false;
  RandomBoardOptions allow_red;
  allow_red.separate_red_numbers = false;
  bool some_adjacent = false, some_harbors_differ = false;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const Board kept = RandomBoard(seed, keep_harbors);
    EXPECT_EQ(kept.harbor, DefaultBoard().harbor);
    GameConfig c;
    c.board = RandomBoard(seed, allow_red);
    EXPECT_EQ(ValidateConfig(c), "") << "seed " << seed;
    some_adjacent |= RedNumbersAdjacent(c.board);
    some_harbors_differ |= RandomBoard(seed).harbor != DefaultBoard().harbor;
  }
  EXPECT_TRUE(some_adjacent);
  EXPECT_TRUE(some_harbors_differ);
}

// ---------------------------------------------------------------------------
// Validation.

TEST(ValidateTest, RulesVersion) {
  EXPECT_EQ(CheckRulesVersion(kRulesVersion), "");
  EXPECT_EQ(CheckRulesVersion(7), "rules version 7 is not supported by this engine (it reads version 1)");
  GameConfig c = ValidConfig();
  c.rules_version = 7;
  EXPECT_EQ(ValidateConfig(c), "rules version 7 is not supported by this engine (it reads version 1)");
}

TEST(ValidateTest, Seats) {
  for (int seats : {3, 4}) {
    for (Ruleset r : {Ruleset::kCitiesAndKnights, Ruleset::kBase}) {
      GameConfig c = ValidConfig();
      c.num_seats = seats;
      c.options = DefaultOptions(r);
      EXPECT_EQ(ValidateConfig(c), "");
    }
  }
  GameConfig c = ValidConfig();
  c.num_seats = 2;
  EXPECT_EQ(ValidateConfig(c), "num_seats: 2, expected 3..4");
  c.num_seats = 5;
  EXPECT_EQ(ValidateConfig(c), "num_seats: 5, expected 3..4");
}

TEST(ValidateTest, Terrain) {
  GameConfig c = ValidConfig();
  c.board.terrain[3] = 6;
  EXPECT_EQ(ValidateConfig(c), "board.terrain[3]: 6 is not a terrain (0..5)");
  c = ValidConfig();
  c.board.terrain[0] = kDesert;  // a forest becomes a second desert
  c.board.token[0] = 0;
  EXPECT_EQ(ValidateConfig(c), "board: 3 forests, expected 4");
  c.board.terrain[1] = kForest;  // a pasture becomes a forest
  EXPECT_EQ(ValidateConfig(c), "board: 3 pastures, expected 4");
  c = ValidConfig();
  c.board.terrain[0] = kHills;
  EXPECT_EQ(ValidateConfig(c), "board: 4 hills, expected 3");
}

TEST(ValidateTest, Tokens) {
  GameConfig c = ValidConfig();
  const int desert = 9;
  ASSERT_EQ(c.board.terrain[desert], kDesert);
  c.board.token[desert] = 6;
  EXPECT_EQ(ValidateConfig(c), "board.token[9]: desert must have no token, has 6");
  c = ValidConfig();
  c.board.token[4] = 7;
  EXPECT_EQ(ValidateConfig(c), "board.token[4]: mountains needs a number token 2..6 or 8..12, has 7");
  c.board.token[4] = 0;
  EXPECT_EQ(ValidateConfig(c), "board.token[4]: mountains needs a number token 2..6 or 8..12, has 0");
  c.board.token[4] = 13;
  EXPECT_EQ(ValidateConfig(c), "board.token[4]: mountains needs a number token 2..6 or 8..12, has 13");
  c = ValidConfig();
  c.board.token[4] = 8;  // the 6 becomes a third 8
  EXPECT_EQ(ValidateConfig(c), "board: 1 tokens of 6, expected 2");
}

TEST(ValidateTest, Harbors) {
  GameConfig c = ValidConfig();
  c.board.harbor[2] = 6;
  EXPECT_EQ(ValidateConfig(c), "board.harbor[2]: 6 is not a harbor type (0..4 resource, 5 generic)");
  c = ValidConfig();
  ASSERT_EQ(c.board.harbor[0], kGenericHarbor);
  c.board.harbor[0] = kBrick;
  EXPECT_EQ(ValidateConfig(c), "board: 2 brick harbors, expected 1");
  c = ValidConfig();
  for (auto& h : c.board.harbor) {
    if (h == kOre) h = kGenericHarbor;
  }
  EXPECT_EQ(ValidateConfig(c), "board: 0 ore harbors, expected 1");
}

TEST(ValidateTest, Options) {
  GameConfig c = ValidConfig();
  c.options.victory_points = 0;
  EXPECT_EQ(ValidateConfig(c), "options.victory_points: 0 is out of range, expected an integer 1..255");
  c = ValidConfig();
  c.options.green_engineer_count = 3;
  EXPECT_EQ(ValidateConfig(c), "options.green_engineer_count: 3 is out of range, expected an integer 1..2");
  c.options.green_engineer_count = 0;
  EXPECT_NE(ValidateConfig(c), "");
  c = ValidConfig();
  c.options.max_actions = 0;
  EXPECT_EQ(ValidateConfig(c), "options.max_actions: 0 is out of range, expected an integer 1..4294967295");
  c = ValidConfig();
  c.options.saboteur = static_cast<Saboteur>(3);
  EXPECT_EQ(ValidateConfig(c),
            "options.saboteur: 3 is out of range, expected one of HALF_HAND_VP_GE, HALF_HAND_VP_GT, SABOTAGE_CITY");
  c = ValidConfig();
  c.options.ruleset = static_cast<Ruleset>(2);
  EXPECT_EQ(ValidateConfig(c), "options.ruleset: 2 is out of range, expected one of cities_and_knights, base");
  c = ValidConfig();
  c.options.level4_city_rule = static_cast<Level4CityRule>(9);
  EXPECT_NE(ValidateConfig(c), "");
  c = ValidConfig();
  c.options.red_die_table = {2, 3, 2, 5, 6};
  EXPECT_EQ(ValidateConfig(c),
            "options.red_die_table: level 3 has 2, below level 2's 3 (values must be non-decreasing)");
  c.options.red_die_table = {0, 3, 4, 5, 6};
  EXPECT_EQ(ValidateConfig(c), "options.red_die_table: level 1 has 0, values must be 1..6");
  c.options.red_die_table = {2, 3, 4, 5, 7};
  EXPECT_EQ(ValidateConfig(c), "options.red_die_table: level 5 has 7, values must be 1..6");
  c.options.red_die_table = {1, 1, 1, 6, 6};
  EXPECT_EQ(ValidateConfig(c), "");
}

// ---------------------------------------------------------------------------
// Options text.

TEST(OptionsTest, Defaults) {
  EXPECT_EQ(DefaultOptions(Ruleset::kCitiesAndKnights), RulesOptions{});
  RulesOptions base = DefaultOptions(Ruleset::kBase);
  EXPECT_EQ(base.ruleset, Ruleset::kBase);
  EXPECT_EQ(base.victory_points, 10);
  base.ruleset = Ruleset::kCitiesAndKnights;
  base.victory_points = 13;
  EXPECT_EQ(base, RulesOptions{});
  EXPECT_EQ(OptionsToString(RulesOptions{}), "");
  EXPECT_EQ(OptionsToString(DefaultOptions(Ruleset::kBase)), "ruleset=base");
}

// Every non-default value of every option, written as OptionsToString writes it.
const std::vector<std::string>& AlternativeValues() {
  static const std::vector<std::string> values = {
      "robber_locked_until_first_attack=false",
      "saboteur=HALF_HAND_VP_GT",
      "saboteur=SABOTAGE_CITY",
      "barbarian_victims=MIN_AMONG_ALL",
      "defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK",
      "aqueduct_trigger=NO_ADJACENT_NUMBER",
      "displace_requires_connection=false",
      "knight_path_through_opponents=true",
      "deserter_placement=ANY_LEVEL_INACTIVE",
      "fiesepeter=true",
      "progress_hand_limit=PLAY_OR_DISCARD",
      "progress_hand_limit=STRICT_FOUR",
      "diplomat_scope=ALL_OPEN_ROADS",
      "green_engineer_count=2",
      "red_die_table=1,2,3,4,5",
      "red_die_table=3,3,4,6,6",
      "chase_robber_destination=ANY_OTHER_LAND_HEX",
      "progress_takes_resources_only=true",
      "defender_by_knight_count=true",
      "merchant_adjacency=SETTLEMENT_ONLY",
      "harbor3_commodity_output=RESOURCE_ONLY",
      "crane_limit=ONE_PER_TURN",
      "level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY",
      "bank_limited=false",
      "victory_points=1",
      "victory_points=255",
      "start_player=ROLL",
      "max_trade_offers_per_turn=0",
      "max_trade_offers_per_turn=7",
      "max_actions=1",
      "max_actions=4294967295",
  };
  return values;
}

TEST(OptionsTest, RoundTripEachOption) {
  for (Ruleset ruleset : {Ruleset::kCitiesAndKnights, Ruleset::kBase}) {
    const std::string prefix = ruleset == Ruleset::kBase ? "ruleset=base " : "";
    for (const std::string& text : AlternativeValues()) {
      if (ruleset == Ruleset::kBase && text == "victory_points=10") continue;
      RulesOptions o = DefaultOptions(ruleset);
      ASSERT_EQ(ParseOption(text, &o), "") << text;
      EXPECT_NE(o, DefaultOptions(ruleset)) << text;
      EXPECT_EQ(OptionsToString(o), prefix + text);
      // Parsing the whole string onto fresh defaults gives the same options.
      RulesOptions again;
      std::istringstream in(OptionsToString(o));
      for (std::string pair; in >> pair;) ASSERT_EQ(ParseOption(pair, &again), "") << pair;
      EXPECT_EQ(again, o) << text;
    }
  }
}

TEST(OptionsTest, DefaultValuesParseToNoChange) {
  const char* defaults[] = {"robber_locked_until_first_attack=true",
                            "saboteur=HALF_HAND_VP_GE",
                            "barbarian_victims=MIN_AMONG_VULNERABLE",
                            "defender_tie_reward=TOP_OF_CHOSEN_DECK",
                            "aqueduct_trigger=RECEIVED_NOTHING",
                            "displace_requires_connection=true",
                            "knight_path_through_opponents=false",
                            "deserter_placement=SAME_LEVEL_SAME_STATE",
                            "fiesepeter=false",
                            "progress_hand_limit=FIVE_ON_OWN_TURN",
                            "diplomat_scope=ONE_ROAD",
                            "green_engineer_count=1",
                            "red_die_table=2,3,4,5,6",
                            "chase_robber_destination=NUMBERED_HEX_ONLY",
                            "progress_takes_resources_only=false",
                            "defender_by_knight_count=false",
                            "merchant_adjacency=SETTLEMENT_OR_CITY",
                            "harbor3_commodity_output=ANY_CARD",
                            "crane_limit=ONE_PER_IMPROVEMENT",
                            "level4_city_rule=FREE_CITY_REQUIRED",
                            "bank_limited=true",
                            "victory_points=13",
                            "start_player=SEAT0",
                            "max_trade_offers_per_turn=3",
                            "max_actions=20000",
                            "ruleset=cities_and_knights"};
  for (const char* text : defaults) {
    RulesOptions o;
    EXPECT_EQ(ParseOption(text, &o), "") << text;
    EXPECT_EQ(o, RulesOptions{}) << text;
  }
}

TEST(OptionsTest, ManyOptionsTogether) {
  RulesOptions o = DefaultOptions(Ruleset::kBase);
  o.saboteur = Saboteur::kSabotageCity;
  o.fiesepeter = true;
  o.red_die_table = {1, 2, 3, 4, 5};
  o.victory_points = 12;
  o.max_actions = 500;
  const std::string text = OptionsToString(o);
  EXPECT_EQ(text,
            "ruleset=base saboteur=SABOTAGE_CITY fiesepeter=true red_die_table=1,2,3,4,5 victory_points=12 "
            "max_actions=500");
  RulesOptions again;
  std::istringstream in(text);
  for (std::string pair; in >> pair;) ASSERT_EQ(ParseOption(pair, &again), "") << pair;
  EXPECT_EQ(again, o);
}

TEST(OptionsTest, RulesetSwitchKeepsExplicitValues) {
  RulesOptions o;
  ASSERT_EQ(ParseOption("ruleset=base", &o), "");
  EXPECT_EQ(o, DefaultOptions(Ruleset::kBase));
  ASSERT_EQ(ParseOption("ruleset=cities_and_knights", &o), "");
  EXPECT_EQ(o, RulesOptions{});
  ASSERT_EQ(ParseOption("victory_points=11", &o), "");
  ASSERT_EQ(ParseOption("ruleset=base", &o), "");
  EXPECT_EQ(o.victory_points, 11);
  EXPECT_EQ(o.ruleset, Ruleset::kBase);
}

TEST(OptionsTest, ParseErrors) {
  RulesOptions o;
  EXPECT_EQ(ParseOption("x=1", &o), "unknown option 'x'");
  EXPECT_EQ(ParseOption("fiesepeter", &o), "option 'fiesepeter': expected name=value");
  EXPECT_EQ(ParseOption("fiesepeter=yes", &o), "option 'fiesepeter': bad value 'yes', expected true or false");
  EXPECT_EQ(ParseOption("saboteur=half_hand_vp_ge", &o),
            "option 'saboteur': bad value 'half_hand_vp_ge', expected one of HALF_HAND_VP_GE, HALF_HAND_VP_GT, "
            "SABOTAGE_CITY");
  EXPECT_EQ(ParseOption("ruleset=seafarers", &o),
            "option 'ruleset': bad value 'seafarers', expected one of cities_and_knights, base (seafarers, RULES.md "
            "23, is not playable yet: the engine has its maps, not its rules)");
  EXPECT_EQ(ParseOption("victory_points=0", &o), "option 'victory_points': bad value '0', expected an integer 1..255");
  EXPECT_NE(ParseOption("victory_points=256", &o), "");
  EXPECT_NE(ParseOption("victory_points=", &o), "");
  EXPECT_NE(ParseOption("victory_points=1x", &o), "");
  EXPECT_NE(ParseOption("victory_points=-3", &o), "");
  EXPECT_NE(ParseOption("green_engineer_count=3", &o), "");
  EXPECT_NE(ParseOption("max_actions=0", &o), "");
  EXPECT_NE(ParseOption("max_actions=4294967296", &o), "");
  EXPECT_EQ(ParseOption("red_die_table=2,3,4,5", &o),
            "option 'red_die_table': bad value '2,3,4,5', expected 5 non-decreasing values 1..6 separated by commas, "
            "e.g. 2,3,4,5,6");
  for (const char* bad : {"red_die_table=2,3,4,5,6,6", "red_die_table=2,3,4,5,7", "red_die_table=3,2,4,5,6",
                          "red_die_table=2,3,,5,6", "red_die_table=", "red_die_table=2,3,4,5,6,"}) {
    EXPECT_NE(ParseOption(bad, &o), "") << bad;
  }
  // A failed parse changes nothing.
  EXPECT_EQ(o, RulesOptions{});
}

}  // namespace
}  // namespace metropolis
