// Confidence intervals for the mean of a few values: Student's t, for the
// sets of a duplicate tournament or of the arena, which are few where games are
// many. Standard library only.
#pragma once

#include <vector>

namespace metropolis::stats {

// The 97.5th percentile of Student's t with `df` degrees of freedom (the
// half-width factor of a two-sided 95 % interval): exact to 3 decimals.
double StudentT975(int df);

// A mean with its 95 % confidence interval (Student's t on n - 1 degrees of
// freedom, clipped to [lo, hi]); with fewer than two values the interval is
// [lo, hi] as given.
struct MeanInterval {
  int n = 0;
  double mean = 0;
  double ci_low = 0;
  double ci_high = 0;
};
MeanInterval MeanWithInterval(const std::vector<double>& values, double lo, double hi);

// The sample variance (n - 1 in the denominator), from deviations so that equal
// values give exactly 0; 0 for fewer than two values.
double SampleVariance(const std::vector<double>& values, double mean);

}  // namespace metropolis::stats
