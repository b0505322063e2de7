// The Python module metropolis._core, part three: the engine's configuration and
// a seat's view read from the game host's messages (proto/metropolis/v1/game.proto),
// so that a Python bot playing over the network (botkits/python) can search with
// the local engine from what the host sent it.
//
// python/ may not use the API or lib/protocol (DEVELOPERS.md, "Layout"), and the
// protobuf runtime of the Python process is not the C++ one, so the messages are
// read as Python objects by their field names: a metropolis.v1 message from the
// generated stubs, or anything with the same attributes. The reading mirrors
// lib/protocol's ConfigFromProto and ViewFromProto, checks included (every value
// range-checked before it reaches a narrow engine field, the pieces checked
// before the derived data is recomputed): a message from the network is not
// trusted. Keep the two in step when a field is added.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/progress.h"
#include "engine/state_editor.h"
#include "engine/view.h"
#include "python/src/module.h"

namespace metropolis::python {
namespace {

struct Range {
  int64_t lo, hi;
  const char* noun = nullptr;
};

constexpr Range kByte{0, 255};
constexpr Range kInt16{INT16_MIN, INT16_MAX};
constexpr Range kUint16{0, UINT16_MAX};
constexpr Range kUint32{0, UINT32_MAX};
constexpr Range kNodeOrNone{-1, kNumNodes - 1, "a node"};
constexpr Range kHex{0, kNumHexes - 1, "a hex"};
constexpr Range kHexOrNone{-1, kNumHexes - 1, "a hex"};
constexpr Range kProgressCard{0, kNumProgressKinds - 1, "a progress card"};
// Pieces per seat (RULES.md 1.4); BAR-10 may put up to four settlements more on
// the board than the five of the supply.
constexpr int kSettlements = 5 + 4, kCities = 4, kRoads = 15, kKnightsPerLevel = 2;

std::string RangeText(const Range& r) {
  const std::string span = std::to_string(r.lo) + ".." + std::to_string(r.hi);
  return r.noun == nullptr ? "one of " + span : std::string(r.noun) + " (" + span + ")";
}

[[noreturn]] void Fail(const std::string& path, const std::string& message) {
  throw py::value_error(path + ": " + message);
}

std::string Index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

py::object Field(py::handle message, const char* name) {
  if (!py::hasattr(message, name)) Fail(name, "missing (not a metropolis.v1 message?)");
  return message.attr(name);
}

// A proto3 `optional` or message field that is set; for plain objects, one that is not None.
bool Has(py::handle message, const char* name) {
  if (py::hasattr(message, "HasField")) return message.attr("HasField")(name).cast<bool>();
  return py::hasattr(message, name) && !message.attr(name).is_none();
}

int64_t ToInt(const py::handle value, const std::string& path) {
  if (!py::isinstance<py::int_>(value)) Fail(path, "not an integer");
  // Python ints are unbounded: compare in Python before converting.
  const py::int_ v = py::reinterpret_borrow<py::int_>(value);
  if (v < py::int_(INT64_MIN) || v > py::int_(INT64_MAX))
    Fail(path, py::str(value).cast<std::string>() + " is too large");
  return v.cast<int64_t>();
}

int64_t Int(py::handle message, const char* name, const std::string& path) {
  const py::object v = Field(message, name);
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? 1 : 0;
  return ToInt(v, path);
}

uint64_t Mask(py::handle message, const char* name) {
  const py::object v = Field(message, name);
  if (!py::isinstance<py::int_>(v) || v < py::int_(0) || v > py::int_(UINT64_MAX)) Fail(name, "not a 64-bit mask");
  return v.cast<uint64_t>();
}

std::vector<int64_t> Ints(py::handle message, const char* name, const std::string& path) {
  std::vector<int64_t> out;
  for (py::handle item : Field(message, name)) out.push_back(ToInt(item, Index(path, out.size())));
  return out;
}

std::vector<py::object> Items(py::handle message, const char* name) {
  std::vector<py::object> out;
  for (py::handle item : Field(message, name)) out.push_back(py::reinterpret_borrow<py::object>(item));
  return out;
}

template <typename T>
void Set(const std::string& path, int64_t v, const Range& range, T* out) {
  if (v < range.lo || v > range.hi) Fail(path, std::to_string(v) + " is not " + RangeText(range));
  *out = static_cast<T>(v);
}

// message.name into *out, range-checked; the path names the field in errors.
template <typename T>
void ReadInt(py::handle message, const char* name, const std::string& prefix, const Range& range, T* out) {
  const std::string path = prefix + name;
  Set(path, Int(message, name, path), range, out);
}

void Length(const std::string& path, size_t size, size_t expected) {
  if (size != expected) Fail(path, std::to_string(size) + " values, expected " + std::to_string(expected));
}

void MaxLength(const std::string& path, size_t size, size_t max) {
  if (size > max) Fail(path, std::to_string(size) + " values, at most " + std::to_string(max) + " allowed");
}

// Exactly `n` values of message.name, each in `range`, into out[0..n).
template <typename Out>
void ReadInts(py::handle message, const char* name, const std::string& prefix, size_t n, const Range& range, Out* out) {
  const std::string path = prefix + name;
  const std::vector<int64_t> values = Ints(message, name, path);
  Length(path, values.size(), n);
  for (size_t i = 0; i < n; ++i) Set(Index(path, i), values[i], range, &(*out)[i]);
}

// ---- Configuration (lib/protocol/config.cc) ----------------------------------------

template <typename E>
constexpr Range EnumRange(E last) {
  return Range{0, int64_t(last)};
}

RulesOptions ReadOptions(py::handle in) {
  // The ruleset first: it chooses the defaults of everything else.
  Ruleset ruleset = Ruleset::kCitiesAndKnights;
  if (Has(in, "ruleset")) ReadInt(in, "ruleset", "options.", EnumRange(Ruleset::kBase), &ruleset);
  RulesOptions o = DefaultOptions(ruleset);
  const auto flag = [&](const char* name, bool* out) {
    if (Has(in, name)) *out = Int(in, name, std::string("options.") + name) != 0;
  };
  const auto number = [&](const char* name, const Range& range, auto* out) {
    if (Has(in, name)) ReadInt(in, name, "options.", range, out);
  };
  flag("robber_locked_until_first_attack", &o.robber_locked_until_first_attack);
  number("saboteur", EnumRange(Saboteur::kSabotageCity), &o.saboteur);
  number("barbarian_victims", EnumRange(BarbarianVictims::kMinAmongAll), &o.barbarian_victims);
  number("defender_tie_reward", EnumRange(DefenderTieReward::kAnyCardOfChosenDeck), &o.defender_tie_reward);
  number("aqueduct_trigger", EnumRange(AqueductTrigger::kNoAdjacentNumber), &o.aqueduct_trigger);
  flag("displace_requires_connection", &o.displace_requires_connection);
  flag("knight_path_through_opponents", &o.knight_path_through_opponents);
  number("deserter_placement", EnumRange(DeserterPlacement::kAnyLevelInactive), &o.deserter_placement);
  flag("fiesepeter", &o.fiesepeter);
  number("progress_hand_limit", EnumRange(ProgressHandLimit::kStrictFour), &o.progress_hand_limit);
  number("diplomat_scope", EnumRange(DiplomatScope::kAllOpenRoads), &o.diplomat_scope);
  // Integers are only checked to fit here; ValidateConfig checks their rules.
  number("green_engineer_count", kByte, &o.green_engineer_count);
  if (!Ints(in, "red_die_table", "options.red_die_table").empty())
    ReadInts(in, "red_die_table", "options.", o.red_die_table.size(), kByte, &o.red_die_table);
  number("chase_robber_destination", EnumRange(ChaseRobberDestination::kAnyOtherLandHex), &o.chase_robber_destination);
  flag("progress_takes_resources_only", &o.progress_takes_resources_only);
  flag("defender_by_knight_count", &o.defender_by_knight_count);
  number("merchant_adjacency", EnumRange(MerchantAdjacency::kSettlementOnly), &o.merchant_adjacency);
  number("harbor3_commodity_output", EnumRange(Harbor3CommodityOutput::kResourceOnly), &o.harbor3_commodity_output);
  number("crane_limit", EnumRange(CraneLimit::kOnePerTurn), &o.crane_limit);
  number("level4_city_rule", EnumRange(Level4CityRule::kSingleMetropolisCityOnly), &o.level4_city_rule);
  flag("bank_limited", &o.bank_limited);
  number("victory_points", kByte, &o.victory_points);
  number("start_player", EnumRange(StartPlayer::kRoll), &o.start_player);
  number("max_trade_offers_per_turn", kByte, &o.max_trade_offers_per_turn);
  number("max_actions", kUint32, &o.max_actions);
  return o;
}
static_assert(sizeof(RulesOptions) == 36, "RulesOptions changed: read the new option here as lib/protocol does");

GameConfig ConfigFromMessage(py::handle in) {
  GameConfig c;
  const int64_t version = Int(in, "rules_version", "rules_version");
  if (version != 0) {
    Set("rules_version", version, Range{1, INT32_MAX, "a rules version"}, &c.rules_version);
    if (std::string err = CheckRulesVersion(c.rules_version); !err.empty()) throw py::value_error(err);
  }
  if (Int(in, "num_seats", "num_seats") != 0) ReadInt(in, "num_seats", "", Range{kMinSeats, kMaxSeats}, &c.num_seats);
  const bool has_board = Has(in, "board");
  const int64_t seed = Int(in, "random_board_seed", "random_board_seed");
  if (has_board && seed != 0) Fail("board", "set together with random_board_seed; give one of them");
  if (has_board) {
    const py::object b = Field(in, "board");
    ReadInts(b, "terrain", "board.", kNumHexes, Range{0, kNumTerrains - 1, "a terrain"}, &c.board.terrain);
    ReadInts(b, "token", "board.", kNumHexes, Range{0, 12, "a number token"}, &c.board.token);
    ReadInts(b, "harbor", "board.", kNumHarbors, Range{0, kNumHarborTypes - 1, "a harbor type"}, &c.board.harbor);
  } else {
    c.board = seed != 0 ? RandomBoard(uint64_t(seed)) : DefaultBoard();
  }
  if (Has(in, "options"))
    c.options = ReadOptions(Field(in, "options"));
  else
    c.options = DefaultOptions(Ruleset::kCitiesAndKnights);
  // ValidateConfig's messages already name their field ("board: 2 deserts").
  if (std::string err = ValidateConfig(c); !err.empty()) throw py::value_error(err);
  return c;
}

// ---- Views (lib/protocol/view_from_proto.cc) ---------------------------------------

class ViewReader {
 public:
  ViewReader(int num_seats, StateEditor* ed)
      : n_(num_seats), ed_(*ed), seat_{0, n_ - 1, "a seat"}, seat_or_none_{kNoSeat, n_ - 1, "a seat"} {}

  const Range& seat_or_none() const { return seat_or_none_; }

  void Position(py::handle p) {
    const std::string at = "position.";
    if (Int(p, "num_seats", at + "num_seats") != n_)
      Fail(at + "num_seats", std::to_string(Int(p, "num_seats", "")) + ", the configuration has " + std::to_string(n_));
    ReadInts(p, "token", at, kNumHexes, Range{0, 12, "a number token"}, &ed_.board().token);
    ReadInt(p, "phase", at, Range{0, int64_t(Phase::kGameOver)}, &ed_.phase());
    ReadInt(p, "current_seat", at, seat_, &ed_.current());
    ReadInt(p, "start_seat", at, seat_, &ed_.start());
    ReadInt(p, "winner", at, seat_or_none_, &ed_.winner());
    ReadInt(p, "setup_step", at, Range{0, 4 * n_}, &ed_.setup_step());
    ReadInt(p, "last_setup_node", at, kNodeOrNone, &ed_.last_setup_node());
    ReadInt(p, "turn", at, kUint16, &ed_.turn());
    ReadInt(p, "action_count", at, kUint32, &ed_.actions());
    ReadInts(p, "road_owner", at, kNumEdges, seat_or_none_, &ed_.road_owner());
    ReadInts(p, "building_owner", at, kNumNodes, seat_or_none_, &ed_.building_owner());
    ReadInts(p, "building", at, kNumNodes, Range{0, kCity}, &ed_.building());
    ReadInts(p, "node_flags", at, kNumNodes, Range{0, kWall | kSabotaged}, &ed_.node_flags());
    ReadInts(p, "knight_owner", at, kNumNodes, seat_or_none_, &ed_.knight_owner());
    ReadInts(p, "knight_level", at, kNumNodes, Range{0, kMaxKnightLevel}, &ed_.knight_level());
    constexpr int kAllKnightFlags = kKnightActive | kKnightReady | kKnightPromoted | kKnightCommitted;
    ReadInts(p, "knight_flags", at, kNumNodes, Range{0, kAllKnightFlags}, &ed_.knight_flags());
    ReadInt(p, "robber_hex", at, kHex, &ed_.robber());
    ReadInt(p, "merchant_hex", at, kHexOrNone, &ed_.merchant_hex());
    ReadInt(p, "merchant_owner", at, seat_or_none_, &ed_.merchant_owner());
    ReadInts(p, "metropolis_owner", at, kNumTracks, seat_or_none_, &ed_.metropolis_owner());
    ReadInts(p, "metropolis_node", at, kNumTracks, kNodeOrNone, &ed_.metropolis_node());
    ReadInt(p, "longest_road_holder", at, seat_or_none_, &ed_.longest_road());
    ReadInt(p, "barbarian_position", at, Range{0, 7}, &ed_.barbarians());
    ed_.first_attack_done() = Int(p, "first_attack_done", at + "first_attack_done") != 0;
    ReadInt(p, "barbarian_attacks", at, kUint16, &ed_.attacks());
    ReadInt(p, "dice_yellow", at, Range{0, 6}, &ed_.dice_yellow());
    ReadInt(p, "dice_red", at, Range{0, 6}, &ed_.dice_red());
    ReadInt(p, "dice_event", at, Range{0, kNumEventFaces - 1}, &ed_.dice_event());
    const std::vector<py::object> players = Items(p, "players");
    Length(at + "players", players.size(), size_t(n_));
    for (int i = 0; i < n_; ++i) Player(players[size_t(i)], Index(at + "players", size_t(i)) + ".", &ed_.player(i));
    ReadInts(p, "bank", at, kNumCardTypes, kInt16, &ed_.bank());
    const std::vector<py::object> decks = Items(p, "decks");
    Length(at + "decks", decks.size(), kNumTracks);
    for (int t = 0; t < kNumTracks; ++t) Deck(decks[size_t(t)], t, Index(at + "decks", size_t(t)) + ".", &ed_.deck(t));
    ReadInt(p, "offers_this_turn", at, kByte, &ed_.offers_this_turn());
    const py::object effects = Field(p, "effects");
    TurnEffects& fx = ed_.effects();
    ReadInt(effects, "crane_discounts", "position.effects.", kByte, &fx.crane_discounts);
    ReadInt(effects, "cranes_played", "position.effects.", kByte, &fx.cranes_played);
    ReadInt(effects, "fleet_cards", "position.effects.", Range{0, (1 << kNumCardTypes) - 1}, &fx.fleet_cards);
    ReadInt(effects, "harbor_partners", "position.effects.", Range{0, (1 << n_) - 1}, &fx.harbor_partners);
    Trade(Field(p, "trade"));
    ReadInts(p, "dev_deck", at, kNumDevKinds, kByte, &ed_.dev_deck());
    ReadInts(p, "dev_discarded", at, kNumDevKinds, kByte, &ed_.dev_discarded());
    ReadInts(p, "dev_bought", at, kNumDevKinds, kByte, &ed_.dev_bought());
    ed_.dev_played() = Int(p, "dev_played", at + "dev_played") != 0;
    ReadInt(p, "largest_army_holder", at, seat_or_none_, &ed_.largest_army());
    PendingStack(p);
  }

  // After Position: the checks RecomputeDerived needs, then the derived data
  // recomputed and compared with what was sent.
  void Pieces() {
    std::array<int, kMaxSeats> settlements{}, cities{}, roads{};
    std::array<std::array<int, kMaxKnightLevel>, kMaxSeats> knights{};
    for (int v = 0; v < kNumNodes; ++v) {
      const int owner = ed_.building_owner()[v], building = ed_.building()[v];
      if ((owner == kNoSeat) != (building == kNoBuilding))
        Fail(Index("position.building", size_t(v)), std::to_string(building) + " with owner " + std::to_string(owner));
      if (building == kSettlement) ++settlements[owner];
      if (building == kCity) ++cities[owner];
      const int knight = ed_.knight_owner()[v], level = ed_.knight_level()[v];
      if ((knight == kNoSeat) != (level == 0))
        Fail(Index("position.knight_level", size_t(v)),
             std::to_string(level) + " with owner " + std::to_string(knight));
      if (knight == kNoSeat && ed_.knight_flags()[v] != 0)
        Fail(Index("position.knight_flags", size_t(v)), std::to_string(ed_.knight_flags()[v]) + " without a knight");
      if (knight != kNoSeat) ++knights[knight][level - 1];
    }
    for (int e = 0; e < kNumEdges; ++e)
      if (ed_.road_owner()[e] != kNoSeat) ++roads[ed_.road_owner()[e]];
    for (int s = 0; s < n_; ++s) {
      const std::string who = "position: seat " + std::to_string(s);
      if (settlements[s] > kSettlements)
        throw py::value_error(who + ": " + std::to_string(settlements[s]) + " settlements on the board");
      if (cities[s] > kCities) throw py::value_error(who + ": " + std::to_string(cities[s]) + " cities on the board");
      if (roads[s] > kRoads) throw py::value_error(who + ": " + std::to_string(roads[s]) + " roads on the board");
      for (int l = 0; l < kMaxKnightLevel; ++l)
        if (knights[s][l] > kKnightsPerLevel)
          throw py::value_error(who + ": " + std::to_string(knights[s][l]) + " knights of level " +
                                std::to_string(l + 1));
    }
    // Derived data the message does not carry (the harbors' nodes) comes from
    // the recomputation; everything the message carries is kept as sent.
    std::array<PlayerState, kMaxSeats> sent;
    for (int s = 0; s < n_; ++s) sent[s] = ed_.player(s);
    ed_.RecomputeDerived();
    for (int s = 0; s < n_; ++s) {
      const PlayerState& got = ed_.player(s);
      const PlayerState& was = sent[s];
      const auto same = [&](const char* field, uint64_t sent_mask, uint64_t board_mask) {
        if (sent_mask == board_mask) return;
        char text[80];
        std::snprintf(text, sizeof text, "0x%llx, the pieces give 0x%llx", static_cast<unsigned long long>(sent_mask),
                      static_cast<unsigned long long>(board_mask));
        Fail(Index("position.players", size_t(s)) + "." + field, text);
      };
      same("settlements", was.settlements, got.settlements);
      same("cities", was.cities, got.cities);
      same("knights", was.knights, got.knights);
      same("roads_lo", was.roads_lo, got.roads_lo);
      same("roads_hi", was.roads_hi, got.roads_hi);
      same("road_nodes", was.road_nodes, got.road_nodes);
    }
    for (int s = 0; s < n_; ++s) {
      const uint8_t harbors = ed_.player(s).harbors;
      ed_.player(s) = sent[s];
      ed_.player(s).harbors = harbors;
    }
  }

 private:
  void Player(py::handle in, const std::string& at, PlayerState* ps) {
    ReadInts(in, "hand", at, kNumCardTypes, kByte, &ps->hand);
    ps->progress.fill(kNoProgressCard);
    const std::vector<int64_t> progress = Ints(in, "progress", at + "progress");
    MaxLength(at + "progress", progress.size(), ps->progress.size());
    ps->num_progress = uint8_t(progress.size());
    for (size_t i = 0; i < progress.size(); ++i)
      Set(Index(at + "progress", i), progress[i], kProgressCard, &ps->progress[i]);
    ReadInt(in, "vp_cards", at, Range{0, 3}, &ps->vp_cards);
    ReadInt(in, "defender", at, kByte, &ps->defender);
    ReadInts(in, "level", at, kNumTracks, Range{0, kMaxImprovementLevel}, &ps->level);
    ReadInt(in, "settlements_left", at, Range{INT8_MIN, INT8_MAX}, &ps->settlements_left);
    ReadInt(in, "cities_left", at, kByte, &ps->cities_left);
    ReadInt(in, "roads_left", at, kByte, &ps->roads_left);
    ReadInt(in, "walls_left", at, kByte, &ps->walls_left);
    ReadInts(in, "knights_left", at, kMaxKnightLevel, kByte, &ps->knights_left);
    ReadInt(in, "road_length", at, kByte, &ps->road_length);
    ReadInt(in, "vp", at, kByte, &ps->vp);
    // The masks are compared with the board in Pieces(), which also bounds them.
    ps->settlements = Mask(in, "settlements");
    ps->cities = Mask(in, "cities");
    ps->knights = Mask(in, "knights");
    ps->roads_lo = Mask(in, "roads_lo");
    ps->roads_hi = Mask(in, "roads_hi");
    ps->road_nodes = Mask(in, "road_nodes");
    ReadInts(in, "dev", at, kNumDevKinds, kByte, &ps->dev);
    ReadInt(in, "army", at, kByte, &ps->army);
  }

  void Deck(py::handle in, int track, const std::string& at, ProgressDeck* d) {
    *d = ProgressDeck{};
    ReadInts(in, "unseen", at, size_t(TrackNumKinds(track)), kByte, &d->unseen);
    ReadInt(in, "unseen_total", at, kByte, &d->unseen_total);
    const std::vector<int64_t> returned = Ints(in, "returned", at + "returned");
    const std::vector<int64_t> hidden = Ints(in, "returned_hidden", at + "returned_hidden");
    MaxLength(at + "returned", returned.size(), ProgressDeck::kCapacity);
    Length(at + "returned_hidden", hidden.size(), returned.size());
    d->size = uint8_t(returned.size());
    for (size_t i = 0; i < returned.size(); ++i) {
      const int64_t card = returned[i];
      if (card != kHiddenCard && (card < 0 || card >= kNumProgressKinds || ProgressTrack(int(card)) != track))
        Fail(Index(at + "returned", i), std::to_string(card) + " is not a card of the " +
                                            std::string(TrackName(track)) + " deck (or 254, hidden)");
      d->returned[i] = uint8_t(card);
      Set(Index(at + "returned_hidden", i), hidden[i], Range{0, n_, "a seat + 1"}, &d->returned_hidden[i]);
    }
  }

  void Trade(py::handle in) {
    const std::string at = "position.trade.";
    TradeState& t = ed_.trade();
    t = TradeState{};
    t.open = Int(in, "open", at + "open") != 0;
    ReadInt(in, "addressees", at, Range{0, (1 << n_) - 1}, &t.addressees);
    ReadInt(in, "give", at, kUint32, &t.give.bits);
    ReadInt(in, "want", at, kUint32, &t.want.bits);
    ReadInts(in, "answer", at, size_t(n_), Range{kNoAnswer, kCountered}, &t.answer);
    std::array<uint32_t, kMaxSeats> give{}, want{};
    ReadInts(in, "counter_give", at, size_t(n_), kUint32, &give);
    ReadInts(in, "counter_want", at, size_t(n_), kUint32, &want);
    for (int p = 0; p < n_; ++p) {
      t.counter_give[p].bits = give[p];
      t.counter_want[p].bits = want[p];
    }
  }

  void PendingStack(py::handle p) {
    auto& stack = ed_.pending();
    stack.fill(Pending{});
    const std::vector<py::object> pending = Items(p, "pending");
    MaxLength("position.pending", pending.size(), stack.size());
    for (size_t i = 0; i < pending.size(); ++i) {
      const std::string at = Index("position.pending", i) + ".";
      ReadInt(pending[i], "kind", at, Range{0, int64_t(PendingKind::kDevDraw), "a pending kind"}, &stack[i].kind);
      ReadInt(pending[i], "seat", at, seat_or_none_, &stack[i].seat);
      ReadInt(pending[i], "a", at, kByte, &stack[i].a);
      ReadInt(pending[i], "b", at, kByte, &stack[i].b);
      ReadInt(pending[i], "c", at, kByte, &stack[i].c);
    }
    ed_.pending_size() = uint8_t(pending.size());
  }

  const int n_;
  StateEditor& ed_;
  const Range seat_, seat_or_none_;
};

// The base game's development-card numbers, checked against the 25 cards (BG-1).
void DevCardsInPlay(py::handle in, View* v) {
  const State& s = v->state;
  int deck = 0;
  for (int k = 0; k < kNumDevKinds; ++k) {
    int placed = k == kDevKnight ? 0 : s.dev_discarded()[k];
    for (int p = 0; p < s.num_seats(); ++p) placed += s.player(p).dev[k] + (k == kDevKnight ? s.player(p).army : 0);
    if (placed > kDevCardCounts[k])
      Fail("position", std::to_string(placed) + " " + std::string(DevCardName(k)) + " cards in sight, the game has " +
                           std::to_string(kDevCardCounts[k]));
    v->unplaced_dev[k] = uint8_t(kDevCardCounts[k] - placed);
    deck += kDevCardCounts[k] - (k == kDevKnight ? 0 : s.dev_discarded()[k]);
  }
  for (int p = 0; p < s.num_seats(); ++p) deck -= v->dev_count[p] + s.player(p).army;
  if (deck < 0) Fail("progress_count", "more development cards in hands than the game has");
  v->dev_deck_size = uint8_t(deck);
  if (Int(in, "dev_deck_size", "dev_deck_size") != deck)
    Fail("dev_deck_size",
         std::to_string(Int(in, "dev_deck_size", "")) + " but the cards in sight leave " + std::to_string(deck));
  std::array<uint8_t, kNumDevKinds> unplaced{};
  ReadInts(in, "unplaced_dev", "", kNumDevKinds, kByte, &unplaced);
  if (unplaced != v->unplaced_dev) Fail("unplaced_dev", "does not match the cards in sight");
  const int64_t bought = Int(in, "dev_bought_count", "dev_bought_count");
  if (bought > v->dev_count[s.current_seat()])
    Fail("dev_bought_count", std::to_string(bought) + " is more than the current player holds");
  Set("dev_bought_count", bought, kByte, &v->dev_bought_count);
}

View ViewFromMessage(py::handle in, const GameConfig& config) {
  if (std::string err = ValidateConfig(config); !err.empty()) throw py::value_error("config: " + err);
  State s(config);
  StateEditor ed(&s);
  ViewReader vr(config.num_seats, &ed);
  vr.Position(Field(in, "position"));
  vr.Pieces();

  View v(s);
  ReadInt(in, "viewer", "", vr.seat_or_none(), &v.viewer);
  const size_t n = size_t(config.num_seats);
  ReadInts(in, "hand_total", "", n, kByte, &v.hand_total);
  const bool base = config.options.ruleset == Ruleset::kBase;
  ReadInts(in, "progress_count", "", n, kByte, base ? &v.dev_count : &v.progress_count);
  ReadInts(in, "unplaced_cards", "", kNumCardTypes, kInt16, &v.unplaced_cards);
  ReadInts(in, "unplaced_progress", "", kNumProgressKinds, kByte, &v.unplaced_progress);
  const std::vector<py::object> known = Items(in, "known");
  Length("known", known.size(), n);
  for (size_t p = 0; p < n; ++p) {
    ReadInts(known[p], "hand", Index("known", p) + ".", kNumCardTypes, kByte, &v.known_hand[p]);
    ReadInts(known[p], "progress", Index("known", p) + ".", kNumProgressKinds, kByte, &v.known_progress[p]);
  }
  const std::vector<py::object> legal = Items(in, "legal");
  // No position has more legal actions than the engine's buffer holds.
  MaxLength("legal", legal.size(), ActionList::kCapacity);
  for (size_t i = 0; i < legal.size(); ++i) {
    if (!py::isinstance<py::int_>(legal[i]) || legal[i] < py::int_(0) || legal[i] > py::int_(UINT64_MAX))
      Fail(Index("legal", i), "not an action code");
    const uint64_t code = legal[i].cast<uint64_t>();
    const std::optional<Action> a = Decode(code);
    if (!a) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(code));
      Fail(Index("legal", i),
           std::string("code ") + hex + " names no action of rules version " + std::to_string(kRulesVersion));
    }
    v.legal.push_back(*a);
  }
  if (base) DevCardsInPlay(in, &v);
  return v;
}

}  // namespace

void BindMessages(py::module_& m) {
  m.def("config_from_message", &ConfigFromMessage, py::arg("config"),
        "The GameConfig of a metropolis.v1.GameConfig message (a Welcome's config), read by field name; "
        "ValueError names the first field out of range.");
  m.def(
      "view_from_message",
      [](const py::object& view, const GameConfig& config) { return ViewFromMessage(view, config); }, py::arg("view"),
      py::arg("config"),
      "The View of a metropolis.v1.View message (a Decision's view) in the game `config` (config_from_message of "
      "the Welcome's), read by field name and checked as the host's own reader checks it; ValueError names the "
      "first field out of range or inconsistent.");
}

}  // namespace metropolis::python
