#include "tools/engine/players.h"

#include <algorithm>
#include <cmath>

#include "engine/topology.h"

namespace metropolis::cli {
namespace {

// Ways to roll a number with two dice: the usual "pips" of a token.
int Pips(int token) { return token < 2 || token > 12 ? 0 : 6 - std::abs(7 - token); }

// Uniform over the legal actions. It never offers trades: offers are not
// enumerated, and a random offer would mostly be noise.
class RandomPlayer : public Player {
 public:
  std::string_view name() const override { return "random"; }
  Action Choose(const State& state, Rng& rng) override {
    state.LegalActions(&legal_);
    return legal_.items[rng.Below(uint32_t(legal_.size))];
  }

 private:
  ActionList legal_;
};

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

// One ply: apply each legal action to a copy and keep the best. Ending the
// turn wins ties, so that moves that change nothing (a knight walking back
// and forth) cannot loop until the length cap.
class GreedyPlayer : public Player {
 public:
  std::string_view name() const override { return "greedy"; }

  Action Choose(const State& state, Rng& rng) override {
    state.LegalActions(&legal_);
    if (legal_.size == 1) return legal_.items[0];
    const int seat = state.CurrentPlayer();

    if (const Action* a = AnswerTrade(state, seat)) return *a;

    constexpr double kEpsilon = 1e-9;
    double best = -1e300, end_turn_score = -1e300;
    bool can_end_turn = false;
    int num_best = 0;
    Action choice = legal_.items[0];
    for (const Action& a : legal_) {
      State copy = state;
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
      } else if (s > best - kEpsilon && rng.Below(uint32_t(++num_best)) == 0) {
        choice = a;  // reservoir sampling: each tied action equally likely
      }
    }
    if (can_end_turn && best <= end_turn_score + kEpsilon) return Action::EndTurn();
    return choice;
  }

 private:
  // TRD-3 step 2: accept only a trade that makes the hand worth more.
  const Action* AnswerTrade(const State& state, int seat) {
    const Action* accept = nullptr;
    const Action* decline = nullptr;
    for (const Action& a : legal_) {
      if (a.type == ActionType::kTradeAccept) accept = &a;
      if (a.type == ActionType::kTradeDecline) decline = &a;
    }
    if (!decline) return nullptr;
    if (!accept) return decline;
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

  ActionList legal_;
};

}  // namespace

double GreedyScore(const State& state, int seat) {
  return BoardScore(state, seat) + HandScore(state.player(seat).hand, state.HandLimit(seat));
}

std::unique_ptr<Player> MakePlayer(std::string_view name) {
  if (name == "random") return std::make_unique<RandomPlayer>();
  if (name == "greedy") return std::make_unique<GreedyPlayer>();
  return nullptr;
}

const std::vector<std::string>& PlayerNames() {
  static const std::vector<std::string> names = {"greedy", "random"};
  return names;
}

}  // namespace metropolis::cli
