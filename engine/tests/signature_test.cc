// The bench signatures (engine/signature.h) checked against the numbers in
// testdata/signature.txt, one line per ruleset: Cities & Knights first, then
// the base game (RULES.md 22). A mismatch means the behaviour of the rules
// changed somewhere over those games: intended changes update the file with
//
//   scripts/update-signature.sh
//
// and say why in the commit; anything else is a bug. scripts/check-signature.sh
// confirms that release and sanitizer builds produce the same numbers.
#include "engine/signature.h"

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace metropolis {
namespace {

std::string SignaturePath() { return std::string(METROPOLIS_TESTDATA_DIR) + "/signature.txt"; }

struct Expected {
  std::string prefix;  // "" for C&K, "ruleset=base " for the base game
  int games = 0;
  uint64_t seed = 0;
  uint64_t signature = 0;
};

std::string Prefix(Ruleset ruleset) { return ruleset == Ruleset::kBase ? "ruleset=base " : ""; }

// Reads the lines "[ruleset=base ]games=100 seed=1 signature=0x...".
bool ReadExpected(std::vector<Expected>* out, std::string* error) {
  std::ifstream in(SignaturePath());
  if (!in) {
    *error = "cannot read " + SignaturePath();
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Expected e;
    if (line.starts_with("ruleset=base ")) e.prefix = "ruleset=base ";
    unsigned long long seed = 0, signature = 0;
    if (std::sscanf(line.c_str() + e.prefix.size(), "games=%d seed=%llu signature=0x%llx", &e.games, &seed,
                    &signature) != 3 ||
        e.games <= 0) {
      *error =
          "malformed " + SignaturePath() + ": '" + line + "', expected '[ruleset=base ]games=N seed=S signature=0xHEX'";
      return false;
    }
    e.seed = seed;
    e.signature = signature;
    out->push_back(e);
  }
  return true;
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

void CheckSignature(Ruleset ruleset) {
  std::vector<Expected> lines;
  std::string error;
  ASSERT_TRUE(ReadExpected(&lines, &error)) << error;
  Expected* expected = nullptr;
  for (Expected& e : lines)
    if (e.prefix == Prefix(ruleset)) expected = &e;
  ASSERT_NE(expected, nullptr) << SignaturePath() << " has no line for '" << Prefix(ruleset) << "'";

  BenchCounts counts;
  const uint64_t signature = BenchSignature(expected->games, expected->seed, &counts, ruleset);
  std::printf("%sgames=%d seed=%" PRIu64 " signature=%s actions=%" PRIu64 " chance=%" PRIu64 " won=%" PRIu64 "\n",
              expected->prefix.c_str(), expected->games, expected->seed, Hex(signature).c_str(), counts.actions,
              counts.chance_actions, counts.won);
  EXPECT_EQ(counts.games, uint64_t(expected->games));

  if (std::getenv("METROPOLIS_UPDATE_SIGNATURE")) {
    expected->signature = signature;
    std::ofstream out(SignaturePath());
    for (const Expected& e : lines)
      out << e.prefix << "games=" << e.games << " seed=" << e.seed << " signature=" << Hex(e.signature) << "\n";
    ASSERT_TRUE(out.good()) << "cannot write " << SignaturePath();
    return;
  }
  EXPECT_EQ(Hex(signature), Hex(expected->signature))
      << "The bench signature changed: the rules now play differently over these " << expected->games
      << " games. If that is intended (a rules change you can name), run scripts/update-signature.sh, review "
         "the diff and say why in the commit message; otherwise it is a bug, and perft (ctest -R Perft) or a "
         "replay of the first differing game will locate it.";
}

TEST(Signature, MatchesCheckedInNumber) { CheckSignature(Ruleset::kCitiesAndKnights); }

// The base game (RULES.md 22) with its default options: 10 VP, development
// cards, Largest Army.
TEST(Signature, BaseGameMatchesCheckedInNumber) { CheckSignature(Ruleset::kBase); }

}  // namespace
}  // namespace metropolis
