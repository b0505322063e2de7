#include "services/gamehost/game.h"

#include <google/protobuf/arena.h>

#include <algorithm>

#include "lib/chance/verifiable.h"
#include "lib/common/log.h"
#include "lib/common/negative_control.h"
#include "lib/protocol/clocks.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/view_delta.h"
#include "services/gamehost/checkpoint_writer.h"

namespace metropolis::gamehost {

struct Game::Seat {
  SeatSetup setup;
  std::unique_ptr<bots::Bot> fallback;
  uint64_t bot_rng = 0;
  KnowledgeTracker tracker;
  std::shared_ptr<SeatStream> stream;
  bool want_text = false;
  bool events_in_decision = false;                       // v1::CAPABILITY_EVENTS_IN_DECISION
  bool view_deltas = false;                              // v1::CAPABILITY_VIEW_DELTAS
  bool clocks = false;                                   // v1::CAPABILITY_CLOCKS
  std::pair<uint32_t, int> clocks_told{UINT32_MAX, -2};  // the last clocks sent: ClocksNews
  // With view_deltas: the view of the last decision sent, and of the last one
  // the stream answered (the next delta's base); -1: none on this stream.
  protocol::WireView sent_view, acked_view;
  int64_t sent_view_step = -1, acked_view_step = -1;
  bool ever_connected = false;
  uint32_t decisions = 0;
  uint32_t fallback_decisions = 0;
  uint32_t fallback_in_a_row = 0;
  bool forfeited = false;
  int64_t bank_ms = 0;
  std::vector<v1::Event> events;  // masked for this seat, not yet released (Advance)
  std::vector<v1::Event> held;    // released, waiting to be coalesced (GameEnv::coalesce_events_ms)
  uint32_t held_step = 0;         // the step `held` brings the seat to
  SeatDebugLog debug;             // what its streams said of their decisions (debug_log.h)
};

grpc::Status Game::Create(GameSetup setup, GameEnv env, std::shared_ptr<Game>* out) {
  std::shared_ptr<Game> game(new Game(std::move(setup), std::move(env)));
  for (size_t i = 0; i < game->setup_.seats.size(); ++i) {
    auto seat = std::make_unique<Seat>();
    seat->setup = game->setup_.seats[i];
    std::string error;
    seat->fallback = bots::MakeBot(seat->setup.fallback_bot, &error);
    if (!seat->fallback) {
      return {grpc::StatusCode::INVALID_ARGUMENT, "seats[" + std::to_string(i) + "].fallback_bot: " + error};
    }
    if (game->env_.max_bot_think_ms > 0) seat->fallback->LimitThinking(double(game->env_.max_bot_think_ms));
    seat->bot_rng = game->BotSeed(int(i));
    seat->tracker = KnowledgeTracker(int(i));
    seat->tracker.Reset(game->state_);
    seat->bank_ms = game->setup_.time_bank_ms;
    game->seats_.push_back(std::move(seat));
  }
  *out = std::move(game);
  return grpc::Status::OK;
}

grpc::Status Game::Resume(GameSetup setup, GameEnv env, int64_t created_unix_ms, const Checkpoint& checkpoint,
                          uint64_t fence, std::shared_ptr<Game>* out) {
  std::shared_ptr<Game> game;
  if (grpc::Status s = Create(std::move(setup), std::move(env), &game); !s.ok()) return s;
  Game& g = *game;
  std::lock_guard lock(g.mutex_);
  const auto data_loss = [&](size_t step, const std::string& what) {
    return grpc::Status(grpc::StatusCode::DATA_LOSS,
                        "game " + g.setup_.id + ": step " + std::to_string(step + 1) + " of the checkpoint: " + what);
  };
  for (size_t i = 0; i < checkpoint.actions.size(); ++i) {
    const Action& action = checkpoint.actions[i];
    const int player = g.state_.CurrentPlayer();
    if (player == kTerminalPlayer) return data_loss(i, "the game ended before it");
    if (player == kChancePlayer) {
      // The same seed gives the same streams: drawing again both checks the log
      // and leaves the streams where the first host left them.
      const Action drawn = g.chance_.Sample(g.state_);
      if (!(drawn == action))
        return data_loss(
            i, "the log says " + ActionToString(action) + ", the chance streams draw " + ActionToString(drawn));
      ++g.draws_;
    } else if (const std::string error = g.state_.CheckAction(action); !error.empty()) {
      return data_loss(i, error);
    }
    g.ApplyLocked(action);
  }
  if (checkpoint.seats.size() == g.seats_.size()) {
    for (size_t i = 0; i < g.seats_.size(); ++i) {
      Seat& s = *g.seats_[i];
      const SeatProgress& p = checkpoint.seats[i];
      s.bank_ms = p.bank_ms;
      s.decisions = p.decisions;
      s.fallback_decisions = p.fallback_decisions;
      s.fallback_in_a_row = p.fallback_in_a_row;
      s.forfeited = p.forfeited;
    }
  }
  g.created_unix_ms_ = created_unix_ms;
  g.started_ = checkpoint.started;
  g.fence_ = fence;
  // The notes of the steps before were in the stopped host's memory.
  g.debug_from_step_ = g.step();
  g.persisted_ = g.step();
  g.persisted_started_ = g.started_;
  g.finished_unix_ms_ = g.persisted_finished_ = checkpoint.finished_unix_ms;
  if (checkpoint.resigned_seat >= int(g.seats_.size()))
    return data_loss(checkpoint.actions.size(), "seat " + std::to_string(checkpoint.resigned_seat) + " resigned");
  g.resigned_ = checkpoint.resigned_seat;
  g.persisted_seats_ = g.ProgressLocked();
  g.lease_until_ = g.env_.clock->Now() + g.env_.lease_ms;  // TakeOver just gave us a fresh lease
  // Nobody was told of a decision here: the one owed now gets its full limit.
  g.grace_until_ = g.env_.clock->Now() + g.setup_.decision_ms;
  *out = std::move(game);
  return grpc::Status::OK;
}

void Game::SetFence(uint64_t fence) {
  std::lock_guard lock(mutex_);
  fence_ = fence;
  persisted_seats_ = ProgressLocked();
  lease_until_ = env_.clock->Now() + env_.lease_ms;  // Create just gave us a fresh lease
}

uint64_t Game::fence() const {
  std::lock_guard lock(mutex_);
  return fence_;
}

bool Game::abandoned() const {
  std::lock_guard lock(mutex_);
  return abandoned_;
}

bool Game::paused() const {
  std::lock_guard lock(mutex_);
  return paused_;
}

grpc::Status Game::RenewLease() {
  std::lock_guard lock(mutex_);
  // The append out renews the lease when it is written (and pauses the game
  // when it is not): the lease keeper does not wait for it, so that one slow
  // reply, or one never delivered at shutdown (GameHostServer::Drain), holds up
  // no other game's lease.
  if (writing_) return grpc::Status::OK;
  if (abandoned_ || !env_.checkpoints) return grpc::Status::OK;
  // A paused game renews by writing what it holds back: that is its way on.
  if (paused_) {
    Advance();
    if (abandoned_) return {grpc::StatusCode::ABORTED, "game " + setup_.id + " was taken over by another host"};
    if (paused_) return {grpc::StatusCode::UNAVAILABLE, pause_reason_};
    return grpc::Status::OK;
  }
  const services::Millis started = env_.clock->Now();
  const grpc::Status status = env_.checkpoints->Renew(setup_.id, fence_, env_.host, env_.lease_ms);
  if (env_.metrics) env_.metrics->CheckpointWrite(CheckpointResultName(status));
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      lease_until_ = started + env_.lease_ms;
      break;
    case grpc::StatusCode::ABORTED:
      AbandonLocked(status.error_message());
      break;
    case grpc::StatusCode::NOT_FOUND:
      if (services::ProtectionRemoved("rewrite_lost")) {
        AbandonLocked(status.error_message() + " (protection \"rewrite_lost\" removed)");
        break;
      }
      lease_until_ = -1;  // the next write writes the whole checkpoint again (PersistLocked)
      Advance();
      break;
    default:
      // Without its lease the game may be taken over at any moment: its clocks
      // must not run out on a seat that another host is about to serve.
      if (!services::ProtectionRemoved("pause")) PauseLocked(status.error_message());
  }
  return status;
}

std::vector<SeatProgress> Game::ProgressLocked() const {
  std::vector<SeatProgress> out;
  for (const auto& s : seats_)
    out.push_back({s->bank_ms, s->decisions, s->fallback_decisions, s->fallback_in_a_row, s->forfeited});
  return out;
}

// Every step is in the store before anyone hears of it, so a host that takes
// the game over resumes exactly where the seats last saw it. When the store
// cannot be written the game pauses (see game.h) rather than play on: steps
// released unwritten would be replayed differently by a host that takes the
// game over from the last written one.
Game::Persisted Game::PersistLocked() {
  if (abandoned_) return Persisted::kFenced;
  if (!env_.checkpoints) return Persisted::kReleased;
  Written w{.step = step(),
            .started = started_,
            .finished_unix_ms = finished_unix_ms_,
            .resigned_seat = resigned_,
            .seats = ProgressLocked(),
            .at = env_.clock->Now()};
  const bool written = persisted_ == w.step && persisted_started_ == started_ && w.seats == persisted_seats_ &&
                       persisted_finished_ == finished_unix_ms_;
  // Up to date and holding the lease by our own clock: nothing to write.
  if (written && !paused_ && w.at < lease_until_) return Persisted::kReleased;
  const GamePhase phase(started_, finished_unix_ms_, resigned_);
  if (env_.writer && env_.work && OnStrand()) {
    // Handed to the writer: the strand parks until its reply (OnWritten).
    AppendRequest request{.game_id = setup_.id,
                          .fence = fence_,
                          .host = env_.host,
                          .lease_ms = env_.lease_ms,
                          .from = persisted_,
                          .tail = {actions_.begin() + persisted_, actions_.end()},
                          .seats = w.seats,
                          .phase = phase};
    if (services::ProtectionRemoved("write_before_release")) {
      // Negative control only: release the steps while their append is still out.
      env_.writer->Submit(std::move(request), [](const grpc::Status&) {});
      return Persisted::kReleased;
    }
    writing_ = true;
    {
      std::lock_guard strand(strand_mutex_);
      strand_parked_ = true;
    }
    env_.writer->Submit(std::move(request), [weak = weak_from_this(), w = std::move(w)](grpc::Status status) mutable {
      auto game = weak.lock();
      if (!game) return;  // the host dropped it: nobody waits for the reply
      Executor* work = game->env_.work;
      work->Post([game = std::move(game), status = std::move(status), w = std::move(w)]() mutable {
        game->OnWritten(std::move(status), std::move(w));
      });
    });
    return Persisted::kWriting;
  }
  grpc::Status status =
      env_.checkpoints->Append(setup_.id, fence_, env_.host, env_.lease_ms, persisted_, actions_, w.seats, phase);
  return AfterWriteLocked(std::move(status), std::move(w));
}

Game::Persisted Game::AfterWriteLocked(grpc::Status status, Written w) {
  const GamePhase phase(w.started, w.finished_unix_ms, w.resigned_seat);
  if (status.error_code() == grpc::StatusCode::OUT_OF_RANGE) {
    // The store lost its last writes: the writer's append holds only the new
    // steps, Append the whole log, from which it writes back what was lost.
    status =
        env_.checkpoints->Append(setup_.id, fence_, env_.host, env_.lease_ms, persisted_, actions_, w.seats, phase);
  }
  if (status.error_code() == grpc::StatusCode::NOT_FOUND && services::ProtectionRemoved("rewrite_lost")) {
    // Negative control only: take a missing checkpoint for a game that is gone.
    status = {grpc::StatusCode::ABORTED, status.error_message() + " (protection \"rewrite_lost\" removed)"};
  }
  if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
    // Redis lost the writes that created the game (an acknowledged write lost in a
    // crash or a failover) while this host plays it: the host holds the whole game,
    // so it writes it again under its token rather than lose it.
    services::LogWarning("the game's checkpoint is missing from Redis; writing it again whole",
                         {{"game", setup_.id}, {"step", std::to_string(w.step)}, {"error", status.error_message()}});
    status = env_.checkpoints->Recreate(setup_.id, fence_, env_.host, env_.lease_ms,
                                        CheckpointSetupBytes(setup_, created_unix_ms_), actions_, w.seats, phase);
  }
  if (env_.metrics) env_.metrics->CheckpointWrite(CheckpointResultName(status));
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      persisted_ = w.step;
      persisted_started_ = w.started;
      persisted_finished_ = w.finished_unix_ms;
      persisted_seats_ = std::move(w.seats);
      lease_until_ = w.at + env_.lease_ms;
      if (paused_) ResumeLocked();
      return Persisted::kReleased;
    case grpc::StatusCode::ABORTED:
      AbandonLocked(status.error_message());
      return Persisted::kFenced;
    default:
      if (services::ProtectionRemoved("pause")) {
        // Negative control only: the behaviour before pausing, which plays on.
        services::LogWarning("writing the checkpoint failed; the game goes on (protection \"pause\" removed)",
                             {{"game", setup_.id}, {"error", status.error_message()}});
        return Persisted::kReleased;
      }
      PauseLocked(status.error_message());
      return Persisted::kPaused;
  }
}

namespace {
// The game whose strand this thread is draining, if any (Game::OnStrand).
thread_local const Game* strand_game = nullptr;

struct StrandScope {
  explicit StrandScope(const Game* game) : previous(strand_game) { strand_game = game; }
  ~StrandScope() { strand_game = previous; }
  const Game* previous;
};
}  // namespace

bool Game::OnStrand() const { return strand_game == this; }

void Game::OnWritten(grpc::Status status, Written w) {
  {
    std::unique_lock lock(mutex_);
    StrandScope scope(this);
    writing_ = false;
    written_cv_.notify_all();
    // The steps the append carried are released as Advance would have, had the
    // write been made in place; a failure pauses the game or gives it up.
    if (AfterWriteLocked(std::move(status), std::move(w)) == Persisted::kReleased && !finished_)
      ReleaseLocked(release_after_write_);
    if (answer_metric_.waiting && env_.metrics) {
      env_.metrics->DecisionAnswered(
          answer_metric_.round_trip_s,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - answer_metric_.processing_start).count());
    }
    answer_metric_.waiting = false;
  }
  // The hand-off (see DrainStrand): the thread that parked the strand may not
  // have left it yet — its task released the lock but has not returned — and
  // then it drains on itself; only once it has left does this thread drain.
  bool drain = false;
  {
    std::lock_guard strand(strand_mutex_);
    strand_parked_ = false;
    drain = drainer_left_;
    drainer_left_ = false;
  }
  if (drain) DrainStrand();  // strand_running_ stayed set while parked: this thread is its drainer now
}

void Game::WaitWrittenLocked(std::unique_lock<std::mutex>& lock) const {
  written_cv_.wait(lock, [this] { return !writing_; });
}

std::shared_ptr<v1::PlayUpdate> Game::PausedUpdateLocked() const {
  auto update = std::make_shared<v1::PlayUpdate>();
  v1::Paused* p = update->mutable_paused();
  p->set_paused(paused_);
  if (paused_) {
    p->set_reason(pause_reason_);
    p->set_since_unix_ms(paused_unix_ms_);
  }
  return update;
}

std::shared_ptr<v1::SpectateUpdate> Game::SpectatorPausedUpdateLocked() const {
  auto update = std::make_shared<v1::SpectateUpdate>();
  *update->mutable_paused() = PausedUpdateLocked()->paused();
  return update;
}

void Game::SendPausedLocked() {
  SendAllHeldLocked();  // what was released before the pause goes first
  const auto update = PausedUpdateLocked();
  for (auto& s : seats_)
    if (s->stream) s->stream->Send(update);
  if (!spectators_.empty()) {
    const auto spectator_update = SpectatorPausedUpdateLocked();
    for (auto& sp : spectators_) sp->Send(spectator_update);
  }
}

void Game::EndStreamsLocked(const grpc::Status& status) {
  SendAllHeldLocked();
  for (auto& s : seats_) {
    if (!s->stream) continue;
    s->stream->Finish(status);
    s->stream.reset();
  }
  for (auto& sp : spectators_) sp->Finish(status);
  spectators_.clear();
  delta_spectators_.clear();
}

void Game::PauseLocked(const std::string& error) {
  ScheduleRetryLocked();
  if (paused_) return;
  paused_ = true;
  paused_at_ = env_.clock->Now();
  paused_unix_ms_ = env_.clock->UnixMillis();
  paused_step_ = persisted_;
  pause_reason_ = "the game's store cannot be written: " + error;
  retry_delay_ = std::max<services::Millis>(1, env_.pause_retry_ms);
  services::LogWarning("game paused: its checkpoint cannot be written; nothing more is released until it is",
                       {{"game", setup_.id}, {"step", std::to_string(persisted_)}, {"error", error}});
  if (env_.metrics) env_.metrics->GamePaused();
  SendPausedLocked();
}

void Game::ResumeLocked() {
  paused_ = false;
  const services::Millis paused_for = env_.clock->Now() - paused_at_;
  services::LogInfo("game resumed: its checkpoint is written again",
                    {{"game", setup_.id}, {"step", std::to_string(step())}, {"paused_ms", std::to_string(paused_for)}});
  if (env_.metrics) env_.metrics->GameResumed(double(paused_for) / 1000.0);
  SendPausedLocked();
  // Spectators hear every event since the last step released before the pause,
  // whether they came before it (their buffer holds the same) or during it.
  if (!spectators_.empty()) {
    spectator_events_.clear();
    for (const LoggedEvent& e : log_)
      if (e.step > paused_step_) protocol::EventToProto(MaskEvent(e.event, kNoSeat), &spectator_events_.emplace_back());
  }
  // The clocks stopped: the decision owed is sent again with its full limit.
  decision_sent_step_ = -1;
  deadline_ = -1;
}

void Game::ScheduleRetryLocked() {
  if (retry_armed_) return;
  retry_armed_ = true;
  AtTime(env_.clock->Now() + retry_delay_, [this] { OnRetry(); });
  retry_delay_ = std::min<services::Millis>(std::max<services::Millis>(1, env_.lease_ms), retry_delay_ * 2);
}

void Game::OnRetry() {
  std::lock_guard lock(mutex_);
  retry_armed_ = false;
  if (!paused_ || abandoned_ || finished_) return;
  if (env_.pause_limit_ms > 0 && env_.clock->Now() - paused_at_ >= env_.pause_limit_ms) {
    return VoidLocked("store unavailable",
                      grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                   "game " + setup_.id + " is void: its store could not be written for " +
                                       std::to_string(env_.pause_limit_ms / 1000) + " s (" + pause_reason_ + ")"));
  }
  Advance();
}

void Game::VoidLocked(const std::string& reason, grpc::Status status) {
  finished_ = true;
  if (lockstep_) lockstep_->Leave();
  if (paused_ && env_.metrics) env_.metrics->GameResumed(double(env_.clock->Now() - paused_at_) / 1000.0);
  paused_ = false;
  // One message for every void game, with why: the checker and the alerts count
  // voids by reason.
  services::LogWarning("game void", {{"game", setup_.id}, {"reason", reason}, {"ladder", setup_.ladder}});
  EndStreamsLocked(status);
  if (env_.on_voided) env_.on_voided(setup_.id, reason, fence_);
}

void Game::AbandonLocked(const std::string& why) {
  if (abandoned_) return;
  abandoned_ = true;
  finished_ = true;                   // nothing more happens here
  if (lockstep_) lockstep_->Leave();  // its set goes on without it here
  services::LogWarning("game taken over by another host; stopped here",
                       {{"game", setup_.id}, {"step", std::to_string(step())}, {"reason", why}});
  const grpc::Status moved(grpc::StatusCode::UNAVAILABLE,
                           "game " + setup_.id + " moved to another host; connect again to be sent there");
  EndStreamsLocked(moved);
  if (env_.on_fenced) env_.on_fenced(setup_.id);
}

void Game::OnGraceEnd() {
  std::lock_guard lock(mutex_);
  grace_timer_armed_ = false;
  if (env_.clock->Now() < grace_until_) return;
  grace_until_ = -1;
  Advance();
}

Game::Game(GameSetup setup, GameEnv env)
    : setup_(std::move(setup)), env_(std::move(env)), state_(setup_.config), chance_(setup_.chance_seed) {
  created_unix_ms_ = env_.clock->UnixMillis();
  if (chance::Seed seed; chance::FromBytes(setup_.verifiable_seed, &seed)) {
    chance_ = chance::VerifiableStreams(seed);
    commitment_ = chance::AsBytes(chance::CommitTo(seed));
  }
}

uint64_t Game::BotSeed(int seat) const {
  chance::Seed seed;
  if (!chance::FromBytes(setup_.verifiable_seed, &seed))
    return bots::MixSeed(setup_.chance_seed, 1000 + uint64_t(seat));
  return chance::SubSeed(seed, "bot " + std::to_string(seat));
}

Game::~Game() = default;

void Game::Enqueue(std::function<void()> task) {
  if (!env_.work) return task();
  {
    std::lock_guard lock(strand_mutex_);
    strand_.push_back(std::move(task));
    if (strand_running_) return;
    strand_running_ = true;
  }
  env_.work->Post([weak = weak_from_this()] {
    if (auto g = weak.lock()) g->DrainStrand();
  });
}

// One game thread at a time drains a game's strand, in order; other games'
// strands run on the other threads meanwhile.
void Game::DrainStrand() {
  for (;;) {
    std::function<void()> task;
    {
      std::lock_guard lock(strand_mutex_);
      if (strand_parked_) {
        drainer_left_ = true;  // an append is out: its reply drains on (OnWritten)
        return;
      }
      if (strand_.empty()) {
        strand_running_ = false;
        return;
      }
      task = std::move(strand_.front());
      strand_.pop_front();
    }
    StrandScope scope(this);
    task();
  }
}

void Game::AtTime(services::Millis at, std::function<void()> fn) {
  std::weak_ptr<Game> weak = weak_from_this();
  env_.timers->Schedule(at, [weak, fn = std::move(fn)] {
    if (auto g = weak.lock()) g->Enqueue(fn);
  });
}

void Game::Start() {
  std::lock_guard lock(mutex_);
  // Joined here, not at Create: only a game the host accepted counts in its group.
  if (setup_.lockstep > 1 && env_.lockstep && !commitment_.empty() && !finished_)
    lockstep_ = env_.lockstep->Join(commitment_, int(setup_.lockstep), setup_.id, draws_);
  AtTime(env_.clock->Now() + setup_.start_timeout_ms, [this] { OnStartTimeout(); });
  started_ = started_ || std::all_of(seats_.begin(), seats_.end(), [](const auto& s) { return s->setup.built_in; });
  AdvanceOnStrandLocked();
}

bool Game::SeatPlaysItself(int seat) const {
  const Seat& s = *seats_[seat];
  return !s.setup.built_in && s.stream != nullptr;
}

grpc::Status Game::Connect(int seat, const v1::PlayHello& hello, std::shared_ptr<SeatStream> stream) {
  std::unique_lock lock(mutex_);
  WaitWrittenLocked(lock);
  if (hello.has_last_step_seen() && hello.last_step_seen() > step() && !finished_ && env_.check_seen_step) {
    // The seat was shown steps that this copy of the game lacks: the store lost
    // them (acknowledged writes gone in a crash or a failover) and this host took
    // the game over from what was left. Playing on from here would show the seat
    // a different game from the one it saw; no live host holds the lost steps
    // (their owner lost its lease), so the game is void, and nobody is rated.
    const std::string why = "seat " + std::to_string(seat) + " saw step " + std::to_string(hello.last_step_seen()) +
                            ", but the game's store kept only " + std::to_string(step()) + " steps";
    services::LogError("a seat saw steps the game's store lost", {{"game", setup_.id}, {"detail", why}});
    const grpc::Status lost(grpc::StatusCode::DATA_LOSS, "game " + setup_.id + " is void: " + why);
    VoidLocked("store lost steps", lost);
    return lost;
  }
  Seat& s = *seats_[seat];
  if (s.stream) {
    if (!hello.take_over()) {
      return {grpc::StatusCode::ALREADY_EXISTS,
              "seat " + std::to_string(seat) + " of game " + setup_.id +
                  " is already played by another stream (set take_over to replace it)"};
    }
    SendHeldLocked(seat);  // the old stream hears what it was owed, then its end
    s.stream->Finish({grpc::StatusCode::ABORTED, "another stream took over seat " + std::to_string(seat)});
    services::LogInfo("seat taken over", {{"game", setup_.id}, {"seat", std::to_string(seat)}});
  }
  s.stream = std::move(stream);
  s.want_text = hello.want_text();
  s.events_in_decision = s.view_deltas = s.clocks = false;
  s.clocks_told = {UINT32_MAX, -2};
  s.sent_view_step = s.acked_view_step = -1;  // a new stream holds no view yet
  for (int c : hello.capabilities()) {
    if (c == v1::CAPABILITY_EVENTS_IN_DECISION) s.events_in_decision = true;
    if (c == v1::CAPABILITY_VIEW_DELTAS) s.view_deltas = true;
    if (c == v1::CAPABILITY_CLOCKS) s.clocks = true;
  }
  s.ever_connected = true;
  s.events.clear();  // a new stream starts from where the game stands
  s.held.clear();
  if (paused_) {
    // ... which, while paused, is the last released step (Welcome): the steps
    // held back since reach it with everyone's, when they are released.
    size_t first = log_.size();
    while (first > 0 && log_[first - 1].step > persisted_) --first;
    for (size_t i = first; i < log_.size(); ++i)
      protocol::EventToProto(MaskEvent(log_[i].event, seat), &s.events.emplace_back(), {.want_text = s.want_text});
  }

  auto welcome = std::make_shared<v1::PlayUpdate>();
  Welcome(seat, welcome->mutable_welcome());
  for (int c : hello.capabilities()) {  // in the order asked, each once
    const bool used = (c == v1::CAPABILITY_EVENTS_IN_DECISION && s.events_in_decision) ||
                      (c == v1::CAPABILITY_VIEW_DELTAS && s.view_deltas) || (c == v1::CAPABILITY_CLOCKS && s.clocks);
    const auto& listed = welcome->welcome().capabilities();
    if (used && std::find(listed.begin(), listed.end(), c) == listed.end())
      welcome->mutable_welcome()->add_capabilities(v1::Capability(c));
  }
  if (s.clocks) {
    ClocksLocked(-1, welcome->mutable_welcome()->mutable_clocks());
    s.clocks_told = ClocksNews(welcome->welcome().clocks());
  }
  s.stream->Send(std::move(welcome));
  if (paused_) {
    // It hears the rest when the game goes on (or is void).
    s.stream->Send(PausedUpdateLocked());
    if (!started_)
      started_ = std::all_of(seats_.begin(), seats_.end(),
                             [](const auto& x) { return x->setup.built_in || x->ever_connected; });
    return grpc::Status::OK;
  }
  if (stored_) {
    auto over = std::make_shared<v1::PlayUpdate>();
    *over->mutable_game_over()->mutable_result() = result_;
    s.stream->Send(std::move(over));
    s.stream->Finish(grpc::Status::OK);
    s.stream.reset();
    return grpc::Status::OK;
  }
  if (!started_) {
    started_ =
        std::all_of(seats_.begin(), seats_.end(), [](const auto& x) { return x->setup.built_in || x->ever_connected; });
  }
  // A seat that reconnects while it is to act gets the decision again (with the
  // clock where it stands), unless a bot is already deciding it.
  // Its clock runs on from when the decision was first sent: a reload is no
  // way to a fresh limit.
  if (decision_sent_step_ == int64_t(step()) && state_.CurrentPlayer() == seat) {
    decision_sent_step_ = -1;
    resend_step_ = int64_t(step());
    resend_since_ = decision_sent_at_;
  }
  AdvanceOnStrandLocked();
  return grpc::Status::OK;
}

// What Advance does may write the checkpoint: with game threads, on the strand,
// not on the caller's (gRPC) thread.
void Game::AdvanceOnStrandLocked() {
  if (!env_.work) return Advance();
  Enqueue([this] {
    std::lock_guard lock(mutex_);
    Advance();
  });
}

void Game::Disconnect(int seat, const SeatStream* stream) {
  std::unique_lock lock(mutex_);
  WaitWrittenLocked(lock);
  Seat& s = *seats_[seat];
  if (s.stream.get() != stream) return;  // already replaced
  s.stream.reset();
  s.events.clear();
  s.held.clear();
  if (!finished_ && !paused_ && started_ && state_.CurrentPlayer() == seat) RequestBot(seat, "disconnected");
}

void Game::Answer(int seat, const SeatStream* stream, const v1::PlayAnswer& answer, services::Millis received_at) {
  Enqueue([this, seat, stream, answer, received_at, processing_start = std::chrono::steady_clock::now()] {
    AnswerNow(seat, stream, answer, received_at, processing_start);
  });
}

void Game::AnswerNow(int seat, const SeatStream* stream, const v1::PlayAnswer& answer, services::Millis received_at,
                     std::chrono::steady_clock::time_point processing_start) {
  std::lock_guard lock(mutex_);
  Seat& s = *seats_[seat];
  if (s.stream.get() != stream) return;  // a stream that was taken over
  // An answer to the decision last sent, refused or not, says the stream holds
  // its view: the base of the next delta (CAPABILITY_VIEW_DELTAS).
  if (s.sent_view_step >= 0 && int64_t(answer.step()) == s.sent_view_step) {
    s.acked_view.swap(s.sent_view);
    s.acked_view_step = s.sent_view_step;
    s.sent_view_step = -1;
  }
  if (answer.resign()) return ResignLocked(seat, answer.step());
  if (finished_) return Reject(seat, answer.step(), "game_over", "the game is over");
  if (!started_) return Reject(seat, answer.step(), "not_started", "the game has not started: seats are connecting");
  if (paused_) {
    return Reject(seat, answer.step(), "paused",
                  "the game is paused (" + pause_reason_ + "); the decision comes again when it goes on");
  }
  if (state_.CurrentPlayer() != seat) {
    return Reject(seat, answer.step(), "not_your_turn",
                  "not your decision: step " + std::to_string(step()) + " is seat " +
                      std::to_string(state_.CurrentPlayer()) + "'s");
  }
  if (answer.step() != step()) {
    return Reject(
        seat, answer.step(), "stale",
        "step " + std::to_string(answer.step()) + " is not the decision now (step " + std::to_string(step()) + ")");
  }
  // An answer without an action would decode as code 0, the start player roll
  // for seat 0 (a chance action no seat sends), and be refused as illegal with
  // a rule the bot never asked about: say what is missing instead.
  if (!answer.has_action() || (answer.action().code() == 0 && answer.action().text().empty())) {
    return Reject(seat, answer.step(), "empty",
                  "empty answer: it carries no action (action.code is 0 and action.text is empty); send one of "
                  "the decision's view.legal codes or an action's text");
  }
  Action action;
  std::string error;
  if (!protocol::ActionFromProto(answer.action(), &action, &error)) {
    return Reject(seat, answer.step(), "malformed", "malformed action: " + error);
  }
  if (answer.has_debug()) {
    if (error = CheckAnswerDebug(answer.debug()); !error.empty())
      return Reject(seat, answer.step(), "debug", error + "; nothing was applied");
  }
  error = state_.CheckAction(action);
  if (!error.empty()) return Reject(seat, answer.step(), "illegal", error);

  // Time: what went past the per-decision limit comes out of the bank.
  const bool answered_decision = decision_sent_step_ == int64_t(step());
  const services::Millis think = answered_decision ? std::max<services::Millis>(0, received_at - decision_sent_at_) : 0;
  if (answered_decision) {
    const services::Millis over = think - services::Millis(setup_.decision_ms);
    if (over > 0) s.bank_ms = std::max<int64_t>(0, s.bank_ms - over);
  }
  s.debug.Record(step(), uint32_t(std::min<services::Millis>(think, UINT32_MAX)),
                 answer.has_debug() ? &answer.debug() : nullptr);
  ++s.decisions;
  s.fallback_in_a_row = 0;
  deadline_ = -1;
  const auto round_trip = std::chrono::steady_clock::now() - decision_sent_wall_;
  ApplyLocked(action);
  Advance();
  if (env_.metrics && answered_decision) {
    const double round_trip_s = std::chrono::duration<double>(round_trip).count();
    // With its append out, the answer's processing ends when the reply releases it (OnWritten).
    if (writing_) {
      answer_metric_ = {true, round_trip_s, processing_start};
    } else {
      env_.metrics->DecisionAnswered(
          round_trip_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - processing_start).count());
    }
  }
}

void Game::ResignLocked(int seat, uint32_t step) {
  // Over once the engine said so (its finish time is set with the last step,
  // before the game is released as finished) or a seat resigned.
  if (finished_ || finished_unix_ms_ != 0) return Reject(seat, step, "game_over", "the game is over");
  if (!started_) return Reject(seat, step, "not_started", "the game has not started: seats are connecting");
  if (paused_) {
    // Its end could not be written: a host that took the game over would play on.
    return Reject(seat, step, "paused", "the game is paused (" + pause_reason_ + "): resign again when it goes on");
  }
  services::LogInfo("seat resigned", {{"game", setup_.id}, {"seat", std::to_string(seat)}});
  resigned_ = seat;
  seats_[seat]->forfeited = true;  // ranks last, as every reader of the record ranks forfeits
  finished_unix_ms_ = env_.clock->UnixMillis();
  deadline_ = -1;
  Advance();  // writes the end, then finishes (ReleaseLocked)
}

void Game::Reject(int seat, uint32_t step, const std::string& reason, const std::string& error) {
  if (env_.metrics) env_.metrics->Rejected(reason);
  Seat& s = *seats_[seat];
  if (!s.stream) return;
  // What the seat is owed goes first: the events that made its answer stale
  // (a bot that retries on a refusal reads them to see the decision is gone).
  SendHeldLocked(seat);
  auto update = std::make_shared<v1::PlayUpdate>();
  update->mutable_rejected()->set_step(step);
  update->mutable_rejected()->set_error(error);
  s.stream->Send(std::move(update));
}

void Game::ApplyLocked(const Action& action) {
  std::vector<Event> events;
  state_.ApplyUnchecked(action, &events);
  actions_.push_back(action);
  const uint32_t now_step = step();
  for (const Event& e : events) {
    log_.push_back({now_step, e});
    for (size_t i = 0; i < seats_.size(); ++i) {
      Seat& s = *seats_[i];
      const Event masked = MaskEvent(e, int(i));
      s.tracker.Observe(masked);
      if (s.stream) protocol::EventToProto(masked, &s.events.emplace_back(), {.want_text = s.want_text});
    }
    if (!spectators_.empty()) protocol::EventToProto(MaskEvent(e, kNoSeat), &spectator_events_.emplace_back());
  }
}

// Plays chance and bots' moves until a seat's stream must answer (or the
// game ends), then tells everyone what happened.
void Game::Advance() {
  if (writing_) return;      // what the append's reply releases (OnWritten) covers this step
  int decide = -1;           // the seat whose stream is to decide, after the events
  int bot = -1;              // the seat whose fallback bot is asked, after the events
  const char* bot_why = "";  // and why
  bool finish = false;       // the engine says the game is over
  while (started_ && !finished_) {
    const int player = state_.CurrentPlayer();
    if (player == kTerminalPlayer || resigned_ >= 0) {
      finish = true;
      break;
    }
    if (player == kChancePlayer) {
      if (lockstep_ && !lockstep_->MayDraw(draws_ + 1)) {
        // Ahead of its set: it waits (sending nothing, asking nobody) and looks again.
        if (!lockstep_held_ && env_.metrics) env_.metrics->LockstepHold();
        lockstep_held_ = true;
        if (!lockstep_timer_armed_) {
          lockstep_timer_armed_ = true;
          AtTime(env_.clock->Now() + env_.lockstep_poll_ms, [this] {
            std::lock_guard lock(mutex_);
            lockstep_timer_armed_ = false;
            // A paused game goes on by its own retries (ScheduleRetryLocked),
            // whose back-off a look every 20 ms would defeat.
            if (!paused_) Advance();
          });
        }
        break;
      }
      ApplyLocked(chance_.Sample(state_));
      lockstep_held_ = false;
      ++draws_;  // also before Start (a seat that reconnects to a game taken over): counted when it joins
      if (lockstep_) lockstep_->Drew(draws_);
      continue;
    }
    if (!SeatPlaysItself(player)) {
      if (!seats_[player]->setup.built_in && grace_until_ >= 0 && env_.clock->Now() < grace_until_) {
        // Taken over: the seat's stream went with the old host. It has a full
        // decision limit to find us before its fallback bot plays.
        if (!grace_timer_armed_) {
          grace_timer_armed_ = true;
          AtTime(grace_until_, [this] { OnGraceEnd(); });
        }
        break;
      }
      bot = player;
      bot_why = seats_[player]->setup.built_in ? "built_in" : "disconnected";
      break;
    }
    decide = player;
    break;
  }
  // The end is written with the last step: a host that takes the finished game
  // over stores it as finished then.
  if (finish && finished_unix_ms_ == 0) finished_unix_ms_ = env_.clock->UnixMillis();
  if (finished_) return;
  // Nothing is released unless the store holds it (see game.h).
  const Release release{decide, bot, bot_why, finish};
  switch (PersistLocked()) {
    case Persisted::kReleased:
      return ReleaseLocked(release);
    case Persisted::kWriting:
      release_after_write_ = release;  // OnWritten releases it
      return;
    case Persisted::kFenced:
    case Persisted::kPaused:
      return;
  }
}

void Game::ReleaseLocked(const Release& r) {
  if (r.finish) FinishLocked();
  Flush(r.decide);
  // Unless it was sent already (a pause that ended takes it back: ResumeLocked).
  if (r.decide >= 0 && decision_sent_step_ != int64_t(step())) SendDecision(r.decide);
  if (r.bot >= 0) RequestBot(r.bot, r.bot_why);
}

void Game::Flush(int decide) {
  const uint32_t now_step = step();
  // Hold only while steps come faster than the window: a game whose seats think
  // (a step every quarter second) would gain nothing but the delay and a timer.
  const services::Millis now = env_.clock->Now();
  const bool hold = env_.coalesce_events_ms > 0 && !finished_ && last_flush_at_ >= 0 &&
                    now - last_flush_at_ < env_.coalesce_events_ms;
  last_flush_at_ = now;
  // A decision already out for this step (a seat reconnected, a lease was
  // renewed) keeps its clock where it stands: only a new one starts full.
  const int starting = decide >= 0 && decision_sent_step_ != int64_t(now_step) ? decide : -1;
  bool waiting = false;
  for (size_t i = 0; i < seats_.size(); ++i) {
    Seat& seat = *seats_[i];
    if (!seat.stream) continue;
    if (!seat.events.empty()) {
      if (seat.held.empty()) {
        seat.held.swap(seat.events);
      } else {
        for (auto& e : seat.events) seat.held.push_back(std::move(e));
        seat.events.clear();
      }
      seat.held_step = now_step;
    }
    // The deciding seat's events go out now unless they ride in the decision that
    // follows (ReleaseLocked): one write, not two.
    const bool in_decision = seat.events_in_decision && decision_sent_step_ != int64_t(now_step);
    // A clock that starts or stops is news without events (the game's first
    // decision): a seat with the clocks hears it anyway.
    if (int(i) == decide) {
      if (!in_decision) SendHeldLocked(int(i), /*clocks_anyway=*/true, starting);
    } else if (!hold) {
      SendHeldLocked(int(i), /*clocks_anyway=*/true, starting);
    } else {
      waiting = waiting || !seat.held.empty();
    }
  }
  if (waiting && !held_timer_armed_) {
    held_timer_armed_ = true;
    AtTime(now + env_.coalesce_events_ms, [this] {
      std::lock_guard lock(mutex_);
      held_timer_armed_ = false;
      SendAllHeldLocked();
    });
  }
  if (!spectators_.empty() && !spectator_events_.empty()) {
    auto events = std::make_shared<v1::SpectateUpdate>();
    events->mutable_events()->set_step(now_step);
    for (auto& e : spectator_events_) *events->mutable_events()->add_events() = std::move(e);
    ClocksLocked(starting, events->mutable_events()->mutable_clocks());
    spectators_told_ = ClocksNews(events->events().clocks());
    auto view = std::make_shared<v1::SpectateUpdate>();
    protocol::ViewToProto(MakeView(state_, kNoSeat), view->mutable_view());
    // CAPABILITY_VIEW_DELTAS: one delta for every spectator that received the
    // last view sent here; the others get the whole view, and the delta next time.
    std::shared_ptr<v1::SpectateUpdate> delta;
    protocol::WireView wire;
    if (!delta_spectators_.empty()) wire.Set(view->view());
    if (!delta_spectators_.empty() && public_view_step_ >= 0) {
      delta = std::make_shared<v1::SpectateUpdate>();
      protocol::MakeViewDelta(public_view_, uint32_t(public_view_step_), wire, delta->mutable_view_delta());
    }
    for (auto& sp : spectators_) {
      sp->Send(events);
      const auto has_base = delta_spectators_.find(sp.get());
      if (has_base != delta_spectators_.end() && has_base->second && delta) {
        sp->Send(delta);
      } else {
        sp->Send(view);
        if (has_base != delta_spectators_.end()) has_base->second = true;
      }
    }
    if (!delta_spectators_.empty()) {
      public_view_.swap(wire);
      public_view_step_ = int64_t(now_step);
    }
  } else if (!spectators_.empty()) {
    // No events, but a clock that started or stopped (a pause that ended) is news.
    auto clocks = std::make_shared<v1::SpectateUpdate>();
    clocks->mutable_events()->set_step(now_step);
    ClocksLocked(starting, clocks->mutable_events()->mutable_clocks());
    const auto news = ClocksNews(clocks->events().clocks());
    if (news != spectators_told_) {
      spectators_told_ = news;
      for (auto& sp : spectators_) sp->Send(clocks);
    }
  }
  spectator_events_.clear();
}

services::Millis Game::DecisionStartLocked(services::Millis now) const {
  return resend_step_ == int64_t(step()) ? resend_since_ : now;
}

void Game::ClocksLocked(int starting, v1::Clocks* out) const {
  int running = -1;
  services::Millis used = 0;  // of the running seat's decision so far
  const services::Millis now = env_.clock->Now();
  if (started_ && !finished_ && !paused_) {
    if (starting >= 0) {
      // Its decision goes out right after these events: its clock full, unless
      // it is sent again (a reconnection) and runs on from its first sending.
      running = starting;
      used = now - DecisionStartLocked(now);
    } else if (decision_sent_step_ == int64_t(step()) && deadline_ >= 0 && seats_[state_.CurrentPlayer()]->stream) {
      // (A seat whose stream is gone is played by its fallback bot: its clock stopped.)
      running = state_.CurrentPlayer();
      used = now - decision_sent_at_;
    }
  }
  for (const auto& seat : seats_) out->add_time_bank_ms_left(uint32_t(std::max<int64_t>(0, seat->bank_ms)));
  out->set_running(running);
  if (running < 0) return;
  out->set_decision_ms_left(setup_.decision_ms);
  protocol::SpendRunningClock(used, out);
}

void Game::PackHeldLocked(int seat_index, int starting, v1::Events* ev) {
  Seat& seat = *seats_[seat_index];
  ev->set_step(seat.held.empty() ? step() : seat.held_step);
  ev->mutable_events()->Reserve(int(seat.held.size()));
  for (auto& e : seat.held) *ev->add_events() = std::move(e);
  seat.held.clear();
  if (seat.clocks) {
    ClocksLocked(starting, ev->mutable_clocks());
    seat.clocks_told = ClocksNews(ev->clocks());
  }
}

void Game::SendHeldLocked(int seat_index, bool clocks_anyway, int starting) {
  Seat& seat = *seats_[seat_index];
  if (!seat.stream) return;
  if (seat.held.empty()) {
    if (!(clocks_anyway && seat.clocks)) return;
    // Clocks alone only when they say something new (not at every reconnect or lockstep look).
    v1::Clocks clocks;
    ClocksLocked(starting, &clocks);
    if (ClocksNews(clocks) == seat.clocks_told) return;
  }
  auto update = std::make_shared<v1::PlayUpdate>();
  PackHeldLocked(seat_index, starting, update->mutable_events());
  seat.stream->Send(std::move(update));
}

void Game::SendAllHeldLocked() {
  for (size_t i = 0; i < seats_.size(); ++i) SendHeldLocked(int(i));
}

namespace {

// A decision's view has dozens of repeated fields. Built on an arena they cost
// one allocation instead of one each, and go at once when the stream has
// written the message, instead of field by field.
std::shared_ptr<v1::PlayUpdate> NewArenaUpdate() {
  struct Holder {
    Holder() {}                   // user-provided: make_shared must not zero the block first
    alignas(8) char block[8192];  // what a four-seat decision needs, with room
    google::protobuf::Arena arena{block, sizeof block};
  };
  auto holder = std::make_shared<Holder>();
  v1::PlayUpdate* update = google::protobuf::Arena::CreateMessage<v1::PlayUpdate>(&holder->arena);
  return std::shared_ptr<v1::PlayUpdate>(std::move(holder), update);
}

}  // namespace

void Game::SendDecision(int seat) {
  Seat& s = *seats_[seat];
  const services::Millis now = env_.clock->Now();
  auto update = NewArenaUpdate();
  v1::Decision* d = update->mutable_decision();
  d->set_step(step());
  if (s.events_in_decision && (!s.held.empty() || s.clocks)) {
    PackHeldLocked(seat, /*starting=*/seat, d->mutable_events());  // the clocks as this decision starts
  } else {
    SendHeldLocked(seat);  // the events come first, in their own update
  }
  const View view = MakeView(state_, seat, &s.tracker);
  if (s.view_deltas) {
    protocol::ViewToProto(view, &view_scratch_);  // reuses the scratch message's memory
    s.sent_view.Set(view_scratch_);
    s.sent_view_step = int64_t(step());
    if (s.acked_view_step >= 0) {
      protocol::MakeViewDelta(s.acked_view, uint32_t(s.acked_view_step), s.sent_view, d->mutable_view_delta());
    } else {
      *d->mutable_view() = view_scratch_;
    }
  } else {
    protocol::ViewToProto(view, d->mutable_view());
  }
  if (s.want_text) {
    for (const Action& a : view.legal) d->add_legal_text(ActionToString(a));
  }
  // A decision sent again to a seat that reconnected counts from its first sending.
  const services::Millis since = DecisionStartLocked(now);
  resend_step_ = -1;
  const protocol::ClockLeft left = protocol::SpendDecision(setup_.decision_ms, s.bank_ms, now - since);
  d->set_decision_ms_left(left.decision_ms);
  d->set_time_bank_ms_left(left.bank_ms);
  decision_sent_step_ = step();
  decision_sent_at_ = since;
  decision_sent_wall_ = std::chrono::steady_clock::now();
  deadline_ = since + setup_.decision_ms + s.bank_ms;
  ArmTimer();
  s.stream->Send(std::move(update));
}

// One timer per game at a time: most decisions are answered long before their
// deadline, so instead of one timer per decision (thousands waiting per second
// under load), a timer that fires early moves itself on to the current deadline.
void Game::ArmTimer() {
  if (timer_at_ >= 0 && timer_at_ <= deadline_) return;
  timer_at_ = deadline_;
  const services::Millis at = deadline_;
  AtTime(at, [this, at] { OnTimer(at); });
}

void Game::RequestBot(int seat, const char* why) {
  if (bot_step_ == int64_t(step())) return;  // already deciding this step
  bot_step_ = step();
  Seat& s = *seats_[seat];
  if (env_.metrics) env_.metrics->FallbackDecision(why);
  auto view = std::make_shared<View>(MakeView(state_, seat, &s.tracker));
  std::weak_ptr<Game> weak = weak_from_this();
  bots::Bot* bot = s.fallback.get();
  // The bot executor runs one task of a game at a time (FairPool: a seat that
  // answered, then left again, may have two queued): no race on the rng or bot.
  uint64_t* rng = &s.bot_rng;
  const uint32_t at_step = step();
  env_.bots->PostFor(setup_.id, [weak, seat, at_step, view, bot, rng] {
    auto game = weak.lock();
    if (!game) return;
    const Action action = bot->Choose(*view, rng);
    game->Enqueue([g = game.get(), seat, at_step, action] { g->OnBotDecision(seat, at_step, action); });
  });
}

void Game::OnBotDecision(int seat, uint32_t at_step, const Action& action) {
  std::lock_guard lock(mutex_);
  if (bot_step_ == int64_t(at_step)) bot_step_ = -1;
  // Paused meanwhile: dropped; the bot is asked again when the game goes on.
  if (paused_ || finished_ || at_step != step() || state_.CurrentPlayer() != seat) return;  // the seat answered first
  const std::string error = state_.CheckAction(action);
  if (!error.empty()) {
    // A built-in bot returns one of the legal actions or a trade offer or
    // counter the engine accepts (TRD-3); anything else is a bug.
    services::LogError("fallback bot chose an illegal action",
                       {{"game", setup_.id}, {"seat", std::to_string(seat)}, {"error", error}});
    return;
  }
  Seat& s = *seats_[seat];
  ++s.fallback_decisions;
  ++s.fallback_in_a_row;
  if (!s.forfeited && !s.setup.built_in && setup_.forfeit_after > 0 && s.fallback_in_a_row >= setup_.forfeit_after) {
    s.forfeited = true;  // for good: answering again later does not undo it
    services::LogInfo("seat forfeited", {{"game", setup_.id},
                                         {"seat", std::to_string(seat)},
                                         {"fallback_in_a_row", std::to_string(s.fallback_in_a_row)}});
  }
  ApplyLocked(action);
  Advance();
}

void Game::OnTimer(services::Millis at) {
  std::lock_guard lock(mutex_);
  if (timer_at_ == at) timer_at_ = -1;
  if (finished_ || paused_ || decision_sent_step_ != int64_t(step()) || deadline_ < 0) return;
  if (env_.clock->Now() < deadline_) return ArmTimer();
  deadline_ = -1;
  const uint32_t at_step = step();
  const int seat = state_.CurrentPlayer();
  if (seat < 0) return;
  seats_[seat]->bank_ms = 0;
  if (env_.metrics) env_.metrics->Timeout();
  services::LogInfo("decision timed out",
                    {{"game", setup_.id}, {"seat", std::to_string(seat)}, {"step", std::to_string(at_step)}});
  RequestBot(seat, "timeout");
}

void Game::OnStartTimeout() {
  std::lock_guard lock(mutex_);
  if (started_ || finished_) return;
  // A table none of whose players came is no game: its seats were never handed
  // out (a matchmaker that died between creating it and assigning it) or nobody
  // wanted them. Played by the fallback bot it would be stored and rated in the
  // players' names while they play their real games elsewhere.
  bool awaited = false, arrived = false;
  for (const auto& s : seats_) {
    if (s->setup.built_in) continue;
    awaited = true;
    arrived = arrived || s->ever_connected;
  }
  if (awaited && !arrived) {
    return VoidLocked("nobody joined", grpc::Status(grpc::StatusCode::NOT_FOUND,
                                                    "game " + setup_.id + " is void: none of its players joined"));
  }
  started_ = true;
  services::LogInfo("starting without every seat", {{"game", setup_.id}});
  Advance();
}

void Game::FinishLocked() {
  // Called once the whole log is in the checkpoint (Advance): a host that dies
  // while storing the game leaves one the next host finishes again (storing is
  // idempotent on the id).
  finished_ = true;
  if (lockstep_) lockstep_->Leave();
  const int winner = state_.Winner();
  protocol::ResultToProto(state_, &result_);
  if (resigned_ >= 0) {
    // The engine's result says "aborted" for a game it did not end: the
    // resignation ended it, with no winner.
    result_.set_reason(v1::END_REASON_RESIGNED);
    result_.set_resigned_seat(uint32_t(resigned_));
    seats_[resigned_]->forfeited = true;  // also when taken over from a checkpoint
  }
  CompletedGame done;
  done.game_id = setup_.id;
  done.request_id = setup_.request_id;
  done.ladder = setup_.ladder;
  done.season = setup_.season;
  done.tournament = setup_.tournament;
  done.record.config = setup_.config;
  done.record.actions = actions_;
  if (setup_.verifiable_seed.empty()) done.record.seed = setup_.chance_seed;
  done.verifiable_seed = setup_.verifiable_seed;
  done.record.winner = winner;
  for (const auto& s : seats_) {
    done.record.players.push_back(s->setup.name);
    done.fallback_decisions.push_back(s->fallback_decisions);
    done.identity_ids.push_back(s->setup.identity_id);
    done.built_in.push_back(s->setup.built_in);
    done.forfeited.push_back(s->forfeited);
    done.debug.push_back(s->debug);
  }
  done.debug_from_step = debug_from_step_;
  done.resigned_seat = resigned_;
  done.reason = EndReason(int(result_.reason()));
  for (int v : result_.vp()) done.vp.push_back(v);
  done.created_unix_ms = created_unix_ms_;
  done.finished_unix_ms = finished_unix_ms_ > 0 ? finished_unix_ms_ : env_.clock->UnixMillis();
  // The outbox only queues it here; it stores it and calls OnStored() from its
  // own thread, which takes our lock afresh.
  env_.on_complete(shared_from_this(), std::move(done));
}

void Game::OnStored() {
  std::lock_guard lock(mutex_);
  if (stored_) return;
  stored_ = true;
  // The host keeps finished games only to answer GetGame; the stored record has
  // the rest, so the event log goes.
  std::vector<LoggedEvent>().swap(log_);
  SendAllHeldLocked();  // nothing waits (the last step's Flush sent it all), but the end must come last
  auto over = std::make_shared<v1::PlayUpdate>();
  *over->mutable_game_over()->mutable_result() = result_;
  for (auto& s : seats_) {
    if (!s->stream) continue;
    s->stream->Send(over);
    s->stream->Finish(grpc::Status::OK);
    s->stream.reset();
  }
  auto spectator_over = std::make_shared<v1::SpectateUpdate>();
  *spectator_over->mutable_game_over()->mutable_result() = result_;
  for (auto& sp : spectators_) {
    sp->Send(spectator_over);
    sp->Finish(grpc::Status::OK);
  }
  spectators_.clear();
  delta_spectators_.clear();
}

bool Game::IsSeatToken(int seat, const std::string& hash) const {
  if (!setup_.seats[seat].token_hash.empty() && setup_.seats[seat].token_hash == hash) return true;
  std::lock_guard lock(tokens_mutex_);
  if (size_t(seat) >= more_token_hashes_.size()) return false;
  const auto& more = more_token_hashes_[seat];
  return std::find(more.begin(), more.end(), hash) != more.end();
}

Game::SeatAgain Game::GiveSeatAgain(int seat, const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  if (finished_ || abandoned_) return SeatAgain::kOver;
  if (seats_[seat]->stream) return SeatAgain::kConnected;
  std::lock_guard tokens(tokens_mutex_);
  more_token_hashes_.resize(seats_.size());
  std::vector<std::string>& more = more_token_hashes_[seat];
  more.push_back(token_hash);
  if (more.size() > kSeatTokensKept) more.erase(more.begin(), more.end() - kSeatTokensKept);
  services::LogInfo("seat token given again", {{"game", setup_.id}, {"seat", std::to_string(seat)}});
  return SeatAgain::kGiven;
}

bool Game::stored() const {
  std::lock_guard lock(mutex_);
  return stored_;
}

void Game::Welcome(int seat, v1::Welcome* out) const {
  out->set_game_id(setup_.id);
  out->set_seat(seat);
  protocol::ConfigToProto(setup_.config, out->mutable_config());
  for (size_t i = 0; i < seats_.size(); ++i) {
    v1::PlayerInfo* p = out->add_players();
    p->set_seat(uint32_t(i));
    p->set_name(seats_[i]->setup.name);
    p->set_built_in(seats_[i]->setup.built_in);
    p->set_connected(seats_[i]->stream != nullptr);
  }
  out->mutable_deadlines()->set_decision_ms(setup_.decision_ms);
  out->mutable_deadlines()->set_time_bank_ms(setup_.time_bank_ms);
  // While paused, the steps not yet written are not released, not even their count.
  out->set_step(paused_ ? persisted_ : step());
  out->set_chance_commitment(commitment_);
}

void Game::AddSpectator(bool from_start, std::shared_ptr<SpectatorStream> stream, bool view_deltas) {
  std::unique_lock lock(mutex_);
  WaitWrittenLocked(lock);
  auto welcome = std::make_shared<v1::SpectateUpdate>();
  Welcome(kNoSeat, welcome->mutable_welcome());
  if (view_deltas) welcome->mutable_welcome()->add_capabilities(v1::CAPABILITY_VIEW_DELTAS);
  ClocksLocked(-1, welcome->mutable_welcome()->mutable_clocks());
  stream->Send(std::move(welcome));
  // Its first view is whole, and so is its first after the next step (Flush).
  if (view_deltas && !stored_) delta_spectators_[stream.get()] = false;
  // While paused, only what was released: the rest follows when the game goes on.
  size_t released = log_.size();
  if (paused_) {
    while (released > 0 && log_[released - 1].step > persisted_) --released;
  }
  if (from_start && released > 0) {
    // In batches, so that one message stays small whatever the game's length.
    constexpr size_t kBatch = 512;
    for (size_t i = 0; i < released; i += kBatch) {
      auto batch = std::make_shared<v1::SpectateUpdate>();
      const size_t end = std::min(released, i + kBatch);
      batch->mutable_events()->set_step(log_[end - 1].step);
      for (size_t j = i; j < end; ++j)
        protocol::EventToProto(MaskEvent(log_[j].event, kNoSeat), batch->mutable_events()->add_events());
      stream->Send(std::move(batch));
    }
  }
  if (paused_) {
    stream->Send(SpectatorPausedUpdateLocked());
    spectators_.push_back(std::move(stream));
    return;
  }
  auto view = std::make_shared<v1::SpectateUpdate>();
  protocol::ViewToProto(MakeView(state_, kNoSeat), view->mutable_view());
  stream->Send(std::move(view));
  if (stored_) {
    auto over = std::make_shared<v1::SpectateUpdate>();
    *over->mutable_game_over()->mutable_result() = result_;
    stream->Send(std::move(over));
    stream->Finish(grpc::Status::OK);
    return;
  }
  spectators_.push_back(std::move(stream));
}

void Game::RemoveSpectator(const SpectatorStream* stream) {
  std::lock_guard lock(mutex_);
  std::erase_if(spectators_, [stream](const auto& s) { return s.get() == stream; });
  delta_spectators_.erase(stream);
}

void Game::Info(v1::GameInfo* out) const {
  std::unique_lock lock(mutex_);
  WaitWrittenLocked(lock);
  out->set_game_id(setup_.id);
  out->set_status(stored_ ? v1::GAME_STATUS_FINISHED : v1::GAME_STATUS_LIVE);
  for (size_t i = 0; i < seats_.size(); ++i) {
    const Seat& s = *seats_[i];
    v1::PlayerInfo* p = out->add_players();
    p->set_seat(uint32_t(i));
    p->set_name(s.setup.name);
    p->set_built_in(s.setup.built_in);
    p->set_connected(s.stream != nullptr);
    p->set_decisions(s.decisions);
    p->set_fallback_decisions(s.fallback_decisions);
    p->set_forfeited(s.forfeited);
    p->set_identity_id(s.setup.identity_id);
  }
  out->set_chance_commitment(commitment_);
  // While paused, the steps not yet written are not released, not even their count (as Welcome).
  out->set_step(paused_ ? persisted_ : step());
  out->set_turn(uint32_t(state_.turn_number()));
  const View pub = MakeView(state_, kNoSeat);
  for (int i = 0; i < state_.num_seats(); ++i) out->add_vp(pub.state.player(i).vp);
  if (stored_) *out->mutable_result() = result_;
  out->set_ladder(setup_.ladder);
  out->set_created_unix_ms(created_unix_ms_);
}

}  // namespace metropolis::gamehost
