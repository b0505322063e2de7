#include "lib/stats/intervals.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace metropolis::stats {

double StudentT975(int df) {
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) df = 1;
  if (df <= 30) return kTable[df - 1];
  // Cornish-Fisher's expansion about the normal quantile: within 1e-4 from 30 on.
  const double z = 1.959963985, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  const double n = df;
  return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
}

double SampleVariance(const std::vector<double>& values, double mean) {
  if (values.size() < 2) return 0;
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return squares / double(values.size() - 1);
}

MeanInterval MeanWithInterval(const std::vector<double>& values, double lo, double hi) {
  MeanInterval out;
  out.n = int(values.size());
  out.ci_low = lo;
  out.ci_high = hi;
  if (values.empty()) return out;
  out.mean = std::accumulate(values.begin(), values.end(), 0.0) / out.n;
  if (out.n < 2) return out;
  const double half = StudentT975(out.n - 1) * std::sqrt(SampleVariance(values, out.mean) / out.n);
  out.ci_low = std::max(lo, out.mean - half);
  out.ci_high = std::min(hi, out.mean + half);
  return out;
}

}  // namespace metropolis::stats
