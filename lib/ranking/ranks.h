// How a finished game ranks its seats (docs/RATINGS.md, "The ranking rule"):
// what the ratings service rates by and the places the gateway shows. Standard
// library only.
#pragma once

#include <string>
#include <vector>

namespace metropolis::ranking {

// A finished game as the ratings service receives it, per seat.
struct GameResultInput {
  int winner = -1;                  // the winning seat, -1 when the game ended without one
  std::vector<int> victory_points;  // per seat, final, hidden cards included
  std::vector<bool> forfeited;      // per seat (empty: nobody): too many timeouts, or left for good
  // A seat resigned (END_REASON_RESIGNED): the game ended there without a
  // winner, and is ranked all the same — the resigning seat is among the
  // forfeits, the others by their points.
  bool resigned = false;
};

// How a game ranks its seats: the winner first; the others by final victory points,
// more is better, equal points share a place; seats that forfeited last, sharing
// the last place. Ranks are 1-based "1224" places: 1 + the number of seats ahead.
// A game without a winner (the length cap) is stored but not rated: returns false
// with why_not "not rated: ended without a winner"; a resigned one is ranked. A malformed result (a winner
// out of range, negative points, fewer than two seats,
// `forfeited` of another size) also returns false, with why_not naming the fault;
// *ranks is only written on success.
bool RanksFromResult(const GameResultInput& result, std::vector<int>* ranks, std::string* why_not);

}  // namespace metropolis::ranking
