// The game checker: one judge of the promise a competition backend is worth —
// every game that was played is stored once, exactly as its players saw it, and
// rated once — used by every end-to-end and fault test (docs/FAILURES.md, "The
// checker").
//
// Its inputs are plain data, loaded elsewhere (load.h: PostgreSQL, the bots'
// record files, the game hosts' logs), so that its own tests feed it recorded
// histories with one thing wrong each and see that thing flagged.
//
// What it requires:
//   - every stored game replays through the engine to the result stored with it;
//   - every seat record (lib/protocol/seat_record.h) of a finished game names a
//     stored game, agrees with its result, never saw a step go backwards, and its
//     digest of the events it received equals the digest recomputed from the
//     stored game masked for that seat;
//   - no seat of a game is recorded by two players, no identity holds two seats of
//     one game or seats of two games at once;
//   - every stored game is decided on by ratings once; a rated game has one history
//     row per identity seat, every rating counts as many games as its history rows,
//     and each rating's history is one unbroken chain (mu before = mu after of the
//     row before, the rating = the last row): a game applied twice breaks it;
//   - every game a host created is stored or void; voids are counted by reason.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "lib/protocol/seat_record.h"

namespace metropolis::checker {

struct StoredSeat {
  int seat = 0;
  std::optional<int64_t> identity;  // none for a built-in bot
};

struct StoredGame {
  std::string id;
  std::string ladder;
  int season = 0;
  GameConfig config;
  std::vector<Action> actions;
  int reason = 0;  // metropolis.v1.EndReason
  int winner = -1;
  std::vector<int> vp;
  uint32_t actions_count = 0;
  int64_t created_ms = 0, finished_ms = 0;
  std::vector<StoredSeat> seats;
};

struct RatedGame {
  std::string game_id;
  bool rated = true;
};

struct HistoryRow {
  int64_t id = 0;
  std::string game_id, ladder;
  int season = 0;
  int64_t identity = 0;
  double mu_before = 0, mu_after = 0;
};

struct RatingRow {
  std::string ladder;
  int season = 0;
  int64_t identity = 0;
  double mu = 0;
  int games = 0;
};

struct Inputs {
  std::vector<StoredGame> games;
  std::vector<RatedGame> rated;  // rated_games, one row per decided game
  std::vector<HistoryRow> history;
  std::vector<RatingRow> ratings;
  std::vector<protocol::SeatRecord> records;
  // From the hosts' logs: every game created, and the void ones with why. Empty
  // when no log was given (the "created but lost" check is then skipped, and said).
  std::set<std::string> created;
  std::map<std::string, std::string> voids;  // game -> reason
  // How many finished games each record file holds, by file.
  std::map<std::string, int> records_per_file;
};

struct Expectations {
  // The ratings are checked (false for games read from a lone host, not rated).
  bool ratings = true;
  // An identity plays one game at a time (a ladder's rule; a tournament bot may
  // compete with a capacity of several games).
  bool one_table_at_a_time = true;
  // Every stored game was finished by at least one recorded seat (the test's bots
  // hold every table's seats but the built-in ones).
  bool every_stored_game_recorded = false;
  // Each record file's bot finished exactly this many games (0: no expectation).
  int games_per_record_file = 0;
  // At least this many stored games (0: no expectation).
  int min_games = 0;
};

struct Violation {
  std::string kind;  // a short stable name: "not stored", "events differ", "rated twice", ...
  std::string game;
  std::string detail;
};

struct Report {
  std::vector<Violation> violations;
  int games_checked = 0;
  int records_checked = 0;
  int rated_games = 0;
  int created_games = 0;
  std::map<std::string, int> voids_by_reason;
  std::vector<std::string> notes;  // checks not made, and why
};

Report Check(const Inputs& inputs, const Expectations& expect = {});

// The digest of what `seat` received in `segments` of a game (config + actions),
// as SeatLog computes it on the seat's side; false with *error if the game does
// not replay or a segment lies past its end.
bool SeatDigest(const GameConfig& config, const std::vector<Action>& actions, int seat,
                const std::vector<std::pair<uint32_t, uint32_t>>& segments, std::string* digest, std::string* error);

}  // namespace metropolis::checker
