// Statistics of duplicate play (set_stats.h): set scores, intervals from the
// spread between sets and pairwise comparisons. The sequential test the pairs
// report is tested with it, in lib/stats/tests/sequential_test.cc.
#include "services/matchmaker/tournaments/set_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace metropolis::matchmaker {
namespace {

// A duplicate set of four rotations of `table`, seat s of rotation r being
// entrant table[(s + r) % 4], each game placing the entrants by `place_of`
// (entrant, rotation) -> place.
template <typename PlaceOf>
std::vector<SetGame> Set(int set, const std::vector<int>& table, PlaceOf place_of) {
  std::vector<SetGame> out;
  for (int r = 0; r < 4; ++r) {
    SetGame g;
    g.set = set;
    for (int s = 0; s < 4; ++s) {
      g.entrants.push_back(table[size_t((s + r) % 4)]);
      g.places.push_back(place_of(g.entrants.back(), r));
    }
    out.push_back(std::move(g));
  }
  return out;
}

// lib/stats/intervals.h, which the set statistics stand on.
TEST(StudentT, MatchesTheTablesToThreeDecimals) {
  // Two-sided 95 % critical values of Student's t.
  const std::vector<std::pair<int, double>> known = {{1, 12.706}, {2, 4.303},  {4, 2.776},   {10, 2.228},  {29, 2.045},
                                                     {40, 2.021}, {60, 2.000}, {120, 1.980}, {1000, 1.962}};
  for (const auto& [df, t] : known) EXPECT_NEAR(stats::StudentT975(df), t, 1e-3) << "df " << df;
}

TEST(SetStats, OnlyCompleteSetsCount) {
  auto place = [](int entrant, int) { return entrant + 1; };
  std::vector<SetGame> games = Set(0, {0, 1, 2, 3}, place);
  std::vector<SetGame> second = Set(1, {0, 1, 2, 3}, place);
  second.pop_back();  // a rotation still playing
  games.insert(games.end(), second.begin(), second.end());
  SetGame stray;  // a game of no set
  stray.entrants = {0, 1, 2, 3};
  stray.places = {1, 2, 3, 4};
  games.push_back(stray);
  const auto sets = CompleteSets(games, 4);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].size(), 4u);
  EXPECT_EQ(sets[0][0].set, 0);
}

// A set score is the mean of the entrant's place scores over the rotations,
// ties sharing the mean of the places they span (TOURNAMENTS.md).
TEST(SetStats, ASetScoreIsTheMeanOverItsRotations) {
  // Entrant 0 wins rotations 0 and 1 and comes last in 2 and 3; 1 and 2 tie for
  // second throughout; 3 is last, then first.
  auto place = [](int entrant, int r) {
    if (entrant == 0) return r < 2 ? 1 : 4;
    if (entrant == 3) return r < 2 ? 4 : 1;
    return 2;
  };
  const auto scores = SetScores(Set(0, {0, 1, 2, 3}, place));
  ASSERT_EQ(scores.size(), 4u);
  EXPECT_DOUBLE_EQ(scores[0].second, 0.5);
  EXPECT_DOUBLE_EQ(scores[1].second, 0.5);  // places 2 and 3 shared: (2/3 + 1/3) / 2
  EXPECT_DOUBLE_EQ(scores[2].second, 0.5);
  EXPECT_DOUBLE_EQ(scores[3].second, 0.5);
}

// The scores the standings and the pairs share: each set's, in set order.
TEST(SetStats, ScoresBySetAreEachSetsInSetOrder) {
  const std::vector<std::vector<SetGame>> sets = {
      Set(0, {0, 1, 2, 3}, [](int entrant, int) { return entrant + 1; }),
      Set(1, {0, 1, 2, 4}, [](int entrant, int) { return entrant == 4 ? 1 : entrant + 2; })};
  const auto by_set = ScoresBySet(sets);
  ASSERT_EQ(by_set.size(), 2u);
  EXPECT_EQ(by_set[0], SetScores(sets[0]));
  EXPECT_EQ(by_set[1], SetScores(sets[1]));
  EXPECT_EQ(by_set[1].back().first, 4);  // by entrant, ascending
  EXPECT_DOUBLE_EQ(by_set[1].back().second, 1.0);
  EXPECT_DOUBLE_EQ(by_set[0].front().second, 1.0);
  EXPECT_TRUE(ScoresBySet({}).empty());
}

// The point of duplicate play: the luck a set shares cancels in its score. Here
// every set is a coin the rotations flip (who wins depends on the rotation, the
// same in every set), so each entrant's games swing from first to last while
// every set score is the same: the per-game interval is wide, the set interval
// has no width at all.
TEST(SetStats, TheIntervalIsFromTheSpreadBetweenSets) {
  auto place = [](int entrant, int r) { return (entrant + r) % 4 + 1; };
  std::vector<std::vector<SetGame>> sets;
  std::vector<GameOutcome> games;
  for (int s = 0; s < 6; ++s) {
    sets.push_back(Set(s, {0, 1, 2, 3}, place));
    for (const SetGame& g : sets.back()) games.push_back({g.entrants, g.places});
  }
  const auto by_set = SetStandings(4, ScoresBySet(sets));
  for (const SetStanding& st : by_set) {
    EXPECT_EQ(st.score.n, 6);
    EXPECT_DOUBLE_EQ(st.score.mean, 0.5);
    EXPECT_DOUBLE_EQ(st.score.ci_low, 0.5);
    EXPECT_DOUBLE_EQ(st.score.ci_high, 0.5);
  }
  for (const Standing& st : Standings(4, games)) EXPECT_GT(st.ci_high - st.ci_low, 0.3);

  // Set scores 1, 0.5, 0.75 (and the mirror for the others): mean 0.75, the
  // interval 0.75 ± t(2) · s / √3 with s = 0.25.
  std::vector<std::vector<SetGame>> three;
  const std::vector<std::vector<int>> places = {{1, 1, 1, 1}, {1, 1, 4, 4}, {1, 1, 1, 4}};
  for (int s = 0; s < 3; ++s)
    three.push_back(Set(s, {0, 1, 2, 3}, [&](int entrant, int r) {
      if (entrant == 0) return places[size_t(s)][size_t(r)];
      return entrant + (entrant == 3 || places[size_t(s)][size_t(r)] == 4 ? 0 : 1);
    }));
  const MeanInterval m = SetStandings(4, ScoresBySet(three))[0].score;
  EXPECT_DOUBLE_EQ(m.mean, 0.75);
  const double half = 4.303 * 0.25 / std::sqrt(3.0);
  EXPECT_NEAR(m.ci_low, 0.75 - half, 1e-3);
  EXPECT_DOUBLE_EQ(m.ci_high, 1.0);  // clipped
}

TEST(SetStats, DuplicateStandingsAreRankedBySetScore) {
  auto place = [](int entrant, int) { return 4 - entrant; };  // 3 first ... 0 last
  std::vector<std::vector<SetGame>> sets = {Set(0, {0, 1, 2, 3}, place), Set(1, {0, 1, 2, 3}, place)};
  std::vector<GameOutcome> games;
  for (const auto& set : sets)
    for (const SetGame& g : set) games.push_back({g.entrants, g.places});
  std::vector<Standing> standings = Standings(5, games);  // entrant 4 never played
  UseSetScores(SetStandings(5, ScoresBySet(sets)), &standings);
  ASSERT_EQ(standings.size(), 5u);
  EXPECT_EQ(standings[0].entrant, 3);
  EXPECT_EQ(standings[0].sets, 2);
  EXPECT_EQ(standings[0].games, 8);
  EXPECT_DOUBLE_EQ(standings[0].score, 1.0);
  EXPECT_EQ(standings[3].entrant, 0);
  EXPECT_EQ(standings[4].entrant, 4);  // ranked with 0: both score 0
  EXPECT_EQ(standings[4].sets, 0);
  EXPECT_EQ(standings[4].rank, standings[3].rank);
  EXPECT_DOUBLE_EQ(standings[4].ci_high, 1.0);
}

// Pairs: the differences of the shared sets only, the entrant ahead first, and
// separated when the interval lies above 0.
TEST(SetStats, PairsCompareTheSetsBothPlayed) {
  // Entrants 0..4; sets of tables {0,1,2,3} and {0,1,2,4}: 3 and 4 never meet.
  // Entrant 1 is ahead of 0 by a varying margin; 2 and 0 are level on average.
  std::vector<std::vector<SetGame>> sets;
  for (int s = 0; s < 4; ++s) {
    const std::vector<int> table = s % 2 ? std::vector<int>{0, 1, 2, 4} : std::vector<int>{0, 1, 2, 3};
    sets.push_back(Set(s, table, [&](int entrant, int r) {
      const bool lucky = (r + s) % 2 == 0;  // 0 and 2 trade second and third
      if (entrant == 1) return 1;
      if (entrant == 0) return lucky ? 2 : (s == 3 ? 2 : 3);
      if (entrant == 2) return lucky ? 3 : (s == 3 ? 3 : 2);
      return 4;
    }));
  }
  const auto pairs = PairComparisons(5, ScoresBySet(sets));
  auto find = [&](int a, int b) -> const PairComparison* {
    for (const auto& p : pairs)
      if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return &p;
    return nullptr;
  };
  EXPECT_EQ(find(3, 4), nullptr);
  const PairComparison* one_zero = find(1, 0);
  ASSERT_NE(one_zero, nullptr);
  EXPECT_EQ(one_zero->a, 1);  // ahead
  EXPECT_EQ(one_zero->difference.n, 4);
  EXPECT_GT(one_zero->difference.mean, 0.3);
  EXPECT_TRUE(one_zero->better);
  const PairComparison* zero_two = find(0, 2);
  ASSERT_NE(zero_two, nullptr);
  EXPECT_GE(zero_two->difference.mean, 0);
  EXPECT_LT(zero_two->difference.ci_low, 0);  // level: not separated
  EXPECT_FALSE(zero_two->better);
  const PairComparison* three_zero = find(3, 0);
  ASSERT_NE(three_zero, nullptr);
  EXPECT_EQ(three_zero->difference.n, 2);  // sets 0 and 2 only
  EXPECT_EQ(three_zero->a, 0);
}

}  // namespace
}  // namespace metropolis::matchmaker
