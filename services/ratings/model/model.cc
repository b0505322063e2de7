// Weng–Lin Plackett–Luce for one-player teams, written to match openskill.js
// 5.0.1 (src/rate.ts, src/models/plackett-luce.ts, src/util.ts) to the last bit
// where that is cheap: the same order of summation, the same roundings (sigma is
// widened by tau and then squared again, as rate.ts does). The reference test
// compares the two within 1e-9 relative.
#include "services/ratings/model/model.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <numeric>

namespace metropolis::ratings {

std::vector<Rating> RatePlackettLuce(const std::vector<Rating>& players, const std::vector<int>& ranks,
                                     const RatingParams& params) {
  assert(players.size() == ranks.size());
  assert(!players.empty());
  const std::size_t n = players.size();

  // rate.ts sorts the teams by rank with a stable sort and rates them in that
  // order; a tie's members are symmetric, but the sums below are not associative,
  // so the same order gives the same last bits.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });

  // Dynamics first: every player's uncertainty grows by tau before the game is
  // taken into account, so that sigma never freezes at a level that no longer
  // moves mu.
  const double tau_sq = params.tau * params.tau;
  std::vector<double> mu(n), sigma(n), sigma_sq(n);
  std::vector<int> rank(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Rating& p = players[order[k]];
    assert(p.sigma > 0);
    mu[k] = p.mu;
    sigma[k] = std::sqrt(p.sigma * p.sigma + tau_sq);
    sigma_sq[k] = sigma[k] * sigma[k];
    rank[k] = ranks[order[k]];
  }

  // c: the scale of the whole game's performance noise.
  const double beta_sq = params.beta * params.beta;
  double c_sq = 0;
  for (std::size_t k = 0; k < n; ++k) c_sq += sigma_sq[k] + beta_sq;
  const double c = std::sqrt(c_sq);

  // sum_q[q]: the Plackett–Luce normaliser of the choice made at q's place, over
  // everyone not ranked ahead of q. tied[q]: how many share q's place; a tie splits
  // each choice among its members.
  std::vector<double> strength(n), sum_q(n);
  std::vector<int> tied(n);
  for (std::size_t k = 0; k < n; ++k) strength[k] = std::exp(mu[k] / c);
  for (std::size_t q = 0; q < n; ++q) {
    double s = 0;
    int a = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (rank[i] >= rank[q]) s += strength[i];
      if (rank[i] == rank[q]) ++a;
    }
    sum_q[q] = s;
    tied[q] = a;
  }

  std::vector<Rating> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    double omega_sum = 0, delta_sum = 0;
    for (std::size_t q = 0; q < n; ++q) {
      if (rank[q] > rank[i]) continue;  // only the choices i took part in
      const double quotient = strength[i] / sum_q[q];
      omega_sum += (i == q ? 1 - quotient : -quotient) / tied[q];
      delta_sum += quotient * (1 - quotient) / tied[q];
    }
    // openskill's default gamma, sqrt(sigma²)/c: damps the variance update of a
    // player whose sigma is small against the game's noise.
    const double gamma = std::sqrt(sigma_sq[i]) / c;
    const double omega = omega_sum * (sigma_sq[i] / c);
    const double delta = delta_sum * (sigma_sq[i] / (c * c)) * gamma;
    // A one-player team holds all of the team's variance (sigma²/sigma_sq = 1).
    Rating& r = out[order[i]];
    r.mu = mu[i] + omega;
    r.sigma = sigma[i] * std::sqrt(std::max(1 - delta, params.kappa));
    if (params.limit_sigma && params.tau != 0) r.sigma = std::min(r.sigma, players[order[i]].sigma);
  }
  return out;
}

}  // namespace metropolis::ratings
