// GameConfig <-> v1::GameConfig. A requested configuration may leave fields
// unset (proto3 `optional` in RulesOptions); what comes back to clients is
// always complete.
#include <climits>
#include <utility>

#include "lib/protocol/convert.h"
#include "lib/protocol/reader.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

using internal::kByte;
using internal::Range;
using internal::Reader;

// A tripwire: an option added to RulesOptions needs a field in game.proto's
// RulesOptions and a line in both functions below.
static_assert(sizeof(RulesOptions) == 36, "RulesOptions changed: map the new option in game.proto and here");

// The largest value of an option's enum: its last enumerator.
template <typename E>
constexpr Range EnumRange(E last) {
  return Range{0, int64_t(last)};
}

// Option names are the same in the engine and the proto (one concept, one
// name), so one macro argument names both and the error's path.
#define METROPOLIS_READ_BOOL(f) \
  if (in.has_##f()) o.f = in.f()
#define METROPOLIS_READ_INT(f, range) \
  if (in.has_##f()) r.Int("options." #f, int64_t(in.f()), range, &o.f)

RulesOptions ReadOptions(const v1::RulesOptions& in, Reader& r) {
  // The ruleset first: it chooses the defaults of everything else.
  Ruleset ruleset = Ruleset::kCitiesAndKnights;
  if (in.has_ruleset()) r.Int("options.ruleset", int64_t(in.ruleset()), EnumRange(Ruleset::kBase), &ruleset);
  RulesOptions o = DefaultOptions(ruleset);
  METROPOLIS_READ_BOOL(robber_locked_until_first_attack);
  METROPOLIS_READ_INT(saboteur, EnumRange(Saboteur::kSabotageCity));
  METROPOLIS_READ_INT(barbarian_victims, EnumRange(BarbarianVictims::kMinAmongAll));
  METROPOLIS_READ_INT(defender_tie_reward, EnumRange(DefenderTieReward::kAnyCardOfChosenDeck));
  METROPOLIS_READ_INT(aqueduct_trigger, EnumRange(AqueductTrigger::kNoAdjacentNumber));
  METROPOLIS_READ_BOOL(displace_requires_connection);
  METROPOLIS_READ_BOOL(knight_path_through_opponents);
  METROPOLIS_READ_INT(deserter_placement, EnumRange(DeserterPlacement::kAnyLevelInactive));
  METROPOLIS_READ_BOOL(fiesepeter);
  METROPOLIS_READ_INT(progress_hand_limit, EnumRange(ProgressHandLimit::kStrictFour));
  METROPOLIS_READ_INT(diplomat_scope, EnumRange(DiplomatScope::kAllOpenRoads));
  // Integers are only checked to fit here; ValidateConfig checks their rules.
  METROPOLIS_READ_INT(green_engineer_count, kByte);
  if (in.red_die_table_size() > 0)
    r.Ints("options.red_die_table", in.red_die_table(), o.red_die_table.size(), kByte, &o.red_die_table);
  METROPOLIS_READ_INT(chase_robber_destination, EnumRange(ChaseRobberDestination::kAnyOtherLandHex));
  METROPOLIS_READ_BOOL(progress_takes_resources_only);
  METROPOLIS_READ_BOOL(defender_by_knight_count);
  METROPOLIS_READ_INT(merchant_adjacency, EnumRange(MerchantAdjacency::kSettlementOnly));
  METROPOLIS_READ_INT(harbor3_commodity_output, EnumRange(Harbor3CommodityOutput::kResourceOnly));
  METROPOLIS_READ_INT(crane_limit, EnumRange(CraneLimit::kOnePerTurn));
  METROPOLIS_READ_INT(level4_city_rule, EnumRange(Level4CityRule::kSingleMetropolisCityOnly));
  METROPOLIS_READ_BOOL(bank_limited);
  METROPOLIS_READ_INT(victory_points, kByte);
  METROPOLIS_READ_INT(start_player, EnumRange(StartPlayer::kRoll));
  METROPOLIS_READ_INT(max_trade_offers_per_turn, kByte);
  METROPOLIS_READ_INT(max_actions, (Range{0, UINT32_MAX}));
  return o;
}

#undef METROPOLIS_READ_INT
#undef METROPOLIS_READ_BOOL

Board ReadBoard(const v1::GameConfig& in, Reader& r) {
  if (in.has_board() && in.random_board_seed() != 0) {
    r.Fail("board", "set together with random_board_seed; give one of them");
    return {};
  }
  if (!in.has_board()) return in.random_board_seed() != 0 ? RandomBoard(in.random_board_seed()) : DefaultBoard();
  Board b;
  r.Ints("board.terrain", in.board().terrain(), kNumHexes, Range{0, kNumTerrains - 1, "a terrain"}, &b.terrain);
  r.Ints("board.token", in.board().token(), kNumHexes, Range{0, 12, "a number token"}, &b.token);
  r.Ints("board.harbor", in.board().harbor(), kNumHarbors, Range{0, kNumHarborTypes - 1, "a harbor type"}, &b.harbor);
  return b;
}

}  // namespace

bool ConfigFromProto(const v1::GameConfig& in, GameConfig* out, std::string* error) {
  Reader r;
  GameConfig c;
  if (in.rules_version() > uint32_t(INT_MAX)) {
    r.Fail("rules_version", std::to_string(in.rules_version()) + " is not a rules version");
  } else if (in.rules_version() != 0) {
    c.rules_version = int(in.rules_version());
    if (std::string err = CheckRulesVersion(c.rules_version); !err.empty()) r.FailWith(err);
  }
  if (in.num_seats() != 0) r.Int("num_seats", in.num_seats(), Range{kMinSeats, kMaxSeats}, &c.num_seats);
  c.board = ReadBoard(in, r);
  c.options = ReadOptions(in.options(), r);
  // ValidateConfig's messages already name their field ("board: 2 deserts").
  std::string err = r.ok() ? ValidateConfig(c) : r.error();
  if (!err.empty()) {
    if (error != nullptr) *error = std::move(err);
    return false;
  }
  *out = c;
  return true;
}

void ConfigToProto(const GameConfig& in, v1::GameConfig* out) {
  out->Clear();
  out->set_rules_version(uint32_t(in.rules_version));
  out->set_num_seats(uint32_t(in.num_seats));
  v1::Board* b = out->mutable_board();
  for (uint8_t t : in.board.terrain) b->add_terrain(t);
  for (uint8_t t : in.board.token) b->add_token(t);
  for (uint8_t h : in.board.harbor) b->add_harbor(h);

  const RulesOptions& o = in.options;
  v1::RulesOptions* p = out->mutable_options();
  p->set_ruleset(v1::Ruleset(o.ruleset));
  p->set_robber_locked_until_first_attack(o.robber_locked_until_first_attack);
  p->set_saboteur(uint32_t(o.saboteur));
  p->set_barbarian_victims(uint32_t(o.barbarian_victims));
  p->set_defender_tie_reward(uint32_t(o.defender_tie_reward));
  p->set_aqueduct_trigger(uint32_t(o.aqueduct_trigger));
  p->set_displace_requires_connection(o.displace_requires_connection);
  p->set_knight_path_through_opponents(o.knight_path_through_opponents);
  p->set_deserter_placement(uint32_t(o.deserter_placement));
  p->set_fiesepeter(o.fiesepeter);
  p->set_progress_hand_limit(uint32_t(o.progress_hand_limit));
  p->set_diplomat_scope(uint32_t(o.diplomat_scope));
  p->set_green_engineer_count(o.green_engineer_count);
  for (uint8_t v : o.red_die_table) p->add_red_die_table(v);
  p->set_chase_robber_destination(uint32_t(o.chase_robber_destination));
  p->set_progress_takes_resources_only(o.progress_takes_resources_only);
  p->set_defender_by_knight_count(o.defender_by_knight_count);
  p->set_merchant_adjacency(uint32_t(o.merchant_adjacency));
  p->set_harbor3_commodity_output(uint32_t(o.harbor3_commodity_output));
  p->set_crane_limit(uint32_t(o.crane_limit));
  p->set_level4_city_rule(uint32_t(o.level4_city_rule));
  p->set_bank_limited(o.bank_limited);
  p->set_victory_points(o.victory_points);
  p->set_start_player(uint32_t(o.start_player));
  p->set_max_trade_offers_per_turn(o.max_trade_offers_per_turn);
  p->set_max_actions(o.max_actions);
}

}  // namespace metropolis::protocol
