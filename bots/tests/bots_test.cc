#include <gtest/gtest.h>

#include <algorithm>
#include <span>

#include "bots/bot.h"
#include "bots/evaluation.h"
#include "bots/match.h"
#include "bots/search.h"
#include "bots/tests/positions.h"
#include "engine/view.h"

namespace metropolis::bots {
namespace {

const char* const kSpecs[] = {"random", "greedy", "heuristic", "search:iterations=60",
                              "search:iterations=60,threads=2"};

using testing::Positions;

TEST(Bots, MakeBotParsesSpecs) {
  std::string error;
  for (const char* spec : kSpecs) EXPECT_NE(MakeBot(spec, &error), nullptr) << spec << ": " << error;
  EXPECT_EQ(MakeBot("search:ms=50", &error)->name(), "search:ms=50");
  EXPECT_EQ(MakeBot("nobody", &error), nullptr);
  EXPECT_NE(error.find("unknown bot"), std::string::npos);
  EXPECT_EQ(MakeBot("search:depth=3", &error), nullptr);
  EXPECT_NE(error.find("unknown setting"), std::string::npos);
  EXPECT_EQ(MakeBot("heuristic:x=1", &error), nullptr);
  EXPECT_EQ(MakeBot("search:ms=abc", &error), nullptr);
}

// What a host checks a spec against (Bot::think_ms) and how it bounds the rest.
TEST(Bots, ThinkingTimeIsWhatTheSpecSaysAndALimitEndsAnyBudget) {
  std::string error;
  EXPECT_EQ(MakeBot("search:ms=3600000", &error)->think_ms(), 3'600'000);
  EXPECT_EQ(MakeBot("search", &error)->think_ms(), SearchOptions().ms);
  for (const char* spec : {"random", "greedy", "heuristic", "search:iterations=60"})
    EXPECT_EQ(MakeBot(spec, &error)->think_ms(), 0) << spec;
  // An iteration budget no machine finishes in a test's lifetime: the limit
  // ends the decision, with far fewer iterations than asked for.
  std::unique_ptr<Bot> bot = MakeBot("search:iterations=1000000000", &error);
  bot->LimitThinking(20);
  const SearchBot& search = static_cast<const SearchBot&>(*bot);
  EXPECT_EQ(search.options().max_ms, 20);
  std::vector<State> positions = Positions(8, 5, 3);
  for (size_t i = 0; i < positions.size(); ++i) {
    const View view = MakeView(positions[i], positions[i].CurrentPlayer());
    uint64_t rng = i;
    EXPECT_EQ(positions[i].CheckAction(bot->Choose(view, &rng)), "");
  }
  EXPECT_LT(search.stats().iterations, 1'000'000'000);
}

// A bot sees only the view: two states that differ only in what its seat
// may not see give the same decision for the same seed.
TEST(Bots, SameDecisionWhateverTheHiddenCards) {
  std::vector<State> positions = Positions(60, 23, 7);
  int differing = 0;
  for (const char* spec : kSpecs) {
    std::string error;
    std::unique_ptr<Bot> bot = MakeBot(spec, &error);
    for (size_t i = 0; i < positions.size(); ++i) {
      const State& s = positions[i];
      const int seat = s.CurrentPlayer();
      View view = MakeView(s, seat);
      State other = s;
      ASSERT_TRUE(SampleState(view, 1000 + i, &other, &error)) << error;
      View other_view = MakeView(other, seat);
      ASSERT_EQ(view, other_view);
      for (int o = 0; o < s.num_seats(); ++o)
        if (o != seat && !(other.player(o).hand == s.player(o).hand)) ++differing;
      uint64_t rng1 = 42 + i, rng2 = 42 + i;
      EXPECT_EQ(bot->Choose(view, &rng1), bot->Choose(other_view, &rng2)) << spec << " at position " << i;
      EXPECT_EQ(rng1, rng2);
    }
  }
  EXPECT_GT(differing, 0) << "the sampled states should differ in hidden hands";
}

// Every bot returns one of the legal actions, in a few hundred positions.
// A bot that says it reads only its legal actions (sim then shows it nothing
// else) decides the same on a view holding only those as on the whole view.
TEST(Bots, ABotReadingOnlyLegalDecidesTheSameOnABareView) {
  std::vector<State> positions = Positions(200, 3, 5);
  int light = 0;
  for (const char* spec : kSpecs) {
    std::string error;
    std::unique_ptr<Bot> bot = MakeBot(spec, &error);
    if (!bot->ReadsOnlyLegal()) continue;
    ++light;
    View bare(positions[0]);  // its state is another position's: never read
    for (size_t i = 0; i < positions.size(); ++i) {
      const State& s = positions[i];
      const View whole = MakeView(s, s.CurrentPlayer());
      bare.viewer = whole.viewer;
      bare.legal = whole.legal;
      uint64_t rng_whole = i, rng_bare = i;
      EXPECT_EQ(bot->Choose(whole, &rng_whole), bot->Choose(bare, &rng_bare)) << spec << " at position " << i;
      EXPECT_EQ(rng_whole, rng_bare) << spec;
    }
  }
  EXPECT_EQ(light, 1) << "only the random bot reads nothing but its legal actions";
}

// Such a bot chooses from the engine's own list (Bot::ChooseFromLegal, what
// sim calls) exactly what it chooses from the whole view, drawing as much of
// its stream, at every decision of whole random games.
TEST(Bots, ABotReadingOnlyLegalChoosesTheSameFromTheEngineList) {
  for (const char* spec : kSpecs) {
    std::string error;
    std::unique_ptr<Bot> bot = MakeBot(spec, &error);
    if (!bot->ReadsOnlyLegal()) continue;
    int64_t decisions = 0;
    for (uint64_t game = 1; game <= 8; ++game) {
      GameConfig config;
      config.board = RandomBoard(game);
      State s(config);
      ASSERT_TRUE(NewGame(config, &s, &error)) << error;
      uint64_t chance = game, rng_list = game * 7, rng_view = game * 7;
      ActionList legal;
      while (!s.IsTerminal()) {
        if (s.IsChanceNode()) {
          s.ApplyUnchecked(s.SampleChance(UniformRandom(&chance)));
          continue;
        }
        const int seat = s.CurrentPlayer();
        s.LegalActions(&legal);
        const Action from_list =
            bot->ChooseFromLegal(seat, std::span<const Action>(legal.begin(), legal.end()), &rng_list);
        const Action from_view = bot->Choose(MakeView(s, seat), &rng_view);
        ASSERT_EQ(from_list, from_view) << spec << ", game " << game << ", decision " << decisions;
        ASSERT_EQ(rng_list, rng_view) << spec;
        s.ApplyUnchecked(from_list);
        ++decisions;
      }
    }
    EXPECT_GT(decisions, 8 * 500) << spec;
  }
}

// A bot reading only its legal actions that does not choose from the list
// itself: the default shows its Choose the viewer and the list.
class LastOfTheFirstFew : public Bot {
 public:
  Action Choose(const View& view, uint64_t* rng) override {
    viewers.push_back(view.viewer);
    const uint32_t few = uint32_t(std::min<size_t>(view.legal.size(), 3));
    return view.legal[view.legal.size() - 1 - RandomBelow(rng, few)];
  }
  bool ReadsOnlyLegal() const override { return true; }
  std::vector<int> viewers;
};

TEST(Bots, ChoosingFromTheLegalListByDefaultShowsChooseTheList) {
  LastOfTheFirstFew bot;
  std::vector<State> positions = Positions(100, 3, 17);
  for (size_t i = 0; i < positions.size(); ++i) {
    const State& s = positions[i];
    const int seat = s.CurrentPlayer();
    ActionList legal;
    s.LegalActions(&legal);
    uint64_t rng_list = i, rng_view = i;
    EXPECT_EQ(bot.ChooseFromLegal(seat, std::span<const Action>(legal.begin(), legal.end()), &rng_list),
              bot.Choose(MakeView(s, seat), &rng_view))
        << "position " << i;
    EXPECT_EQ(rng_list, rng_view);
    ASSERT_EQ(bot.viewers.size(), 2 * (i + 1));
    EXPECT_EQ(bot.viewers[2 * i], seat);
  }
}

TEST(Bots, OnlyLegalActions) {
  std::vector<State> positions = Positions(300, 7, 11);
  for (const char* spec : kSpecs) {
    std::string error;
    std::unique_ptr<Bot> bot = MakeBot(spec, &error);
    const bool slow = std::string(spec).rfind("search", 0) == 0;
    for (size_t i = 0; i < positions.size(); i += slow ? 5 : 1) {
      const State& s = positions[i];
      View view = MakeView(s, s.CurrentPlayer());
      uint64_t rng = i;
      Action a = bot->Choose(view, &rng);
      // An offer or counter (TRD-3) is never listed: it must pass the
      // engine's check and give only cards the seat holds.
      if (IsParameterised(a.type)) {
        EXPECT_TRUE(s.player(view.viewer).hand.Contains(a.give.ToCounts())) << spec << " " << ActionToString(a);
      } else {
        EXPECT_TRUE(std::find(view.legal.begin(), view.legal.end(), a) != view.legal.end())
            << spec << " chose " << ActionToString(a) << " at position " << i;
      }
      EXPECT_EQ(s.CheckAction(a), "") << spec;
    }
  }
}

GameOutcome PlaySeeded(const std::string& spec, uint64_t seed) {
  std::string error;
  std::vector<std::unique_ptr<Bot>> bots;
  std::vector<Seat> seats(4);
  for (int seat = 0; seat < 4; ++seat) {
    bots.push_back(MakeBot(seat == 0 ? spec : "heuristic", &error));
    seats[size_t(seat)].bot = bots.back().get();
    seats[size_t(seat)].seed = seed * 10 + uint64_t(seat);
  }
  GameConfig config;
  config.board = RandomBoard(seed);
  config.options.max_actions = 400;
  return PlayGame(config, seats, seed);
}

// Seeded runs reproduce exactly, threads included (an iteration budget).
TEST(Bots, SeededRunsReproduce) {
  for (const char* spec : {"heuristic", "random", "search:iterations=40,threads=2"}) {
    GameOutcome a = PlaySeeded(spec, 3), b = PlaySeeded(spec, 3);
    EXPECT_EQ(a.error, "");
    EXPECT_EQ(a.actions, b.actions) << spec;
    EXPECT_EQ(a.winner, b.winner) << spec;
    EXPECT_EQ(a.vp, b.vp) << spec;
    EXPECT_EQ(a.turns, b.turns) << spec;
  }
}

TEST(Bots, HeuristicBeatsRandom) {
  std::string error;
  std::unique_ptr<Bot> heuristic = MakeBot("heuristic", &error), random = MakeBot("random", &error);
  int wins = 0;
  for (int game = 0; game < 8; ++game) {
    std::vector<Seat> seats(4);
    for (int seat = 0; seat < 4; ++seat) {
      seats[size_t(seat)].bot = seat == game % 4 ? heuristic.get() : random.get();
      seats[size_t(seat)].seed = uint64_t(game * 4 + seat);
    }
    GameConfig config;
    config.board = RandomBoard(uint64_t(game));
    GameOutcome o = PlayGame(config, seats, uint64_t(game));
    EXPECT_EQ(o.error, "");
    if (o.winner == game % 4) ++wins;
  }
  EXPECT_GE(wins, 6);
}

TEST(Evaluation, NormalizedValueIsInUnitInterval) {
  for (const State& s : Positions(50, 17, 5)) {
    for (int seat = 0; seat < s.num_seats(); ++seat) {
      double v = NormalizedValue(s, seat);
      EXPECT_GE(v, 0.0);
      EXPECT_LE(v, 1.0);
    }
  }
}

}  // namespace
}  // namespace metropolis::bots
