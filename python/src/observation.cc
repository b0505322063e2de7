#include "python/src/observation.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "engine/progress.h"
#include "engine/topology.h"

namespace metropolis::python {
namespace {

// Slots for the pending stack's top kind: room for the kinds rulesets may add.
constexpr int kPendingKindSlots = 64;

// Column indices inside each block; the names below must list them in order.
enum HexCol { kHexTerrain = 0, kHexPips = kHexTerrain + kNumTerrains, kHexRobber, kHexMerchant, kHexCols };
enum NodeCol {
  kNodeSettlement = 0,
  kNodeCity = kNodeSettlement + kMaxSeats,
  kNodeMetropolis = kNodeCity + kMaxSeats,
  kNodeWall,
  kNodeSabotaged,
  kNodeKnight,
  kNodeKnightActive = kNodeKnight + kMaxSeats,
  kNodeKnightReady,
  kNodeHarbor,
  kNodePips = kNodeHarbor + kNumHarborTypes,
  kNodeCols = kNodePips + kNumResources,
};
enum PlayerCol {
  kPresent = 0,
  kActing,
  kTurn,
  kVp,
  kHandTotal,
  kProgressCount,
  kDevCount,
  kLevel,
  kSettlementsLeft = kLevel + kNumTracks,
  kCitiesLeft,
  kRoadsLeft,
  kWallsLeft,
  kKnightStrength,
  kActiveStrength,
  kRoadLength,
  kLongestRoad,
  kLargestArmy,
  kArmy,
  kDefender,
  kMetropolis,
  kPrinter = kMetropolis + kNumTracks,
  kConstitution,
  kHarbors,
  kKnown = kHarbors + kNumHarborTypes,
  kPlayerCols = kKnown + kNumCardTypes,
};
enum OwnCol {
  kOwnProgress = 0,
  kOwnDev = kNumProgressKinds,
  kOwnDevBought = kOwnDev + kNumDevKinds,
  kOwnCols = kOwnDevBought + kNumDevKinds
};
enum GameCol {
  kPhase = 0,
  kBarbarians = kPhase + 4,
  kFirstAttackDone,
  kAttacks,
  kYellow,
  kRed = kYellow + 7,
  kEvent = kRed + 7,
  kTurnNumber = kEvent + kNumEventFaces,
  kSetupStep,
  kOffers,
  kDevPlayed,
  kBankHas,
  kDeckSize = kBankHas + kNumCardTypes,
  kDevDeck = kDeckSize + kNumTracks,
  kUnplacedCards,
  kUnplacedProgress = kUnplacedCards + kNumCardTypes,
  kUnplacedDev = kUnplacedProgress + kNumProgressKinds,
  kCraneDiscounts = kUnplacedDev + kNumDevKinds,
  kCranesPlayed,
  kFleet,
  kHarborPartner = kFleet + kNumCardTypes,
  kVictoryPoints = kHarborPartner + kMaxSeats,
  kSeats3,
  kSeats4,
  kGameCols,
};
enum TradeCol {
  kTradeOpen = 0,
  kTradeGive,
  kTradeWant = kTradeGive + kNumCardTypes,
  kTradeAddressee = kTradeWant + kNumCardTypes,
  kTradeAnswer = kTradeAddressee + kMaxSeats,  // 3 per slot: accepted, declined, countered
  kTradeCols = kTradeAnswer + 3 * kMaxSeats,
};
enum PendingCol {
  kPendingDepth = 0,
  kPendingKind,
  kPendingSeat = kPendingKind + kPendingKindSlots,
  kPendingA = kPendingSeat + kMaxSeats,
  kPendingB,
  kPendingC,
  kPendingCols,
};

std::vector<std::string> Seated(const std::string& prefix, int n = kMaxSeats) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}
std::vector<std::string> Named(const std::string& prefix, int n, std::string_view (*name)(int)) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::string(name(i)));
  return out;
}
std::string_view HarborName(int h) { return h == kGenericHarbor ? "generic" : CardName(h); }
void Append(std::vector<std::string>* to, const std::vector<std::string>& more) {
  to->insert(to->end(), more.begin(), more.end());
}

ObservationBlock HexBlock() {
  ObservationBlock b{"hexes", 0, kNumHexes, kHexCols, {}};
  Append(&b.columns, Named("terrain_", kNumTerrains, TerrainName));
  Append(&b.columns, {"pips", "robber", "merchant"});
  return b;
}
ObservationBlock NodeBlock() {
  ObservationBlock b{"nodes", 0, kNumNodes, kNodeCols, {}};
  Append(&b.columns, Seated("settlement_"));
  Append(&b.columns, Seated("city_"));
  Append(&b.columns, {"metropolis", "wall", "sabotaged"});
  Append(&b.columns, Seated("knight_"));
  Append(&b.columns, {"knight_active", "knight_ready"});
  Append(&b.columns, Named("harbor_", kNumHarborTypes, HarborName));
  Append(&b.columns, Named("pips_", kNumResources, CardName));
  return b;
}
ObservationBlock EdgeBlock() { return {"edges", 0, kNumEdges, kMaxSeats, Seated("road_")}; }
ObservationBlock PlayerBlock() {
  ObservationBlock b{"players", 0, kMaxSeats, kPlayerCols, {}};
  Append(&b.columns, {"present", "acting", "turn", "vp", "hand_total", "progress_count", "dev_count"});
  Append(&b.columns, Named("level_", kNumTracks, TrackName));
  Append(&b.columns, {"settlements_left", "cities_left", "roads_left", "walls_left", "knight_strength",
                      "active_strength", "road_length", "longest_road", "largest_army", "army", "defender"});
  Append(&b.columns, Named("metropolis_", kNumTracks, TrackName));
  Append(&b.columns, {"printer", "constitution"});
  Append(&b.columns, Named("harbor_", kNumHarborTypes, HarborName));
  Append(&b.columns, Named("known_", kNumCardTypes, CardName));
  return b;
}
ObservationBlock OwnBlock() {
  ObservationBlock b{"own", 0, 1, kOwnCols, {}};
  Append(&b.columns, Named("progress_", kNumProgressKinds, ProgressCardName));
  Append(&b.columns, Named("dev_", kNumDevKinds, DevCardName));
  Append(&b.columns, Named("dev_bought_", kNumDevKinds, DevCardName));
  return b;
}
ObservationBlock GameBlock() {
  ObservationBlock b{"game", 0, 1, kGameCols, {}};
  Append(&b.columns, {"phase_setup", "phase_before_roll", "phase_action", "phase_game_over", "barbarians",
                      "first_attack_done", "attacks"});
  Append(&b.columns, Seated("yellow_", 7));
  Append(&b.columns, Seated("red_", 7));
  Append(&b.columns, {"event_ship", "event_trade", "event_politics", "event_science", "turn", "setup_step",
                      "offers_this_turn", "dev_played"});
  Append(&b.columns, Named("bank_has_", kNumCardTypes, CardName));
  Append(&b.columns, Named("deck_", kNumTracks, TrackName));
  Append(&b.columns, {"dev_deck"});
  Append(&b.columns, Named("unplaced_", kNumCardTypes, CardName));
  Append(&b.columns, Named("unplaced_", kNumProgressKinds, ProgressCardName));
  Append(&b.columns, Named("unplaced_dev_", kNumDevKinds, DevCardName));
  Append(&b.columns, {"crane_discounts", "cranes_played"});
  Append(&b.columns, Named("fleet_", kNumCardTypes, CardName));
  Append(&b.columns, Seated("harbor_partner_"));
  Append(&b.columns, {"victory_points", "seats_3", "seats_4"});
  return b;
}
ObservationBlock TradeBlock() {
  ObservationBlock b{"trade", 0, 1, kTradeCols, {}};
  Append(&b.columns, {"open"});
  Append(&b.columns, Named("give_", kNumCardTypes, CardName));
  Append(&b.columns, Named("want_", kNumCardTypes, CardName));
  Append(&b.columns, Seated("addressee_"));
  for (int k = 0; k < kMaxSeats; ++k)
    Append(&b.columns,
           {"accepted_" + std::to_string(k), "declined_" + std::to_string(k), "countered_" + std::to_string(k)});
  return b;
}
ObservationBlock PendingBlock() {
  ObservationBlock b{"pending", 0, 1, kPendingCols, {}};
  Append(&b.columns, {"depth"});
  Append(&b.columns, Seated("kind_", kPendingKindSlots));
  Append(&b.columns, Seated("seat_"));
  Append(&b.columns, {"a", "b", "c"});
  return b;
}

// Offsets of the blocks, in the layout's order.
struct Offsets {
  int hexes, nodes, edges, players, own, game, trade, pending;
};
const Offsets& GetOffsets() {
  static const Offsets o = [] {
    const ObservationLayout& l = ObservationLayout::Get();
    return Offsets{l.Find("hexes")->offset,   l.Find("nodes")->offset,  l.Find("edges")->offset,
                   l.Find("players")->offset, l.Find("own")->offset,    l.Find("game")->offset,
                   l.Find("trade")->offset,   l.Find("pending")->offset};
  }();
  return o;
}

}  // namespace

ObservationLayout::ObservationLayout() {
  blocks_ = {HexBlock(), NodeBlock(), EdgeBlock(),  PlayerBlock(),
             OwnBlock(), GameBlock(), TradeBlock(), PendingBlock()};
  for (ObservationBlock& b : blocks_) {
    assert(int(b.columns.size()) == b.cols);
    b.offset = size_;
    size_ += b.size();
  }
}

const ObservationLayout& ObservationLayout::Get() {
  static const ObservationLayout layout;
  return layout;
}

const ObservationBlock* ObservationLayout::Find(const std::string& name) const {
  for (const ObservationBlock& b : blocks_)
    if (b.name == name) return &b;
  return nullptr;
}

void EncodeObservation(const View& view, float* out) {
  const ObservationLayout& layout = ObservationLayout::Get();
  const Offsets& o = GetOffsets();
  std::memset(out, 0, sizeof(float) * size_t(layout.size()));
  const State& s = view.state;  // masked: what the viewer may see
  const Topology& topo = GetTopology();
  const int n = s.num_seats();
  const int viewer = view.viewer;
  assert(viewer >= 0 && viewer < n);
  auto rel = [&](int seat) { return seat < 0 || seat >= n ? -1 : (seat - viewer + n) % n; };
  const Board& board = s.board();

  // Hexes.
  for (int h = 0; h < kNumHexes; ++h) {
    float* row = out + o.hexes + h * kHexCols;
    if (board.terrain[h] < kNumTerrains) row[kHexTerrain + board.terrain[h]] = 1;
    row[kHexPips] = float(TokenPips(board.token[h])) / 5;
    row[kHexRobber] = s.robber_hex() == h;
    row[kHexMerchant] = s.merchant_hex() == h;
  }

  // Nodes.
  std::array<int, kMaxSeats> strength{}, active_strength{};
  for (int v = 0; v < kNumNodes; ++v) {
    float* row = out + o.nodes + v * kNodeCols;
    const int owner = rel(s.building_owner(v));
    if (owner >= 0) {
      row[(s.building(v) == kCity ? kNodeCity : kNodeSettlement) + owner] = 1;
      row[kNodeMetropolis] = s.metropolis_at(v) >= 0;
      row[kNodeWall] = (s.node_flags(v) & kWall) != 0;
      row[kNodeSabotaged] = (s.node_flags(v) & kSabotaged) != 0;
    }
    const int knight = rel(s.knight_owner(v));
    if (knight >= 0 && s.knight_level(v) > 0) {
      const uint8_t flags = s.knight_flags(v);
      row[kNodeKnight + knight] = float(s.knight_level(v)) / kMaxKnightLevel;
      row[kNodeKnightActive] = (flags & kKnightActive) != 0;
      row[kNodeKnightReady] = (flags & kKnightReady) != 0;
      strength[size_t(knight)] += s.knight_level(v);
      if (flags & kKnightActive) active_strength[size_t(knight)] += s.knight_level(v);
    }
    for (int i = 0; i < 3; ++i) {
      const int h = topo.node_hexes[v][size_t(i)];
      if (h < 0 || board.terrain[h] >= kNumResources) continue;
      row[kNodePips + board.terrain[h]] += float(TokenPips(board.token[h])) / 5;
    }
  }
  for (int hb = 0; hb < kNumHarbors; ++hb) {
    const int type = board.harbor[hb];
    if (type >= kNumHarborTypes) continue;
    for (int v : topo.harbor_nodes[hb]) out[o.nodes + v * kNodeCols + kNodeHarbor + type] = 1;
  }

  // Edges.
  for (int e = 0; e < kNumEdges; ++e) {
    const int owner = rel(s.road_owner(e));
    if (owner >= 0) out[o.edges + e * kMaxSeats + owner] = 1;
  }

  // Players, the viewer first.
  const RulesOptions& opt = s.options();
  const int acting = s.CurrentPlayer();
  for (int seat = 0; seat < n; ++seat) {
    const int k = rel(seat);
    float* row = out + o.players + k * kPlayerCols;
    const PlayerState& p = s.player(seat);
    row[kPresent] = 1;
    row[kActing] = acting == seat;
    row[kTurn] = s.phase() != Phase::kSetup && s.current_seat() == seat;
    row[kVp] = float(p.vp) / float(std::max<int>(1, opt.victory_points));
    row[kHandTotal] = float(seat == viewer ? p.hand.Total() : view.hand_total[size_t(seat)]) / 10;
    row[kProgressCount] = float(seat == viewer ? p.num_progress : view.progress_count[size_t(seat)]) / 4;
    row[kDevCount] = float(view.dev_count[size_t(seat)]) / 5;
    for (int t = 0; t < kNumTracks; ++t) {
      row[kLevel + t] = float(p.level[size_t(t)]) / kMaxImprovementLevel;
      row[kMetropolis + t] = s.metropolis_owner(t) == seat;
    }
    row[kSettlementsLeft] = float(p.settlements_left) / 5;
    row[kCitiesLeft] = float(p.cities_left) / 4;
    row[kRoadsLeft] = float(p.roads_left) / 15;
    row[kWallsLeft] = float(p.walls_left) / 3;
    row[kKnightStrength] = float(strength[size_t(k)]) / 6;
    row[kActiveStrength] = float(active_strength[size_t(k)]) / 6;
    row[kRoadLength] = float(p.road_length) / 10;
    row[kLongestRoad] = s.longest_road_holder() == seat;
    row[kLargestArmy] = s.largest_army_holder() == seat;
    row[kArmy] = float(p.army) / 5;
    row[kDefender] = p.defender;
    row[kPrinter] = (p.vp_cards & 1) != 0;
    row[kConstitution] = (p.vp_cards & 2) != 0;
    for (int t = 0; t < kNumHarborTypes; ++t) row[kHarbors + t] = (p.harbors >> t) & 1;
    const CardCounts& known = seat == viewer ? p.hand : view.known_hand[size_t(seat)];
    for (int c = 0; c < kNumCardTypes; ++c) row[kKnown + c] = float(known[c]) / 5;
  }

  // The viewer's own cards beyond the resources (its hand is slot 0's `known`).
  {
    float* row = out + o.own;
    const PlayerState& me = s.player(viewer);
    for (int i = 0; i < me.num_progress; ++i)
      if (me.progress[size_t(i)] < kNumProgressKinds) row[kOwnProgress + me.progress[size_t(i)]] += 1;
    for (int d = 0; d < kNumDevKinds; ++d) {
      row[kOwnDev + d] = me.dev[size_t(d)];
      if (s.current_seat() == viewer) row[kOwnDevBought + d] = s.dev_bought()[size_t(d)];
    }
  }

  // The game.
  {
    float* row = out + o.game;
    row[kPhase + std::min<int>(int(s.phase()), 3)] = 1;
    row[kBarbarians] = float(s.barbarian_position()) / 7;
    row[kFirstAttackDone] = s.first_attack_done();
    row[kAttacks] = float(s.barbarian_attacks()) / 10;
    row[kYellow + std::min(s.dice_yellow(), 6)] = 1;
    row[kRed + std::min(s.dice_red(), 6)] = 1;
    if (s.dice_yellow() > 0) row[kEvent + std::min(s.dice_event(), kNumEventFaces - 1)] = 1;
    row[kTurnNumber] = float(s.turn_number()) / 200;
    row[kSetupStep] = float(s.setup_step()) / 16;
    row[kOffers] = float(s.offers_this_turn()) / 3;
    row[kDevPlayed] = s.dev_played_this_turn();
    // The masked bank keeps only whether a stack is empty (engine/view.h).
    for (int c = 0; c < kNumCardTypes; ++c) row[kBankHas + c] = s.bank()[size_t(c)] > 0;
    for (int t = 0; t < kNumTracks; ++t) row[kDeckSize + t] = float(s.deck(t).Size()) / 20;
    row[kDevDeck] = float(view.dev_deck_size) / 25;
    for (int c = 0; c < kNumCardTypes; ++c) row[kUnplacedCards + c] = float(view.unplaced_cards[size_t(c)]) / 19;
    for (int k = 0; k < kNumProgressKinds; ++k)
      row[kUnplacedProgress + k] = float(view.unplaced_progress[size_t(k)]) / 5;
    for (int d = 0; d < kNumDevKinds; ++d) row[kUnplacedDev + d] = float(view.unplaced_dev[size_t(d)]) / 14;
    const TurnEffects& fx = s.effects();
    row[kCraneDiscounts] = fx.crane_discounts;
    row[kCranesPlayed] = fx.cranes_played;
    for (int c = 0; c < kNumCardTypes; ++c) row[kFleet + c] = (fx.fleet_cards >> c) & 1;
    for (int seat = 0; seat < n; ++seat) row[kHarborPartner + rel(seat)] = (fx.harbor_partners >> seat) & 1;
    row[kVictoryPoints] = float(opt.victory_points) / 20;
    row[kSeats3] = n == 3;
    row[kSeats4] = n == 4;
  }

  // The open trade (TRD-3).
  if (const TradeState& t = s.trade(); t.open) {
    float* row = out + o.trade;
    row[kTradeOpen] = 1;
    for (int c = 0; c < kNumCardTypes; ++c) {
      row[kTradeGive + c] = float(t.give.Get(c)) / kMaxCardsPerTypeInOffer;
      row[kTradeWant + c] = float(t.want.Get(c)) / kMaxCardsPerTypeInOffer;
    }
    for (int seat = 0; seat < n; ++seat) {
      const int k = rel(seat);
      row[kTradeAddressee + k] = (t.addressees >> seat) & 1;
      const int answer = t.answer[size_t(seat)];
      if (answer >= kAccepted && answer <= kCountered) row[kTradeAnswer + 3 * k + answer - 1] = 1;
    }
  }

  // The pending decision on top of the stack: its kind, whose it is, its a/b/c.
  {
    float* row = out + o.pending;
    row[kPendingDepth] = float(s.pending_size()) / 24;
    if (s.pending_size() > 0) {
      const Pending& p = s.pending(s.pending_size() - 1);
      row[kPendingKind + std::min<int>(int(p.kind), kPendingKindSlots - 1)] = 1;
      if (const int k = rel(p.seat); k >= 0) row[kPendingSeat + k] = 1;
      row[kPendingA] = float(p.a) / 64;
      row[kPendingB] = float(p.b) / 64;
      row[kPendingC] = float(p.c) / 64;
    }
  }
}

}  // namespace metropolis::python
