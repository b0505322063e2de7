// Board queries shared by legal-action generation and application.
#include <algorithm>

#include "engine/rules_internal.h"

namespace metropolis {

uint64_t RulesImpl::RoadNodes(const State& s, int seat) {
  const Topology& topo = GetTopology();
  const PlayerState& ps = s.players_[seat];
  uint64_t m = 0;
  METROPOLIS_FOR_BITS(e, ps.roads_lo) {
    m |= uint64_t(1) << topo.edge_nodes[e][0];
    m |= uint64_t(1) << topo.edge_nodes[e][1];
  }
  METROPOLIS_FOR_BITS(e, ps.roads_hi) {
    m |= uint64_t(1) << topo.edge_nodes[e + 64][0];
    m |= uint64_t(1) << topo.edge_nodes[e + 64][1];
  }
  return m;
}

uint64_t RulesImpl::Reachable(const PlayerState& ps, int from, uint64_t blocked) {
  const Topology& topo = GetTopology();
  uint64_t seen = uint64_t(1) << from, frontier = seen, reached = 0;
  while (frontier) {
    uint64_t step = 0;  // both ends of every own road at the frontier
    METROPOLIS_FOR_BITS(v, frontier) {
      METROPOLIS_FOR_BITS(e, topo.node_edge_lo[v] & ps.roads_lo) step |= topo.edge_node_mask[e];
      METROPOLIS_FOR_BITS(e, topo.node_edge_hi[v] & ps.roads_hi) step |= topo.edge_node_mask[e + 64];
    }
    step &= ~seen;
    seen |= step;
    reached |= step;
    frontier = step & ~blocked;  // may end on a blocked node, not pass it
  }
  return reached;
}

namespace {

// Both coastal nodes of each harbor slot as one mask.
struct HarborNodeMasks {
  std::array<uint64_t, kNumHarbors> mask{};
  HarborNodeMasks() {
    const Topology& topo = GetTopology();
    for (int h = 0; h < kNumHarbors; ++h)
      mask[h] = (uint64_t(1) << topo.harbor_nodes[h][0]) | (uint64_t(1) << topo.harbor_nodes[h][1]);
  }
};
const HarborNodeMasks kHarborNodes;

}  // namespace

uint32_t RulesImpl::HarborMask(const State& s, int seat) {
  const uint64_t b = s.players_[seat].buildings();
  uint32_t m = 0;
  for (int h = 0; h < kNumHarbors; ++h)
    if (b & kHarborNodes.mask[h]) m |= 1u << h;
  return m;
}

void RulesImpl::ComputeHarborNodes(State& s) {
  s.harbor_nodes_.fill(0);
  for (int h = 0; h < kNumHarbors; ++h) s.harbor_nodes_[s.board_.harbor[h] % kNumHarborTypes] |= kHarborNodes.mask[h];
}

RulesImpl::BankRates RulesImpl::ComputeBankRates(const State& s, int seat) {
  // 4:1, or 3:1 at a generic harbor, for every card; then the cards traded
  // 2:1 (own-type harbors, IMP-6, C-T3, C-T4) as one byte mask.
  const uint8_t harbors = s.players_[seat].harbors;
  const bool generic = (harbors >> kGenericHarbor) & 1;
  uint32_t two = harbors & ((1u << kNumResources) - 1);
  if (s.players_[seat].level[kTrade] >= 3) two |= ((1u << kNumCardTypes) - 1) & ~((1u << kNumResources) - 1);
  if (s.merchant_owner_ == seat && s.merchant_hex_ >= 0 && s.board_.terrain[s.merchant_hex_] < kNumResources)
    two |= 1u << s.board_.terrain[s.merchant_hex_];
  if (seat == s.current_) two |= s.effects_.fleet_cards;
  const uint64_t twos = ByteMaskOfBits(two);
  BankRates r;
  r.to_resource = (((generic ? 3 : 4) * kByteOnes) & ~twos) | ((2 * kByteOnes) & twos);
  r.to_commodity = r.to_resource;
  // D18: under RESOURCE_ONLY a 3:1 harbor turns commodities into resources only.
  if (generic && s.options_.harbor3_commodity_output == Harbor3CommodityOutput::kResourceOnly)
    for (int c = kNumResources; c < kNumCardTypes; ++c)
      if (((r.to_commodity >> (8 * c)) & 0xFF) == 3) r.to_commodity += uint64_t(1) << (8 * c);
  return r;
}

bool RulesImpl::HasCityWithoutMetropolis(const State& s, int seat) {
  uint64_t cities = s.players_[seat].cities;
  for (int t = 0; t < kNumTracks; ++t)
    if (s.metropolis_node_[t] >= 0) cities &= ~(uint64_t(1) << s.metropolis_node_[t]);
  return cities != 0;
}

bool RulesImpl::IsRobberLocked(const State& s) {
  // BG-3: the base game has no barbarians, so no lock.
  return s.options_.robber_locked_until_first_attack && !s.first_attack_done_ && !IsBase(s);
}

int RulesImpl::Contribution(const State& s, int seat, KnightMeasure measure) {
  int total = 0;
  METROPOLIS_FOR_BITS(v, s.players_[seat].knights) {
    const uint8_t f = s.knight_flags_[v];
    const bool counts = s.options_.fiesepeter ? (f & kKnightCommitted) : (f & kKnightActive);
    if (counts) total += measure == KnightMeasure::kCount ? 1 : s.knight_level_[v];
  }
  return total;
}

int RulesImpl::SetupSeat(const State& s, int step) {
  const int n = s.num_seats_;
  const int pair = step / 2;
  return pair < n ? (s.start_ + pair) % n : (s.start_ + (2 * n - 1 - pair)) % n;
}

int RulesImpl::ProgressLimit(const State& s, int seat) {
  const bool own_turn = s.phase_ != Phase::kSetup && seat == s.current_;
  switch (s.options_.progress_hand_limit) {
    case ProgressHandLimit::kStrictFour:
      return 4;
    case ProgressHandLimit::kFiveOnOwnTurn:
    case ProgressHandLimit::kPlayOrDiscard:
      return own_turn ? 5 : 4;
  }
  return 4;
}

bool RulesImpl::CanBuyImprovement(const State& s, int seat, int track) {
  const PlayerState& ps = s.players_[seat];
  const int level = ps.level[track];
  if (level >= kMaxImprovementLevel) return false;
  if (ps.cities == 0) return false;                                                             // IMP-2
  const int cost = level + 1 - (s.effects_.crane_discounts > 0 && seat == s.current_ ? 1 : 0);  // C-S2
  if (ps.hand[TrackCommodity(track)] < cost) return false;
  if (level + 1 == 4) {  // IMP-3
    if (s.options_.level4_city_rule == Level4CityRule::kFreeCityRequired) {
      if (!HasCityWithoutMetropolis(s, seat)) return false;
    } else if (CountCities(s, seat) == 1 && !HasCityWithoutMetropolis(s, seat)) {
      return false;
    }
  }
  if (level + 1 == 5) {  // IMP-4
    const int owner = s.metropolis_owner_[track];
    const bool places = owner == kNoSeat || (owner != seat && s.players_[owner].level[track] < 5);
    if (places && !HasCityWithoutMetropolis(s, seat)) return false;
  }
  return true;
}

}  // namespace metropolis
