// How a finished game ranks its seats (docs/RATINGS.md, "The ranking rule").
#include "lib/ranking/ranks.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace metropolis::ranking {
namespace {

bool Refuse(std::string* why_not, std::string why) {
  if (why_not != nullptr) *why_not = std::move(why);
  return false;
}

// Where a seat finished: its group first (0 the winner, 1 the seats that played
// to the end, 2 the seats that forfeited; lower is ahead), then its points within
// the group (more is ahead).
struct Standing {
  int group;
  int points;
};

bool Ahead(const Standing& a, const Standing& b) {
  if (a.group != b.group) return a.group < b.group;
  return a.points > b.points;
}

}  // namespace

bool RanksFromResult(const GameResultInput& result, std::vector<int>* ranks, std::string* why_not) {
  const std::size_t n = result.victory_points.size();
  // The length cap comes first: such a game is complete and stored, only unrated.
  if (result.winner < 0 && !result.resigned) return Refuse(why_not, "not rated: ended without a winner");
  if (result.resigned && result.winner >= 0) return Refuse(why_not, "a resigned game has a winner");
  if (n < 2) return Refuse(why_not, "not rated: a rated game needs at least two seats, got " + std::to_string(n));
  if (result.winner >= 0 && static_cast<std::size_t>(result.winner) >= n)
    return Refuse(why_not,
                  "winner seat " + std::to_string(result.winner) + " out of range for " + std::to_string(n) + " seats");
  if (!result.forfeited.empty() && result.forfeited.size() != n)
    return Refuse(why_not, "forfeited has " + std::to_string(result.forfeited.size()) + " entries for " +
                               std::to_string(n) + " seats");
  for (std::size_t s = 0; s < n; ++s) {
    if (result.victory_points[s] < 0)
      return Refuse(why_not, "seat " + std::to_string(s) + " has negative victory points");
  }
  auto forfeited = [&](std::size_t s) { return !result.forfeited.empty() && result.forfeited[s]; };
  bool any_forfeited = false;
  for (std::size_t s = 0; s < n; ++s) any_forfeited = any_forfeited || forfeited(s);
  if (result.resigned && !any_forfeited) return Refuse(why_not, "a resigned game has no forfeited seat");
  // A seat that forfeited may still "win": the fallback bot played it on after
  // the player left. The win is the bot's, not the player's: the seat ranks with
  // the forfeits, and nobody ranks as the winner.

  // The winner is first whatever the points: a win is claimed on one's own turn, so
  // another seat may hold as many points or more by then. Points do not separate
  // forfeits: they share the last place.
  std::vector<Standing> standing(n);
  for (std::size_t s = 0; s < n; ++s) {
    if (forfeited(s))
      standing[s] = {2, 0};
    else if (static_cast<int>(s) == result.winner)
      standing[s] = {0, 0};
    else
      standing[s] = {1, result.victory_points[s]};
  }
  std::vector<int> out(n);
  for (std::size_t s = 0; s < n; ++s) {
    int ahead = 0;
    for (std::size_t t = 0; t < n; ++t) ahead += Ahead(standing[t], standing[s]) ? 1 : 0;
    out[s] = 1 + ahead;
  }
  *ranks = std::move(out);
  return true;
}

}  // namespace metropolis::ranking
