// One live game on the host: the authoritative State, its action log, the
// seats (their streams, clocks and fallback bots) and the spectators.
//
// Lifecycle: created → waiting for every human or network seat to connect
// (or for the start timeout) → played → finished (the completed game goes to
// the host's outbox) → stored (only then the seats hear "game over").
//
// Pause, don't diverge: with checkpoints, a step is released (its events sent,
// the next decision sent, a fallback bot asked) only once the store holds it
// under the game's fencing token. When a write fails the game pauses: nothing is
// released, clocks stop, seats and spectators hear `paused`, and the write is
// retried. When it succeeds the game goes on where the seats left it; when the
// token moved on (another host took the game over meanwhile) the game stops here
// and its seats are sent there — they never saw a step the new host lacks.
//
// Everything runs under the game's one mutex, so a game is touched by one
// thread at a time whichever gRPC, timer or bot thread calls in. What may
// write the checkpoint — an answer, a bot's decision, a timer — goes through
// the game's own ordered queue (its strand) on the host's game threads
// (GameEnv::work): a write to the store, which may wait on a slow or
// unreachable Redis, never blocks a gRPC callback thread, the timer thread or a
// bot thread, and a game's work runs in the order it came. With a checkpoint
// writer (GameEnv::writer) it does not block a game thread either: the strand
// parks while its write is out — later work waits its turn, as it would behind
// a write made in place — and the writer's reply goes on from there. What reads
// the game from outside the strand (a seat connecting, a spectator, GetGame, the
// lease keeper) waits for the reply, as it would wait for the game's lock. Bot decisions are
// computed outside the lock on the bot executor and applied only if the game is
// still at the step they were computed for; deadlines work the same way, so
// nothing ever needs cancelling.
#pragma once

#include <grpcpp/support/status.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bots/bot.h"
#include "engine/state.h"
#include "engine/view.h"
#include "lib/chance/chance.h"
#include "lib/common/clock.h"
#include "lib/protocol/view_delta.h"
#include "metropolis/v1/gamehost.pb.h"
#include "services/gamehost/checkpoint.h"
#include "services/gamehost/executor.h"
#include "services/gamehost/lockstep.h"
#include "services/gamehost/metrics.h"
#include "services/gamehost/sink.h"
#include "services/gamehost/streams.h"
#include "services/gamehost/timers.h"

namespace metropolis::gamehost {

struct SeatSetup {
  std::string name;
  std::string token;       // empty for a built-in seat; the host clears it once it has answered
  std::string token_hash;  // TokenHash(token): what the game keeps and compares
  std::string fallback_bot;
  bool built_in = false;
  int64_t identity_id = 0;  // the account holding the seat; 0 for none
};

struct GameSetup {
  std::string id;
  std::string ladder;
  uint32_t season = 0;
  std::string tournament;
  bool hidden = false;  // no spectators, not listed (CreateGameRequest.hidden)
  GameConfig config;
  std::vector<SeatSetup> seats;
  uint32_t decision_ms = 0;
  uint32_t time_bank_ms = 0;
  uint64_t chance_seed = 0;     // chance version 1: a known seed (CreateGameRequest.chance_seed)
  std::string verifiable_seed;  // chance version 2: the 32-byte secret seed (docs/CHANCE.md); empty: version 1
  services::Millis start_timeout_ms = 0;  // start anyway after this long without every seat
  // A seat forfeits (ranks last) once the fallback bot took this many of its
  // decisions in a row; 0 = never. Built-in seats never forfeit.
  uint32_t forfeit_after = 0;
  // The request that created the game (lib/common/request_id.h): its
  // storing and rating go on under the same id.
  std::string request_id;
  // Games played in lockstep with this one, itself included (the rotations of a
  // duplicate set, CreateGameRequest.lockstep); 0 or 1: none. Its group is the
  // games with the same chance commitment (lockstep.h).
  uint32_t lockstep = 0;
};

class Game;
class CheckpointWriter;

// What a game needs from its host.
struct GameEnv {
  const services::Clock* clock = nullptr;
  Timers* timers = nullptr;
  Executor* bots = nullptr;  // where bot decisions are computed, each game's posted under its id
  // Every fallback bot's decisions end after this long whatever its spec (a
  // game taken over from a host that allowed more included); 0: unbounded.
  services::Millis max_bot_think_ms = 0;
  // Where a game's strand runs (see the top); null: inline, on the caller's
  // thread (the unit tests, which drive time and bots by hand).
  Executor* work = nullptr;
  HostMetrics* metrics = nullptr;
  // Receives the completed game once; the host stores it and then calls
  // Game::OnStored().
  std::function<void(std::shared_ptr<Game>, CompletedGame)> on_complete;
  // Checkpoints (checkpoint.h); null: the game lives in this host's memory only.
  CheckpointStore* checkpoints = nullptr;
  std::string host;  // this host's address, which the lease names
  services::Millis lease_ms = 0;
  // With `work`: appends go through this writer (checkpoint_writer.h), many
  // games' in one round trip, and no game thread waits on them; null: each
  // game thread writes its games' appends itself.
  CheckpointWriter* writer = nullptr;
  // The game was fenced off (another host took it over): it has ended its
  // streams and stopped; the host forgets it. Called with the game's lock held.
  std::function<void(const std::string& game_id)> on_fenced;
  // The game is void (never stored or rated): none of its players joined before
  // the start timeout ("nobody joined"), or it stayed paused longer than
  // pause_limit_ms ("store unavailable"), or a seat saw steps this copy of the
  // game lacks ("store lost steps"); the host forgets it. Called with the
  // game's lock held.
  // `fence` is the game's token, to drop its checkpoint with.
  std::function<void(const std::string& game_id, const std::string& reason, uint64_t fence)> on_voided;
  // How long a game may stay paused before it is void; 0: as long as it takes.
  services::Millis pause_limit_ms = 0;
  // First retry of a failed write while paused; doubles up to the lease.
  services::Millis pause_retry_ms = 100;
  // A seat that says (PlayHello.last_step_seen) it saw a step beyond this copy
  // of the game voids it ("store lost steps") instead of being shown the game
  // rewound. Off only as a negative control (protection "seen_step").
  bool check_seen_step = true;
  // Events for a seat that is not to act wait up to this long, so that the
  // steps played meanwhile reach it in one message instead of one each (bots
  // that answer at once play a step every few milliseconds); they wait only
  // while the game's steps come faster than that. The seat to act hears its
  // events at once, before its decision; a refusal, a pause, a stream's end
  // and the game's end send what waits first. 0: every step's events at once.
  services::Millis coalesce_events_ms = 0;
  // The host's lockstep groups (lockstep.h); null: games with
  // GameSetup::lockstep are not held. A held game looks again this often.
  LockstepGroups* lockstep = nullptr;
  services::Millis lockstep_poll_ms = 20;
};

class Game : public std::enable_shared_from_this<Game> {
 public:
  // Fails with INVALID_ARGUMENT when a fallback bot spec is unknown.
  static grpc::Status Create(GameSetup setup, GameEnv env, std::shared_ptr<Game>* out);
  // A game taken over from its checkpoint: the log replayed on the engine, each
  // chance outcome checked against the game's own chance streams (DATA_LOSS when
  // the log does not replay), the seats' clocks as they were. No seat is
  // connected yet: each decision a seat owes waits one full decision limit for
  // it to reconnect before its fallback bot plays.
  static grpc::Status Resume(GameSetup setup, GameEnv env, int64_t created_unix_ms, const Checkpoint& checkpoint,
                             uint64_t fence, std::shared_ptr<Game>* out);
  // The lease's fencing token, from the store's Create (before Start).
  void SetFence(uint64_t fence);
  // Keeps the game's lease and answers with the store's status (checkpoint.h); a
  // fenced game (ABORTED) is abandoned (on_fenced), and a game whose lease cannot
  // be renewed pauses. A paused game answers UNAVAILABLE while it stays paused.
  grpc::Status RenewLease();
  ~Game();

  // Arms the start timeout and begins when no seat needs to connect.
  void Start();

  // A seat's stream says hello. ALREADY_EXISTS when the seat is played by
  // another stream and `hello.take_over` is not set.
  grpc::Status Connect(int seat, const v1::PlayHello& hello, std::shared_ptr<SeatStream> stream);
  // The stream is gone (cancelled, broken or finished by the client).
  void Disconnect(int seat, const SeatStream* stream);
  // An answer read from a seat's stream: applied, or answered with Rejected
  // (on the game's strand: it may return before).
  void Answer(int seat, const SeatStream* stream, const v1::PlayAnswer& answer, services::Millis received_at);

  // With `view_deltas` (SpectateRequest capability CAPABILITY_VIEW_DELTAS) the
  // public views after the first two come as deltas.
  void AddSpectator(bool from_start, std::shared_ptr<SpectatorStream> stream, bool view_deltas = false);
  void RemoveSpectator(const SpectatorStream* stream);

  // Called by the host once the completed game is stored.
  void OnStored();

  void Info(v1::GameInfo* out) const;
  // SHA-256 commitment to the game's verifiable seed (docs/CHANCE.md); empty
  // for a version 1 game. Fixed at creation.
  const std::string& chance_commitment() const { return commitment_; }
  // The built-in and fallback bots' random choices of `seat`, from the seed.
  uint64_t BotSeed(int seat) const;
  const std::string& id() const { return setup_.id; }
  bool stored() const;
  int num_seats() const { return int(setup_.seats.size()); }
  bool hidden() const { return setup_.hidden; }
  const std::string& ladder() const { return setup_.ladder; }
  int64_t seat_identity(int seat) const { return setup_.seats[seat].identity_id; }
  // Whether `hash` (TokenHash of a token) is a token of `seat`: the one it was
  // created with, or one handed out again (SeatAgain).
  bool IsSeatToken(int seat, const std::string& hash) const;
  // A second token for a seat no stream plays now, in a game not over: the
  // matchmaker hands it to the seat's player when Redis lost the assignment
  // (Host::SeatsOf). Kept in this host's memory only: after a takeover the
  // first token alone works. kConnected and kOver change nothing. The matchmaker
  // asks every round while the player queues, so a seat keeps only its last
  // kSeatTokensKept tokens given again: the player holds the newest.
  static constexpr size_t kSeatTokensKept = 4;
  enum class SeatAgain { kGiven, kConnected, kOver };
  SeatAgain GiveSeatAgain(int seat, const std::string& token_hash);
  bool abandoned() const;
  bool paused() const;
  uint64_t fence() const;

 private:
  struct Seat;
  Game(GameSetup setup, GameEnv env);

  // Runs `task` on the game's strand: after the game's earlier work, never on
  // the caller's thread when the host has game threads. Never called with
  // mutex_ held.
  void Enqueue(std::function<void()> task);
  void DrainStrand();
  void AnswerNow(int seat, const SeatStream* stream, const v1::PlayAnswer& answer, services::Millis received_at,
                 std::chrono::steady_clock::time_point processing_start);
  // Runs `fn` on the game's strand at `at` (a timer), if the game is alive then.
  void AtTime(services::Millis at, std::function<void()> fn);

  // All of these run with mutex_ held.
  // What a step releases once the store holds it (Advance): the seat to decide,
  // the seat whose fallback bot is asked and why, and whether the game is over.
  struct Release {
    int decide = -1;
    int bot = -1;
    const char* bot_why = "";
    bool finish = false;
  };
  void Advance();
  void ReleaseLocked(const Release& release);
  void AdvanceOnStrandLocked();
  void ApplyLocked(const Action& action);
  // Sends the step's events: to `decide` (the seat to act, or -1) and, unless
  // they are coalesced (GameEnv::coalesce_events_ms), to every seat; the
  // others' wait for their next decision or the coalescing timer.
  void Flush(int decide);
  // The seat's held events, if any; with `clocks_anyway`, an update with none
  // but the clocks for a seat that asked for them (CAPABILITY_CLOCKS).
  // `starting`: the seat whose decision follows at once (ClocksLocked).
  void SendHeldLocked(int seat, bool clocks_anyway = false, int starting = -1);
  // Moves the seat's held events into `out`, with the clocks for a seat that
  // asked for them (then told to it): the Events of an update or of a decision.
  void PackHeldLocked(int seat, int starting, v1::Events* out);
  void SendAllHeldLocked();
  void SendDecision(int seat);
  void RequestBot(int seat, const char* why);
  void OnBotDecision(int seat, uint32_t step, const Action& action);
  void ArmTimer();
  void OnTimer(services::Millis at);
  void OnStartTimeout();
  void Reject(int seat, uint32_t step, const std::string& reason, const std::string& error);
  // PlayAnswer.resign: the game ends with the next write (Advance), the seat last.
  void ResignLocked(int seat, uint32_t step);
  void Welcome(int seat, v1::Welcome* out) const;
  // Every seat's clock now (v1::Clocks): the running one is the seat whose
  // stream owes this step's decision, or `starting`, the seat about to be
  // sent it (-1: none is).
  void ClocksLocked(int starting, v1::Clocks* out) const;
  // When the decision of this step to be sent now started: now, unless it was
  // sent before (a seat that reconnected), whose clock runs from then.
  services::Millis DecisionStartLocked(services::Millis now) const;
  // What makes clocks news to someone who heard them last: the step and whose
  // clock runs (the figures in between only count down as expected).
  std::pair<uint32_t, int> ClocksNews(const v1::Clocks& clocks) const { return {step(), clocks.running()}; }
  void FinishLocked();
  // Writes what the checkpoint lacks (or renews the lease when it lapsed on our
  // own clock): kReleased when the store holds every step, so they may be sent.
  // kWriting: the writer has the append; OnWritten goes on (the strand is parked).
  enum class Persisted { kReleased, kFenced, kPaused, kWriting };
  Persisted PersistLocked();
  // What an append wrote, to record once the store says it holds it.
  struct Written {
    uint32_t step = 0;
    bool started = false;
    int64_t finished_unix_ms = 0;
    int resigned_seat = -1;
    std::vector<SeatProgress> seats;
    services::Millis at = 0;  // when it was sent: the lease runs from then
  };
  Persisted AfterWriteLocked(grpc::Status status, Written written);
  // The writer's reply to the append PersistLocked handed it, on a game thread.
  void OnWritten(grpc::Status status, Written written);
  // Waits until no append of this game is out (outside the strand: see the top).
  void WaitWrittenLocked(std::unique_lock<std::mutex>& lock) const;
  bool OnStrand() const;
  void PauseLocked(const std::string& error);
  void ResumeLocked();
  void ScheduleRetryLocked();
  void OnRetry();
  void VoidLocked(const std::string& reason, grpc::Status status);
  std::shared_ptr<v1::PlayUpdate> PausedUpdateLocked() const;
  void SendPausedLocked();  // to every seat and spectator
  void EndStreamsLocked(const grpc::Status& status);
  std::shared_ptr<v1::SpectateUpdate> SpectatorPausedUpdateLocked() const;
  void AbandonLocked(const std::string& why);
  std::vector<SeatProgress> ProgressLocked() const;
  void OnGraceEnd();
  bool SeatPlaysItself(int seat) const;
  uint32_t step() const { return uint32_t(actions_.size()); }

  const GameSetup setup_;
  const GameEnv env_;
  mutable std::mutex mutex_;
  // The strand: work waiting its turn, and whether a game thread drains it.
  std::mutex strand_mutex_;
  std::deque<std::function<void()>> strand_;
  bool strand_running_ = false;
  // An append is out: no task of the strand runs until its reply (OnWritten).
  // The thread draining the strand leaves it once its task returns
  // (drainer_left_); the reply drains on only then, so that two threads never
  // drain one strand.
  bool strand_parked_ = false;
  bool drainer_left_ = false;
  // An append is out (the writer has it); under mutex_, and written_cv_ says when it is back.
  bool writing_ = false;
  mutable std::condition_variable written_cv_;
  Release release_after_write_;  // what the append's steps release
  // An answer whose append is out: its metrics (DecisionAnswered) wait for the reply.
  struct AnswerMetric {
    bool waiting = false;
    double round_trip_s = 0;
    std::chrono::steady_clock::time_point processing_start;
  } answer_metric_;
  // Tokens handed out again, per seat (GiveSeatAgain); its own lock, so that
  // finding a seat never waits on the game.
  mutable std::mutex tokens_mutex_;
  std::vector<std::vector<std::string>> more_token_hashes_;

  State state_;
  std::vector<Action> actions_;
  struct LoggedEvent {
    uint32_t step;
    Event event;
  };
  std::vector<LoggedEvent> log_;  // every event, unmasked, for spectators from the start
  chance::ChanceStreams chance_;
  std::string commitment_;  // to the verifiable seed (32 bytes); empty for version 1
  std::vector<std::unique_ptr<Seat>> seats_;
  std::vector<std::shared_ptr<SpectatorStream>> spectators_;
  std::vector<v1::Event> spectator_events_;  // public events not yet flushed
  // The spectators that asked for view deltas, and whether each has received
  // public_view_, the last public view sent (the base of the next delta).
  std::unordered_map<const SpectatorStream*, bool> delta_spectators_;
  protocol::WireView public_view_;
  int64_t public_view_step_ = -1;
  v1::View view_scratch_;  // a seat's view for a delta, built in reused memory

  bool started_ = false;
  bool finished_ = false;  // the engine says the game is over
  bool stored_ = false;    // the completed game is stored; streams heard game over
  int64_t created_unix_ms_ = 0;
  uint32_t debug_from_step_ = 0;  // where the seats' debug logs begin: 0, or the step taken over at
  v1::GameResult result_;
  // The decision sent to a seat's stream, if any, for the current step.
  int64_t decision_sent_step_ = -1;
  services::Millis decision_sent_at_ = 0;
  std::chrono::steady_clock::time_point decision_sent_wall_;  // for the round-trip metric
  int64_t bot_step_ = -1;                                     // the step a bot is computing for
  services::Millis deadline_ = -1;                            // of the decision sent, until it is answered
  services::Millis timer_at_ = -1;                            // when the game's one pending timer fires
  // A seat that reconnected while to act: the step of the decision it is sent
  // again, and when that decision was first sent (its clock runs on from there).
  int64_t resend_step_ = -1;
  services::Millis resend_since_ = 0;
  std::pair<uint32_t, int> spectators_told_{UINT32_MAX, -2};  // the last clocks the spectators heard

  // Checkpoints: what the store holds, and under which fencing token.
  uint64_t fence_ = 0;
  uint32_t persisted_ = 0;
  bool persisted_started_ = false;
  int64_t finished_unix_ms_ = 0;  // when the engine said the game was over (GamePhase)
  int resigned_ = -1;             // the seat that resigned, which ended the game (GamePhase)
  int64_t persisted_finished_ = 0;
  std::vector<SeatProgress> persisted_seats_;
  services::Millis lease_until_ = -1;  // the lease's expiry as this host knows it (monotonic)
  // Paused (see the top): since when, and why.
  bool paused_ = false;
  services::Millis paused_at_ = -1;
  int64_t paused_unix_ms_ = 0;
  uint32_t paused_step_ = 0;  // the last step released before the pause
  std::string pause_reason_;
  bool retry_armed_ = false;
  services::Millis retry_delay_ = 0;
  bool abandoned_ = false;             // fenced off: another host runs the game
  services::Millis grace_until_ = -1;  // taken over: seats may reconnect until then
  bool grace_timer_armed_ = false;
  bool held_timer_armed_ = false;  // the coalescing timer (GameEnv::coalesce_events_ms)
  // Lockstep (lockstep.h): the game's place in its group (from Start), the
  // chance draws made, and whether a look again is armed while it is held.
  std::shared_ptr<LockstepGroups::Member> lockstep_;
  uint32_t draws_ = 0;
  bool lockstep_timer_armed_ = false;
  bool lockstep_held_ = false;           // refused at its next draw, not yet made (a hold counted once)
  services::Millis last_flush_at_ = -1;  // when the last step's events were released
};

}  // namespace metropolis::gamehost
