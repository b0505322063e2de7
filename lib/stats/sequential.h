// The sequential test of duplicate play: an SPRT on paired set differences,
// which a tournament's pairs report (docs/TOURNAMENTS.md, "Sets and pairs"),
// and the bootstrap that measures its error rates on the sets of built-in bots
// (metropolis-engine arena --sprt-runs). Pure, standard library only, so that
// the engine's tools can run the test the tournament service runs.
#pragma once

#include <cstdint>
#include <vector>

namespace metropolis::stats {

// A sequential probability ratio test on paired set differences d (a - b), as
// engine testing runs one on paired game results: H0, the mean difference is
// `mu0`, against H1, it is `mu1` (mu1 > mu0), with the differences taken as
// normal of the variance observed so far. Stops for H1 when the log-likelihood
// ratio reaches log((1 - beta) / alpha), for H0 when it falls to
// log(beta / (1 - alpha)); Wald's bounds keep the error rates near alpha (H1
// accepted when H0 holds) and beta (H0 accepted when H1 holds).
//
// The defaults are those of a tournament's pairs (PairTest below): 2.5 % for
// each direction of H1, so about 5 % in all that a pair with no difference is
// called separated (measured: 5.8 % on simulated normal sets, 5.8-7.2 % on the
// sets of built-in bots; docs/TOURNAMENTS.md).
struct SprtOptions {
  double mu0 = 0;
  double mu1 = 0.1;  // a tenth of the score range: about a third of a place at a table of four
  double alpha = 0.025;
  double beta = 0.05;
  int min_sets = 15;  // the variance of fewer differences is too rough to decide on
};
enum class SprtVerdict { kContinue, kAcceptH0, kAcceptH1 };
const char* SprtVerdictName(SprtVerdict verdict);  // "continue", "H0", "H1"

// The test a tournament's pair gets, as it would run while the sets come in:
// after each shared set, in set order, both directions are tested (a better
// than b, b better than a) on the differences so far; the first bound crossed
// decides and the verdict stays, whatever later sets show: H1 for the side
// whose ratio reached the upper bound, H0 once both ratios are at the lower
// one. Without a verdict, `llr` is the larger of the two ratios now.
struct PairTest {
  SprtVerdict verdict = SprtVerdict::kContinue;
  int direction = 0;  // H1: +1 when a is the better, -1 when b is
  int sets = 0;       // the shared sets when it stopped, or all of them
  double llr = 0;
};
PairTest SequentialPairTest(const std::vector<double>& differences, const SprtOptions& options);

// The error rates of SequentialPairTest on a finite pool of set differences
// taken as the truth: each run draws sets from the pool with replacement, one
// at a time in random order, until a verdict or `cap` sets. What it shows is
// how the test behaves on differences distributed as the pool's (not normal:
// place scores take few values); what it cannot show is the truth beyond the
// pool, whose mean stands in for the real difference.
struct BootstrapOptions {
  int runs = 2000;
  int cap = 1000;  // sets drawn at most per run
  uint64_t seed = 1;
};
struct BootstrapResult {
  int pool = 0;          // the differences drawn from
  double pool_mean = 0;  // the difference the runs take as the truth
  int runs = 0;
  int h1_a = 0;            // H1, a (the pool's first side) the better
  int h1_b = 0;            // H1, b the better
  int h0 = 0;              // no difference
  int undecided = 0;       // no verdict at the cap
  double mean_sets = 0;    // over the runs with a verdict (0 without any)
  double median_sets = 0;  // likewise; the mean of the middle two for an even count
};
// Deterministic for a given pool and seed, on every platform (its own
// generator, not the standard library's distributions). An empty pool gives
// an empty result.
BootstrapResult BootstrapSequentialTests(const std::vector<double>& pool, const SprtOptions& sprt,
                                         const BootstrapOptions& options);

}  // namespace metropolis::stats
