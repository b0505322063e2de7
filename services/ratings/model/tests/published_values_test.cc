// The openskill libraries' published test values for Plackett–Luce free-for-all
// games, copied digit for digit. The pinned npm package (openskill 5.0.1, see
// reference/) reproduces every one of them.
#include <gtest/gtest.h>

#include <vector>

#include "services/ratings/model/model.h"
#include "services/ratings/model/tests/expect_ratings.h"

namespace metropolis::ratings {
namespace {

// openskill's own tests compare with exact equality; a correctly rounded port
// differs in the last bits at most (sqrt(s²) need not give back s when tau is 0).
constexpr double kTolerance = 1e-12;

const Rating kNew{25.0, 25.0 / 3};

// The model alone, without tau (the step before rate() adds it): openskill.js
// src/models/__tests__/plackett-luce.test.ts, '3p FFA' and '4p FFA'; the same
// numbers are in openskill.py tests/models/test_plackett_luce.py ("3P FFA",
// "4P FFA").
RatingParams ModelOnly() {
  RatingParams p;
  p.tau = 0;
  return p;
}

TEST(PublishedValues, ThreePlayersModelOnly) {
  ExpectRatingsNear(RatePlackettLuce({kNew, kNew, kNew}, {1, 2, 3}, ModelOnly()),
                    {{27.868876552746237, 8.204837030780652},
                     {25.717219138186557, 8.057829747583874},
                     {21.413904309067206, 8.057829747583874}},
                    kTolerance);
}

TEST(PublishedValues, FourPlayersModelOnly) {
  ExpectRatingsNear(RatePlackettLuce({kNew, kNew, kNew, kNew}, {1, 2, 3, 4}, ModelOnly()),
                    {{27.795084971874736, 8.263160757613477},
                     {26.552824984374855, 8.179213704945203},
                     {24.68943500312503, 8.083731307186588},
                     {20.96265504062538, 8.083731307186588}},
                    kTolerance);
}

// The rest go through rate() with its defaults, tau = 25/300 included:
// openskill.js src/__tests__/rate.test.ts. The first one is also openskill.py's
// ("matches Python for a four-way free-for-all at default hyperparameters",
// openskill.js src/__tests__/parity-plackett-luce.test.ts).
const Rating kA{29.182, 4.782};
const Rating kB{27.174, 4.922};
const Rating kC{16.672, 6.217};

TEST(PublishedValues, FourPlayersDefaults) {
  ExpectRatingsNear(RatePlackettLuce({kA, kB, kC, kNew}, {1, 2, 3, 4}, {}),
                    {{30.210227447000438, 4.765617924939384},
                     {27.644725221915632, 4.883479590134575},
                     {17.4036218889969, 6.101259408259549},
                     {19.21460876538932, 7.854669920480409}},
                    kTolerance);
}

TEST(PublishedValues, FourPlayersWithTau) {  // 'rate accepts and runs a placket-luce model with tau'
  RatingParams params;
  params.tau = 0.01;
  ExpectRatingsNear(RatePlackettLuce({kA, kB, kC, kNew}, {1, 2, 3, 4}, params),
                    {{30.20997558824299, 4.764909330988368},
                     {27.64461002009721, 4.882799245921361},
                     {17.403587237635527, 6.100731158882956},
                     {19.21478808745494, 7.854267281042293}},
                    kTolerance);
}

TEST(PublishedValues, FourPlayersMisorderedRanks) {  // 'accepts a misordered rank ordering'
  ExpectRatingsNear(RatePlackettLuce({kNew, kNew, kNew, kNew}, {2, 1, 4, 3}, {}),
                    {{26.55291815138952, 8.17961798837266},
                     {27.795252672501135, 8.263571791259416},
                     {20.962412806387245, 8.084127880168786},
                     {24.689416369722096, 8.084127880168786}},
                    kTolerance);
}

const Rating kW{15, 25.0 / 3};
const Rating kX{20, 25.0 / 3};
const Rating kY{25, 25.0 / 3};
const Rating kZ{30, 25.0 / 3};

TEST(PublishedValues, FourPlayersRankOrdering) {  // 'accepts a rate ordering'
  ExpectRatingsNear(RatePlackettLuce({kW, kX, kY, kZ}, {1, 3, 4, 2}, {}),
                    {{18.131120980297805, 8.283536573151807},
                     {20.405169039419135, 8.107860440531121},
                     {20.65583040714804, 8.082574596348321},
                     {30.80787957313502, 8.155100416275928}},
                    kTolerance);
}

TEST(PublishedValues, ThreePlayersTieForSecond) {  // 'allows ties'
  ExpectRatingsNear(RatePlackettLuce({{10, 8}, {5, 10}, {0, 12}}, {1, 2, 2}, {}),
                    {{11.942996666741225, 7.926888197620324},
                     {2.9381178546315034, 9.653804487570165},
                     {-1.4024317012198733, 11.323641575516767}},
                    kTolerance);
}

TEST(PublishedValues, FourPlayersTieWithGapsInRanks) {  // 'fixes orders of ties'
  ExpectRatingsNear(RatePlackettLuce({kW, kX, kY, kZ}, {2, 4, 2, 1}, {}),
                    {{15.340043358359136, 8.213141619804967},
                     {18.007678675484204, 8.189033933813437},
                     {24.25801928251219, 8.166918055585525},
                     {32.39425868364447, 8.247687230833794}},
                    kTolerance);
}

TEST(PublishedValues, FourWayTieOfNewPlayers) {  // 'four-way-tie with newbies'
  const Rating tied{25, 8.263571791259416};
  ExpectRatingsNear(RatePlackettLuce({kNew, kNew, kNew, kNew}, {1, 1, 1, 1}, {}), {tied, tied, tied, tied}, kTolerance);
}

TEST(PublishedValues, ThreeWayTieOfNewPlayers) {  // 'accepts a score instead of rank', score [1, 1, 1]
  const Rating tied{25, 8.205243377397993};
  ExpectRatingsNear(RatePlackettLuce({kNew, kNew, kNew}, {1, 1, 1}, {}), {tied, tied, tied}, kTolerance);
}

// limit_sigma is published for two-player games only ('rate accepts and runs a
// placket-luce model with tau and limitSigma', 'prevents sigma from rising').
TEST(PublishedValues, LimitSigmaKeepsSigmaFromRising) {
  RatingParams params;
  params.tau = 0.01;
  params.limit_sigma = true;
  ExpectRatingsNear(RatePlackettLuce({{6.672, 0.0001}, kA}, {1, 2}, params),
                    {{6.672012533190158, 0.0001}, {26.316243774876106, 4.7540633621019}}, kTolerance);
  params.tau = 0.3;
  ExpectRatingsNear(RatePlackettLuce({{40, 3}, {-20, 3}}, {1, 2}, params),
                    {{40.00032667136128, 3}, {-20.000326671361275, 3}}, kTolerance);
}

}  // namespace
}  // namespace metropolis::ratings
