// Tournaments for bot competitions, as pure logic: who plays whom, with which
// seeds, and the standings. No storage, no network: the matchmaker persists the
// schedule and results, and these functions are tested directly.
//
// Formats:
//   round robin  every group of `seats` entrants meets at one table, each such
//                table played `seats` times with the seats rotated, so every
//                entrant sits in every seat against every group;
//   Swiss        rounds of tables of `seats`: entrants of similar standing play
//                each other, avoiding table-mates they already met where they can;
//   duplicate    each table becomes a set of `seats` games on the same board
//                with the same dice and decks (the same chance seed), the seats
//                rotated, so luck cancels out within the set;
//   arena        for a fixed time, entrants who are free are paired again and
//                again as they finish (ArenaPairing), scored by their results.
//
// Standings score each game by place: (seats - place) / (seats - 1), so a win
// is 1 and last is 0 (a tie shares the mean of the places it spans), and
// report the mean score with a 95 % confidence interval.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/ranking/places.h"

namespace metropolis::matchmaker {

enum class TournamentFormat { kRoundRobin, kSwiss, kDuplicate, kArena };
// "round-robin", "swiss", "duplicate", "arena"
bool ParseTournamentFormat(const std::string& text, TournamentFormat* out);
const char* TournamentFormatName(TournamentFormat format);

// One game of a tournament. entrants[s] plays seat s; the indices are into the
// tournament's entrant list.
struct ScheduledGame {
  int round = 0;
  std::vector<int> entrants;
  uint64_t chance_seed = 0;  // dice, decks and steals (GameHost CreateGameRequest.chance_seed)
  uint64_t board_seed = 0;   // the random board
  int set = -1;              // duplicate: the set the game belongs to; -1 otherwise
  int rotation = 0;          // duplicate and round robin: which rotation of the table's seats
};

// Every `seats`-subset of `entrants` entrants at one table, each played in all
// `seats` rotations. Seeds derive from `seed` and the game's number, so a
// schedule is reproducible.
std::vector<ScheduledGame> RoundRobin(int entrants, int seats, uint64_t seed);

// Turns tables into duplicate sets: each table's `seats` rotations share one
// chance seed and one board seed.
std::vector<ScheduledGame> DuplicateSets(const std::vector<std::vector<int>>& tables, int round, int first_set,
                                         uint64_t seed);

// The tables of the next Swiss round: entrants ordered by score (best first,
// then by index), each table filled from the top with the entrants who have met
// the table's first entrant least often. `met[a][b]` counts games a and b played
// together. Entrants left over when the count does not divide by `seats` sit out
// (a bye: the lowest-ranked who had the fewest byes).
struct SwissInput {
  std::vector<double> score;          // per entrant: total score so far
  std::vector<std::vector<int>> met;  // per pair
  std::vector<int> byes;              // per entrant
};
std::vector<std::vector<int>> SwissRound(const SwissInput& input, int seats, std::vector<int>* sitting_out);

// A finished game: the entrants by seat and their places (1-based; ties share).
struct GameOutcome {
  std::vector<int> entrants;
  std::vector<int> places;
};

struct Standing {
  int entrant = 0;
  int games = 0;
  int wins = 0;       // first places, ties included
  double score = 0;   // mean score per game, 0..1
  double ci_low = 0;  // 95 % confidence interval of the mean score
  double ci_high = 1;
  int rank = 0;  // 1-based, by mean score; equal scores share a rank
  int sets = 0;  // duplicate: the complete sets behind score and interval (set_stats.h)
};

// One standing per entrant, best first.
std::vector<Standing> Standings(int entrants, const std::vector<GameOutcome>& games);
// Orders standings by score, best first (stable), equal scores sharing a rank.
void RankStandings(std::vector<Standing>* standings);

// Places and their scores (lib/ranking/places.h): PlacesOf, PlaceScore, SeatScore.
using ranking::PlaceScore;
using ranking::PlacesOf;
using ranking::SeatScore;

// Arena: the tables of the next pairing among the entrants free now. When
// they do not fill whole tables, those who played most sit out (they are paired
// at a later pass); the others are seated by mean score, best first, so that
// entrants of like strength meet, and each table takes the rotation of its
// seats that puts its entrants where they have sat least (ties: rotated by
// the round), so that no entrant always moves first. Game `first_number + i` gets
// its own chance number from `seed`, as the other formats' games do.
struct ArenaEntrant {
  int entrant = 0;
  double score = 0.5;      // mean score so far (0.5 before the first game)
  int games = 0;           // games played or being played
  std::vector<int> seats;  // games so far in each seat (may be empty: none)
};
std::vector<ScheduledGame> ArenaPairing(std::vector<ArenaEntrant> free, int seats, int round, int first_number,
                                        uint64_t seed);

// The largest schedule a tournament may have: a round robin grows as
// entrants^seats, and a schedule nobody can finish is a mistake to refuse.
inline constexpr int kMaxScheduledGames = 20'000;

// How many games the whole schedule holds (Swiss: every round), computed
// without building it and saturating at INT64_MAX: a round robin of 1,000
// entrants would not fit in memory. An arena's is not known ahead: 0 (it stops
// pairing at kMaxScheduledGames).
int64_t ScheduleSize(TournamentFormat format, int entrants, int seats, int rounds);

// The games a tournament starts with: round robin and duplicate their whole
// schedule, played `rounds` times over with fresh seeds (round = repetition);
// Swiss its first round; an arena none (it pairs as it runs). Game numbers are positions in the result.
std::vector<ScheduledGame> InitialSchedule(TournamentFormat format, int entrants, int seats, int rounds, uint64_t seed);

// Swiss: the games of `round` from those scheduled so far and their outcomes
// (finished games only). Each table is played once, its seats rotated by the
// round so that no entrant always moves first. Byes are counted from the
// rounds so far.
std::vector<ScheduledGame> NextSwissRound(int entrants, int seats, int round, uint64_t seed,
                                          const std::vector<ScheduledGame>& so_far,
                                          const std::vector<GameOutcome>& outcomes);

}  // namespace metropolis::matchmaker
