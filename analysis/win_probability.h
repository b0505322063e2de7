// A seat's chance of winning, judged from its own view (never the full
// state): every seat is scored with the search bot's evaluation as the seat
// can see it (bots/evaluation.h: its own hand in full, the others' by their
// size), and the scores become probabilities by a softmax whose temperature
// shrinks as the leader nears the target, so that a lead of two points means
// little early and nearly everything at the end:
//
//   p(s) = exp(score(s) / T) / sum over seats o of exp(score(o) / T)
//   T    = kTemperatureBase + kTemperaturePerPoint * (points the leader still needs)
//
// With `playouts` > 0 the scores are averaged over that many states sampled
// from the view (SampleState) and played on for `plies` actions by the search
// bot's default policy, the look-ahead the search bot itself uses.
// A won game gives 1 to its winner and 0 to the others.
//
// The two constants were fitted by maximum likelihood on games of the
// heuristic bots (`metropolis-engine analyse --calibrate`, docs/ANALYSIS.md);
// the test checks that they beat the uniform guess on games the fit never saw.
#pragma once

#include <array>
#include <cstdint>

#include "engine/view.h"

namespace metropolis::analysis {

inline constexpr double kTemperatureBase = 2.25;
inline constexpr double kTemperaturePerPoint = 0.10;

struct WinOptions {
  int playouts = 0;
  int plies = 30;
  double temperature_base = kTemperatureBase;
  double temperature_per_point = kTemperaturePerPoint;
};

// The scores behind the estimate, for calibration: every seat's score as
// `view.viewer` sees it, and the points the leader still needs.
struct SeatScores {
  std::array<double, kMaxSeats> score{};
  int num_seats = 0;
  int points_to_go = 0;
  int winner = kNoSeat;  // the game is already won
};
SeatScores ScoreSeats(const State& seen_or_sampled, int viewer);

// The softmax above for one seat.
double WinProbabilityFromScores(const SeatScores& scores, int seat, const WinOptions& options);

// `view.viewer`'s chance of winning as it can judge from `view`. Deterministic
// for a seed; *rng advances.
double EstimateWinProbability(const View& view, const WinOptions& options, uint64_t* rng);

}  // namespace metropolis::analysis
