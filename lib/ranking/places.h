// Places and their scores, as tournaments and the arena count them
// (docs/TOURNAMENTS.md, "Scores and standings"): unlike the ratings' ranks
// (ranks.h), a game that ended without a winner is placed too, by points.
// Standard library only.
#pragma once

#include <vector>

namespace metropolis::ranking {

// The places of a finished game, by seat: the winner first, the others by
// victory points (equal points share a place), seats that forfeited last
// (sharing it). Places are "1224": 1 + the number of seats ahead. A game that
// ended without a winner (the length cap) is placed by points alone.
std::vector<int> PlacesOf(int winner, const std::vector<int>& victory_points, const std::vector<bool>& forfeited);

// The score of a place at a table of `seats` (1 for first, 0 for last).
double PlaceScore(int place, int seats);

// The score of `seat` in a game placed `places` (by seat): its place's score,
// or for a tie spanning places p .. p + k - 1 the mean of their scores.
double SeatScore(const std::vector<int>& places, int seat);

}  // namespace metropolis::ranking
