// The ranking rule: winner first, the others by victory points (equal points share
// a place), forfeits last, no winner → not rated.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "services/ratings/model/model.h"

namespace metropolis::ratings {
namespace {

using Ranks = std::vector<int>;

// Designated initializers would read better, but g++ warns about the omitted
// forfeited member (-Wmissing-field-initializers).
GameResultInput Result(int winner, std::vector<int> victory_points, std::vector<bool> forfeited = {}) {
  GameResultInput result;
  result.winner = winner;
  result.victory_points = std::move(victory_points);
  result.forfeited = std::move(forfeited);
  return result;
}

Ranks RanksOf(const GameResultInput& result) {
  Ranks ranks;
  std::string why_not;
  EXPECT_TRUE(RanksFromResult(result, &ranks, &why_not)) << why_not;
  return ranks;
}

std::string WhyNot(const GameResultInput& result) {
  Ranks ranks{7, 7, 7};
  std::string why_not;
  EXPECT_FALSE(RanksFromResult(result, &ranks, &why_not));
  EXPECT_EQ(ranks, (Ranks{7, 7, 7})) << "a refused result must leave the ranks alone";
  return why_not;
}

TEST(RanksFromResult, WinnerFirstThenByPoints) {
  EXPECT_EQ(RanksOf(Result(2, {7, 9, 13, 5})), (Ranks{3, 2, 1, 4}));
  EXPECT_EQ(RanksOf(Result(0, {13, 4, 11})), (Ranks{1, 3, 2}));
}

TEST(RanksFromResult, EqualPointsShareAPlace) {
  EXPECT_EQ(RanksOf(Result(0, {13, 8, 8, 6})), (Ranks{1, 2, 2, 4}));
  EXPECT_EQ(RanksOf(Result(3, {9, 11, 9, 14})), (Ranks{3, 2, 3, 1}));
  EXPECT_EQ(RanksOf(Result(1, {6, 13, 6})), (Ranks{2, 1, 2}));
}

// The winner claims the win on their own turn; another seat can have reached as
// many points (or more) in between, and still comes second.
TEST(RanksFromResult, WinnerIsFirstWhateverThePoints) {
  EXPECT_EQ(RanksOf(Result(1, {13, 13, 10})), (Ranks{2, 1, 3}));
  EXPECT_EQ(RanksOf(Result(0, {13, 14, 2, 14})), (Ranks{1, 2, 4, 2}));
}

TEST(RanksFromResult, ForfeitRanksLastWhateverThePoints) {
  EXPECT_EQ(RanksOf(Result(0, {13, 12, 4, 7}, {false, true, false, false})), (Ranks{1, 4, 3, 2}));
}

TEST(RanksFromResult, SeveralForfeitsShareTheLastPlace) {
  EXPECT_EQ(RanksOf(Result(2, {9, 3, 13, 8}, {true, false, false, true})), (Ranks{3, 2, 1, 3}));
  // Everyone else left: the winner alone is ahead of them.
  EXPECT_EQ(RanksOf(Result(1, {5, 6, 5}, {true, false, true})), (Ranks{2, 1, 2}));
}

TEST(RanksFromResult, ForfeitsAfterTiesOnPoints) {
  EXPECT_EQ(RanksOf(Result(0, {13, 7, 7, 10}, {false, false, false, true})), (Ranks{1, 2, 2, 4}));
}

TEST(RanksFromResult, NoForfeitsWrittenOutIsTheSameAsEmpty) {
  EXPECT_EQ(RanksOf(Result(0, {13, 8, 9}, {false, false, false})), RanksOf(Result(0, {13, 8, 9})));
}

TEST(RanksFromResult, NoWinnerIsNotRated) {
  EXPECT_EQ(WhyNot(Result(-1, {11, 12, 9, 10})), "not rated: ended without a winner");
  EXPECT_EQ(WhyNot(Result(-1, {11, 12, 9}, {false, true, false})), "not rated: ended without a winner");
}

// A resigned game has no winner and is ranked all the same: the resigning seat
// (forfeited) last, the others by points (END_REASON_RESIGNED).
TEST(RanksFromResult, AResignedGameIsRankedWithTheResignerLast) {
  GameResultInput resigned = Result(-1, {11, 12, 9, 10}, {false, true, false, false});
  resigned.resigned = true;
  EXPECT_EQ(RanksOf(resigned), (Ranks{1, 4, 3, 2}));
  resigned.winner = 0;
  EXPECT_EQ(WhyNot(resigned), "a resigned game has a winner");
  resigned.winner = -1;
  resigned.forfeited = {};
  EXPECT_EQ(WhyNot(resigned), "a resigned game has no forfeited seat");
}

TEST(RanksFromResult, MalformedResultsAreRefusedWithTheReason) {
  EXPECT_EQ(WhyNot(Result(3, {13, 4, 5})), "winner seat 3 out of range for 3 seats");
  EXPECT_EQ(WhyNot(Result(0, {13, 4, 5}, {false, true})), "forfeited has 2 entries for 3 seats");
  EXPECT_EQ(WhyNot(Result(0, {13, -1, 5})), "seat 1 has negative victory points");
  EXPECT_EQ(WhyNot(Result(0, {13})), "not rated: a rated game needs at least two seats, got 1");
}

// The fallback bot may win a seat its player forfeited: the seat still ranks
// last, and the others by points, nobody as the winner.
TEST(RanksFromResult, AForfeitedWinnerRanksWithTheForfeits) {
  Ranks ranks;
  ASSERT_TRUE(RanksFromResult(Result(1, {4, 13, 5}, {false, true, false}), &ranks, nullptr));
  EXPECT_EQ(ranks, (Ranks{2, 3, 1}));
}

TEST(RanksFromResult, WhyNotMayBeOmitted) {
  Ranks ranks;
  EXPECT_FALSE(RanksFromResult(Result(-1, {1, 2, 3}), &ranks, nullptr));
  EXPECT_TRUE(RanksFromResult(Result(0, {13, 2, 3}), &ranks, nullptr));
  EXPECT_EQ(ranks, (Ranks{1, 3, 2}));
}

// From a result to new ratings: seats that share a place with equal ratings move
// together, and a seat that forfeits with many points loses what it had earned.
TEST(RanksFromResult, FeedsTheModel) {
  const Rating fresh{25, 25.0 / 3};
  const std::vector<Rating> before{fresh, fresh, fresh, fresh};
  Ranks ranks = RanksOf(Result(0, {13, 9, 12, 6}, {false, false, true, true}));
  ASSERT_EQ(ranks, (Ranks{1, 2, 3, 3}));
  std::vector<Rating> after = RatePlackettLuce(before, ranks, {});
  EXPECT_DOUBLE_EQ(after[2].mu, after[3].mu);
  EXPECT_DOUBLE_EQ(after[2].sigma, after[3].sigma);
  EXPECT_GT(after[0].mu, after[1].mu);
  EXPECT_GT(after[1].mu, after[2].mu);

  std::vector<Rating> played_out = RatePlackettLuce(before, RanksOf(Result(0, {13, 9, 12, 6})), {});
  EXPECT_GT(played_out[2].mu, fresh.mu);
  EXPECT_LT(after[2].mu, fresh.mu);
}

}  // namespace
}  // namespace metropolis::ratings
