#include "bots/greedy.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/topology.h"

namespace metropolis::bots {
namespace {

constexpr uint64_t kSampleSalt = 0x67726565647921ull;  // "greedy!"

// Ways to roll a number with two dice: the usual "pips" of a token.
int Pips(int token) { return token < 2 || token > 12 ? 0 : 6 - std::abs(7 - token); }

// The value of holding these cards. Each further card of a type is worth
// less than the one before, which makes trading surplus for a missing type
// worth it and makes discards drop surplus first; cards over the 7-limit
// cost something since a 7 would halve them.
double HandScore(const CardCounts& hand, int hand_limit) {
  double v = 0;
  for (int c = 0; c < kNumCardTypes; ++c)
    for (int k = 1; k <= hand[c]; ++k) v += 6.0 / k;
  int excess = hand.Total() - hand_limit;
  if (excess > 0) v -= 3.0 * excess;
  return v;
}

// Everything but the hand, so that a trade can be judged by the hand alone.
double BoardScore(const State& state, int seat) {
  const Topology& topo = GetTopology();
  const PlayerState& p = state.player(seat);
  double score = 100.0 * p.vp;

  // Expected production: pips of the hexes around each building; a city
  // yields two cards (two resources, or a resource and a commodity).
  double pips = 0;
  for (int v = 0; v < kNumNodes; ++v) {
    if (state.building_owner(v) != seat) continue;
    int mult = state.building(v) == kCity ? 2 : 1;
    for (int h : topo.node_hexes[v])
      if (h >= 0 && h != state.robber_hex()) pips += mult * Pips(state.board().token[h]);
  }
  score += 4.0 * pips;

  // Knights matter most when the barbarians are about to land (BAR-1).
  double levels = 0, active_strength = 0;
  for (int v = 0; v < kNumNodes; ++v) {
    if (state.knight_owner(v) != seat) continue;
    levels += state.knight_level(v);
    if (state.knight_flags(v) & kKnightActive) active_strength += state.knight_level(v);
  }
  score += 8.0 * levels + active_strength * (4.0 + 12.0 * state.barbarian_position() / 7.0);

  for (int t = 0; t < kNumTracks; ++t) score += 20.0 * p.level[t];
  score += 5.0 * p.num_progress;
  score += 5.0 * (3 - p.walls_left);

  // Room to grow: free sites reachable by one's own roads (capped: a fourth
  // site adds nothing the third did not).
  int sites = 0;
  for (int v = 0; v < kNumNodes && sites < 3; ++v) {
    if (state.building_owner(v) != kNoSeat || state.knight_owner(v) != kNoSeat) continue;
    bool free = true, reached = false;
    for (int i = 0; i < 3; ++i) {
      int n = topo.node_nodes[v][i];
      if (n < 0) continue;
      if (state.building_owner(n) != kNoSeat) free = false;
      if (state.road_owner(topo.node_edges[v][i]) == seat) reached = true;
    }
    if (free && reached) ++sites;
  }
  score += 6.0 * sites + 3.0 * p.road_length;
  return score;
}

// TRD-3 step 2: accept only a trade that makes the hand worth more. Reads the
// seat's own hand and the open offer, both in the view as they are.
const Action* AnswerTrade(const View& view) {
  const Action* accept = nullptr;
  const Action* decline = nullptr;
  for (const Action& a : view.legal) {
    if (a.type == ActionType::kTradeAccept) accept = &a;
    if (a.type == ActionType::kTradeDecline) decline = &a;
  }
  if (!decline) return nullptr;
  if (!accept) return decline;
  const State& state = view.state;
  const int seat = view.viewer;
  const TradeState& t = state.trade();
  CardCounts hand = state.player(seat).hand;
  CardCounts after = hand;
  for (int c = 0; c < kNumCardTypes; ++c) {
    int n = int(after[c]) + t.give.Get(c) - t.want.Get(c);
    if (n < 0) return decline;
    after[c] = uint8_t(n);
  }
  int limit = state.HandLimit(seat);
  return HandScore(after, limit) > HandScore(hand, limit) ? accept : decline;
}

}  // namespace

double GreedyScore(const State& state, int seat) {
  return BoardScore(state, seat) + HandScore(state.player(seat).hand, state.HandLimit(seat));
}

// One ply: apply each legal action to a copy of the sampled state and keep the
// best. Ending the turn wins ties, so that moves that change nothing (a knight
// walking back and forth) cannot loop until the length cap.
Action GreedyBot::Choose(const View& view, uint64_t* rng) {
  if (view.legal.size() == 1) return view.legal[0];
  if (const Action* a = AnswerTrade(view)) return *a;
  const int seat = view.viewer;

  // The sample's seed is derived from the stream without advancing it: the
  // stream is drawn only to break ties, as when greedy read the full state, so
  // a seeded game goes differently only where hidden cards change a score.
  State sampled = view.state;
  std::string error;
  if (!SampleState(view, MixSeed(*rng, kSampleSalt), &sampled, &error))
    return view.legal[RandomBelow(rng, uint32_t(view.legal.size()))];
  // An action of the view that depends on a hidden fact the sample dealt
  // otherwise is not legal there; it is skipped, as the heuristic does.
  ActionList legal;
  sampled.LegalActions(&legal);

  constexpr double kEpsilon = 1e-9;
  double best = -1e300, end_turn_score = -1e300;
  bool can_end_turn = false;
  int num_best = 0;
  Action choice = view.legal[0];
  for (const Action& a : view.legal) {
    if (!std::binary_search(legal.begin(), legal.end(), a)) continue;
    State copy = sampled;
    copy.ApplyUnchecked(a);
    double s = GreedyScore(copy, seat);
    if (a.type == ActionType::kEndTurn) {
      can_end_turn = true;
      end_turn_score = s;
    }
    if (s > best + kEpsilon) {
      best = s;
      num_best = 1;
      choice = a;
    } else if (s > best - kEpsilon && RandomBelow(rng, uint32_t(++num_best)) == 0) {
      choice = a;  // reservoir sampling: each tied action equally likely
    }
  }
  if (can_end_turn && best <= end_turn_score + kEpsilon) return Action::EndTurn();
  return choice;
}

}  // namespace metropolis::bots
