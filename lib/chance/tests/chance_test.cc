#include "lib/chance/chance.h"

#include <gtest/gtest.h>

#include "bots/bot.h"

namespace metropolis::chance {
namespace {

// The start player and the dice of a game played by `spec` in every seat.
std::vector<Action> ChanceOf(const std::string& spec, uint64_t chance_seed, int rolls) {
  std::string error;
  std::unique_ptr<bots::Bot> bot = bots::MakeBot(spec, &error);
  GameConfig config;
  config.board = RandomBoard(9);
  config.options.start_player = StartPlayer::kRoll;
  State s(config);
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  ChanceStreams chance(chance_seed);
  std::vector<Action> out;
  uint64_t rng = 5;
  while (!s.IsTerminal() && int(out.size()) < rolls) {
    if (s.IsChanceNode()) {
      ChanceKind kind = ChanceStreams::KindOf(s);
      Action a = chance.Sample(s);
      if (kind == ChanceKind::kDice || kind == ChanceKind::kStartPlayer) out.push_back(a);
      s.ApplyUnchecked(a);
      continue;
    }
    s.ApplyUnchecked(bot->Choose(MakeView(s, s.CurrentPlayer()), &rng));
  }
  return out;
}

// The k-th roll is the same whatever the players do.
TEST(ChanceStreams, RollsIndependentOfPlayers) {
  std::vector<Action> a = ChanceOf("random", 77, 60), b = ChanceOf("heuristic", 77, 60);
  ASSERT_EQ(a.size(), 60u);
  ASSERT_EQ(b.size(), 60u);
  for (size_t k = 0; k < a.size(); ++k) {
    // An Alchemist fixes the production dice; the event die still follows the stream.
    if (a[k].type == ActionType::kChanceDice && (a[k].a == 0 || b[k].a == 0)) continue;
    EXPECT_EQ(a[k], b[k]) << "roll " << k;
  }
  std::vector<Action> c = ChanceOf("random", 78, 60);
  EXPECT_NE(a, c) << "another seed gives other rolls";
}

TEST(ChanceStreams, StreamsDoNotInterfere) {
  ChanceStreams x(1), y(1);
  std::vector<double> dice_x, dice_y;
  for (int i = 0; i < 20; ++i) {
    dice_x.push_back(x.Next(ChanceKind::kDice));
    if (i % 3 == 0) y.Next(ChanceKind::kSteal);
    if (i % 5 == 0) y.Next(ChanceKind::kDrawScience);
    dice_y.push_back(y.Next(ChanceKind::kDice));
  }
  EXPECT_EQ(dice_x, dice_y);
  EXPECT_EQ(x.used(ChanceKind::kDice), 20u);
  EXPECT_EQ(y.used(ChanceKind::kSteal), 7u);
  for (double u : dice_x) {
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

}  // namespace
}  // namespace metropolis::chance
