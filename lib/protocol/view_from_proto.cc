// v1::View -> View, for clients (the C++ bot kit) reading what a host sent.
// The message is untrusted: every value is range-checked before it reaches a
// narrow engine field, and the pieces are checked for what the engine's
// derived data relies on before RecomputeDerived runs over them (a seat with
// more than 32 roads would overflow the trail search's bit set).
#include <cstdio>
#include <optional>
#include <string>

#include "engine/state_editor.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/reader.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

using internal::kByte;
using internal::Range;
using internal::Reader;

// Pieces per seat (RULES.md 1.4); BAR-10 may put up to four settlements more
// on the board than the five of the supply.
constexpr int kSettlements = 5 + 4, kCities = 4, kRoads = 15, kKnightsPerLevel = 2;

constexpr Range kInt16{INT16_MIN, INT16_MAX};
constexpr Range kUint16{0, UINT16_MAX};
constexpr Range kUint32{0, UINT32_MAX};
constexpr Range kNodeOrNone{-1, kNumNodes - 1, "a node"};
constexpr Range kHex{0, kNumHexes - 1, "a hex"};
constexpr Range kHexOrNone{-1, kNumHexes - 1, "a hex"};
constexpr Range kProgressCard{0, kNumProgressKinds - 1, "a progress card"};

std::string Index(std::string_view path, int i) { return std::string(path) + "[" + std::to_string(i) + "]"; }

class ViewReader {
 public:
  ViewReader(int num_seats, StateEditor* ed)
      : n_(num_seats), ed_(*ed), seat_{0, n_ - 1, "a seat"}, seat_or_none_{kNoSeat, n_ - 1, "a seat"} {}

  Reader& reader() { return r_; }
  const Range& seat_or_none() const { return seat_or_none_; }

  void Position(const v1::Position& p);
  // After Position: the checks RecomputeDerived needs, then the derived data
  // recomputed and compared with what was sent.
  void Pieces();

 private:
  void Player(const v1::PlayerPosition& in, const std::string& path, PlayerState* ps);
  void Deck(const v1::Deck& in, int track, const std::string& path, ProgressDeck* d);
  void Trade(const v1::Trade& in);
  void PendingStack(const v1::Position& p);

  const int n_;
  StateEditor& ed_;
  Reader r_;
  const Range seat_, seat_or_none_;
};

void ViewReader::Position(const v1::Position& p) {
  if (p.num_seats() != uint32_t(n_))
    r_.Fail("position.num_seats", std::to_string(p.num_seats()) + ", the configuration has " + std::to_string(n_));
  r_.Ints("position.token", p.token(), kNumHexes, Range{0, 12, "a number token"}, &ed_.board().token);
  r_.Int("position.phase", int64_t(p.phase()), Range{0, int64_t(Phase::kGameOver)}, &ed_.phase());
  r_.Int("position.current_seat", p.current_seat(), seat_, &ed_.current());
  r_.Int("position.start_seat", p.start_seat(), seat_, &ed_.start());
  r_.Int("position.winner", p.winner(), seat_or_none_, &ed_.winner());
  r_.Int("position.setup_step", p.setup_step(), Range{0, 4 * n_}, &ed_.setup_step());
  r_.Int("position.last_setup_node", p.last_setup_node(), kNodeOrNone, &ed_.last_setup_node());
  r_.Int("position.turn", p.turn(), kUint16, &ed_.turn());
  ed_.actions() = p.action_count();
  r_.Ints("position.road_owner", p.road_owner(), kNumEdges, seat_or_none_, &ed_.road_owner());
  r_.Ints("position.building_owner", p.building_owner(), kNumNodes, seat_or_none_, &ed_.building_owner());
  r_.Ints("position.building", p.building(), kNumNodes, Range{0, kCity}, &ed_.building());
  r_.Ints("position.node_flags", p.node_flags(), kNumNodes, Range{0, kWall | kSabotaged}, &ed_.node_flags());
  r_.Ints("position.knight_owner", p.knight_owner(), kNumNodes, seat_or_none_, &ed_.knight_owner());
  r_.Ints("position.knight_level", p.knight_level(), kNumNodes, Range{0, kMaxKnightLevel}, &ed_.knight_level());
  constexpr int kAllKnightFlags = kKnightActive | kKnightReady | kKnightPromoted | kKnightCommitted;
  r_.Ints("position.knight_flags", p.knight_flags(), kNumNodes, Range{0, kAllKnightFlags}, &ed_.knight_flags());
  r_.Int("position.robber_hex", p.robber_hex(), kHex, &ed_.robber());
  r_.Int("position.merchant_hex", p.merchant_hex(), kHexOrNone, &ed_.merchant_hex());
  r_.Int("position.merchant_owner", p.merchant_owner(), seat_or_none_, &ed_.merchant_owner());
  r_.Ints("position.metropolis_owner", p.metropolis_owner(), kNumTracks, seat_or_none_, &ed_.metropolis_owner());
  r_.Ints("position.metropolis_node", p.metropolis_node(), kNumTracks, kNodeOrNone, &ed_.metropolis_node());
  r_.Int("position.longest_road_holder", p.longest_road_holder(), seat_or_none_, &ed_.longest_road());
  r_.Int("position.barbarian_position", p.barbarian_position(), Range{0, 7}, &ed_.barbarians());
  ed_.first_attack_done() = p.first_attack_done();
  r_.Int("position.barbarian_attacks", p.barbarian_attacks(), kUint16, &ed_.attacks());
  r_.Int("position.dice_yellow", p.dice_yellow(), Range{0, 6}, &ed_.dice_yellow());
  r_.Int("position.dice_red", p.dice_red(), Range{0, 6}, &ed_.dice_red());
  r_.Int("position.dice_event", p.dice_event(), Range{0, kNumEventFaces - 1}, &ed_.dice_event());
  if (r_.Length("position.players", size_t(p.players_size()), size_t(n_)))
    for (int i = 0; i < n_; ++i) Player(p.players(i), Index("position.players", i), &ed_.player(i));
  r_.Ints("position.bank", p.bank(), kNumCardTypes, kInt16, &ed_.bank());
  if (r_.Length("position.decks", size_t(p.decks_size()), kNumTracks))
    for (int t = 0; t < kNumTracks; ++t) Deck(p.decks(t), t, Index("position.decks", t), &ed_.deck(t));
  r_.Int("position.offers_this_turn", p.offers_this_turn(), kByte, &ed_.offers_this_turn());
  TurnEffects& fx = ed_.effects();
  r_.Int("position.effects.crane_discounts", p.effects().crane_discounts(), kByte, &fx.crane_discounts);
  r_.Int("position.effects.cranes_played", p.effects().cranes_played(), kByte, &fx.cranes_played);
  r_.Int("position.effects.fleet_cards", p.effects().fleet_cards(), Range{0, (1 << kNumCardTypes) - 1},
         &fx.fleet_cards);
  r_.Int("position.effects.harbor_partners", p.effects().harbor_partners(), Range{0, (1 << n_) - 1},
         &fx.harbor_partners);
  Trade(p.trade());
  r_.Ints("position.dev_deck", p.dev_deck(), kNumDevKinds, kByte, &ed_.dev_deck());
  r_.Ints("position.dev_discarded", p.dev_discarded(), kNumDevKinds, kByte, &ed_.dev_discarded());
  r_.Ints("position.dev_bought", p.dev_bought(), kNumDevKinds, kByte, &ed_.dev_bought());
  ed_.dev_played() = p.dev_played();
  r_.Int("position.largest_army_holder", p.largest_army_holder(), seat_or_none_, &ed_.largest_army());
  PendingStack(p);
}

void ViewReader::Player(const v1::PlayerPosition& in, const std::string& path, PlayerState* ps) {
  r_.Ints({path, ".hand"}, in.hand(), kNumCardTypes, kByte, &ps->hand);
  ps->progress.fill(kNoProgressCard);
  if (r_.MaxLength({path, ".progress"}, size_t(in.progress_size()), ps->progress.size())) {
    ps->num_progress = uint8_t(in.progress_size());
    r_.Ints({path, ".progress"}, in.progress(), ps->num_progress, kProgressCard, &ps->progress);
  }
  r_.Int({path, ".vp_cards"}, in.vp_cards(), Range{0, 3}, &ps->vp_cards);
  r_.Int({path, ".defender"}, in.defender(), kByte, &ps->defender);
  r_.Ints({path, ".level"}, in.level(), kNumTracks, Range{0, kMaxImprovementLevel}, &ps->level);
  r_.Int({path, ".settlements_left"}, in.settlements_left(), Range{INT8_MIN, INT8_MAX}, &ps->settlements_left);
  r_.Int({path, ".cities_left"}, in.cities_left(), kByte, &ps->cities_left);
  r_.Int({path, ".roads_left"}, in.roads_left(), kByte, &ps->roads_left);
  r_.Int({path, ".walls_left"}, in.walls_left(), kByte, &ps->walls_left);
  r_.Ints({path, ".knights_left"}, in.knights_left(), kMaxKnightLevel, kByte, &ps->knights_left);
  r_.Int({path, ".road_length"}, in.road_length(), kByte, &ps->road_length);
  r_.Int({path, ".vp"}, in.vp(), kByte, &ps->vp);
  // The masks are compared with the board in Pieces(), which also bounds them.
  ps->settlements = in.settlements();
  ps->cities = in.cities();
  ps->knights = in.knights();
  ps->roads_lo = in.roads_lo();
  ps->roads_hi = in.roads_hi();
  ps->road_nodes = in.road_nodes();
  r_.Ints({path, ".dev"}, in.dev(), kNumDevKinds, kByte, &ps->dev);
  r_.Int({path, ".army"}, in.army(), kByte, &ps->army);
}

void ViewReader::Deck(const v1::Deck& in, int track, const std::string& path, ProgressDeck* d) {
  *d = ProgressDeck{};
  r_.Ints({path, ".unseen"}, in.unseen(), size_t(TrackNumKinds(track)), kByte, &d->unseen);
  r_.Int({path, ".unseen_total"}, in.unseen_total(), kByte, &d->unseen_total);
  if (!r_.MaxLength({path, ".returned"}, size_t(in.returned_size()), ProgressDeck::kCapacity)) return;
  if (!r_.Length({path, ".returned_hidden"}, size_t(in.returned_hidden_size()), size_t(in.returned_size()))) return;
  d->size = uint8_t(in.returned_size());
  for (int i = 0; i < d->size; ++i) {
    const uint32_t card = in.returned(i);
    if (card != kHiddenCard && (card >= uint32_t(kNumProgressKinds) || ProgressTrack(int(card)) != track)) {
      r_.Fail(Index(path + ".returned", i), std::to_string(card) + " is not a card of the " +
                                                std::string(TrackName(track)) + " deck (or 254, hidden)");
      return;
    }
    d->returned[i] = uint8_t(card);
    r_.Int(Index(path + ".returned_hidden", i), in.returned_hidden(i), Range{0, n_, "a seat + 1"},
           &d->returned_hidden[i]);
  }
}

void ViewReader::Trade(const v1::Trade& in) {
  TradeState& t = ed_.trade();
  t = TradeState{};
  t.open = in.open();
  r_.Int("position.trade.addressees", in.addressees(), Range{0, (1 << n_) - 1}, &t.addressees);
  t.give.bits = in.give();
  t.want.bits = in.want();
  r_.Ints("position.trade.answer", in.answer(), size_t(n_), Range{kNoAnswer, kCountered}, &t.answer);
  std::array<uint32_t, kMaxSeats> give{}, want{};
  r_.Ints("position.trade.counter_give", in.counter_give(), size_t(n_), kUint32, &give);
  r_.Ints("position.trade.counter_want", in.counter_want(), size_t(n_), kUint32, &want);
  for (int p = 0; p < n_; ++p) {
    t.counter_give[p].bits = give[p];
    t.counter_want[p].bits = want[p];
  }
}

void ViewReader::PendingStack(const v1::Position& p) {
  auto& stack = ed_.pending();
  stack.fill(Pending{});
  if (!r_.MaxLength("position.pending", size_t(p.pending_size()), stack.size())) return;
  for (int i = 0; i < p.pending_size(); ++i) {
    const v1::Pending& in = p.pending(i);
    const std::string path = Index("position.pending", i);
    r_.Int({path, ".kind"}, in.kind(), Range{0, int64_t(PendingKind::kDevDraw), "a pending kind"}, &stack[i].kind);
    r_.Int({path, ".seat"}, in.seat(), seat_or_none_, &stack[i].seat);
    r_.Int({path, ".a"}, in.a(), kByte, &stack[i].a);
    r_.Int({path, ".b"}, in.b(), kByte, &stack[i].b);
    r_.Int({path, ".c"}, in.c(), kByte, &stack[i].c);
  }
  ed_.pending_size() = uint8_t(p.pending_size());
}

void ViewReader::Pieces() {
  if (!r_.ok()) return;
  // Owners were range-checked by Position(), so they index these safely.
  std::array<int, kMaxSeats> settlements{}, cities{}, roads{};
  std::array<std::array<int, kMaxKnightLevel>, kMaxSeats> knights{};
  for (int v = 0; v < kNumNodes; ++v) {
    const int owner = ed_.building_owner()[v], building = ed_.building()[v];
    if ((owner == kNoSeat) != (building == kNoBuilding)) {
      r_.Fail(Index("position.building", v), std::to_string(building) + " with owner " + std::to_string(owner));
      return;
    }
    if (building == kSettlement) ++settlements[owner];
    if (building == kCity) ++cities[owner];
    const int knight = ed_.knight_owner()[v], level = ed_.knight_level()[v];
    if ((knight == kNoSeat) != (level == 0)) {
      r_.Fail(Index("position.knight_level", v), std::to_string(level) + " with owner " + std::to_string(knight));
      return;
    }
    if (knight == kNoSeat && ed_.knight_flags()[v] != 0) {
      r_.Fail(Index("position.knight_flags", v), std::to_string(ed_.knight_flags()[v]) + " without a knight");
      return;
    }
    if (knight != kNoSeat) ++knights[knight][level - 1];
  }
  for (int e = 0; e < kNumEdges; ++e)
    if (ed_.road_owner()[e] != kNoSeat) ++roads[ed_.road_owner()[e]];
  for (int s = 0; s < n_; ++s) {
    const std::string who = "position: seat " + std::to_string(s);
    if (settlements[s] > kSettlements) r_.Fail(who, std::to_string(settlements[s]) + " settlements on the board");
    if (cities[s] > kCities) r_.Fail(who, std::to_string(cities[s]) + " cities on the board");
    if (roads[s] > kRoads) r_.Fail(who, std::to_string(roads[s]) + " roads on the board");
    for (int l = 0; l < kMaxKnightLevel; ++l)
      if (knights[s][l] > kKnightsPerLevel)
        r_.Fail(who, std::to_string(knights[s][l]) + " knights of level " + std::to_string(l + 1));
  }
  if (!r_.ok()) return;

  // Derived data the message does not carry (the harbors' nodes) comes from
  // the recomputation; everything the message carries is kept as sent.
  std::array<PlayerState, kMaxSeats> sent;
  for (int s = 0; s < n_; ++s) sent[s] = ed_.player(s);
  ed_.RecomputeDerived();
  for (int s = 0; s < n_ && r_.ok(); ++s) {
    const PlayerState& got = ed_.player(s);
    const PlayerState& was = sent[s];
    auto same = [&](const char* field, uint64_t sent_mask, uint64_t board_mask) {
      if (sent_mask == board_mask) return;
      char text[80];
      std::snprintf(text, sizeof text, "0x%llx, the pieces give 0x%llx", static_cast<unsigned long long>(sent_mask),
                    static_cast<unsigned long long>(board_mask));
      r_.Fail(Index("position.players", s) + "." + field, text);
    };
    same("settlements", was.settlements, got.settlements);
    same("cities", was.cities, got.cities);
    same("knights", was.knights, got.knights);
    same("roads_lo", was.roads_lo, got.roads_lo);
    same("roads_hi", was.roads_hi, got.roads_hi);
    same("road_nodes", was.road_nodes, got.road_nodes);
  }
  // What the message carries is kept as sent; what it does not carry (the
  // harbor types a seat has a building at) stays as recomputed.
  for (int s = 0; s < n_; ++s) {
    const uint8_t harbors = ed_.player(s).harbors;
    ed_.player(s) = sent[s];
    ed_.player(s).harbors = harbors;
  }
}

// The base game's development-card numbers, checked against the 25 cards
// (BG-1), which are in the deck, in hands, or played (knights into armies, the
// others discarded): what the masked state does not place, the viewer cannot.
void DevCardsInPlay(const v1::View& in, View* v, Reader& r) {
  const State& s = v->state;
  int deck = 0;
  for (int k = 0; k < kNumDevKinds; ++k) {
    int placed = k == kDevKnight ? 0 : s.dev_discarded()[k];
    for (int p = 0; p < s.num_seats(); ++p) placed += s.player(p).dev[k] + (k == kDevKnight ? s.player(p).army : 0);
    if (placed > kDevCardCounts[k]) {
      r.Fail("position", std::to_string(placed) + " " + std::string(DevCardName(k)) + " cards in sight, the game has " +
                             std::to_string(kDevCardCounts[k]));
      return;
    }
    v->unplaced_dev[k] = uint8_t(kDevCardCounts[k] - placed);
    deck += kDevCardCounts[k] - (k == kDevKnight ? 0 : s.dev_discarded()[k]);
  }
  for (int p = 0; p < s.num_seats(); ++p) deck -= v->dev_count[p] + s.player(p).army;
  if (deck < 0) {
    r.Fail("progress_count", "more development cards in hands than the game has");
    return;
  }
  v->dev_deck_size = uint8_t(deck);
  if (in.dev_deck_size() != uint32_t(deck)) {
    r.Fail("dev_deck_size",
           std::to_string(in.dev_deck_size()) + " but the cards in sight leave " + std::to_string(deck));
    return;
  }
  std::array<uint8_t, kNumDevKinds> unplaced{};
  r.Ints("unplaced_dev", in.unplaced_dev(), kNumDevKinds, kByte, &unplaced);
  if (r.ok() && unplaced != v->unplaced_dev) r.Fail("unplaced_dev", "does not match the cards in sight");
  if (in.dev_bought_count() > uint32_t(v->dev_count[s.current_seat()])) {
    r.Fail("dev_bought_count", std::to_string(in.dev_bought_count()) + " is more than the current player holds");
    return;
  }
  v->dev_bought_count = uint8_t(in.dev_bought_count());
}

}  // namespace

bool ViewFromProto(const v1::View& in, const GameConfig& config, View* out, std::string* error) {
  auto fail = [&](std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
  };
  if (std::string err = ValidateConfig(config); !err.empty()) return fail("config: " + err);
  State s(config);
  StateEditor ed(&s);
  ViewReader vr(config.num_seats, &ed);
  Reader& r = vr.reader();
  vr.Position(in.position());
  vr.Pieces();

  View v(s);
  r.Int("viewer", in.viewer(), vr.seat_or_none(), &v.viewer);
  const size_t n = size_t(config.num_seats);
  r.Ints("hand_total", in.hand_total(), n, kByte, &v.hand_total);
  const bool base = config.options.ruleset == Ruleset::kBase;
  r.Ints("progress_count", in.progress_count(), n, kByte, base ? &v.dev_count : &v.progress_count);
  r.Ints("unplaced_cards", in.unplaced_cards(), kNumCardTypes, kInt16, &v.unplaced_cards);
  r.Ints("unplaced_progress", in.unplaced_progress(), kNumProgressKinds, kByte, &v.unplaced_progress);
  if (r.Length("known", size_t(in.known_size()), n)) {
    for (int p = 0; p < int(n); ++p) {
      r.Ints(Index("known", p) + ".hand", in.known(p).hand(), kNumCardTypes, kByte, &v.known_hand[p]);
      r.Ints(Index("known", p) + ".progress", in.known(p).progress(), kNumProgressKinds, kByte, &v.known_progress[p]);
    }
  }
  // No position has more legal actions than the engine's buffer holds.
  if (r.MaxLength("legal", size_t(in.legal_size()), ActionList::kCapacity)) v.legal.reserve(size_t(in.legal_size()));
  for (int i = 0; i < in.legal_size() && r.ok(); ++i) {
    const std::optional<Action> a = Decode(in.legal(i));
    if (!a) {
      r.Fail(Index("legal", i), internal::UnknownCode(in.legal(i), kRulesVersion));
      break;
    }
    v.legal.push_back(*a);
  }
  if (base && r.ok()) DevCardsInPlay(in, &v, r);
  if (!r.ok()) return fail(r.error());
  *out = std::move(v);
  return true;
}

}  // namespace metropolis::protocol
