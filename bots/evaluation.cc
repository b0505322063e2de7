#include "bots/evaluation.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/topology.h"

namespace metropolis::bots {
namespace {

// What one expected card per roll is worth, by type: ore and grain build
// cities, commodities buy improvements.
constexpr double kCardWeight[kNumCardTypes] = {0.9, 0.9, 0.75, 1.05, 1.15, 0.8, 0.8, 0.85};

// Cumulative value of improvement levels 0..5 beyond the VP they give
// (progress draws, level-3 abilities, the race to a metropolis).
constexpr double kLevelValue[kMaxImprovementLevel + 1] = {0.0, 0.45, 0.95, 1.6, 2.3, 2.6};

struct Cost {
  int cards[kNumCardTypes];
};
constexpr Cost kCityCost = {{0, 0, 0, 2, 3, 0, 0, 0}};
constexpr Cost kSettlementCost = {{1, 1, 1, 1, 0, 0, 0, 0}};
constexpr Cost kRoadCost = {{1, 1, 0, 0, 0, 0, 0, 0}};
constexpr Cost kKnightCost = {{0, 0, 1, 0, 1, 0, 0, 0}};
constexpr Cost kDevCardCost = {{0, 0, 1, 1, 1, 0, 0, 0}};

int Missing(const CardCounts& hand, const int* cost) {
  int m = 0;
  for (int c = 0; c < kNumCardTypes; ++c) m += std::max(0, cost[c] - int(hand[c]));
  return m;
}

// Free settlement sites next to `seat`'s roads (BLD-2), best first by pips.
struct Sites {
  int count = 0;
  double best = 0, second = 0;  // pips / 36
  double frontier = 0;          // best site one road further away
};

double NodePips(const State& s, int v) {
  const Topology& topo = GetTopology();
  double pips = 0;
  for (int h : topo.node_hexes[v])
    if (h >= 0) pips += Pips(s.board().token[h]);
  return pips / 36.0;
}

bool FreeSite(const State& s, int v) {
  if (s.building_owner(v) != kNoSeat || s.knight_owner(v) != kNoSeat) return false;
  const Topology& topo = GetTopology();
  for (int i = 0; i < 3; ++i) {
    int n = topo.node_nodes[v][i];
    if (n >= 0 && s.building_owner(n) != kNoSeat) return false;
  }
  return true;
}

Sites FindSites(const State& s, int seat) {
  const Topology& topo = GetTopology();
  const PlayerState& p = s.player(seat);
  uint64_t reached = 0;  // nodes touched by the seat's roads
  for (int e = 0; e < kNumEdges; ++e)
    if (p.HasRoad(e)) reached |= (1ull << topo.edge_nodes[e][0]) | (1ull << topo.edge_nodes[e][1]);
  Sites out;
  uint64_t frontier = 0;
  for (uint64_t m = reached; m; m &= m - 1) {
    int v = std::countr_zero(m);
    // A road may continue past a node only if no opponent building stands on it.
    int owner = s.building_owner(v);
    if (owner == kNoSeat || owner == seat) frontier |= topo.node_neighbor_mask[v];
    if (!FreeSite(s, v)) continue;
    double pips = NodePips(s, v);
    ++out.count;
    if (pips > out.best) {
      out.second = out.best;
      out.best = pips;
    } else if (pips > out.second) {
      out.second = pips;
    }
  }
  for (uint64_t m = frontier & ~reached; m; m &= m - 1) {
    int v = std::countr_zero(m);
    if (FreeSite(s, v)) out.frontier = std::max(out.frontier, NodePips(s, v));
  }
  return out;
}

// What a development card in hand is worth before it is played, by kind
// (BG-5): a little less than playing it usually brings, so that cards get
// played; a VP card is its point. kUnknownDev is the mean over the deck
// (14 knights, 5 VP, 2 each of the others), for hands the seat cannot see.
constexpr double kDevHeld[kNumDevKinds] = {0.45, 1.0, 0.4, 0.4, 0.4};
constexpr double kUnknownDev = (14 * 0.45 + 5 * 1.0 + 2 * 0.4 + 2 * 0.4 + 2 * 0.4) / 25;

// The base game's public part (BG-5, BG-6): cards in hand by their number
// alone, and the race for Largest Army by knights played.
double DevBoardValue(const State& s, int seat, double remaining) {
  const PlayerState& p = s.player(seat);
  double value = kUnknownDev * p.DevTotal();
  // Knights played: each is worth more while Largest Army is open or near.
  int best_other = 0;
  for (int o = 0; o < s.num_seats(); ++o)
    if (o != seat) best_other = std::max<int>(best_other, s.player(o).army);
  const int holder = s.largest_army_holder();
  const bool contested = holder != seat && p.army + 2 >= std::max(3, best_other + 1);
  value += p.army * (0.12 + (contested ? 0.25 : 0.0) * (0.5 + remaining));
  return value;
}

}  // namespace

int Pips(int token) { return token < 2 || token > 12 || token == 7 ? 0 : 6 - std::abs(7 - token); }

std::array<double, kNumCardTypes> ProductionRates(const State& s, int seat) {
  const Topology& topo = GetTopology();
  const PlayerState& p = s.player(seat);
  std::array<double, kNumCardTypes> rate{};
  const bool commodities = s.options().ruleset == Ruleset::kCitiesAndKnights;
  for (uint64_t m = p.buildings(); m; m &= m - 1) {
    int v = std::countr_zero(m);
    bool city = (p.cities >> v) & 1;
    for (int h : topo.node_hexes[v]) {
      if (h < 0 || h == s.robber_hex()) continue;
      int terrain = s.board().terrain[h];
      if (terrain == kDesert) continue;
      double pr = Pips(s.board().token[h]) / 36.0;
      rate[terrain] += pr;
      if (city) {
        int commodity = commodities ? TerrainCommodity(terrain) : -1;
        rate[commodity >= 0 ? commodity : terrain] += pr;
      }
    }
  }
  return rate;
}

int PublicVictoryPoints(const State& s, int seat) {
  const PlayerState& p = s.player(seat);
  return s.IsTerminal() ? p.vp : p.vp - p.dev[kDevVictoryPoint];  // BG-9: shown at the end only
}

double BoardValue(const State& s, int seat) {
  const Topology& topo = GetTopology();
  const PlayerState& p = s.player(seat);
  const int target = s.options().victory_points;
  // Public VP only: hidden VP cards are the seat's own business (HandValue),
  // so that every seat's board value reads only what everyone sees.
  double value = PublicVictoryPoints(s, seat);

  // Production is worth most early: later there are fewer turns left to use it.
  const double remaining = std::clamp(double(target - value) / target, 0.0, 1.0);
  const double kProduction = 3.0 + 5.0 * remaining;
  std::array<double, kNumCardTypes> rate = ProductionRates(s, seat);
  double production = 0;
  for (int c = 0; c < kNumCardTypes; ++c) production += kCardWeight[c] * rate[c];
  // Variety: every resource one cannot produce must be bought at 4:1.
  double variety = 0;
  for (int c = 0; c < kNumResources; ++c) variety += std::sqrt(std::min(rate[c], 0.4));
  value += kProduction * production + 0.6 * remaining * variety;

  // Harbors (TRD-2) pay off with the production of their resource.
  for (int i = 0; i < kNumHarbors; ++i) {
    int a = topo.harbor_nodes[i][0], b = topo.harbor_nodes[i][1];
    if (s.building_owner(a) != seat && s.building_owner(b) != seat) continue;
    int type = s.board().harbor[i];
    value += type == kGenericHarbor ? 0.25 : 0.15 + 2.5 * rate[type];
  }

  // Improvements, and the commodities to keep climbing.
  bool has_city = p.cities != 0;
  for (int t = 0; t < kNumTracks; ++t) {
    value += kLevelValue[p.level[t]];
    if (has_city && p.level[t] >= 3 && s.metropolis_owner(t) == kNoSeat) value += 0.3;
  }

  // Knights: presence, and strength when the barbarians draw near (BAR-1..BAR-8).
  const double urgency = s.barbarian_position() / 7.0;
  int my_active = 0, my_levels = 0;
  std::array<int, kMaxSeats> active{};
  int catan = 0, cities_on_board = 0;
  for (int seat2 = 0; seat2 < s.num_seats(); ++seat2) cities_on_board += std::popcount(s.player(seat2).cities);
  for (int v = 0; v < kNumNodes; ++v) {
    int owner = s.knight_owner(v);
    if (owner < 0) continue;
    int level = s.knight_level(v);
    if (s.knight_flags(v) & kKnightActive) {
      active[owner] += level;
      catan += level;
    }
    if (owner == seat) my_levels += level;
  }
  my_active = active[seat];
  value += 0.22 * my_levels + my_active * (0.15 + 0.45 * urgency * urgency);
  if (catan < cities_on_board) {
    // Barbarians would win: the weakest vulnerable seats lose a city.
    int plain_cities = 0;
    for (uint64_t m = p.cities; m; m &= m - 1)
      if (s.metropolis_at(std::countr_zero(m)) < 0) ++plain_cities;
    if (plain_cities > 0) {
      int weakest = 1 << 20;
      for (int o = 0; o < s.num_seats(); ++o) {
        const PlayerState& q = s.player(o);
        bool vulnerable = false;
        for (uint64_t m = q.cities; m; m &= m - 1)
          if (s.metropolis_at(std::countr_zero(m)) < 0) vulnerable = true;
        if (vulnerable) weakest = std::min(weakest, active[o]);
      }
      if (my_active <= weakest) value -= 1.6 * urgency * urgency * urgency;
    }
  } else if (my_active > 0) {
    // Catan would win: the strongest contributor alone gets a Defender (BAR-5).
    bool top = true;
    for (int o = 0; o < s.num_seats(); ++o)
      if (o != seat && active[o] >= my_active) top = false;
    if (top) value += 0.6 * urgency * urgency * urgency;
  }

  // Room to grow.
  if (p.settlements_left > 0) {
    Sites sites = FindSites(s, seat);
    value +=
        remaining * (1.2 * sites.best + 0.5 * sites.second + 0.4 * sites.frontier + 0.1 * std::min(sites.count, 3));
  }
  // A settlement is a future city.
  value += 0.15 * remaining * std::popcount(p.settlements);
  value += 0.04 * p.road_length;
  value += 0.3 * p.num_progress;
  value += 0.25 * (3 - p.walls_left);
  if (s.options().ruleset == Ruleset::kBase) value += DevBoardValue(s, seat, remaining);
  return value;
}

double HandValue(const State& s, int seat) {
  const PlayerState& p = s.player(seat);
  const CardCounts& hand = p.hand;
  double value = 0;

  // What each build still needs; a build that can happen soon makes the
  // cards toward it worth more than surplus cards.
  int needed[kNumCardTypes] = {};
  auto want = [&](const int* cost, double weight, double* readiness) {
    int missing = Missing(hand, cost);
    double r = weight * (missing == 0 ? 1.0 : missing == 1 ? 0.5 : missing == 2 ? 0.2 : 0.05);
    *readiness = std::max(*readiness, r);
    if (missing <= 2)
      for (int c = 0; c < kNumCardTypes; ++c) needed[c] = std::max(needed[c], cost[c]);
  };
  double readiness = 0;
  const bool base = s.options().ruleset == Ruleset::kBase;
  if (p.settlements != 0 && p.cities_left > 0) want(kCityCost.cards, 1.0, &readiness);
  bool can_settle = p.settlements_left > 0;
  want(kSettlementCost.cards, can_settle ? 0.8 : 0.1, &readiness);
  want(kRoadCost.cards, 0.2, &readiness);
  if (base) {
    // BG-4: a development card while the deck has some.
    if (s.DevDeckSize() > 0) want(kDevCardCost.cards, 0.3, &readiness);
  } else {
    want(kKnightCost.cards, 0.15 + 0.3 * s.barbarian_position() / 7.0, &readiness);
  }
  if (p.cities != 0 && !base) {
    for (int t = 0; t < kNumTracks; ++t) {
      if (p.level[t] >= kMaxImprovementLevel) continue;
      int cost[kNumCardTypes] = {};
      cost[TrackCommodity(t)] = p.level[t] + 1;
      want(cost, 0.5 + 0.15 * p.level[t], &readiness);
    }
  }
  value += readiness;
  for (int c = 0; c < kNumCardTypes; ++c) {
    int n = hand[c];
    int useful = std::min(n, std::max(needed[c], 1));
    value += 0.2 * useful + 0.08 * (n - useful);
  }
  // A 7 before the next turn (about half the time) halves a hand over the limit.
  int total = hand.Total();
  if (total > s.HandLimit(seat)) value -= 0.1 * (total / 2);
  // Own development cards by kind, in place of the count-only value every
  // seat gets in BoardValue (BG-9: only the holder knows them).
  for (int k = 0; k < kNumDevKinds; ++k) value += (kDevHeld[k] - kUnknownDev) * p.dev[k];
  return value;
}

double Evaluate(const State& s, int seat) {
  if (s.IsTerminal()) {
    if (s.Winner() == seat) return 1000;
    if (s.Winner() != kNoSeat) return -1000;
  }
  return BoardValue(s, seat) + HandValue(s, seat);
}

double NormalizedValue(const State& s, int seat) {
  if (s.IsTerminal() && s.Winner() != kNoSeat) return s.Winner() == seat ? 1.0 : 0.0;
  double mine = 0, best_other = -1e9;
  for (int o = 0; o < s.num_seats(); ++o) {
    // Others' hands are scored by their size only: they are hidden.
    double v = BoardValue(s, o);
    if (o == seat) {
      mine = v + HandValue(s, o);
    } else {
      best_other = std::max(best_other, v + 0.2 * s.player(o).hand.Total());
    }
  }
  return 1.0 / (1.0 + std::exp(-(mine - best_other) / 2.5));
}

}  // namespace metropolis::bots
