// Tournaments in PostgreSQL (migrations/0007_tournaments.sql): the schedule,
// each game's state, and the results, so that a tournament survives any restart.
//
// A scheduled game moves pending → starting (a game id chosen, the game being
// created on a host) → playing → finished. Every move is one conditional
// UPDATE, so a second scheduler that slipped in (an expired lease) cannot start
// a game twice. A game lost with its host goes back to pending with a new id.
#pragma once

#include <grpcpp/support/status.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "services/matchmaker/tournaments/schedule.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::matchmaker {

struct TournamentSpec {
  std::string id, title;
  TournamentFormat format = TournamentFormat::kRoundRobin;
  std::string ruleset = "cities_and_knights", options;
  int seats = 4, rounds = 1;
  uint64_t seed = 0;
  int max_games_per_entrant = 1;
  uint32_t decision_ms = 10'000, time_bank_ms = 60'000;
  std::vector<int64_t> entrants;  // identities; their index is the entrant number
};

struct TournamentRow {
  TournamentSpec spec;
  std::string state;               // running, finished, cancelled
  std::vector<std::string> names;  // by entrant, from the EntrantDirectory (entrants.h), not the store
  int64_t created_ms = 0, finished_ms = 0;
};

struct TournamentGameRow {
  ScheduledGame game;
  int number = 0;
  std::string state;  // pending, starting, playing, finished
  std::string game_id, host;
  int attempts = 0;
  int64_t state_age_ms = 0;  // time since the last change of state
  std::vector<int> places;   // by seat, when finished
};

// A reveal to send to the replays service (Replays.RevealGames).
struct DueReveal {
  std::string tournament;
  bool whole = false;                 // every game of the tournament (not duplicate)
  int set = -1;                       // else this duplicate set, by its counted games:
  std::vector<std::string> game_ids;  // the game ids of its rotations
};

// A check of the spec before anything is written: INVALID_ARGUMENT naming the
// field, or OK.
grpc::Status CheckTournamentSpec(const TournamentSpec& spec);

class TournamentStore {
 public:
  explicit TournamentStore(storage::PgPool* pool);

  // The scheduler's fencing token (migrations/tournaments/0031): a replica that
  // takes the scheduling lease takes the next fence, and from then on every
  // scheduler change below (Finish, Claim, MarkPlaying, Requeue, AddRound,
  // SetState, MarkRevealed) raises the database's fence to it in its own
  // transaction, or is refused with FAILED_PRECONDITION (changing nothing) when a
  // newer leader's fence is higher. A refused change clears the fence: the
  // replica changes nothing until it takes a new one (which it does if it still
  // holds the lease). Cancelling (SetState "cancelled", an administrator's call
  // on any replica) is fenced only when this replica holds a fence.
  grpc::Status TakeFence(int64_t* fence);
  int64_t fence() const { return fence_.load(); }
  void ClearFence() { fence_.store(0); }

  // Writes the tournament, its entrants and its first games in one
  // transaction. ALREADY_EXISTS for a taken id. The entrants are checked
  // before (CheckEntrants, entrants.h).
  grpc::Status Create(const TournamentSpec& spec, const std::vector<ScheduledGame>& games);
  grpc::Status Get(const std::string& id, TournamentRow* out);
  grpc::Status List(std::vector<TournamentRow>* out);                              // newest first
  grpc::Status Games(const std::string& id, std::vector<TournamentGameRow>* out);  // by number
  grpc::Status Running(std::vector<std::string>* ids);
  // running → `state` (finished or cancelled); FAILED_PRECONDITION when it is
  // not running.
  grpc::Status SetState(const std::string& id, const std::string& state);

  // A starting or playing game whose result the replays service holds becomes
  // finished with its places; *finished false when the game is no longer
  // `game_id` there (another attempt, or finished already): a replayed game and
  // its first attempt never both count (docs/TOURNAMENTS.md).
  grpc::Status Finish(const std::string& id, int number, const std::string& game_id, const std::vector<int>& places,
                      bool* finished);
  // pending → starting with the game's next attempt id, "t-<tournament>-<number>-<attempt>"; *claimed false when the
  // game was not pending (another scheduler took it).
  grpc::Status Claim(const std::string& id, int number, const std::string& host, std::string* game_id, bool* claimed);
  // starting → playing; *marked false when the game is no longer this attempt
  // starting (another scheduler found it lost and requeued it).
  grpc::Status MarkPlaying(const std::string& id, int number, const std::string& game_id, bool* marked);
  // starting or playing → pending, when its game is still `game_id`. The
  // caller asks the replays service first whether the game is stored (then it
  // counts and is not requeued).
  grpc::Status Requeue(const std::string& id, int number, const std::string& game_id);
  // Appends `games` as round `round` unless that round exists already.
  grpc::Status AddRound(const std::string& id, int round, const std::vector<ScheduledGame>& games);

  // What the replays service may now show and has not acknowledged (at most
  // `limit`), over every tournament whatever its state: the whole tournament
  // when it is not duplicate; each duplicate set whose games have all finished,
  // by the ids of its counted games (void attempts are never named).
  grpc::Status DueReveals(int limit, std::vector<DueReveal>* out);
  // Marks a reveal acknowledged, so it is not sent again.
  grpc::Status MarkRevealed(const DueReveal& reveal);

 private:
  storage::PgPool* pool_;
  std::atomic<int64_t> fence_{0};
  const bool check_fence_;    // off only as the negative control "tournament_fence"
  const bool check_attempt_;  // off only as the negative control "current_attempt"
};

}  // namespace metropolis::matchmaker
