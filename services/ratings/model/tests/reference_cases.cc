// rating_model_reference_cases <seed> <count>: prints seeded random free-for-all
// games as JSON, each with this library's ratings after it ("expected"), for
// reference_test.sh to rate again with the openskill npm package and compare.
//
// <count> games of 3 and 4 players (what ladders play), ties in about half of
// them, some ranked by RanksFromResult from random results; then count/10 games of
// 2 and 5 to 8 players, where kappa can bind. A third of the games use a ladder's
// own beta, kappa, tau and limit_sigma. Numbers are printed with 17 significant
// digits, so both sides read the same doubles.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "services/ratings/model/model.h"

namespace metropolis::ratings {
namespace {

struct Case {
  std::vector<Rating> players;
  std::vector<int> ranks;
  RatingParams params;
};

class Generator {
 public:
  explicit Generator(unsigned long long seed) : rng_(seed) {}

  Case Next(int n) {
    Case c;
    for (int i = 0; i < n; ++i) c.players.push_back(Player());
    switch (rng_() % 3) {
      case 0:  // a strict order
        for (int i = 0; i < n; ++i) c.ranks.push_back(i + 1);
        std::shuffle(c.ranks.begin(), c.ranks.end(), rng_);
        break;
      case 1:  // independent places: ties, gaps, sometimes everyone tied
        for (int i = 0; i < n; ++i) c.ranks.push_back(1 + int(rng_() % n));
        break;
      default:
        c.ranks = FromResult(n);
    }
    if (rng_() % 3 == 0) {
      c.params.beta = Uniform(0.5, 8);
      c.params.kappa = rng_() % 2 ? 0.0001 : Uniform(1e-6, 0.2);
      c.params.tau = rng_() % 4 == 0 ? 0 : Uniform(0, 0.5);
      c.params.limit_sigma = rng_() % 2 == 0;
    }
    if (n > 4 && rng_() % 2 == 0) c.params.beta = Uniform(0.05, 0.5);  // lets kappa bind
    return c;
  }

 private:
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  Rating Player() {
    switch (rng_() % 5) {
      case 0:
        return {25, 25.0 / 3};  // a new player
      case 1:
        return {Uniform(-20, 80), Uniform(0.001, 0.5)};  // settled, far from the mean
      case 2:
        return {Uniform(0, 50), Uniform(8, 25)};  // very uncertain
      default:
        return {Uniform(5, 45), Uniform(0.5, 8.5)};
    }
  }

  std::vector<int> FromResult(int n) {
    GameResultInput result;
    result.winner = int(rng_() % n);
    for (int i = 0; i < n; ++i) {
      result.victory_points.push_back(i == result.winner ? 13 : 2 + int(rng_() % 11));
      result.forfeited.push_back(i != result.winner && rng_() % 8 == 0);
    }
    std::vector<int> ranks;
    std::string why_not;
    if (!RanksFromResult(result, &ranks, &why_not)) {
      std::fprintf(stderr, "RanksFromResult refused a valid result: %s\n", why_not.c_str());
      std::exit(1);
    }
    return ranks;
  }

  std::mt19937_64 rng_;
};

std::string Number(double x) {
  if (!std::isfinite(x)) {
    std::fprintf(stderr, "not a finite number: %g\n", x);
    std::exit(1);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string RatingsJson(const std::vector<Rating>& ratings) {
  std::string out = "[";
  for (std::size_t i = 0; i < ratings.size(); ++i) {
    if (i > 0) out += ",";
    out += "{\"mu\":" + Number(ratings[i].mu) + ",\"sigma\":" + Number(ratings[i].sigma) + "}";
  }
  return out + "]";
}

std::string CaseJson(const Case& c) {
  std::string ranks = "[";
  for (std::size_t i = 0; i < c.ranks.size(); ++i) ranks += (i > 0 ? "," : "") + std::to_string(c.ranks[i]);
  ranks += "]";
  const RatingParams& p = c.params;
  return "{\"players\":" + RatingsJson(c.players) + ",\"ranks\":" + ranks + ",\"params\":{\"beta\":" + Number(p.beta) +
         ",\"kappa\":" + Number(p.kappa) + ",\"tau\":" + Number(p.tau) +
         ",\"limitSigma\":" + (p.limit_sigma ? "true" : "false") +
         "},\"expected\":" + RatingsJson(RatePlackettLuce(c.players, c.ranks, c.params)) + "}";
}

bool ParseCount(const char* text, unsigned long long* out) {
  char* end = nullptr;
  *out = std::strtoull(text, &end, 10);
  return *text != '\0' && *end == '\0';
}

}  // namespace
}  // namespace metropolis::ratings

int main(int argc, char** argv) {
  using namespace metropolis::ratings;
  unsigned long long seed = 0, count = 0;
  if (argc != 3 || !ParseCount(argv[1], &seed) || !ParseCount(argv[2], &count)) {
    std::fprintf(stderr, "usage: %s <seed> <count>\n", argv[0]);
    return 2;
  }
  Generator gen(seed);
  std::printf("{\"seed\":%llu,\"cases\":[\n", seed);
  const unsigned long long larger = count / 10;
  for (unsigned long long i = 0; i < count + larger; ++i) {
    int n = 3 + int(i % 2);
    if (i >= count) n = i % 5 == 0 ? 2 : 5 + int(i % 4);
    std::printf("%s%s\n", CaseJson(gen.Next(n)).c_str(), i + 1 < count + larger ? "," : "");
  }
  std::printf("]}\n");
  return 0;
}
