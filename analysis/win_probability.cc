#include "analysis/win_probability.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "bots/bot.h"
#include "bots/evaluation.h"
#include "bots/search.h"

namespace metropolis::analysis {

SeatScores ScoreSeats(const State& s, int viewer) {
  SeatScores out;
  out.num_seats = s.num_seats();
  if (s.IsTerminal() && s.Winner() != kNoSeat) out.winner = s.Winner();
  int leader = 0;
  for (int o = 0; o < s.num_seats(); ++o) {
    // As NormalizedValue scores them: the viewer's hand in full, the others'
    // by its size, since the viewer cannot see them (a sampled hand is a guess).
    const double board = bots::BoardValue(s, o);
    out.score[size_t(o)] = o == viewer ? board + bots::HandValue(s, o) : board + 0.2 * s.player(o).hand.Total();
    leader = std::max(leader, bots::PublicVictoryPoints(s, o));
  }
  out.points_to_go = std::max(0, int(s.options().victory_points) - leader);
  return out;
}

double WinProbabilityFromScores(const SeatScores& scores, int seat, const WinOptions& options) {
  if (scores.winner != kNoSeat) return scores.winner == seat ? 1.0 : 0.0;
  const double t = std::max(0.05, options.temperature_base + options.temperature_per_point * scores.points_to_go);
  double top = -1e300;
  for (int o = 0; o < scores.num_seats; ++o) top = std::max(top, scores.score[size_t(o)]);
  double total = 0, mine = 0;
  for (int o = 0; o < scores.num_seats; ++o) {
    const double w = std::exp((scores.score[size_t(o)] - top) / t);  // shifted: no overflow
    total += w;
    if (o == seat) mine = w;
  }
  return mine / total;
}

double EstimateWinProbability(const View& view, const WinOptions& options, uint64_t* rng) {
  const int me = view.viewer;
  if (view.state.IsTerminal()) return view.state.Winner() == me ? 1.0 : 0.0;
  State sample = view.state;
  std::string error;
  // The evaluation of the view is the same on every sample (bots/evaluation.h);
  // playouts then look ahead from different guesses of the hidden cards.
  if (!SampleState(view, bots::NextRandom(rng), &sample, &error)) return 1.0 / view.state.num_seats();
  if (options.playouts <= 0) return WinProbabilityFromScores(ScoreSeats(sample, me), me, options);
  double sum = 0;
  int done = 0;
  ActionList legal;
  for (int k = 0; k < options.playouts; ++k) {
    if (k > 0 && !SampleState(view, bots::NextRandom(rng), &sample, &error)) break;
    State d = sample;
    for (int p = 0; p < options.plies && !d.IsTerminal(); ++p) {
      if (d.IsChanceNode()) {
        d.ApplyUnchecked(d.SampleChance(bots::UniformRandom(rng)));
      } else {
        d.LegalActions(&legal);
        d.ApplyUnchecked(bots::DefaultPolicy(d, legal, rng));
      }
    }
    sum += WinProbabilityFromScores(ScoreSeats(d, me), me, options);
    ++done;
  }
  return sum / done;
}

}  // namespace metropolis::analysis
