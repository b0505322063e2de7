#include "lib/ranking/places.h"

#include <algorithm>
#include <cstdint>

namespace metropolis::ranking {

std::vector<int> PlacesOf(int winner, const std::vector<int>& victory_points, const std::vector<bool>& forfeited) {
  const size_t n = victory_points.size();
  // A sort key per seat, greater is better: forfeits below everyone, the winner above.
  auto key = [&](size_t s) -> int64_t {
    if (s < forfeited.size() && forfeited[s]) return INT64_MIN;
    if (int(s) == winner) return INT64_MAX;
    return victory_points[s];
  };
  std::vector<int> places(n, 1);
  for (size_t s = 0; s < n; ++s)
    for (size_t o = 0; o < n; ++o) places[s] += key(o) > key(s);
  return places;
}

double SeatScore(const std::vector<int>& places, int seat) {
  const int seats = int(places.size());
  const int place = places[size_t(seat)];
  const int tied = int(std::count(places.begin(), places.end(), place));
  double score = 0;
  for (int k = 0; k < tied; ++k) score += PlaceScore(place + k, seats);
  return score / tied;
}

double PlaceScore(int place, int seats) { return seats <= 1 ? 1.0 : double(seats - place) / double(seats - 1); }

}  // namespace metropolis::ranking
