// The bench signature (engine/signature.h) checked against the number in
// testdata/signature.txt. A mismatch means the behaviour of the rules changed
// somewhere over those games: intended changes update the file with
//
//   scripts/update-signature.sh
//
// and say why in the commit; anything else is a bug. scripts/check-signature.sh
// confirms that release and sanitizer builds produce the same number.
#include "engine/signature.h"

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace metropolis {
namespace {

std::string SignaturePath() { return std::string(METROPOLIS_TESTDATA_DIR) + "/signature.txt"; }

struct Expected {
  int games = 0;
  uint64_t seed = 0;
  uint64_t signature = 0;
};

// Reads "games=200 seed=1 signature=0x...".
bool ReadExpected(Expected* e, std::string* error) {
  std::ifstream in(SignaturePath());
  if (!in) {
    *error = "cannot read " + SignaturePath();
    return false;
  }
  std::string line;
  std::getline(in, line);
  unsigned long long seed = 0, signature = 0;
  if (std::sscanf(line.c_str(), "games=%d seed=%llu signature=0x%llx", &e->games, &seed, &signature) != 3 ||
      e->games <= 0) {
    *error = "malformed " + SignaturePath() + ": '" + line + "', expected 'games=N seed=S signature=0xHEX'";
    return false;
  }
  e->seed = seed;
  e->signature = signature;
  return true;
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

TEST(Signature, MatchesCheckedInNumber) {
  Expected expected;
  std::string error;
  ASSERT_TRUE(ReadExpected(&expected, &error)) << error;

  BenchCounts counts;
  const uint64_t signature = BenchSignature(expected.games, expected.seed, &counts);
  std::printf("games=%d seed=%" PRIu64 " signature=%s actions=%" PRIu64 " chance=%" PRIu64 " won=%" PRIu64 "\n",
              expected.games, expected.seed, Hex(signature).c_str(), counts.actions, counts.chance_actions, counts.won);
  EXPECT_EQ(counts.games, uint64_t(expected.games));

  if (std::getenv("METROPOLIS_UPDATE_SIGNATURE")) {
    std::ofstream out(SignaturePath());
    out << "games=" << expected.games << " seed=" << expected.seed << " signature=" << Hex(signature) << "\n";
    ASSERT_TRUE(out.good()) << "cannot write " << SignaturePath();
    return;
  }
  EXPECT_EQ(Hex(signature), Hex(expected.signature))
      << "The bench signature changed: the rules now play differently over these " << expected.games
      << " games. If that is intended (a rules change you can name), run scripts/update-signature.sh, review "
         "the diff and say why in the commit message; otherwise it is a bug, and perft (ctest -R Perft) or a "
         "replay of the first differing game will locate it.";
}

}  // namespace
}  // namespace metropolis
