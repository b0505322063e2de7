// Checkpoints of live games, and the leases that say which host runs each.
//
// Who is authoritative for what:
//   * a live game: its checkpoint (the setup and the action log) in the store —
//     the host's memory is a copy that is always ahead of it by at most the
//     step being played, because a step is appended before anyone hears of it;
//   * which host may write a game: the game's fencing token. Every takeover
//     draws a new, larger one; a write that does not carry the current token is
//     refused, so a host cut off from the network cannot go on writing a game
//     that another host has taken over, even after its lease expired unseen;
//   * which host runs a game now: its lease, renewed while the host is alive.
//     Leases are kept on the store's clock, never a host's, and a lapsed lease
//     is taken over only once the store has served for a whole lease since it
//     last could not be reached (a restart, a stall, every host cut off, its
//     clock jumping): after such a gap every owner had its lease lapse without a
//     chance to renew, and taking their games would move every live game at once;
//   * a finished game: the replays service's database. Once it holds the game
//     the checkpoint is dropped (Done).
// The store here is Redis with append-only persistence (redis_checkpoints.h);
// tests use a small fake behind the same interface.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "lib/common/clock.h"

namespace metropolis::gamehost {

struct GameSetup;

// What a seat carries from step to step besides the state: its clock and its
// record with the fallback bot.
struct SeatProgress {
  int64_t bank_ms = 0;
  uint32_t decisions = 0;
  uint32_t fallback_decisions = 0;
  uint32_t fallback_in_a_row = 0;
  bool forfeited = false;
  bool operator==(const SeatProgress&) const = default;
};

// Where a game stands besides its log: whether it started (every seat came, or
// the start timeout passed), and when the engine said it was over (unix ms; 0
// while it plays). The finish time is written with the last step, so a host that
// takes a finished game over stores it as finished when it was, not when the
// takeover happened (the checker's "at two tables at once" would see the gap).
// A seat that resigned ended the game (PlayAnswer.resign) with its finish time:
// a host that takes the game over stores it as resigned, not plays it on.
struct GamePhase {
  GamePhase(bool started = false, int64_t finished_unix_ms = 0,  // NOLINT: a bool reads as "started"
            int resigned_seat = -1)
      : started(started), finished_unix_ms(finished_unix_ms), resigned_seat(resigned_seat) {}
  bool started;
  int64_t finished_unix_ms;
  int resigned_seat;  // -1: nobody resigned
  bool operator==(const GamePhase&) const = default;
};

struct Checkpoint {
  std::string setup;  // a serialised v1::GameCheckpointSetup (CheckpointSetupBytes)
  std::vector<Action> actions;
  std::vector<SeatProgress> seats;
  bool started = false;
  int64_t finished_unix_ms = 0;  // GamePhase
  int resigned_seat = -1;        // GamePhase
};

// The setup as the checkpoint keeps it (seat tokens only as their SHA-256), and back.
// Reading refuses a setup whose seats are not one per seat of its configuration
// (a game indexes its seats by the engine's seat numbers).
std::string CheckpointSetupBytes(const GameSetup& setup, int64_t created_unix_ms);
bool SetupFromCheckpoint(const std::string& bytes, GameSetup* setup, int64_t* created_unix_ms, std::string* error);

// The rest of a checkpoint as the store keeps it in text (redis_checkpoints.h), and
// back; each reader is false for text that does not parse as its writer's (tests/fuzz/checkpoint_fuzz.cc).
//   phase     "0", "1", or "f" and the finish time (a finished game started),
//             then "r" and the seat for a game a seat resigned
//   progress  per seat "bank_ms,decisions,fallback_decisions,fallback_in_a_row,forfeited", joined by ';'
//   log entry an action's code in decimal
std::string EncodePhase(const GamePhase& phase);
bool DecodePhase(std::string_view text, Checkpoint* out);  // sets started, finished_unix_ms, resigned_seat
std::string EncodeProgress(const std::vector<SeatProgress>& seats);
bool DecodeProgress(std::string_view text, std::vector<SeatProgress>* out);
std::string EncodeLogEntry(const Action& action);
bool DecodeLogEntry(std::string_view text, Action* out);

// The lowercase hex SHA-256 of a seat token: what a game compares a token with.
std::string TokenHash(const std::string& token);

// The label a checkpoint write's status counts under in
// metropolis_gamehost_checkpoint_writes_total{result} (metrics.h): "ok", "fenced"
// (ABORTED), "exists", "missing", "not_yet", and "unavailable" for a write that did
// not happen — UNAVAILABLE, and INTERNAL too, so that the alert on
// result="unavailable" still fires when Redis refuses the scripts.
const char* CheckpointResultName(const grpc::Status& status);

// One game's Append among many (CheckpointStore::AppendMany): the log's entries
// from `from` on, the seats' progress and the phase, under `fence`.
struct AppendRequest {
  std::string game_id;
  uint64_t fence = 0;
  std::string host;
  services::Millis lease_ms = 0;
  uint32_t from = 0;
  std::vector<Action> tail;  // the log's entries from..from+tail.size()
  std::vector<SeatProgress> seats;
  GamePhase phase;
};

// Every call answers with a grpc::Status, as the project's other stores do; its
// message says what happened. The codes, and what the host does with each:
//   OK
//   ABORTED              another host holds the game (its fencing token is newer),
//                        or it is done: a conflict no retry fixes; the game is given up
//   ALREADY_EXISTS       Create: the id is taken
//   NOT_FOUND            Append, Renew: the game has no checkpoint at all and is not
//                        done (Redis lost its creation); the host writes it again (Recreate)
//   FAILED_PRECONDITION  TakeOver: the lease lapsed, but the store has not served a
//                        whole lease since its last gap. Not UNAVAILABLE: the store was
//                        reached and answered, and the caller must tell this apart from
//                        an outage (nothing is wrong; the owner gets its chance to renew
//                        first, and the game may be taken once the store has served long
//                        enough)
//   UNAVAILABLE          the store cannot be reached or cannot take writes now (a
//                        replica, a failover, LOADING), or Append found its writes lost
//                        twice in a row: try again later; a live game pauses until a
//                        write succeeds
//   INTERNAL             the store answered with an error (a failed script, NOPERM): a
//                        retry gets the same answer, so somebody has to look; the host
//                        still acts as for UNAVAILABLE (pauses, and retries on its own
//                        schedule), as nothing better can be done with the game
//   DATA_LOSS            TakeOver, Reclaim: the checkpoint read back does not parse
//   OUT_OF_RANGE         AppendMany: the log holds fewer than `from` entries (the
//                        store lost its last writes); the caller appends again with
//                        the whole log (Append writes back from where the store's ends)
class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;

  // Writes a new game's setup and gives `host` its lease with a fresh fencing token.
  virtual grpc::Status Create(const std::string& game_id, const std::string& setup, const std::string& host,
                              services::Millis lease_ms, uint64_t* fence) = 0;
  // Appends actions[from..] to the log (whose length must be `from`, or already
  // past it when an earlier append's reply was lost), sets the seats' progress
  // and renews the lease — only while `fence` is the game's token. NOT_FOUND when
  // the game has no checkpoint at all (Redis lost its creation).
  virtual grpc::Status Append(const std::string& game_id, uint64_t fence, const std::string& host,
                              services::Millis lease_ms, uint32_t from, const std::vector<Action>& actions,
                              const std::vector<SeatProgress>& seats, GamePhase phase) = 0;
  // Append for several games at once, one status each, in order (the Redis store
  // sends them as one pipeline: one round trip for every game waiting to write).
  // Each is answered as Append would, except OUT_OF_RANGE where Append would
  // write back what the store lost: AppendMany holds only the tails.
  virtual std::vector<grpc::Status> AppendMany(const std::vector<AppendRequest>& requests) = 0;
  // Writes a game's whole checkpoint again under `fence` when the store has none and
  // the game is not done (NOT_FOUND from Append: Redis lost the writes that created
  // it); ABORTED when a token or a done mark exists meanwhile.
  virtual grpc::Status Recreate(const std::string& game_id, uint64_t fence, const std::string& host,
                                services::Millis lease_ms, const std::string& setup, const std::vector<Action>& actions,
                                const std::vector<SeatProgress>& seats, GamePhase phase) = 0;
  // Renews the lease while `fence` is the game's token (NOT_FOUND as for Append).
  virtual grpc::Status Renew(const std::string& game_id, uint64_t fence, const std::string& host,
                             services::Millis lease_ms) = 0;
  // The game is stored for good: its checkpoint goes, and it can never be taken over.
  virtual grpc::Status Done(const std::string& game_id) = 0;
  // Live games whose lease lapsed (at most `limit`). `lease_ms` is the caller's
  // lease: a scan counts as reaching the store, for the takeover guard.
  virtual grpc::Status Orphans(size_t limit, services::Millis lease_ms, std::vector<std::string>* ids) = 0;
  // Takes over a game whose lease lapsed: OK with its checkpoint and a new
  // fencing token, ABORTED when a host holds it or it is done, FAILED_PRECONDITION
  // when the store has served for less than the owner's lease since its last gap.
  virtual grpc::Status TakeOver(const std::string& game_id, const std::string& host, services::Millis lease_ms,
                                uint64_t* fence, Checkpoint* out) = 0;
  // TakeOver for a game whose live lease names `host` itself: a host restarted at
  // its address (a pod restarted in place) finds its previous run's games leased
  // to it. No two live processes share an address, so that run is gone, and the
  // game is taken at once instead of after its lease lapses (seats would give up
  // meanwhile). ABORTED when another host holds it or it is done.
  virtual grpc::Status Reclaim(const std::string& game_id, const std::string& host, services::Millis lease_ms,
                               uint64_t* fence, Checkpoint* out) = 0;
  // The address of the host holding the game's lease; nullopt when none does.
  virtual std::optional<std::string> Owner(const std::string& game_id) = 0;
};

}  // namespace metropolis::gamehost
