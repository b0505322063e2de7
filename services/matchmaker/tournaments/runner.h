// The tournament scheduler: one pass over every running tournament, run by the
// replica that holds the lease (roster_store.h). Each pass
//   0. starts the registering tournaments whose start has come (on the
//      database's clock): the schedule made from those entered, or cancelled
//      with fewer than a table; a recurring one opens its next occurrence;
//   1. marks games whose result the replays service holds as finished (asked
//      by RPC, GameResults);
//   2. sends back to pending the games lost with their host (the host has not
//      known the game, or not answered, for `lost_after_ms`);
//   3. starts pending games whose entrants are all available and below their
//      limit of games at once, on the host with the most room, and sends each
//      entrant its seat (roster inbox → its Compete stream);
//   4. Swiss: adds the next round once every game of the last one finished;
//      arena: pairs the entrants free now, while its time lasts;
//   5. marks a tournament finished when every game of its last round is;
//   6. tells the replays service what it may show (the whole of a tournament
//      that is not duplicate, each duplicate set once all its games finished),
//      again at every pass until acknowledged.
// Everything it knows comes from PostgreSQL, Redis and the replays service at
// each pass, so a restarted or new leader simply goes on.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "services/matchmaker/host_registry.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tournaments/entrants.h"
#include "services/matchmaker/tournaments/results.h"
#include "services/matchmaker/tournaments/roster_store.h"
#include "services/matchmaker/tournaments/store.h"

namespace metropolis::matchmaker {

struct RunnerOptions {
  std::string bot = "heuristic";    // plays a seat whose entrant does not answer
  int64_t host_ttl_ms = 15'000;     // a host without a heartbeat for this long gets no games
  int64_t probe_every_ms = 10'000;  // how often a playing game's host is asked about it
  int64_t lost_after_ms = 30'000;   // a game its host does not know for this long is played again
  int max_starts_per_pass = 64;     // bounds a pass, so the lease is renewed in time
  int max_reveals_per_pass = 100;   // likewise
  // Arena: free entrants are paired once twice a table's seats are free (or
  // the whole field, when smaller), or once one has waited this long.
  int64_t arena_wait_ms = 5'000;
};

struct RunnerStats {
  int started = 0, finished = 0, lost = 0, failed = 0, rounds = 0, tournaments_finished = 0, revealed = 0;
  int tournaments_started = 0, tournaments_cancelled = 0;  // at their start (registration)
  // Not OK when the pass stopped early because the roster or the host registry
  // did not answer (the counts above are then incomplete); the next pass starts
  // over.
  grpc::Status error;
};

// One thread runs a TournamentRunner's passes.
class TournamentRunner {
 public:
  TournamentRunner(TournamentStore* store, GameResults* results, EntrantDirectory* entrants, RosterStore* roster,
                   HostRegistry* hosts, GameCreator* creator, RunnerOptions options = {});

  RunnerStats Pass(int64_t now_ms);

  // The game request for one scheduled game (exposed for tests).
  // What the games of one chance number of a tournament share
  // (CreateGameRequest.chance_identity).
  static std::string ChanceIdentity(const std::string& tournament, uint64_t chance_number);
  // `lockstep`: the games of its duplicate set started with it (0: none).
  static v1::CreateGameRequest GameFor(const TournamentRow& tournament, const TournamentGameRow& game,
                                       const std::string& game_id, const std::string& bot, int lockstep = 0);

 private:
  struct Loaded;
  // Step 0; the database's time now (0 when it could not be asked).
  int64_t OpenDue(RunnerStats* stats);
  bool Collect(Loaded& t, RunnerStats* stats);
  // Whether the replays service is known not to hold the game (false when it
  // does, or cannot answer: a game is requeued only when surely not stored).
  bool SurelyNotStored(const std::string& game_id);
  void FindLost(Loaded& t, int64_t now_ms, RunnerStats* stats);
  // Stops at a host registry that does not answer, its status in stats->error.
  // A duplicate set's pending rotations start together on one host with room
  // for all of them, in lockstep, when every entrant's connections can hold
  // them all; each entrant's rotations go to separate connections while it
  // has enough. A set that could not start whole (a create refused) has its
  // other rotations started on the host where the first ones play.
  void Start(Loaded& t, std::unordered_map<int64_t, int>& free, int64_t now_ms, RunnerStats* stats);
  // Claims, creates and seats one game on `host`: kNot when it did not start
  // (it waits for a later pass), kStop when the pass must stop.
  enum class Started { kStarted, kNot, kStop };
  Started StartOne(Loaded& t, TournamentGameRow& g, const std::string& host, int lockstep, int rotation,
                   std::vector<int>& mine, std::unordered_map<int64_t, int>& free, RunnerStats* stats);
  // An identity's capacity over its live connections, this pass.
  int Capacity(int64_t identity) const;
  // A tournament with sequential_stop whose pairs are all decided: what has
  // not begun becomes void (store.h, VoidUnstarted).
  void StopEarly(Loaded& t);
  void Advance(Loaded& t, std::unordered_map<int64_t, int>& free, int64_t db_now_ms, int64_t now_ms,
               RunnerStats* stats);
  // Arena: voids what the last pairing could not start, pairs the entrants
  // free now while its time lasts (on the database's clock), taking them from
  // `free`; then finishes once the games under way have.
  void AdvanceArena(Loaded& t, std::unordered_map<int64_t, int>& free, int64_t db_now_ms, int64_t now_ms,
                    RunnerStats* stats);
  void Reveal(RunnerStats* stats);

  TournamentStore* store_;
  GameResults* results_;
  EntrantDirectory* entrants_;
  RosterStore* roster_;
  HostRegistry* hosts_;
  GameCreator* creator_;
  const RunnerOptions options_;
  // Per game id: when its host was last asked, and since when it has not known it.
  struct Probe {
    int64_t asked_ms = 0, failing_since_ms = 0;
  };
  std::unordered_map<std::string, Probe> probes_;
  // Arena: since when each free entrant has waited for a pairing, by
  // tournament (on this replica's clock; a new leader starts the waits over).
  std::unordered_map<std::string, std::unordered_map<int64_t, int64_t>> arena_waiting_;
  // The roster's live connections, read at the start of each pass.
  std::unordered_map<int64_t, std::vector<RosterConnection>> connections_;
};

}  // namespace metropolis::matchmaker
