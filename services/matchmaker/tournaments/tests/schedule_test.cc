// Tournament schedules and standings (tournament.h).
#include "services/matchmaker/tournaments/schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace metropolis::matchmaker {
namespace {

TEST(RoundRobin, EveryGroupMeetsInEverySeat) {
  const auto games = RoundRobin(6, 4, 42);
  EXPECT_EQ(games.size(), 15u * 4);  // C(6,4) tables, 4 rotations each
  std::map<std::set<int>, int> tables;
  std::map<std::pair<int, int>, int> seat_of;  // (entrant, seat) -> games
  for (const auto& g : games) {
    ASSERT_EQ(g.entrants.size(), 4u);
    ++tables[{g.entrants.begin(), g.entrants.end()}];
    for (int s = 0; s < 4; ++s) ++seat_of[{g.entrants[size_t(s)], s}];
  }
  EXPECT_EQ(tables.size(), 15u);
  for (const auto& [t, n] : tables) EXPECT_EQ(n, 4);
  // C(5,3) = 10 tables per entrant, each once in every seat.
  for (int e = 0; e < 6; ++e)
    for (int s = 0; s < 4; ++s) EXPECT_EQ((seat_of[{e, s}]), 10);
  // Reproducible, and the seeds differ between games.
  const auto again = RoundRobin(6, 4, 42);
  std::set<uint64_t> seeds;
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(games[i].chance_seed, again[i].chance_seed);
    seeds.insert(games[i].chance_seed);
  }
  EXPECT_EQ(seeds.size(), games.size());
  EXPECT_NE(RoundRobin(6, 4, 43)[0].chance_seed, games[0].chance_seed);
  EXPECT_TRUE(RoundRobin(3, 4, 1).empty());
}

TEST(DuplicateSets, ASetSharesItsDiceAndBoardAndRotatesTheSeats) {
  const auto games = DuplicateSets({{0, 1, 2, 3}, {4, 5, 6, 7}}, 2, 10, 99);
  ASSERT_EQ(games.size(), 8u);
  for (int set = 0; set < 2; ++set) {
    std::map<std::pair<int, int>, int> seat_of;
    for (int r = 0; r < 4; ++r) {
      const auto& g = games[size_t(set * 4 + r)];
      EXPECT_EQ(g.set, 10 + set);
      EXPECT_EQ(g.round, 2);
      EXPECT_EQ(g.chance_seed, games[size_t(set * 4)].chance_seed);
      EXPECT_EQ(g.board_seed, games[size_t(set * 4)].board_seed);
      for (int s = 0; s < 4; ++s) ++seat_of[{g.entrants[size_t(s)], s}];
    }
    EXPECT_EQ(seat_of.size(), 16u);  // every entrant of the set in every seat once
  }
  EXPECT_NE(games[0].chance_seed, games[4].chance_seed);
}

TEST(SwissRound, SimilarScoresMeetAndRepeatsAreAvoided) {
  SwissInput in;
  in.score = {7, 6, 5, 4, 3, 2, 1, 0};
  in.met.assign(8, std::vector<int>(8, 0));
  in.byes.assign(8, 0);
  std::vector<int> out;
  auto tables = SwissRound(in, 4, &out);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ((std::set<int>{tables[0].begin(), tables[0].end()}), (std::set<int>{0, 1, 2, 3}));
  // 0 already met 1, 2 and 3 twice: the table looks further down.
  for (int a : {1, 2, 3}) in.met[0][size_t(a)] = in.met[size_t(a)][0] = 2;
  tables = SwissRound(in, 4, &out);
  EXPECT_EQ((std::set<int>{tables[0].begin(), tables[0].end()}), (std::set<int>{0, 4, 5, 6}));
}

TEST(SwissRound, ByesGoToTheLowestWithTheFewestByes) {
  SwissInput in;
  in.score = {5, 4, 3, 2, 1, 0};
  in.met.assign(6, std::vector<int>(6, 0));
  in.byes = {0, 0, 0, 0, 0, 1};
  std::vector<int> out;
  const auto tables = SwissRound(in, 4, &out);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ((std::set<int>{out.begin(), out.end()}), (std::set<int>{3, 4}));  // 5 sat out before
}

TEST(Standings, PlacesScoreAndTiesShare) {
  EXPECT_DOUBLE_EQ(PlaceScore(1, 4), 1.0);
  EXPECT_DOUBLE_EQ(PlaceScore(4, 4), 0.0);
  EXPECT_DOUBLE_EQ(PlaceScore(2, 3), 0.5);
  const auto st = Standings(4, {{{0, 1, 2, 3}, {1, 2, 2, 4}}});
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(st[0].entrant, 0);
  EXPECT_DOUBLE_EQ(st[0].score, 1.0);
  EXPECT_EQ(st[0].wins, 1);
  // The tie for second spans places 2 and 3: (2/3 + 1/3) / 2 each.
  EXPECT_DOUBLE_EQ(st[1].score, 0.5);
  EXPECT_DOUBLE_EQ(st[2].score, 0.5);
  EXPECT_EQ(st[1].rank, 2);
  EXPECT_EQ(st[2].rank, 2);
  EXPECT_EQ(st[3].rank, 4);
  EXPECT_DOUBLE_EQ(st[3].score, 0.0);
}

TEST(Standings, TheIntervalNarrowsWithGamesAndHoldsTheMean) {
  std::vector<GameOutcome> games;
  for (int g = 0; g < 100; ++g) games.push_back({{0, 1, 2, 3}, {g % 2 ? 1 : 2, g % 2 ? 2 : 1, 3, 4}});
  const auto many = Standings(4, games);
  games.resize(10);
  const auto few = Standings(4, games);
  for (const auto& s : many) {
    EXPECT_LE(s.ci_low, s.score);
    EXPECT_GE(s.ci_high, s.score);
  }
  auto width = [](const std::vector<Standing>& st, int entrant) {
    for (const auto& s : st)
      if (s.entrant == entrant) return s.ci_high - s.ci_low;
    return -1.0;
  };
  EXPECT_LT(width(many, 0), width(few, 0));
  // Scores 1 and 2/3 in turn: a sample variance of (1/6)² · 100/99.
  EXPECT_NEAR(width(many, 0), 2 * 1.96 * std::sqrt(1.0 / 36 * 100 / 99 / 100), 1e-9);
  EXPECT_NEAR(width(many, 2), 0.0, 1e-12);  // always third: no spread
}

// Arena: of seven free entrants at tables of four, the three who played most
// sit out; the four seated are ordered by score, rotated by the round; every
// game has its own chance number, derived from the game's number.
TEST(ArenaPairing, TheLeastPlayedAreSeatedBestFirstEachGameItsOwnChance) {
  std::vector<ArenaEntrant> free = {{0, 0.9, 5, {}}, {1, 0.2, 1, {}}, {2, 0.5, 0, {}}, {3, 0.7, 2, {}},
                                    {4, 0.1, 6, {}}, {5, 0.4, 2, {}}, {6, 0.8, 7, {}}};
  const std::vector<ScheduledGame> games = ArenaPairing(free, 4, 0, 10, 42);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].entrants, (std::vector<int>{3, 2, 5, 1})) << "least played 2, 1, 3, 5; by score 3, 2, 5, 1";
  EXPECT_EQ(ArenaPairing(free, 4, 1, 10, 42)[0].entrants, (std::vector<int>{2, 5, 1, 3})) << "rotated by the round";
  // Eight free: two tables, the best four together.
  free.push_back({7, 0.95, 0, {}});
  const std::vector<ScheduledGame> two = ArenaPairing(free, 4, 0, 10, 42);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].entrants, (std::vector<int>{7, 0, 6, 3}));
  EXPECT_EQ(two[1].entrants, (std::vector<int>{2, 5, 1, 4}));
  EXPECT_NE(two[0].chance_seed, two[1].chance_seed);
  EXPECT_EQ(two[1].chance_seed, ArenaPairing(free, 4, 3, 11, 42)[0].chance_seed) << "game 11's chance, whoever plays";
  EXPECT_NE(two[0].chance_seed, ArenaPairing(free, 4, 0, 10, 43)[0].chance_seed) << "another seed, other chance";
  EXPECT_TRUE(ArenaPairing({{0, 0.5, 0, {}}, {1, 0.5, 0, {}}, {2, 0.5, 0, {}}}, 4, 0, 0, 42).empty())
      << "three free: no table";
  // Seats: an entrant who has sat first three times is seated elsewhere.
  const std::vector<ArenaEntrant> seated = {
      {0, 0.5, 3, {3, 0, 0, 0}}, {1, 0.5, 3, {}}, {2, 0.5, 3, {}}, {3, 0.5, 3, {}}};
  EXPECT_EQ(ArenaPairing(seated, 4, 0, 0, 42)[0].entrants, (std::vector<int>{1, 2, 3, 0}));
  EXPECT_TRUE(InitialSchedule(TournamentFormat::kArena, 8, 4, 1, 42).empty());
  EXPECT_EQ(ScheduleSize(TournamentFormat::kArena, 8, 4, 1), 0);
}

TEST(ScheduleSize, CountsWithoutBuildingAndSaturates) {
  for (TournamentFormat f : {TournamentFormat::kRoundRobin, TournamentFormat::kDuplicate}) {
    for (int n : {4, 5, 7, 9}) {
      for (int seats : {3, 4}) {
        EXPECT_EQ(ScheduleSize(f, n, seats, 2), int64_t(InitialSchedule(f, n, seats, 2, 1).size())) << n;
      }
    }
  }
  EXPECT_EQ(ScheduleSize(TournamentFormat::kSwiss, 9, 4, 3), 6);  // 2 tables a round, one bye
  EXPECT_EQ(ScheduleSize(TournamentFormat::kRoundRobin, 30, 4, 1), 27405 * 4);
  EXPECT_EQ(ScheduleSize(TournamentFormat::kRoundRobin, 1000, 4, 1000), int64_t(41'417'124'750) * 4 * 1000);
  EXPECT_EQ(ScheduleSize(TournamentFormat::kRoundRobin, 1000, 40, 1), INT64_MAX);
  EXPECT_EQ(ScheduleSize(TournamentFormat::kRoundRobin, 3, 4, 1), 0);
}

}  // namespace
}  // namespace metropolis::matchmaker
