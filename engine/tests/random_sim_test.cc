// Random-simulation tests in the spirit of OpenSpiel's RandomSimTest: many
// seeded games of uniformly random players, checking the API's contract at
// every step (RULES.md as a whole; the rule ids of each check are cited).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/state.h"
#include "engine/view.h"

namespace metropolis {
namespace {

struct SplitMix {
  uint64_t x;
  uint64_t Next() {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double Uniform() { return double(Next() >> 11) * (1.0 / 9007199254740992.0); }
};

struct SimCheck {
  bool copies = true;
  bool notation = true;
  bool views = true;
};

// Plays one game with random choices; checks the contract at every step and
// returns the record.
GameRecord PlayChecked(const GameConfig& config, uint64_t seed, const SimCheck& check) {
  State s;
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  GameRecord record;
  record.config = config;
  SplitMix rng{seed};
  ActionList legal;
  std::vector<Event> events;
  while (!s.IsTerminal()) {
    EXPECT_EQ(s.Validate(), "") << ToNotation(s);
    const int player = s.CurrentPlayer();
    Action a;
    if (player == kChancePlayer) {
      const auto outcomes = s.ChanceOutcomes();
      EXPECT_FALSE(outcomes.empty());
      double sum = 0;
      for (const auto& o : outcomes) sum += o.probability;
      EXPECT_NEAR(sum, 1.0, 1e-9);
      a = s.SampleChance(rng.Uniform());
      EXPECT_TRUE(std::any_of(outcomes.begin(), outcomes.end(), [&](const ChanceOutcome& o) { return o.action == a; }));
    } else {
      s.LegalActions(&legal);
      EXPECT_GT(legal.size, 0) << ToNotation(s);
      if (legal.size == 0) break;
      for (int i = 1; i < legal.size; ++i)
        EXPECT_LT(Encode(legal.items[i - 1]), Encode(legal.items[i])) << "legal actions sorted and unique";
      a = legal.items[rng.Next() % legal.size];
    }
    if (check.copies) {
      State copy = s;
      EXPECT_TRUE(copy == s);
    }
    if (check.notation && (rng.Next() % 8 == 0)) {
      State parsed;
      std::string err;
      const std::string text = ToNotation(s);
      EXPECT_TRUE(FromNotation(text, &parsed, &err)) << err << "\n" << text;
      EXPECT_TRUE(parsed == s) << text;
    }
    events.clear();
    const std::string err = s.Apply(a, &events);
    EXPECT_EQ(err, "") << ActionToString(a);
    if (!err.empty()) break;
    record.actions.push_back(a);
  }
  return record;
}

GameConfig Config(int seats, uint64_t board_seed, const RulesOptions& options = {}) {
  GameConfig c;
  c.num_seats = seats;
  c.board = board_seed ? RandomBoard(board_seed) : DefaultBoard();
  c.options = options;
  return c;
}

TEST(RandomSimTest, FourSeatGamesKeepTheContract) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const GameRecord r = PlayChecked(Config(4, seed), seed, {});
    State replayed;
    std::string error;
    ASSERT_TRUE(NewGame(r.config, &replayed, &error));
    for (const Action& a : r.actions) ASSERT_EQ(replayed.Apply(a), "");
    EXPECT_TRUE(replayed.IsTerminal());
    if (HasFailure()) break;
  }
}

TEST(RandomSimTest, ThreeSeatGamesKeepTheContract) {
  for (uint64_t seed = 100; seed < 120; ++seed) {
    PlayChecked(Config(3, seed), seed, {});
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace metropolis
