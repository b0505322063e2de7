#include "engine/config.h"

#include <charconv>
#include <string_view>
#include <utility>

#include "engine/text_random_internal.h"
#include "engine/topology.h"

namespace metropolis {
namespace {

// ---------------------------------------------------------------------------
// The standard components (RULES.md 1.1).

constexpr std::array<int, kNumTerrains> kTerrainCounts = {3, 4, 4, 4, 3, 1};
// Plural nouns so that count messages read naturally ("board: 2 deserts").
constexpr std::string_view kTerrainPlurals[kNumTerrains] = {"hills",  "forests",   "pastures",
                                                            "fields", "mountains", "deserts"};
// Number of tokens of each value 0..12 on a standard board.
constexpr std::array<int, 13> kTokenCounts = {0, 0, 1, 2, 2, 2, 2, 0, 2, 2, 2, 2, 1};
constexpr std::array<int, kNumHarborTypes> kHarborCounts = {1, 1, 1, 1, 1, 4};

constexpr bool IsNumberToken(int t) { return t >= 2 && t <= 12 && t != 7; }
constexpr bool IsRed(int t) { return t == 6 || t == 8; }

using internal::SplitMix64;

template <typename T, size_t N>
void Shuffle(std::array<T, N>& a, SplitMix64& rng) {
  for (size_t i = N - 1; i > 0; --i) std::swap(a[i], a[rng.Below(i + 1)]);
}

bool RedNumbersAdjacent(const Board& board) {
  const Topology& topo = GetTopology();
  for (int h = 0; h < kNumHexes; ++h) {
    if (!IsRed(board.token[h])) continue;
    for (int n : topo.hex_neighbors[h])
      if (n >= 0 && IsRed(board.token[n])) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// The option catalogue (RULES.md section 20), one row per option, in the order
// of RulesOptions. Text form, parsing and range checks all come from here, so
// an option added to RulesOptions needs exactly one new row.

enum class Kind { kBool, kEnum, kInt, kRedDieTable };

struct OptionSpec {
  std::string_view name;
  Kind kind;
  int64_t (*get)(const RulesOptions&) = nullptr;
  void (*set)(RulesOptions&, int64_t) = nullptr;
  std::array<std::string_view, 3> values{};  // kEnum: value names by number
  int64_t min = 0, max = 0;                  // kInt only

  // The range of the integer behind a kBool, kEnum or kInt option.
  constexpr int64_t Min() const { return kind == Kind::kInt ? min : 0; }
  constexpr int64_t Max() const {
    if (kind == Kind::kInt) return max;
    if (kind == Kind::kBool) return 1;
    int64_t n = 0;
    while (n < static_cast<int64_t>(values.size()) && !values[n].empty()) ++n;
    return n - 1;
  }
};

// Stringifying the field keeps the text name and the struct member identical,
// as RULES.md section 20 uses one name for both.
#define METROPOLIS_GET(f) [](const RulesOptions& o) { return static_cast<int64_t>(o.f); }
#define METROPOLIS_SET(f) [](RulesOptions& o, int64_t v) { o.f = static_cast<decltype(o.f)>(v); }
#define METROPOLIS_OPTION(f, kind, ...) \
  OptionSpec { #f, Kind::kind, METROPOLIS_GET(f), METROPOLIS_SET(f), __VA_ARGS__ }

constexpr OptionSpec kOptions[] = {
    METROPOLIS_OPTION(ruleset, kEnum, {"cities_and_knights", "base"}),
    METROPOLIS_OPTION(robber_locked_until_first_attack, kBool),
    METROPOLIS_OPTION(saboteur, kEnum, {"HALF_HAND_VP_GE", "HALF_HAND_VP_GT", "SABOTAGE_CITY"}),
    METROPOLIS_OPTION(barbarian_victims, kEnum, {"MIN_AMONG_VULNERABLE", "MIN_AMONG_ALL"}),
    METROPOLIS_OPTION(defender_tie_reward, kEnum, {"TOP_OF_CHOSEN_DECK", "ANY_CARD_OF_CHOSEN_DECK"}),
    METROPOLIS_OPTION(aqueduct_trigger, kEnum, {"RECEIVED_NOTHING", "NO_ADJACENT_NUMBER"}),
    METROPOLIS_OPTION(displace_requires_connection, kBool),
    METROPOLIS_OPTION(knight_path_through_opponents, kBool),
    METROPOLIS_OPTION(deserter_placement, kEnum, {"SAME_LEVEL_SAME_STATE", "ANY_LEVEL_INACTIVE"}),
    METROPOLIS_OPTION(fiesepeter, kBool),
    METROPOLIS_OPTION(progress_hand_limit, kEnum, {"FIVE_ON_OWN_TURN", "PLAY_OR_DISCARD", "STRICT_FOUR"}),
    METROPOLIS_OPTION(diplomat_scope, kEnum, {"ONE_ROAD", "ALL_OPEN_ROADS"}),
    METROPOLIS_OPTION(green_engineer_count, kInt, {}, 1, 2),
    OptionSpec{"red_die_table", Kind::kRedDieTable},
    METROPOLIS_OPTION(chase_robber_destination, kEnum, {"NUMBERED_HEX_ONLY", "ANY_OTHER_LAND_HEX"}),
    METROPOLIS_OPTION(progress_takes_resources_only, kBool),
    METROPOLIS_OPTION(defender_by_knight_count, kBool),
    METROPOLIS_OPTION(merchant_adjacency, kEnum, {"SETTLEMENT_OR_CITY", "SETTLEMENT_ONLY"}),
    METROPOLIS_OPTION(harbor3_commodity_output, kEnum, {"ANY_CARD", "RESOURCE_ONLY"}),
    METROPOLIS_OPTION(crane_limit, kEnum, {"ONE_PER_IMPROVEMENT", "ONE_PER_TURN"}),
    METROPOLIS_OPTION(level4_city_rule, kEnum, {"FREE_CITY_REQUIRED", "SINGLE_METROPOLIS_CITY_ONLY"}),
    METROPOLIS_OPTION(bank_limited, kBool),
    METROPOLIS_OPTION(victory_points, kInt, {}, 1, 255),
    METROPOLIS_OPTION(start_player, kEnum, {"SEAT0", "ROLL"}),
    METROPOLIS_OPTION(max_trade_offers_per_turn, kInt, {}, 0, 255),
    METROPOLIS_OPTION(max_actions, kInt, {}, 1, UINT32_MAX),
};

#undef METROPOLIS_OPTION
#undef METROPOLIS_SET
#undef METROPOLIS_GET

const OptionSpec* FindOption(std::string_view name) {
  for (const OptionSpec& spec : kOptions)
    if (spec.name == name) return &spec;
  return nullptr;
}

std::string ValueToString(const OptionSpec& spec, const RulesOptions& o) {
  switch (spec.kind) {
    case Kind::kBool:
      return spec.get(o) ? "true" : "false";
    case Kind::kEnum: {
      int64_t v = spec.get(o);
      return v >= spec.Min() && v <= spec.Max() ? std::string(spec.values[v]) : std::to_string(v);
    }
    case Kind::kInt:
      return std::to_string(spec.get(o));
    case Kind::kRedDieTable: {
      std::string s;
      for (uint8_t v : o.red_die_table) {
        if (!s.empty()) s += ',';
        s += std::to_string(v);
      }
      return s;
    }
  }
  return {};
}

bool SameValue(const OptionSpec& spec, const RulesOptions& a, const RulesOptions& b) {
  return spec.kind == Kind::kRedDieTable ? a.red_die_table == b.red_die_table : spec.get(a) == spec.get(b);
}

std::string AllowedValues(const OptionSpec& spec) {
  switch (spec.kind) {
    case Kind::kBool:
      return "true or false";
    case Kind::kEnum: {
      std::string s = "one of ";
      for (int64_t i = 0; i <= spec.Max(); ++i) {
        if (i > 0) s += ", ";
        s += spec.values[i];
      }
      return s;
    }
    case Kind::kInt:
      return "an integer " + std::to_string(spec.min) + ".." + std::to_string(spec.max);
    case Kind::kRedDieTable:
      return std::to_string(kMaxImprovementLevel) + " non-decreasing values 1..6 separated by commas, e.g. 2,3,4,5,6";
  }
  return {};
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Empty if `table` is a valid red-die table, else what is wrong with it.
std::string CheckRedDieTable(const std::array<uint8_t, kMaxImprovementLevel>& table) {
  for (int i = 0; i < kMaxImprovementLevel; ++i) {
    if (table[i] < 1 || table[i] > 6)
      return "level " + std::to_string(i + 1) + " has " + std::to_string(table[i]) + ", values must be 1..6";
    if (i > 0 && table[i] < table[i - 1])
      return "level " + std::to_string(i + 1) + " has " + std::to_string(table[i]) + ", below level " +
             std::to_string(i) + "'s " + std::to_string(table[i - 1]) + " (values must be non-decreasing)";
  }
  return {};
}

std::string ValidateOptions(const RulesOptions& o) {
  for (const OptionSpec& spec : kOptions) {
    std::string where = "options." + std::string(spec.name) + ": ";
    switch (spec.kind) {
      case Kind::kBool:
        break;
      case Kind::kEnum:
      case Kind::kInt: {
        int64_t v = spec.get(o);
        if (v < spec.Min() || v > spec.Max())
          return where + std::to_string(v) + " is out of range, expected " + AllowedValues(spec);
        break;
      }
      case Kind::kRedDieTable: {
        std::string err = CheckRedDieTable(o.red_die_table);
        if (!err.empty()) return where + err;
        break;
      }
    }
  }
  return {};
}

std::string ValidateBoard(const Board& b) {
  std::array<int, kNumTerrains> terrains{};
  for (int h = 0; h < kNumHexes; ++h) {
    if (b.terrain[h] >= kNumTerrains)
      return "board.terrain[" + std::to_string(h) + "]: " + std::to_string(b.terrain[h]) + " is not a terrain (0..5)";
    ++terrains[b.terrain[h]];
  }
  for (int t = 0; t < kNumTerrains; ++t) {
    if (terrains[t] != kTerrainCounts[t])
      return "board: " + std::to_string(terrains[t]) + " " + std::string(kTerrainPlurals[t]) + ", expected " +
             std::to_string(kTerrainCounts[t]);
  }

  std::array<int, 13> tokens{};
  for (int h = 0; h < kNumHexes; ++h) {
    const int token = b.token[h];
    const std::string where = "board.token[" + std::to_string(h) + "]: ";
    if (b.terrain[h] == kDesert) {
      if (token != 0) return where + "desert must have no token, has " + std::to_string(token);
    } else if (!IsNumberToken(token)) {
      return where + std::string(TerrainName(b.terrain[h])) + " needs a number token 2..6 or 8..12, has " +
             std::to_string(token);
    } else {
      ++tokens[token];
    }
  }
  for (int t = 2; t <= 12; ++t) {
    if (tokens[t] != kTokenCounts[t])
      return "board: " + std::to_string(tokens[t]) + " tokens of " + std::to_string(t) + ", expected " +
             std::to_string(kTokenCounts[t]);
  }

  std::array<int, kNumHarborTypes> harbors{};
  for (int k = 0; k < kNumHarbors; ++k) {
    if (b.harbor[k] >= kNumHarborTypes)
      return "board.harbor[" + std::to_string(k) + "]: " + std::to_string(b.harbor[k]) +
             " is not a harbor type (0..4 resource, 5 generic)";
    ++harbors[b.harbor[k]];
  }
  for (int k = 0; k < kNumHarborTypes; ++k) {
    if (harbors[k] != kHarborCounts[k]) {
      std::string kind = k == kGenericHarbor ? "generic" : std::string(CardName(k));
      return "board: " + std::to_string(harbors[k]) + " " + kind + " harbors, expected " +
             std::to_string(kHarborCounts[k]);
    }
  }
  return {};
}

}  // namespace

// Hex ids by row (docs/BOARD.md):
//          0   1   2
//        3   4   5   6
//      7   8   9  10  11
//       12  13  14  15
//         16  17  18
// The desert takes the centre. The four red numbers sit two and two on
// opposite sides, none adjacent, and no number repeats on adjacent hexes.
// Pips per resource: grain 14, ore 12, lumber 11, wool 11, brick 10: grain and
// ore (cities, knights) are the plentiful ones, and forest (8), pasture (5, 9)
// and mountains (6, 5) each have a good number for their commodity.
Board DefaultBoard() {
  Board b;
  b.terrain = {kForest,  kPasture,   kForest,                       //
               kPasture, kMountains, kFields, kPasture,             //
               kHills,   kForest,    kDesert, kHills,     kForest,  //
               kFields,  kHills,     kFields, kMountains,           //
               kPasture, kMountains, kFields};
  b.token = {4,  9,  11,         //
             3,  6,  4,  5,      //
             6,  2,  0,  3,  8,  //
             9,  10, 8,  10,     //
             12, 5,  11};
  // Clockwise from the top left. Generic harbors are spread around the coast,
  // and no 2:1 harbor touches a good hex of its own resource, which would make
  // one opening spot far stronger than the rest.
  b.harbor = {kGenericHarbor, kOre, kGenericHarbor, kBrick, kGrain, kGenericHarbor, kLumber, kWool, kGenericHarbor};
  return b;
}

// Draw order (fixed, part of the seed's meaning): terrains, then tokens until
// the red-number rule holds, then harbors.
Board RandomBoard(uint64_t seed, const RandomBoardOptions& opts) {
  SplitMix64 rng(seed);
  Board b;
  std::array<uint8_t, kNumHexes> terrains{};
  int i = 0;
  for (int t = 0; t < kNumTerrains; ++t)
    for (int n = 0; n < kTerrainCounts[t]; ++n) terrains[i++] = static_cast<uint8_t>(t);
  Shuffle(terrains, rng);
  b.terrain = terrains;

  std::array<uint8_t, kNumHexes - 1> tokens{};
  i = 0;
  for (int t = 2; t <= 12; ++t)
    for (int n = 0; n < kTokenCounts[t]; ++n) tokens[i++] = static_cast<uint8_t>(t);
  do {
    Shuffle(tokens, rng);
    int next = 0;
    for (int h = 0; h < kNumHexes; ++h) b.token[h] = b.terrain[h] == kDesert ? 0 : tokens[next++];
  } while (opts.separate_red_numbers && RedNumbersAdjacent(b));

  if (opts.shuffle_harbors) {
    std::array<uint8_t, kNumHarbors> harbors{};
    i = 0;
    for (int k = 0; k < kNumHarborTypes; ++k)
      for (int n = 0; n < kHarborCounts[k]; ++n) harbors[i++] = static_cast<uint8_t>(k);
    Shuffle(harbors, rng);
    b.harbor = harbors;
  } else {
    b.harbor = DefaultBoard().harbor;
  }
  return b;
}

std::string CheckRulesVersion(int version) {
  if (version == kRulesVersion) return {};
  return "rules version " + std::to_string(version) + " is not supported by this engine (it reads version " +
         std::to_string(kRulesVersion) + ")";
}

std::string ValidateConfig(const GameConfig& config) {
  if (std::string err = CheckRulesVersion(config.rules_version); !err.empty()) return err;
  if (config.num_seats < kMinSeats || config.num_seats > kMaxSeats)
    return "num_seats: " + std::to_string(config.num_seats) + ", expected " + std::to_string(kMinSeats) + ".." +
           std::to_string(kMaxSeats);
  if (std::string err = ValidateBoard(config.board); !err.empty()) return err;
  return ValidateOptions(config.options);
}

int CardSupply(int card, const RulesOptions& options) {
  if (IsResource(card)) return 19;
  return options.ruleset == Ruleset::kBase ? 0 : 12;
}

RulesOptions DefaultOptions(Ruleset ruleset) {
  RulesOptions o;
  if (ruleset == Ruleset::kBase) {
    o.ruleset = Ruleset::kBase;
    o.victory_points = 10;
  }
  return o;
}

std::string OptionsToString(const RulesOptions& options) {
  const RulesOptions defaults = DefaultOptions(options.ruleset);
  std::string s;
  // The ruleset comes first because parsing it resets the ruleset-dependent
  // defaults (see ParseOption).
  if (options.ruleset != Ruleset::kCitiesAndKnights) s = "ruleset=" + ValueToString(kOptions[0], options);
  for (const OptionSpec& spec : kOptions) {
    if (spec.name == "ruleset" || SameValue(spec, options, defaults)) continue;
    if (!s.empty()) s += ' ';
    s += std::string(spec.name) + "=" + ValueToString(spec, options);
  }
  return s;
}

std::string ParseOption(std::string_view name_eq_value, RulesOptions* options) {
  const size_t eq = name_eq_value.find('=');
  if (eq == std::string_view::npos) return "option '" + std::string(name_eq_value) + "': expected name=value";
  const std::string_view name = name_eq_value.substr(0, eq);
  const std::string_view value = name_eq_value.substr(eq + 1);
  const OptionSpec* spec = FindOption(name);
  if (spec == nullptr) return "unknown option '" + std::string(name) + "'";
  auto bad_value = [&] {
    std::string error =
        "option '" + std::string(name) + "': bad value '" + std::string(value) + "', expected " + AllowedValues(*spec);
    // Named in RULES.md 23 and asked for by ladders: say why it is refused.
    if (spec->name == "ruleset" && value == "seafarers")
      error += " (seafarers, RULES.md 23, is not playable yet: the engine has its maps, not its rules)";
    return error;
  };

  switch (spec->kind) {
    case Kind::kBool:
      if (value != "true" && value != "false") return bad_value();
      spec->set(*options, value == "true");
      return {};
    case Kind::kEnum:
      for (int64_t i = 0; i <= spec->Max(); ++i) {
        if (spec->values[i] != value) continue;
        if (spec->name == "ruleset") {
          // Options still at the old ruleset's default move to the new one's,
          // so "ruleset=base" alone means the base game with its 10 VP.
          const RulesOptions old_defaults = DefaultOptions(options->ruleset);
          const RulesOptions new_defaults = DefaultOptions(static_cast<Ruleset>(i));
          for (const OptionSpec& other : kOptions) {
            if (&other == spec || other.kind == Kind::kRedDieTable) continue;
            if (other.get(*options) == other.get(old_defaults)) other.set(*options, other.get(new_defaults));
          }
          if (options->red_die_table == old_defaults.red_die_table) options->red_die_table = new_defaults.red_die_table;
        }
        spec->set(*options, i);
        return {};
      }
      return bad_value();
    case Kind::kInt: {
      int64_t v = 0;
      if (!ParseInt(value, &v) || v < spec->min || v > spec->max) return bad_value();
      spec->set(*options, v);
      return {};
    }
    case Kind::kRedDieTable: {
      std::array<uint8_t, kMaxImprovementLevel> table{};
      std::string_view rest = value;
      for (int i = 0; i < kMaxImprovementLevel; ++i) {
        const size_t comma = rest.find(',');
        const bool last = i == kMaxImprovementLevel - 1;
        if (last != (comma == std::string_view::npos)) return bad_value();
        int64_t v = 0;
        if (!ParseInt(rest.substr(0, comma), &v) || v < 1 || v > 6) return bad_value();
        table[i] = static_cast<uint8_t>(v);
        if (!last) rest = rest.substr(comma + 1);
      }
      if (!CheckRedDieTable(table).empty()) return bad_value();
      options->red_die_table = table;
      return {};
    }
  }
  return bad_value();
}

}  // namespace metropolis
