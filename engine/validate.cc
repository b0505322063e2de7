// State::Validate(): the consistency check in the spirit of Stockfish's
// pos_is_ok(). Everything kept incrementally is recomputed from scratch here
// and compared; debug builds run it after every step.
#include <algorithm>
#include <bit>
#include <sstream>
#include <vector>

#include "engine/rules_internal.h"

namespace metropolis {

namespace {

struct Checker {
  std::ostringstream out;
  bool ok = true;
  template <typename... T>
  void Fail(const T&... parts) {
    if (!ok) return;  // the first problem is the useful one
    ok = false;
    (out << ... << parts);
  }
};

// Longest Road the slow way (LR-1): every trail from every node, with no
// shortcut, so that Validate() checks the fast search in ComputeRoadLength.
int SlowRoadLength(const State& s, int seat) {
  const Topology& topo = GetTopology();
  std::vector<int> roads;
  for (int e = 0; e < kNumEdges; ++e)
    if (s.road_owner(e) == seat) roads.push_back(e);
  auto blocked = [&](int v) {
    return (s.building_owner(v) != kNoSeat && s.building_owner(v) != seat) ||
           (s.knight_owner(v) != kNoSeat && s.knight_owner(v) != seat);
  };
  int best = 0;
  std::vector<bool> used(roads.size());
  auto extend = [&](auto&& self, int node, int length) -> void {
    best = std::max(best, length);
    if (length > 0 && blocked(node)) return;  // may end here, not pass
    for (size_t i = 0; i < roads.size(); ++i) {
      if (used[i]) continue;
      const auto& ends = topo.edge_nodes[roads[i]];
      if (ends[0] != node && ends[1] != node) continue;
      used[i] = true;
      self(self, ends[0] == node ? ends[1] : ends[0], length + 1);
      used[i] = false;
    }
  };
  for (int v = 0; v < kNumNodes; ++v) extend(extend, v, 0);
  return best;
}

}  // namespace

std::string State::Validate() const {
  Checker c;
  const Topology& topo = GetTopology();
  const int n = num_seats_;
  if (n < kMinSeats || n > kMaxSeats) c.Fail("num_seats ", n, " out of range");

  // Pieces: per-node arrays agree with the per-player masks, and board plus
  // supply equal the totals of RULES.md 1.4.
  for (int p = 0; p < kMaxSeats && c.ok; ++p) {
    const PlayerState& ps = players_[p];
    uint64_t settlements = 0, cities = 0, knights = 0, lo = 0, hi = 0;
    int walls = 0;
    std::array<int, kMaxKnightLevel> levels{};
    for (int v = 0; v < kNumNodes; ++v) {
      if (building_owner_[v] == p) {
        if (building_[v] == kSettlement) settlements |= uint64_t(1) << v;
        if (building_[v] == kCity) cities |= uint64_t(1) << v;
        if ((node_flags_[v] & kWall) && building_[v] == kCity) ++walls;
      }
      if (knight_owner_[v] == p) {
        knights |= uint64_t(1) << v;
        if (knight_level_[v] < 1 || knight_level_[v] > kMaxKnightLevel)
          c.Fail("knight at n", v, " has level ", int(knight_level_[v]));
        else
          ++levels[knight_level_[v] - 1];
      }
    }
    for (int e = 0; e < kNumEdges; ++e)
      if (road_owner_[e] == p) (e < 64 ? lo : hi) |= uint64_t(1) << (e < 64 ? e : e - 64);
    if (p >= n && (settlements | cities | knights | lo | hi)) c.Fail("seat ", p, " does not play but has pieces");
    if (settlements != ps.settlements || cities != ps.cities || knights != ps.knights || lo != ps.roads_lo ||
        hi != ps.roads_hi)
      c.Fail("seat ", p, ": piece masks disagree with the board");
    if (ps.road_nodes != RulesImpl::RoadNodes(*this, p)) c.Fail("seat ", p, ": cached road nodes are stale");
    if (ps.harbors != RulesImpl::HarborTypes(*this, settlements | cities))
      c.Fail("seat ", p, ": cached harbor types are stale");
    if (p >= n) continue;
    if (std::popcount(settlements) + ps.settlements_left != 5)
      c.Fail("seat ", p, ": settlements on board + supply != 5");
    // BAR-10: each city pillaged while all five settlements are out puts a
    // sixth (seventh, ...) on the board, so the supply may go below zero.
    if (ps.settlements_left < -4) c.Fail("seat ", p, ": settlement supply ", int(ps.settlements_left));
    if (std::popcount(cities) + ps.cities_left != 4) c.Fail("seat ", p, ": cities on board + supply != 4");
    if (std::popcount(lo) + std::popcount(hi) + ps.roads_left != 15)
      c.Fail("seat ", p, ": roads on board + supply != 15");
    if (walls + ps.walls_left != 3) c.Fail("seat ", p, ": walls on board + supply != 3");
    for (int l = 0; l < kMaxKnightLevel; ++l)
      if (levels[l] + ps.knights_left[l] != 2) c.Fail("seat ", p, ": level-", l + 1, " knights board + supply != 2");
    for (int t = 0; t < kNumTracks; ++t)
      if (ps.level[t] > kMaxImprovementLevel) c.Fail("seat ", p, ": improvement level ", int(ps.level[t]));
  }
  for (int v = 0; v < kNumNodes && c.ok; ++v) {
    if (building_[v] > kCity) c.Fail("n", v, ": bad building code");
    if ((building_[v] == kNoBuilding) != (building_owner_[v] == kNoSeat)) c.Fail("n", v, ": building without owner");
    if (building_[v] != kNoBuilding && knight_owner_[v] != kNoSeat) c.Fail("n", v, ": a building and a knight");
    if (building_[v] != kCity && node_flags_[v] != 0) c.Fail("n", v, ": wall or sabotage mark without a city");
    if (knight_owner_[v] == kNoSeat && (knight_level_[v] != 0 || knight_flags_[v] != 0))
      c.Fail("n", v, ": knight data without a knight");
    if (building_[v] != kNoBuilding)
      for (int i = 0; i < 3; ++i) {
        const int w = topo.node_nodes[v][i];
        if (w >= 0 && building_[w] != kNoBuilding) c.Fail("n", v, " and n", w, ": buildings break the distance rule");
      }
  }

  // Cards: hands plus bank equal the totals (19 per resource, 12 per commodity).
  for (int card = 0; card < kNumCardTypes && c.ok; ++card) {
    int total = bank_[card];
    for (int p = 0; p < n; ++p) total += players_[p].hand[card];
    const int expected = CardSupply(card, options_);
    if (total != expected) c.Fail(CardName(card), ": hands + bank = ", total, ", expected ", expected);
    if (options_.bank_limited && bank_[card] < 0) c.Fail(CardName(card), ": bank below zero");
  }
  for (int p = n; p < kMaxSeats && c.ok; ++p)
    if (players_[p].hand.Total() != 0 || players_[p].num_progress != 0)
      c.Fail("seat ", p, " does not play but has cards");

  // Progress cards: decks plus hands plus revealed VP cards equal the decks'
  // composition.
  std::array<int, kNumProgressKinds> seen{};
  for (int t = 0; t < kNumTracks && c.ok; ++t) {
    const ProgressDeck& d = decks_[t];
    int unseen = 0;
    for (int k = 0; k < TrackNumKinds(t); ++k) {
      seen[TrackFirstCard(t) + k] += d.unseen[k];
      unseen += d.unseen[k];
    }
    for (int k = TrackNumKinds(t); k < 10; ++k)
      if (d.unseen[k]) c.Fail("deck ", TrackName(t), ": unseen count for a kind of another deck");
    if (unseen != d.unseen_total) c.Fail("deck ", TrackName(t), ": unseen_total ", int(d.unseen_total), " != ", unseen);
    if (d.head != 0 || d.size > ProgressDeck::kCapacity) c.Fail("deck ", TrackName(t), ": bad queue");
    for (int i = 0; i < ProgressDeck::kCapacity && c.ok; ++i) {
      if (i < d.size) {
        if (ProgressTrack(d.returned[i]) != t || d.returned[i] >= kNumProgressKinds)
          c.Fail("deck ", TrackName(t), ": returned card of another deck");
        else
          ++seen[d.returned[i]];
        if (d.returned_hidden[i] > n) c.Fail("deck ", TrackName(t), ": bad hidden marker");
      } else if (d.returned[i] != 0 || d.returned_hidden[i] != 0) {
        c.Fail("deck ", TrackName(t), ": stale queue entry");
      }
    }
  }
  for (int p = 0; p < n && c.ok; ++p) {
    const PlayerState& ps = players_[p];
    if (ps.num_progress > ps.progress.size()) c.Fail("seat ", p, ": too many progress cards");
    for (int i = 0; i < int(ps.progress.size()) && c.ok; ++i) {
      if (i < ps.num_progress) {
        if (ps.progress[i] >= kNumProgressKinds || IsVictoryPointCard(ps.progress[i]))
          c.Fail("seat ", p, ": bad progress card in hand");
        else
          ++seen[ps.progress[i]];
        if (i > 0 && ps.progress[i] < ps.progress[i - 1]) c.Fail("seat ", p, ": progress hand not sorted");
      } else if (ps.progress[i] != kNoProgressCard) {
        c.Fail("seat ", p, ": stale progress slot");
      }
    }
    if (ps.vp_cards & 1) ++seen[kPrinter];
    if (ps.vp_cards & 2) ++seen[kConstitution];
    if (ps.vp_cards > 3) c.Fail("seat ", p, ": bad vp_cards");
  }
  // A played card is on the stack until its effect is resolved (PC-6).
  for (int i = 0; i < pending_size_; ++i)
    if (pending_[i].kind == PendingKind::kStepReturnProgress && pending_[i].a < kNumProgressKinds)
      ++seen[pending_[i].a];
  const bool base = options_.ruleset == Ruleset::kBase;
  for (int k = 0; k < kNumProgressKinds && c.ok; ++k) {
    const int expected = base ? 0 : ProgressCardCount(k, options_);  // BG-1: no progress cards
    if (seen[k] != expected) c.Fail(ProgressCardName(k), ": ", seen[k], " in play, expected ", expected);
  }

  // Development cards (BG-1): deck + hands + played = 25; Largest Army (BG-6)
  // recomputed.
  for (int k = 0; k < kNumDevKinds && c.ok; ++k) {
    int total = dev_deck_[k] + (k == kDevKnight ? 0 : dev_discarded_[k]);
    for (int p = 0; p < kMaxSeats; ++p) total += players_[p].dev[k] + (k == kDevKnight ? players_[p].army : 0);
    const int expected = base ? kDevCardCounts[k] : 0;
    if (total != expected) c.Fail(DevCardName(k), ": ", total, " development cards in play, expected ", expected);
    if (dev_discarded_[kDevKnight] != 0 || dev_discarded_[kDevVictoryPoint] != 0)
      c.Fail("knights and victory point cards are never discarded");
    if (dev_bought_[k] > players_[current_ < 0 ? 0 : current_].dev[k])
      c.Fail(DevCardName(k), ": more bought this turn than held");
  }
  for (int p = n; p < kMaxSeats && c.ok; ++p)
    if (players_[p].DevTotal() != 0 || players_[p].army != 0) c.Fail("seat ", p, " does not play but has dev cards");
  if (c.ok && !base && (dev_played_ || largest_army_ != kNoSeat))
    c.Fail("development-card state outside the base game");
  if (c.ok) {
    int best = 0;
    for (int p = 0; p < n; ++p) best = std::max<int>(best, players_[p].army);
    if (largest_army_ == kNoSeat) {
      if (best >= 3) c.Fail("Largest Army unheld though a seat played ", best, " knights (BG-6)");
    } else if (largest_army_ < 0 || largest_army_ >= n || players_[largest_army_].army < 3 ||
               players_[largest_army_].army != best) {
      c.Fail("Largest Army held by seat ", int(largest_army_), " without the most knights >= 3 (BG-6)");
    }
  }

  // Derived facts recomputed from scratch.
  for (int p = 0; p < n && c.ok; ++p) {
    const int len = SlowRoadLength(*this, p);
    if (len != players_[p].road_length) c.Fail("seat ", p, ": road length ", int(players_[p].road_length), " != ", len);
  }
  if (c.ok) {
    int best = 0, count = 0;
    for (int p = 0; p < n; ++p) {
      const int len = players_[p].road_length;
      if (len > best)
        best = len, count = 1;
      else if (len == best)
        ++count;
    }
    if (longest_road_ != kNoSeat) {
      if (longest_road_ >= n || players_[longest_road_].road_length != best || best < 5)
        c.Fail("Longest Road held by seat ", int(longest_road_), " without the greatest length >= 5 (LR-4)");
    } else if (best >= 5 && count == 1) {
      c.Fail("Longest Road unheld though one seat alone has length ", best, " (LR-4)");
    }
  }
  for (int t = 0; t < kNumTracks && c.ok; ++t) {
    const int owner = metropolis_owner_[t], node = metropolis_node_[t];
    if ((owner == kNoSeat) != (node < 0)) c.Fail("metropolis ", TrackName(t), ": owner and node disagree");
    if (owner != kNoSeat && (building_owner_[node] != owner || building_[node] != kCity))
      c.Fail("metropolis ", TrackName(t), " is not on a city of its owner");
    if (owner != kNoSeat && players_[owner].level[t] < 4) c.Fail("metropolis ", TrackName(t), " owner below level 4");
    for (int u = 0; u < t; ++u)
      if (node >= 0 && metropolis_node_[u] == node) c.Fail("two metropolises on n", node);
  }
  for (int p = 0; p < n && c.ok; ++p)
    if (ComputeVictoryPoints(p) != players_[p].vp)
      c.Fail("seat ", p, ": running VP ", int(players_[p].vp), " != recomputed ", ComputeVictoryPoints(p));

  // Odds and ends.
  if (c.ok && (robber_ < 0 || robber_ >= kNumHexes)) c.Fail("robber off the board");
  if (c.ok && merchant_hex_ >= kNumHexes) c.Fail("merchant off the board");
  if (c.ok && (merchant_hex_ < 0) != (merchant_owner_ == kNoSeat)) c.Fail("merchant hex and owner disagree");
  // The ship waits on space 7 only while fiesepeter commitments are pending
  // (or when the length cap ended the game then).
  const bool attack_pending = std::any_of(pending_.begin(), pending_.begin() + pending_size_,
                                          [](const Pending& p) { return p.kind == PendingKind::kStepAttack; });
  if (c.ok && (barbarians_ > 7 || (barbarians_ == 7 && !attack_pending && phase_ != Phase::kGameOver)))
    c.Fail("barbarian ship at ", int(barbarians_));
  if (c.ok && (current_ < 0 || current_ >= n || start_ < 0 || start_ >= n)) c.Fail("current/start seat out of range");
  if (c.ok && pending_size_ > kMaxPending) c.Fail("pending stack overflow");
  for (int i = 0; i < kMaxPending && c.ok; ++i) {
    if (i >= pending_size_) {
      if (!(pending_[i] == Pending{})) c.Fail("stale pending entry ", i);
      continue;
    }
    const Pending& p = pending_[i];
    if (p.kind > PendingKind::kDevDraw) c.Fail("pending entry ", i, ": bad kind");
    if (p.kind != PendingKind::kStartPlayer && (p.seat < 0 || p.seat >= n)) c.Fail("pending entry ", i, ": bad seat");
    // BG-4: only the current player buys, in his action phase (the card drawn
    // counts as bought this turn).
    if (c.ok && p.kind == PendingKind::kDevDraw && (!base || p.seat != current_ || phase_ != Phase::kAction))
      c.Fail("pending entry ", i, ": a development card drawn for seat ", int(p.seat), " outside its action phase");
    if (!c.ok || i != pending_size_ - 1) continue;
    // The entry on top must be decidable as it stands (positions read from
    // text can say anything); entries below are checked when they get there.
    const PlayerState& ps = players_[p.seat < 0 ? 0 : p.seat];
    switch (p.kind) {
      case PendingKind::kDiscard:
        if (p.a == 0 || ps.hand.Total() < p.a) c.Fail("pending discard of ", int(p.a), " by a seat holding fewer");
        break;
      case PendingKind::kSteal:
        if (p.a >= n || p.a == p.seat || players_[p.a].hand.Total() == 0) c.Fail("pending steal from an empty hand");
        break;
      case PendingKind::kDraw:
      case PendingKind::kDefenderTake:
      case PendingKind::kStepDraws:
        if (p.a >= kNumTracks) c.Fail("pending draw from deck ", int(p.a));
        break;
      case PendingKind::kDiscardProgress:
      case PendingKind::kEndTurnDiscard:
        if (ps.num_progress == 0) c.Fail("pending progress discard by a seat holding none");
        break;
      case PendingKind::kRelocateKnight:
        if (p.a >= kNumNodes || p.b < 1 || p.b > kMaxKnightLevel) c.Fail("pending relocation with bad knight data");
        break;
      case PendingKind::kPlaceMetropolis:
        if (p.a >= kNumTracks) c.Fail("pending metropolis of track ", int(p.a));
        break;
      case PendingKind::kStepReturnProgress:
        if (p.a >= kNumProgressKinds) c.Fail("pending return of card ", int(p.a));
        break;
      default:
        break;
    }
  }
  // Setup (SET-2/SET-3): a road step follows the building it must touch.
  if (c.ok && phase_ == Phase::kSetup) {
    if (setup_step_ >= 4 * n) c.Fail("setup step ", int(setup_step_), " past the last placement");
    const bool road_step = setup_step_ % 2 == 1;
    if (c.ok && road_step &&
        (last_setup_node_ < 0 || last_setup_node_ >= kNumNodes || building_[last_setup_node_] == kNoBuilding))
      c.Fail("setup road step without the building it must touch");
    if (c.ok && !road_step && last_setup_node_ != -1) c.Fail("setup building step with a pending road node");
  }
  // Whoever must act can act: a seat has a legal action, a chance node an outcome.
  if (c.ok && phase_ != Phase::kGameOver) {
    const int actor = CurrentPlayer();
    if (actor == kChancePlayer && ChanceOutcomes().empty()) c.Fail("a chance node without outcomes");
    if (actor >= 0) {
      ActionList legal;
      LegalActions(&legal);
      if (legal.size == 0) c.Fail("seat ", actor, " must act but has no legal action");
    }
  }
  if (c.ok && phase_ == Phase::kGameOver && pending_size_ != 0) c.Fail("decisions pending after the game ended");
  if (c.ok && trade_.open != (std::find_if(pending_.begin(), pending_.begin() + pending_size_, [](const Pending& p) {
                                return p.kind == PendingKind::kTradeClose;
                              }) != pending_.begin() + pending_size_))
    c.Fail("trade state and pending stack disagree");
  return c.ok ? std::string() : c.out.str();
}

}  // namespace metropolis
