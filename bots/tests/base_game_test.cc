// The bots in the base game (ruleset base, RULES.md 22): they finish games,
// seeded runs reproduce, a decision depends only on the seat's view (BG-9:
// the others' development cards and the VP cards among them are hidden), and
// the heuristic buys and plays development cards (BG-4, BG-5) and goes for
// Largest Army (BG-6).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "bots/bot.h"
#include "bots/evaluation.h"
#include "bots/match.h"
#include "bots/tests/positions.h"
#include "engine/view.h"
#include "lib/chance/chance.h"

namespace metropolis::bots {
namespace {

GameConfig BaseConfig(uint64_t board_seed, int seats = 4) {
  GameConfig config;
  config.num_seats = seats;
  config.board = RandomBoard(board_seed);
  config.options = DefaultOptions(Ruleset::kBase);
  return config;
}

// Positions of random base games where a seat is to act, every `stride`-th
// decision, with development cards in play.
std::vector<State> BasePositions(int count, int stride, uint64_t seed) {
  return testing::RandomWalkPositions(count, stride, seed, [](uint64_t board_seed) { return BaseConfig(board_seed); });
}

const char* const kSpecs[] = {"random", "heuristic", "search:iterations=40", "search:iterations=40,threads=2"};

// BG-9: two states that differ only in what the seat may not see (other
// hands, development cards, the deck's order) give the same decision.
TEST(BotsBaseGame, SameDecisionWhateverTheHiddenCards) {
  const std::vector<State> positions = BasePositions(50, 29, 17);
  int differing_dev = 0;
  for (const char* spec : kSpecs) {
    std::string error;
    std::unique_ptr<Bot> bot = MakeBot(spec, &error);
    ASSERT_NE(bot, nullptr) << error;
    for (size_t i = 0; i < positions.size(); ++i) {
      const State& s = positions[i];
      const int seat = s.CurrentPlayer();
      const View view = MakeView(s, seat);
      State other;
      ASSERT_TRUE(SampleState(view, 500 + i, &other, &error)) << error;
      const View other_view = MakeView(other, seat);
      ASSERT_EQ(view, other_view);
      for (int o = 0; o < s.num_seats(); ++o)
        if (o != seat && other.player(o).dev != s.player(o).dev) ++differing_dev;
      uint64_t rng1 = 7 + i, rng2 = 7 + i;
      EXPECT_EQ(bot->Choose(view, &rng1), bot->Choose(other_view, &rng2)) << spec << " at position " << i;
      EXPECT_EQ(rng1, rng2);
    }
  }
  EXPECT_GT(differing_dev, 0) << "the sampled states should differ in hidden development cards";
}

TEST(BotsBaseGame, OnlyLegalActions) {
  const std::vector<State> positions = BasePositions(200, 7, 23);
  for (const char* spec : kSpecs) {
    std::string error;
    std::unique_ptr<Bot> bot = MakeBot(spec, &error);
    const bool slow = std::string(spec).starts_with("search");
    for (size_t i = 0; i < positions.size(); i += slow ? 5 : 1) {
      const State& s = positions[i];
      const View view = MakeView(s, s.CurrentPlayer());
      uint64_t rng = i;
      const Action a = bot->Choose(view, &rng);
      EXPECT_EQ(s.CheckAction(a), "") << spec << " chose " << ActionToString(a) << " at position " << i;
    }
  }
}

GameOutcome PlayBase(const std::string& candidate, const std::string& others, uint64_t seed, int seats = 4) {
  std::string error;
  std::vector<std::unique_ptr<Bot>> bots;
  std::vector<Seat> table(static_cast<size_t>(seats));
  for (int seat = 0; seat < seats; ++seat) {
    bots.push_back(MakeBot(seat == 0 ? candidate : others, &error));
    table[size_t(seat)].bot = bots.back().get();
    table[size_t(seat)].seed = seed * 10 + uint64_t(seat);
  }
  return PlayGame(BaseConfig(seed, seats), table, seed);
}

// Whole games to the end, at 4 and 3 seats: won by someone, at 10 VP or more.
TEST(BotsBaseGame, GamesFinish) {
  for (const char* spec : {"random", "heuristic", "search:iterations=20"}) {
    for (int seats : {4, 3}) {
      const GameOutcome o = PlayBase(spec, "heuristic", 40 + uint64_t(seats), seats);
      EXPECT_EQ(o.error, "") << spec;
      ASSERT_NE(o.winner, kNoSeat) << spec << " at " << seats << " seats hit the length cap";
      EXPECT_GE(o.vp[size_t(o.winner)], 10) << spec;
    }
  }
}

TEST(BotsBaseGame, SeededRunsReproduce) {
  for (const char* spec : {"heuristic", "random", "search:iterations=30,threads=2"}) {
    const GameOutcome a = PlayBase(spec, "heuristic", 5), b = PlayBase(spec, "heuristic", 5);
    EXPECT_EQ(a.error, "");
    EXPECT_EQ(a.actions, b.actions) << spec;
    EXPECT_EQ(a.winner, b.winner) << spec;
    EXPECT_EQ(a.vp, b.vp) << spec;
  }
}

TEST(BotsBaseGame, HeuristicBeatsRandom) {
  int wins = 0;
  for (uint64_t game = 0; game < 8; ++game)
    if (PlayBase("heuristic", "random", 100 + game).winner == 0) ++wins;
  EXPECT_GE(wins, 6);
}

// BG-4..BG-6: four heuristics buy development cards, play each kind, and
// someone takes Largest Army in most games.
TEST(BotsBaseGame, HeuristicUsesDevelopmentCards) {
  std::string error;
  std::unique_ptr<Bot> bot = MakeBot("heuristic", &error);
  std::map<int, int> played;
  int bought = 0, army_games = 0, games = 6;
  for (uint64_t g = 0; g < uint64_t(games); ++g) {
    State s;
    ASSERT_TRUE(NewGame(BaseConfig(200 + g), &s, &error)) << error;
    chance::ChanceStreams chance(g);
    uint64_t rng = g;
    while (!s.IsTerminal()) {
      Action a;
      if (s.IsChanceNode()) {
        a = chance.Sample(s);
      } else {
        a = bot->Choose(MakeView(s, s.CurrentPlayer()), &rng);
      }
      bought += a.type == ActionType::kBuyDev;
      if (a.type == ActionType::kPlayDev) ++played[a.a];
      ASSERT_EQ(s.Apply(a), "");
    }
    army_games += s.largest_army_holder() != kNoSeat;
  }
  EXPECT_GT(bought, 6 * games / 2);
  EXPECT_GT(played[kDevKnight], games);
  EXPECT_GT(played[kDevRoadBuilding] + played[kDevYearOfPlenty] + played[kDevMonopoly], 0);
  EXPECT_GE(army_games, games / 2);
}

// BG-9: a seat's evaluation of the others reads only public VP.
TEST(BotsBaseGame, EvaluationIgnoresHiddenVictoryPoints) {
  for (const State& s : BasePositions(40, 31, 9)) {
    const int seat = s.CurrentPlayer();
    const View view = MakeView(s, seat);
    State other;
    std::string error;
    ASSERT_TRUE(SampleState(view, 3, &other, &error)) << error;
    for (int o = 0; o < s.num_seats(); ++o) {
      EXPECT_EQ(PublicVictoryPoints(s, o), PublicVictoryPoints(other, o));
      EXPECT_DOUBLE_EQ(BoardValue(s, o), BoardValue(other, o));
    }
    EXPECT_DOUBLE_EQ(NormalizedValue(s, seat), NormalizedValue(other, seat));
  }
}

}  // namespace
}  // namespace metropolis::bots
