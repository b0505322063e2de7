// The sequential test on paired set differences (sequential.h): Wald's bounds,
// the first crossing deciding, its error rates on simulated sets, and the
// bootstrap that measures them on the sets of built-in bots.
#include "lib/stats/sequential.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace metropolis::stats {
namespace {

// Wald's bounds: H1 once a ratio reaches log((1 - beta) / alpha), H0 once both
// are down to log(beta / (1 - alpha)), and no verdict before min_sets.
TEST(SequentialPairTest, DecidesOnlyPastTheBoundsAndTheMinimum) {
  const SprtOptions o;
  const double upper = std::log(0.95 / 0.025), lower = std::log(0.05 / 0.975);
  std::vector<double> strong;
  for (int i = 0; i < 14; ++i) strong.push_back(i % 2 ? 0.5 : 0.6);
  const PairTest fourteen = SequentialPairTest(strong, o);
  EXPECT_GT(fourteen.llr, upper);
  EXPECT_EQ(fourteen.verdict, SprtVerdict::kContinue);  // fewer than 15
  EXPECT_EQ(fourteen.sets, 14);
  strong.push_back(0.55);
  const PairTest s = SequentialPairTest(strong, o);
  EXPECT_EQ(s.verdict, SprtVerdict::kAcceptH1);
  EXPECT_EQ(s.direction, 1);
  EXPECT_GT(s.llr, upper);
  // All alike: the variance floor keeps the ratios finite, far below the bound.
  EXPECT_EQ(SequentialPairTest(std::vector<double>(15, 0.0), o).verdict, SprtVerdict::kAcceptH0);
  std::vector<double> level;
  for (int i = 0; i < 15; ++i) level.push_back(i % 2 ? 0.3 : -0.25);
  const PairTest between = SequentialPairTest(level, o);
  EXPECT_EQ(between.verdict, SprtVerdict::kContinue);
  EXPECT_GT(between.llr, lower);
  EXPECT_LT(between.llr, upper);

  // The bounds are where the verdict turns: alpha put so that the upper bound
  // is just above, then just below, the ratio `strong` ends with; beta so for
  // the lower bound and the ratio of `level`.
  auto upper_at = [&](double bound) {
    SprtOptions at = o;
    at.alpha = (1 - at.beta) / std::exp(bound);
    return SequentialPairTest(strong, at).verdict;
  };
  EXPECT_EQ(upper_at(s.llr * (1 + 1e-9)), SprtVerdict::kContinue);
  EXPECT_EQ(upper_at(s.llr * (1 - 1e-9)), SprtVerdict::kAcceptH1);
  auto lower_at = [&](double bound) {
    SprtOptions at = o;
    at.beta = (1 - at.alpha) * std::exp(bound);
    return SequentialPairTest(level, at).verdict;
  };
  EXPECT_EQ(lower_at(between.llr * (1 + 1e-9)), SprtVerdict::kContinue);  // below: the ratio is negative
  EXPECT_EQ(lower_at(between.llr * (1 - 1e-9)), SprtVerdict::kAcceptH0);
}

// The pair test over the sets as they came: the first crossing decides and
// stays, in either direction.
TEST(SequentialPairTest, APairsVerdictIsTheFirstCrossingInSetOrder) {
  const SprtOptions o;
  std::vector<double> d;
  for (int i = 0; i < 15; ++i) d.push_back(i % 2 ? 0.5 : 0.6);  // a far ahead: H1 at 15
  const PairTest early = SequentialPairTest(d, o);
  EXPECT_EQ(early.verdict, SprtVerdict::kAcceptH1);
  EXPECT_EQ(early.direction, 1);
  EXPECT_EQ(early.sets, 15);
  for (int i = 0; i < 200; ++i) d.push_back(-0.3);  // b ahead later: the verdict stays
  const PairTest later = SequentialPairTest(d, o);
  EXPECT_EQ(later.verdict, SprtVerdict::kAcceptH1);
  EXPECT_EQ(later.sets, 15);
  EXPECT_DOUBLE_EQ(later.llr, early.llr);
  for (double& x : d) x = -x;  // the mirror: b is the better
  EXPECT_EQ(SequentialPairTest(d, o).direction, -1);
  const PairTest level = SequentialPairTest(std::vector<double>(20, 0.0), o);
  EXPECT_EQ(level.verdict, SprtVerdict::kAcceptH0);
  EXPECT_EQ(level.sets, 15);
  const PairTest few = SequentialPairTest({0.5, 0.6, 0.5}, o);
  EXPECT_EQ(few.verdict, SprtVerdict::kContinue);
  EXPECT_EQ(few.sets, 3);
  EXPECT_GT(few.llr, 0);
}

// The error rates by simulation, of the test a tournament's pairs get: set
// differences drawn with a spread like that of real sets (σ = 0.3, clipped to
// [-1, 1]), SequentialPairTest over them in set order. With no difference it
// must call the pair separated (H1, either direction) at most about 2 · alpha
// of the time; with a difference of mu1 it must call it level (H0) or the
// other entrant better at most about beta of the time. Wald's bounds are
// approximate for a variance estimated as it goes, so the bound checked is 3
// percentage points over, on 2,000 runs each.
TEST(SequentialPairTest, ErrorRatesByDrawingSetsAreNearAlphaAndBeta) {
  const SprtOptions o;
  std::mt19937_64 rng(20261206);
  std::normal_distribution<double> noise(0, 0.3);
  auto run = [&](double mu, int* sets) {
    std::vector<double> d(3000);
    for (double& x : d) x = std::clamp(mu + noise(rng), -1.0, 1.0);
    const PairTest t = SequentialPairTest(d, o);
    *sets += t.sets;
    return t;
  };
  const int runs = 2000;
  int false_h1 = 0, false_h0 = 0, sets_h0 = 0, sets_h1 = 0, undecided = 0;
  for (int i = 0; i < runs; ++i) {
    const PairTest t = run(0, &sets_h0);
    false_h1 += t.verdict == SprtVerdict::kAcceptH1;
    undecided += t.verdict == SprtVerdict::kContinue;
  }
  for (int i = 0; i < runs; ++i) {
    const PairTest t = run(o.mu1, &sets_h1);
    false_h0 += t.verdict == SprtVerdict::kAcceptH0 || t.direction < 0;
    undecided += t.verdict == SprtVerdict::kContinue;
  }
  const double alpha = double(false_h1) / runs, beta = double(false_h0) / runs;
  std::printf(
      "SPRT, sigma 0.3, mu1 0.1: separated with no difference %.3f (%.1f sets on average), level with "
      "a difference of mu1 %.3f (%.1f sets)\n",
      alpha, double(sets_h0) / runs, beta, double(sets_h1) / runs);
  EXPECT_EQ(undecided, 0);  // 3,000 sets always decide
  EXPECT_LE(alpha, 2 * o.alpha + 0.03);
  EXPECT_LE(beta, o.beta + 0.03);
  // And it saves sets: a fixed-size test with the same error rates needs about
  // ((1.96 + 1.645) · 0.3 / 0.1)^2 = 117 sets; the SPRT, on average, fewer.
  EXPECT_LT(double(sets_h0) / runs, 117);
  EXPECT_LT(double(sets_h1) / runs, 117);
}

// The bootstrap is a pure function of the pool, the options and the seed: the
// figures it gives in docs/TOURNAMENTS.md must come out again when rerun.
TEST(BootstrapSequentialTests, IsDeterministicForAPoolAndSeed) {
  const std::vector<double> pool = {0.25, -0.1, 0.0, 0.4, -0.3, 0.15, 0.05, -0.2};
  const SprtOptions sprt;
  BootstrapOptions o;
  o.runs = 200;
  o.cap = 300;
  o.seed = 7;
  const BootstrapResult a = BootstrapSequentialTests(pool, sprt, o);
  const BootstrapResult b = BootstrapSequentialTests(pool, sprt, o);
  EXPECT_EQ(a.runs, 200);
  EXPECT_EQ(a.h1_a + a.h1_b + a.h0 + a.undecided, a.runs);
  EXPECT_EQ(a.pool, 8);
  EXPECT_NEAR(a.pool_mean, 0.03125, 1e-12);
  EXPECT_EQ(a.h1_a, b.h1_a);
  EXPECT_EQ(a.h1_b, b.h1_b);
  EXPECT_EQ(a.h0, b.h0);
  EXPECT_EQ(a.undecided, b.undecided);
  EXPECT_DOUBLE_EQ(a.mean_sets, b.mean_sets);
  EXPECT_DOUBLE_EQ(a.median_sets, b.median_sets);
  EXPECT_GE(a.median_sets, sprt.min_sets);  // no verdict comes earlier
  o.seed = 8;                               // another seed draws other runs
  const BootstrapResult c = BootstrapSequentialTests(pool, sprt, o);
  EXPECT_NE(c.mean_sets, a.mean_sets);
}

// Sets that all came out level: every run is H0 at the first set allowed.
TEST(BootstrapSequentialTests, AllZeroDifferencesGiveH0) {
  const SprtOptions sprt;
  BootstrapOptions o;
  o.runs = 100;
  const BootstrapResult r = BootstrapSequentialTests(std::vector<double>(50, 0.0), sprt, o);
  EXPECT_EQ(r.h0, 100);
  EXPECT_EQ(r.h1_a + r.h1_b + r.undecided, 0);
  EXPECT_DOUBLE_EQ(r.mean_sets, sprt.min_sets);
  EXPECT_DOUBLE_EQ(r.median_sets, sprt.min_sets);
}

// A side far ahead in every set: H1 for it, as soon as the minimum allows;
// the mirror pool gives H1 for the other side.
TEST(BootstrapSequentialTests, LargeDifferencesGiveH1Quickly) {
  const SprtOptions sprt;
  BootstrapOptions o;
  o.runs = 100;
  const std::vector<double> ahead = {0.5, 0.6, 0.55, 0.45, 0.65};
  const BootstrapResult r = BootstrapSequentialTests(ahead, sprt, o);
  EXPECT_EQ(r.h1_a, 100);
  EXPECT_DOUBLE_EQ(r.median_sets, sprt.min_sets);
  std::vector<double> behind = ahead;
  for (double& d : behind) d = -d;
  EXPECT_EQ(BootstrapSequentialTests(behind, sprt, o).h1_b, 100);
}

// No verdict within the cap is counted as such, and leaves the sets to a
// verdict at 0; an empty pool runs nothing.
TEST(BootstrapSequentialTests, CountsRunsWithoutAVerdictAndEmptyPools) {
  const SprtOptions sprt;
  BootstrapOptions o;
  o.runs = 10;
  o.cap = 10;  // under min_sets: nothing can decide
  const BootstrapResult r = BootstrapSequentialTests({0.5, 0.6}, sprt, o);
  EXPECT_EQ(r.undecided, 10);
  EXPECT_EQ(r.mean_sets, 0);
  const BootstrapResult none = BootstrapSequentialTests({}, sprt, o);
  EXPECT_EQ(none.runs, 0);
  EXPECT_EQ(none.pool, 0);
}

}  // namespace
}  // namespace metropolis::stats
