// The rating model of the ratings service: Weng–Lin Bayesian ratings with the
// Plackett–Luce model, as the openskill libraries compute them, for free-for-all
// games (one player per team), and the rule that turns a game's result into ranks.
// Pure functions: no storage, no clock, no network. docs/RATINGS.md gives the
// formulas.
//
// The numbers follow openskill.js 5.0.1's `rate()` with its default model
// (plackettLuce) step for step, so that the package can serve as the reference in
// tests (services/ratings/model/reference/).
#pragma once

#include <string>
#include <vector>

#include "lib/ranking/ranks.h"

namespace metropolis::ratings {

// A ladder's model parameters; one set per ladder, fixed for a season. The
// defaults are openskill's (constants.ts); mu and sigma only give a new player's
// rating, the update itself never reads them.
struct RatingParams {
  double mu = 25.0;          // a new player's mean skill
  double sigma = 25.0 / 3;   // a new player's uncertainty
  double beta = 25.0 / 6;    // the spread of performance around skill in one game
  double kappa = 0.0001;     // floor of the factor that shrinks sigma, so sigma stays > 0
  double tau = 25.0 / 300;   // added uncertainty per game (sigma² += tau² before the update)
  bool limit_sigma = false;  // openskill's limitSigma: a game never raises sigma
};

// The leaderboard key: a conservative skill estimate (openskill's ordinal with
// z = 3), so a newcomer's lucky streak (a high mu, but a large sigma still)
// counts for less than a long record. The one definition: the store's SQL and
// the Redis boards are built from it, and RatingHistoryEntry carries it.
inline constexpr int kOrdinalZ = 3;
constexpr double Ordinal(double mu, double sigma) { return mu - kOrdinalZ * sigma; }

struct Rating {
  double mu = 25.0;
  double sigma = 25.0 / 3;

  double Ordinal() const { return ratings::Ordinal(mu, sigma); }
};

// The rating of a player who has not played on the ladder this season.
inline Rating InitialRating(const RatingParams& params) { return Rating{params.mu, params.sigma}; }

// The new ratings after one free-for-all game. ranks[i] is players[i]'s place:
// lower is better, equal ranks are a tie, only the order of the values matters
// (1, 2, 2, 4 and 0, 5, 5, 9 rate the same). The result is in the order of
// players. Needs players.size() == ranks.size() >= 1 and every sigma > 0
// (asserted: callers pass stored ratings and ranks from RanksFromResult).
std::vector<Rating> RatePlackettLuce(const std::vector<Rating>& players, const std::vector<int>& ranks,
                                     const RatingParams& params);

// The ranking rule lives in lib/ranking (the gateway shows places with it too).
using ranking::GameResultInput;
using ranking::RanksFromResult;

// A player is provisional (in placement, shown apart from the leaderboard) until
// they have played `placement_games` rated games on the ladder this season.
inline bool IsProvisional(int rated_games, int placement_games) { return rated_games < placement_games; }

}  // namespace metropolis::ratings
