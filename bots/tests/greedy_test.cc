// The greedy bot (greedy.h): its evaluation, GreedyScore, and its play.
#include "bots/greedy.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "bots/match.h"
#include "bots/tests/positions.h"
#include "engine/state_editor.h"
#include "engine/view.h"

namespace metropolis::bots {
namespace {

using testing::Positions;

// The score reads the seat's own hand and public facts only: every state
// consistent with the seat's view scores the same.
TEST(GreedyScore, SameForEveryStateOfTheView) {
  std::vector<State> positions = Positions(80, 13, 3);
  for (size_t i = 0; i < positions.size(); ++i) {
    const State& s = positions[i];
    const int seat = s.CurrentPlayer();
    const View view = MakeView(s, seat);
    State other = s;
    std::string error;
    ASSERT_TRUE(SampleState(view, 500 + i, &other, &error)) << error;
    EXPECT_DOUBLE_EQ(GreedyScore(s, seat), GreedyScore(other, seat)) << "position " << i;
  }
}

// A city is worth more than the cards it costs; so is a settlement.
TEST(GreedyScore, BuildingRaisesTheScore) {
  std::vector<State> positions = Positions(400, 3, 5);
  int built = 0;
  for (const State& s : positions) {
    const int seat = s.CurrentPlayer();
    for (const Action& a : s.LegalActions()) {
      if (a.type != ActionType::kBuildCity && a.type != ActionType::kBuildSettlement) continue;
      State after = s;
      after.ApplyUnchecked(a);
      EXPECT_GT(GreedyScore(after, seat), GreedyScore(s, seat)) << ActionToString(a);
      ++built;
    }
  }
  EXPECT_GT(built, 0) << "no position offered a build";
}

// A further card of a type adds less than the one before.
TEST(GreedyScore, EachFurtherCardOfATypeIsWorthLess) {
  std::vector<State> positions = Positions(1, 1, 9);
  State s = positions[0];
  const int seat = s.CurrentPlayer();
  std::vector<double> scores;
  for (int n = 0; n <= 3; ++n) {
    StateEditor(&s).player(seat).hand[0] = uint8_t(n);  // scored, never played on
    scores.push_back(GreedyScore(s, seat));
  }
  EXPECT_GT(scores[1] - scores[0], scores[2] - scores[1]);
  EXPECT_GT(scores[2] - scores[1], scores[3] - scores[2]);
}

// Greedy as a seat of the arena's matches: it beats three random bots.
TEST(GreedyBot, BeatsRandomBots) {
  int wins = 0;
  constexpr int kGames = 8;
  for (int game = 0; game < kGames; ++game) {
    std::string error;
    std::vector<std::unique_ptr<Bot>> bots;
    std::vector<Seat> seats(4);
    const int greedy_seat = game % 4;
    for (int seat = 0; seat < 4; ++seat) {
      bots.push_back(MakeBot(seat == greedy_seat ? "greedy" : "random", &error));
      ASSERT_NE(bots.back(), nullptr) << error;
      seats[size_t(seat)].bot = bots.back().get();
      seats[size_t(seat)].seed = uint64_t(game) * 10 + uint64_t(seat);
    }
    GameConfig config;
    config.board = RandomBoard(uint64_t(game) + 100);
    const GameOutcome outcome = PlayGame(config, seats, uint64_t(game) + 200);
    ASSERT_EQ(outcome.error, "");
    wins += outcome.winner == greedy_seat;
  }
  EXPECT_GE(wins, kGames * 3 / 4);
}

}  // namespace
}  // namespace metropolis::bots
