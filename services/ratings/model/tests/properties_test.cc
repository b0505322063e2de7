// Properties of the model that hold for every game, checked on seeded random
// 3- and 4-player games, and the small helpers around it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "services/ratings/model/model.h"

namespace metropolis::ratings {
namespace {

struct Game {
  std::vector<Rating> players;
  std::vector<int> ranks;
  RatingParams params;
};

// Ratings across the range a ladder sees, ranks with ties about half of the time,
// and a ladder's parameters other than the defaults a third of the time.
Game RandomGame(std::mt19937_64& rng) {
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  Game g;
  const int n = 3 + int(rng() % 2);
  for (int i = 0; i < n; ++i) g.players.push_back({uniform(0, 50), uniform(0.3, 9)});
  const bool ties = rng() % 2 == 0;
  for (int i = 0; i < n; ++i) g.ranks.push_back(ties ? 1 + int(rng() % n) : i + 1);
  if (!ties) std::shuffle(g.ranks.begin(), g.ranks.end(), rng);
  if (rng() % 3 == 0) {
    g.params.beta = uniform(1, 8);
    g.params.tau = rng() % 2 ? 0 : uniform(0, 0.5);
    g.params.limit_sigma = rng() % 2 == 0;
  }
  return g;
}

int CountRank(const std::vector<int>& ranks, int r) { return int(std::count(ranks.begin(), ranks.end(), r)); }

constexpr int kGames = 5000;

TEST(Properties, AloneInFirstPlaceGainsAloneInLastLoses) {
  std::mt19937_64 rng(1);
  int checked_first = 0, checked_last = 0;
  for (int game = 0; game < kGames; ++game) {
    const Game g = RandomGame(rng);
    const std::vector<Rating> after = RatePlackettLuce(g.players, g.ranks, g.params);
    const int best = *std::min_element(g.ranks.begin(), g.ranks.end());
    const int worst = *std::max_element(g.ranks.begin(), g.ranks.end());
    if (best == worst) continue;
    for (std::size_t i = 0; i < g.players.size(); ++i) {
      if (g.ranks[i] == best && CountRank(g.ranks, best) == 1) {
        EXPECT_GT(after[i].mu, g.players[i].mu) << "game " << game;
        ++checked_first;
      }
      if (g.ranks[i] == worst && CountRank(g.ranks, worst) == 1) {
        EXPECT_LT(after[i].mu, g.players[i].mu) << "game " << game;
        ++checked_last;
      }
    }
  }
  EXPECT_GT(checked_first, kGames / 2);
  EXPECT_GT(checked_last, kGames / 2);
}

// A game is information: after the dynamics widen sigma by tau, the update can
// only narrow it again.
TEST(Properties, SigmaNeverGrowsBeyondTheDynamics) {
  std::mt19937_64 rng(2);
  for (int game = 0; game < kGames; ++game) {
    const Game g = RandomGame(rng);
    const std::vector<Rating> after = RatePlackettLuce(g.players, g.ranks, g.params);
    for (std::size_t i = 0; i < g.players.size(); ++i) {
      const double s = g.players[i].sigma;
      EXPECT_LE(after[i].sigma, std::sqrt(s * s + g.params.tau * g.params.tau)) << "game " << game;
      EXPECT_GT(after[i].sigma, 0) << "game " << game;
      if (g.params.limit_sigma) {
        EXPECT_LE(after[i].sigma, s) << "game " << game;
      }
    }
  }
}

TEST(Properties, SymmetricPlayersInATieGetEqualUpdates) {
  std::mt19937_64 rng(3);
  for (int game = 0; game < kGames; ++game) {
    Game g = RandomGame(rng);
    // Make seats 0 and the last a tie of two players with the same rating.
    const std::size_t last = g.players.size() - 1;
    g.players[last] = g.players[0];
    g.ranks[last] = g.ranks[0];
    const std::vector<Rating> after = RatePlackettLuce(g.players, g.ranks, g.params);
    // Equal up to the order of a sum's terms: a few ulps of the inputs' scale (a mu
    // that lands near 0 keeps the absolute error of the mu it came from).
    const double scale = std::max(1.0, std::abs(g.players[0].mu));
    EXPECT_NEAR(after[0].mu, after[last].mu, 1e-13 * scale) << "game " << game;
    EXPECT_DOUBLE_EQ(after[0].sigma, after[last].sigma) << "game " << game;
  }
}

TEST(Properties, TheSeatOrderDoesNotMatter) {
  std::mt19937_64 rng(4);
  for (int game = 0; game < 1000; ++game) {
    const Game g = RandomGame(rng);
    std::vector<std::size_t> perm(g.players.size());
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<Rating> players;
    std::vector<int> ranks;
    for (std::size_t k : perm) {
      players.push_back(g.players[k]);
      ranks.push_back(g.ranks[k]);
    }
    const std::vector<Rating> a = RatePlackettLuce(g.players, g.ranks, g.params);
    const std::vector<Rating> b = RatePlackettLuce(players, ranks, g.params);
    for (std::size_t k = 0; k < perm.size(); ++k) {
      EXPECT_NEAR(b[k].mu, a[perm[k]].mu, 1e-12 * std::max(1.0, std::abs(a[perm[k]].mu))) << "game " << game;
      EXPECT_NEAR(b[k].sigma, a[perm[k]].sigma, 1e-12 * a[perm[k]].sigma) << "game " << game;
    }
  }
}

TEST(Properties, OnlyTheOrderOfRanksMatters) {
  const std::vector<Rating> players{{31, 3}, {24, 6}, {27, 2.5}, {18, 8}};
  const std::vector<Rating> a = RatePlackettLuce(players, {1, 2, 2, 4}, {});
  const std::vector<Rating> b = RatePlackettLuce(players, {0, 5, 5, 9}, {});
  for (std::size_t i = 0; i < players.size(); ++i) {
    EXPECT_EQ(a[i].mu, b[i].mu);
    EXPECT_EQ(a[i].sigma, b[i].sigma);
  }
}

TEST(Properties, EqualPlayersFinishInTheOrderOfTheirPlaces) {
  const Rating r{25, 25.0 / 3};
  const std::vector<Rating> after = RatePlackettLuce({r, r, r, r}, {1, 2, 3, 4}, {});
  for (std::size_t i = 0; i + 1 < after.size(); ++i) EXPECT_GT(after[i].mu, after[i + 1].mu);
}

TEST(Properties, AFullTieOfEqualPlayersMovesNoMu) {
  const Rating r{31.5, 4.25};
  for (const Rating& after : RatePlackettLuce({r, r, r}, {2, 2, 2}, {})) EXPECT_DOUBLE_EQ(after.mu, r.mu);
}

// With 3 or 4 players kappa never binds: 1 - delta stays above 1/4, as at most
// three places add to delta, at most 1/4 each. It does in larger games when a very
// uncertain player finishes last. Eight players, one with sigma 20 against seven
// with sigma 1, beta 0.1: openskill 5.0.1 gives that player sigma
// 0.20000173610357597, which is sqrt(20² + tau²)·sqrt(kappa).
TEST(Properties, KappaFloorsTheSigmaFactor) {
  std::vector<Rating> players;
  for (int k = 0; k < 7; ++k) players.push_back({30.0 - 4 * k, 1});
  players.push_back({10, 20});
  std::vector<int> ranks{1, 2, 3, 4, 5, 6, 7, 8};
  RatingParams params;
  params.beta = 0.1;
  const double widened = std::sqrt(400 + params.tau * params.tau);
  EXPECT_DOUBLE_EQ(RatePlackettLuce(players, ranks, params).back().sigma, widened * std::sqrt(params.kappa));
  EXPECT_DOUBLE_EQ(RatePlackettLuce(players, ranks, params).back().sigma, 0.20000173610357597);
  params.kappa = 0.01;
  EXPECT_DOUBLE_EQ(RatePlackettLuce(players, ranks, params).back().sigma, widened * 0.1);
}

TEST(Properties, ASoloGameOnlyAddsTheDynamics) {
  const std::vector<Rating> after = RatePlackettLuce({{20, 3}}, {1}, {});
  EXPECT_DOUBLE_EQ(after[0].mu, 20);
  EXPECT_DOUBLE_EQ(after[0].sigma, std::sqrt(9 + (25.0 / 300) * (25.0 / 300)));
}

TEST(Helpers, OrdinalIsMuMinusThreeSigma) {
  EXPECT_DOUBLE_EQ((Rating{25, 25.0 / 3}).Ordinal(), 0);
  EXPECT_DOUBLE_EQ((Rating{30, 2}).Ordinal(), 24);
  // The leaderboard prefers a proven record to a lucky start.
  EXPECT_GT((Rating{28, 2}).Ordinal(), (Rating{33, 5}).Ordinal());
}

TEST(Helpers, InitialRatingComesFromTheLadder) {
  EXPECT_EQ(InitialRating({}).mu, 25);
  EXPECT_EQ(InitialRating({}).sigma, 25.0 / 3);
  RatingParams ladder;
  ladder.mu = 1500;
  ladder.sigma = 500;
  EXPECT_EQ(InitialRating(ladder).mu, 1500);
  EXPECT_EQ(InitialRating(ladder).sigma, 500);
}

TEST(Helpers, ProvisionalUntilThePlacementGamesArePlayed) {
  EXPECT_TRUE(IsProvisional(0, 10));
  EXPECT_TRUE(IsProvisional(9, 10));
  EXPECT_FALSE(IsProvisional(10, 10));
  EXPECT_FALSE(IsProvisional(0, 0));  // a ladder without placement
}

}  // namespace
}  // namespace metropolis::ratings
