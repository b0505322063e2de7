// View -> v1::View: the masked State field by field (game.proto's Position),
// plus the view's own numbers. Lists always have their documented length, so
// a client may index them without checking (game.proto promises it).
#include <cassert>

#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

// The first n values of an array-like `from`.
template <typename From, typename Repeated>
void Put(const From& from, int n, Repeated* out) {
  out->Reserve(n);
  for (int i = 0; i < n; ++i) out->Add(from[i]);
}

void PlayerToProto(const PlayerState& ps, v1::PlayerPosition* out) {
  Put(ps.hand, kNumCardTypes, out->mutable_hand());
  assert(ps.num_progress <= ps.progress.size());
  Put(ps.progress, ps.num_progress, out->mutable_progress());
  out->set_vp_cards(ps.vp_cards);
  out->set_defender(ps.defender);
  Put(ps.level, kNumTracks, out->mutable_level());
  out->set_settlements_left(ps.settlements_left);
  out->set_cities_left(ps.cities_left);
  out->set_roads_left(ps.roads_left);
  out->set_walls_left(ps.walls_left);
  Put(ps.knights_left, kMaxKnightLevel, out->mutable_knights_left());
  out->set_road_length(ps.road_length);
  out->set_vp(ps.vp);
  out->set_settlements(ps.settlements);
  out->set_cities(ps.cities);
  out->set_knights(ps.knights);
  out->set_roads_lo(ps.roads_lo);
  out->set_roads_hi(ps.roads_hi);
  out->set_road_nodes(ps.road_nodes);
  Put(ps.dev, kNumDevKinds, out->mutable_dev());
  out->set_army(ps.army);
}

// The returned queue goes out in draw order: the ring buffer's rotation is
// not part of the deck (Validate() keeps it at 0 anyway).
void DeckToProto(const ProgressDeck& d, int track, v1::Deck* out) {
  Put(d.unseen, TrackNumKinds(track), out->mutable_unseen());
  out->set_unseen_total(d.unseen_total);
  for (int i = 0; i < d.size; ++i) {
    const int slot = (d.head + i) % ProgressDeck::kCapacity;
    out->add_returned(d.returned[slot]);
    out->add_returned_hidden(d.returned_hidden[slot]);
  }
}

void TradeToProto(const TradeState& t, int num_seats, v1::Trade* out) {
  out->set_open(t.open);
  out->set_addressees(t.addressees);
  out->set_give(t.give.bits);
  out->set_want(t.want.bits);
  Put(t.answer, num_seats, out->mutable_answer());
  for (int p = 0; p < num_seats; ++p) {
    out->add_counter_give(t.counter_give[p].bits);
    out->add_counter_want(t.counter_want[p].bits);
  }
}

void PositionToProto(const State& s, v1::Position* out) {
  const int n = s.num_seats();
  out->set_num_seats(uint32_t(n));
  Put(s.board().token, kNumHexes, out->mutable_token());
  out->set_phase(v1::Phase(s.phase()));
  out->set_current_seat(s.current_seat());
  out->set_start_seat(s.start_seat());
  out->set_winner(s.Winner());
  out->set_setup_step(uint32_t(s.setup_step()));
  out->set_last_setup_node(s.last_setup_node());
  out->set_turn(uint32_t(s.turn_number()));
  out->set_action_count(s.action_count());
  auto per_node = [&](auto get, auto* list) {
    list->Reserve(kNumNodes);
    for (int v = 0; v < kNumNodes; ++v) list->Add(get(v));
  };
  out->mutable_road_owner()->Reserve(kNumEdges);
  for (int e = 0; e < kNumEdges; ++e) out->add_road_owner(s.road_owner(e));
  per_node([&](int v) { return s.building_owner(v); }, out->mutable_building_owner());
  per_node([&](int v) { return uint32_t(s.building(v)); }, out->mutable_building());
  per_node([&](int v) { return uint32_t(s.node_flags(v)); }, out->mutable_node_flags());
  per_node([&](int v) { return s.knight_owner(v); }, out->mutable_knight_owner());
  per_node([&](int v) { return uint32_t(s.knight_level(v)); }, out->mutable_knight_level());
  per_node([&](int v) { return uint32_t(s.knight_flags(v)); }, out->mutable_knight_flags());
  out->set_robber_hex(s.robber_hex());
  out->set_merchant_hex(s.merchant_hex());
  out->set_merchant_owner(s.merchant_owner());
  for (int t = 0; t < kNumTracks; ++t) {
    out->add_metropolis_owner(s.metropolis_owner(t));
    out->add_metropolis_node(s.metropolis_node(t));
  }
  out->set_longest_road_holder(s.longest_road_holder());
  out->set_barbarian_position(uint32_t(s.barbarian_position()));
  out->set_first_attack_done(s.first_attack_done());
  out->set_barbarian_attacks(uint32_t(s.barbarian_attacks()));
  out->set_dice_yellow(uint32_t(s.dice_yellow()));
  out->set_dice_red(uint32_t(s.dice_red()));
  out->set_dice_event(uint32_t(s.dice_event()));
  for (int p = 0; p < n; ++p) PlayerToProto(s.player(p), out->add_players());
  Put(s.bank(), kNumCardTypes, out->mutable_bank());
  for (int t = 0; t < kNumTracks; ++t) DeckToProto(s.deck(t), t, out->add_decks());
  out->set_offers_this_turn(uint32_t(s.offers_this_turn()));
  const TurnEffects& fx = s.effects();
  out->mutable_effects()->set_crane_discounts(fx.crane_discounts);
  out->mutable_effects()->set_cranes_played(fx.cranes_played);
  out->mutable_effects()->set_fleet_cards(fx.fleet_cards);
  out->mutable_effects()->set_harbor_partners(fx.harbor_partners);
  TradeToProto(s.trade(), n, out->mutable_trade());
  Put(s.dev_deck(), kNumDevKinds, out->mutable_dev_deck());
  Put(s.dev_discarded(), kNumDevKinds, out->mutable_dev_discarded());
  Put(s.dev_bought(), kNumDevKinds, out->mutable_dev_bought());
  out->set_dev_played(s.dev_played_this_turn());
  out->set_largest_army_holder(s.largest_army_holder());
  for (int i = 0; i < s.pending_size(); ++i) {
    const Pending& pd = s.pending(i);
    v1::Pending* p = out->add_pending();
    p->set_kind(uint32_t(pd.kind));
    p->set_seat(pd.seat);
    p->set_a(pd.a);
    p->set_b(pd.b);
    p->set_c(pd.c);
  }
}

}  // namespace

void ViewToProto(const View& v, v1::View* out) {
  out->Clear();
  const int n = v.state.num_seats();
  out->set_viewer(v.viewer);
  PositionToProto(v.state, out->mutable_position());
  Put(v.hand_total, n, out->mutable_hand_total());
  // game.proto's progress_count is "progress (or development) cards": no
  // seat holds progress cards in the base game, nor development cards in C&K.
  const bool base = v.state.options().ruleset == Ruleset::kBase;
  Put(base ? v.dev_count : v.progress_count, n, out->mutable_progress_count());
  Put(v.unplaced_cards, kNumCardTypes, out->mutable_unplaced_cards());
  Put(v.unplaced_progress, kNumProgressKinds, out->mutable_unplaced_progress());
  for (int p = 0; p < n; ++p) {
    v1::Knowledge* k = out->add_known();
    Put(v.known_hand[p], kNumCardTypes, k->mutable_hand());
    Put(v.known_progress[p], kNumProgressKinds, k->mutable_progress());
  }
  out->mutable_legal()->Reserve(int(v.legal.size()));
  for (const Action& a : v.legal) out->add_legal(Encode(a));
  if (base) {
    out->set_dev_deck_size(v.dev_deck_size);
    out->set_dev_bought_count(v.dev_bought_count);
    Put(v.unplaced_dev, kNumDevKinds, out->mutable_unplaced_dev());
  }
}

void PublicViewToProto(const State& s, v1::View* out) { ViewToProto(MakeView(s, kNoSeat), out); }

}  // namespace metropolis::protocol
