// The tournaments' store (PostgreSQL in production, pg_tournament_store.h; an
// in-memory fake for the tests, tests/fake_tournament_store.h): the schedule,
// each game's state, and the results, so that a tournament survives any restart.
//
// A scheduled game moves pending → starting (a game id chosen, the game being
// created on a host) → playing → finished. Every move is conditional on the
// state it leaves, so a second scheduler that slipped in (an expired lease)
// cannot start a game twice. A game lost with its host goes back to pending and
// gets a new id when it is claimed again.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "services/matchmaker/tournaments/schedule.h"
#include "services/matchmaker/tournaments/spec.h"

namespace metropolis::matchmaker {

struct TournamentRow {
  TournamentSpec spec;
  std::string state;               // registering, running, finished, cancelled
  std::string reason;              // why it was cancelled
  std::vector<std::string> names;  // by entrant, from the EntrantDirectory (entrants.h), not the store
  int64_t created_ms = 0, finished_ms = 0;
};

struct TournamentGameRow {
  ScheduledGame game;
  int number = 0;
  std::string state;  // pending, starting, playing, finished, void
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

// Every call answers UNAVAILABLE when the store cannot be reached.
class TournamentStore {
 public:
  virtual ~TournamentStore() = default;

  // The scheduler's fencing token (migrations/tournaments/0031): a replica that
  // takes the scheduling lease takes the next fence, and from then on every
  // scheduler change below (Finish, Claim, MarkPlaying, Requeue, AddRound,
  // SetState, MarkRevealed) raises the database's fence to it in its own
  // transaction, or is refused with FAILED_PRECONDITION (changing nothing) when a
  // newer leader's fence is higher. A refused change clears the fence: the
  // replica changes nothing until it takes a new one (which it does if it still
  // holds the lease). Cancelling (SetState "cancelled", an administrator's call
  // on any replica) is fenced only when this replica holds a fence.
  virtual grpc::Status TakeFence(int64_t* fence) = 0;
  virtual int64_t fence() const = 0;
  virtual void ClearFence() = 0;

  // Writes the tournament, its entrants and its first games in one
  // transaction: "running", or "registering" (no games) when the spec has a
  // start. ALREADY_EXISTS for a taken id. The entrants are checked before
  // (CheckEntrants, entrants.h).
  virtual grpc::Status Create(const TournamentSpec& spec, const std::vector<ScheduledGame>& games) = 0;

  // Registration. Join enters `identity` last; *joined false when it is
  // entered already. FAILED_PRECONDITION when the tournament is not
  // registering or holds max_entrants; NOT_FOUND for an unknown id. Leave
  // withdraws it (the later entrants move up one); NOT_FOUND when it is not
  // entered. Neither is fenced: they are the entrants' own calls, and the start
  // (below) takes the tournament's row lock, so an entry lands before the
  // start or is refused after it.
  virtual grpc::Status Join(const std::string& id, int64_t identity, bool* joined) = 0;
  virtual grpc::Status Leave(const std::string& id, int64_t identity) = 0;
  // The registering tournaments whose start has come, and the time now, on the
  // database's clock: one clock for every replica, whatever theirs say. From
  // its start on a tournament takes no entry (Join and Leave refuse).
  virtual grpc::Status DueToStart(std::vector<std::string>* ids, int64_t* now_ms) = 0;
  // The scheduler's start of a registering tournament, in one transaction:
  // registering → running with `games` (an arena's are none), or → cancelled
  // with `reason` when one is given; and, when `next` is given, the next occurrence created
  // registering with the tournament's entrants (unless its id exists).
  // *started false, changing nothing, when the tournament is not registering
  // (another scheduler started it) or has not `entrants` entrants (an entry
  // that began before the start committed after the scheduler read the list:
  // the next pass starts it). Fenced.
  virtual grpc::Status Start(const std::string& id, int entrants, const std::vector<ScheduledGame>& games,
                             const std::string& reason, const TournamentSpec* next, bool* started) = 0;
  virtual grpc::Status Get(const std::string& id, TournamentRow* out) = 0;
  virtual grpc::Status List(std::vector<TournamentRow>* out) = 0;                              // newest first
  virtual grpc::Status Games(const std::string& id, std::vector<TournamentGameRow>* out) = 0;  // by number
  virtual grpc::Status Running(std::vector<std::string>* ids) = 0;
  // running → finished, or running or registering → cancelled (with
  // `reason`); FAILED_PRECONDITION when it is in neither.
  virtual grpc::Status SetState(const std::string& id, const std::string& state, const std::string& reason) = 0;

  // A starting or playing game whose result the replays service holds becomes
  // finished with its places; *finished false when the game is no longer
  // `game_id` there (another attempt, or finished already): a replayed game and
  // its first attempt never both count (docs/TOURNAMENTS.md).
  virtual grpc::Status Finish(const std::string& id, int number, const std::string& game_id,
                              const std::vector<int>& places, bool* finished) = 0;
  // pending → starting with the game's next attempt id, "t-<tournament>-<number>-<attempt>"; *claimed false when the
  // game was not pending (another scheduler took it).
  virtual grpc::Status Claim(const std::string& id, int number, const std::string& host, std::string* game_id,
                             bool* claimed) = 0;
  // starting → playing; *marked false when the game is no longer this attempt
  // starting (another scheduler found it lost and requeued it).
  virtual grpc::Status MarkPlaying(const std::string& id, int number, const std::string& game_id, bool* marked) = 0;
  // starting or playing → pending, when its game is still `game_id`. The
  // caller asks the replays service first whether the game is stored (then it
  // counts and is not requeued).
  virtual grpc::Status Requeue(const std::string& id, int number, const std::string& game_id) = 0;
  // Stopping early: every pending game that has not begun becomes "void" —
  // in a duplicate tournament only whole sets none of whose rotations has
  // begun (a set once begun is played out, or it would cancel no luck).
  // *voided counts them. Fenced.
  virtual grpc::Status VoidUnstarted(const std::string& id, int* voided) = 0;
  // Appends `games` as round `round` unless that round exists already.
  virtual grpc::Status AddRound(const std::string& id, int round, const std::vector<ScheduledGame>& games) = 0;

  // What the replays service may now show and has not acknowledged (at most
  // `limit`), over every tournament whatever its state: the whole tournament
  // when it is not duplicate; each duplicate set whose games have all finished,
  // by the ids of its counted games (void attempts are never named).
  virtual grpc::Status DueReveals(int limit, std::vector<DueReveal>* out) = 0;
  // Marks a reveal acknowledged, so it is not sent again.
  virtual grpc::Status MarkRevealed(const DueReveal& reveal) = 0;
};

}  // namespace metropolis::matchmaker
