// A game's configuration: rules version, ruleset, seats, board and rules
// options (RULES.md section 20). A game is a configuration plus its list of
// actions; replaying the list reproduces every state exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engine/types.h"

namespace metropolis {

// The rules version. Every configuration records it. Within one version the
// action encoding and the order of legal actions never change meaning; a game
// recorded under another version is refused (CheckRulesVersion), never misread.
inline constexpr int kRulesVersion = 1;

enum class Ruleset : uint8_t { kCitiesAndKnights = 0, kBase = 1 };
enum class StartPlayer : uint8_t { kSeat0 = 0, kRoll = 1 };
enum class Saboteur : uint8_t { kHalfHandVpGe = 0, kHalfHandVpGt = 1, kSabotageCity = 2 };
enum class BarbarianVictims : uint8_t { kMinAmongVulnerable = 0, kMinAmongAll = 1 };
enum class DefenderTieReward : uint8_t { kTopOfChosenDeck = 0, kAnyCardOfChosenDeck = 1 };
enum class AqueductTrigger : uint8_t { kReceivedNothing = 0, kNoAdjacentNumber = 1 };
enum class DeserterPlacement : uint8_t { kSameLevelSameState = 0, kAnyLevelInactive = 1 };
enum class ProgressHandLimit : uint8_t { kFiveOnOwnTurn = 0, kPlayOrDiscard = 1, kStrictFour = 2 };
enum class DiplomatScope : uint8_t { kOneRoad = 0, kAllOpenRoads = 1 };
enum class ChaseRobberDestination : uint8_t { kNumberedHexOnly = 0, kAnyOtherLandHex = 1 };
enum class MerchantAdjacency : uint8_t { kSettlementOrCity = 0, kSettlementOnly = 1 };
enum class Harbor3CommodityOutput : uint8_t { kAnyCard = 0, kResourceOnly = 1 };
enum class CraneLimit : uint8_t { kOnePerImprovement = 0, kOnePerTurn = 1 };
enum class Level4CityRule : uint8_t { kFreeCityRequired = 0, kSingleMetropolisCityOnly = 1 };

// Every option of RULES.md section 20 with its default. Trivially copyable: the
// state keeps a copy so that it needs no pointer back to its configuration.
struct RulesOptions {
  Ruleset ruleset = Ruleset::kCitiesAndKnights;
  bool robber_locked_until_first_attack = true;                                   // D01
  Saboteur saboteur = Saboteur::kHalfHandVpGe;                                    // D02
  BarbarianVictims barbarian_victims = BarbarianVictims::kMinAmongVulnerable;     // D03
  DefenderTieReward defender_tie_reward = DefenderTieReward::kTopOfChosenDeck;    // D04
  AqueductTrigger aqueduct_trigger = AqueductTrigger::kReceivedNothing;           // D05
  bool displace_requires_connection = true;                                       // D06
  bool knight_path_through_opponents = false;                                     // D07
  DeserterPlacement deserter_placement = DeserterPlacement::kSameLevelSameState;  // D08
  bool fiesepeter = false;                                                        // D09
  ProgressHandLimit progress_hand_limit = ProgressHandLimit::kFiveOnOwnTurn;      // D10
  DiplomatScope diplomat_scope = DiplomatScope::kOneRoad;                         // D11
  uint8_t green_engineer_count = 1;                                               // D12
  // Highest red value that draws a card at levels 1..5 (D13, PD-1).
  std::array<uint8_t, kMaxImprovementLevel> red_die_table = {2, 3, 4, 5, 6};
  ChaseRobberDestination chase_robber_destination = ChaseRobberDestination::kNumberedHexOnly;  // D14
  bool progress_takes_resources_only = false;                                                  // D15
  bool defender_by_knight_count = false;                                                       // D16
  MerchantAdjacency merchant_adjacency = MerchantAdjacency::kSettlementOrCity;                 // D17
  Harbor3CommodityOutput harbor3_commodity_output = Harbor3CommodityOutput::kAnyCard;          // D18
  CraneLimit crane_limit = CraneLimit::kOnePerImprovement;                                     // D19
  Level4CityRule level4_city_rule = Level4CityRule::kFreeCityRequired;                         // D20
  bool bank_limited = true;
  uint8_t victory_points = 13;  // 10 is the base-game default
  StartPlayer start_player = StartPlayer::kSeat0;
  uint8_t max_trade_offers_per_turn = 3;
  // Not a rule of the game: the engine ends a game without a winner after
  // this many actions, so that every game ends (sim, arenas, ladders).
  uint32_t max_actions = 20000;

  bool operator==(const RulesOptions&) const = default;
};

// The board: terrain and number token of each hex (0 on the desert), and the
// type of each harbor slot (a resource 0..4 or kGenericHarbor).
struct Board {
  std::array<uint8_t, kNumHexes> terrain{};
  std::array<uint8_t, kNumHexes> token{};
  std::array<uint8_t, kNumHarbors> harbor{};
  bool operator==(const Board&) const = default;
};

struct GameConfig {
  int rules_version = kRulesVersion;
  int num_seats = 4;
  Board board;
  RulesOptions options;
  bool operator==(const GameConfig&) const = default;
};

// The project's fixed, balanced default board (docs/BOARD.md).
Board DefaultBoard();

struct RandomBoardOptions {
  bool separate_red_numbers = true;  // no 6 or 8 on adjacent hexes
  bool shuffle_harbors = true;
};
// A random board drawn from `seed` (deterministic across platforms: the
// generator is a fixed splitmix64 stream, not std:: distributions).
Board RandomBoard(uint64_t seed, const RandomBoardOptions& opts = {});

// Empty string if the configuration is valid; otherwise a message naming the
// field and the problem ("board: 2 deserts, expected 1").
std::string ValidateConfig(const GameConfig& config);
// Empty if `version` can be read by this engine, else a message.
std::string CheckRulesVersion(int version);

// The options as "name=value" pairs separated by spaces, only those that differ
// from the defaults of the ruleset (used by the notation and the logs), and the
// parser for the same text (one "name=value" at a time). ParseOption returns an
// empty string on success, or an error naming the option.
std::string OptionsToString(const RulesOptions& options);
std::string ParseOption(std::string_view name_eq_value, RulesOptions* options);
// Cards of each type in the game: 19 per resource; 12 per commodity under
// C&K, none in the base game (BG-1).
int CardSupply(int card, const RulesOptions& options);
// Default options of a ruleset (base: 10 VP, no C&K pieces).
RulesOptions DefaultOptions(Ruleset ruleset);

}  // namespace metropolis
