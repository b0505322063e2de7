// gamehost_load: a load program for a running metropolis-gamehost.
//
// It keeps --games games of four network seats live at once (a finished game is
// replaced by a new one), every seat a Play stream on the gRPC callback API that
// answers a uniformly random legal action after --think-ms. After the ramp and a
// warm-up it measures, for --duration-s:
//
//   * decisions per second: answers the host applied, known from the step of
//     the game's next Decision (or from its GameOver);
//   * the time the host adds to a decision's round trip: from writing an answer
//     to the arrival of the game's next Decision at any of its seats (the think
//     time is not in it, the loopback network and this program's own reaction
//     time are);
//   * games finished, rejected answers, failed streams and calls;
//   * with --host-pid, the host's CPU time (utime + stime from /proc/PID/stat)
//     per applied decision and its resident memory.
//
// With --games-file it keeps a file listing the live games' ids, for a load
// that watches them (bench/gateway_streams.sh).
//
// Threads: gRPC's callback threads run every reaction; one timer thread holds
// the thinking seats in a heap (nothing sleeps in a reaction); the main thread
// prints progress on stderr once a second. bench/gamehost_load.sh builds the
// host and this program, starts the host on free ports and runs it.
#include <absl/synchronization/mutex.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/gamehost_load_wire.h"
#include "bench/load_stats.h"
#include "engine/splitmix.h"
#include "lib/flags/flags.h"
#include "metropolis/v1/gamehost.grpc.pb.h"

namespace metropolis::load {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int kSeats = 4;
constexpr int kStatusCodes = 17;  // grpc::StatusCode OK .. UNAUTHENTICATED

// What the load counts, from any thread.
enum Count {
  kDecisionsReceived,  // Decision messages
  kUpdatesReceived,    // messages of any kind on the seats' streams (the host's writes)
  kAnswersWritten,
  kDecisionsApplied,  // answers the host applied
  kRejected,
  kGamesCreated,
  kGamesFinished,
  kCreateErrors,      // failed CreateGame calls
  kStreamErrors,      // Play streams that ended with an error
  kEmptyDecisions,    // a Decision without legal actions
  kMalformedUpdates,  // an update this program could not read
  kErrorCode0,        // + a status code: failed calls by code
  kNumCounts = kErrorCode0 + kStatusCodes,
};
using CountValues = Counters<Count>::Snapshot;

// Failed calls by status code (kErrorCode0 + code); OK and codes past
// UNAUTHENTICATED have no count.
void AddError(Counters<Count>& counters, grpc::StatusCode code) {
  if (int(code) > 0 && int(code) < kStatusCodes) counters.Add(Count(kErrorCode0 + int(code)));
}

// ---------------------------------------------------------------------------
// Games and seats

struct Settings {
  std::string host = "127.0.0.1:50051";
  std::string admin_token;
  int64_t games = 100;
  int64_t duration_s = 60;
  int64_t warmup_s = 5;
  int64_t ramp_timeout_s = 120;
  int64_t think_ms = 0;
  int64_t head_start = 0;  // the first games answer at once up to a step drawn below this
  int64_t decision_ms = 10'000;
  int64_t channels = 4;
  int64_t create_concurrency = 32;
  uint64_t seed = 1;
  int64_t host_pid = 0;
  std::string fallback_bot = "random";
  std::string games_file;  // rewritten with the live games' ids as they change
  bool json = false;
  bool events_in_decision = false;  // PlayHello capability CAPABILITY_EVENTS_IN_DECISION
  bool view_deltas = false;         // PlayHello capability CAPABILITY_VIEW_DELTAS
};

class Load;
class ClientGame;
using PlayStub = grpc::TemplatedGenericStub<v1::PlayRequest, grpc::ByteBuffer>;
const std::string kPlayMethod = "/metropolis.v1.GameHost/Play";

// One seat: a Play stream. Every operation started from outside a reaction (an
// answer written when its think time is up) is covered by the one hold taken
// before StartCall, released once the stream can carry nothing more.
class Seat final : public grpc::ClientBidiReactor<v1::PlayRequest, grpc::ByteBuffer> {
 public:
  Seat(ClientGame* game, uint64_t rng_seed) : game_(game), rng_(rng_seed) {}
  void Start(PlayStub* stub, const std::string& game_id, const std::string& token, int64_t deadline_ns,
             bool events_in_decision, bool view_deltas);
  void Cancel() { context_.TryCancel(); }
  // From the timer thread: the think time for `step` is up.
  void ThinkDone(uint32_t step, uint64_t code);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  void Answer(uint32_t step, uint64_t code);
  void StartWriteOf(const v1::PlayRequest& request);
  uint64_t PickLegal();
  void ReleaseHoldIfIdle();

  ClientGame* game_;
  uint64_t rng_;
  grpc::ClientContext context_;
  // Touched by the reactions of reads only, which never run concurrently.
  grpc::ByteBuffer update_;      // the read in flight
  UpdateSummary summary_;        // of the last update read
  std::vector<uint64_t> legal_;  // of the last decision
  // With view deltas: the legal actions of the last decision answered (the
  // base's), for a delta that does not list them.
  std::vector<uint64_t> answered_legal_;

  std::mutex mutex_;
  v1::PlayRequest writing_request_;            // in flight while writing_
  std::optional<v1::PlayRequest> next_write_;  // waits for the write in flight
  bool writing_ = false;
  bool thinking_ = false;     // a timer will call ThinkDone
  bool read_closed_ = false;  // no more decisions will come
  bool hold_released_ = false;
};

class ClientGame : public std::enable_shared_from_this<ClientGame> {
 public:
  ClientGame(Load* load, uint64_t index, std::string id, const std::vector<std::string>& tokens);
  void Start();
  // Steps its seats play at once before thinking (--head-start).
  uint32_t head_start_steps() const { return head_start_steps_; }
  // A decision for `step` arrived: the head start may be over.
  void HeadStartCheck(uint32_t step);
  void Cancel() {
    for (auto& s : seats_) s->Cancel();
  }

  // What the seats report.
  void AnswerWritten(uint32_t step);
  void DecisionArrived(uint32_t step);
  void GameOver();
  void SeatDone();

  Load* load() const { return load_; }
  const std::string& id() const { return id_; }

 private:
  Load* load_;
  const uint64_t index_;
  const std::string id_;
  const std::vector<std::string> tokens_;
  std::array<std::unique_ptr<Seat>, kSeats> seats_;
  uint32_t head_start_steps_ = 0;
  std::atomic<bool> head_start_pending_{false};
  // The answer written last and not yet seen applied: when, and its step.
  std::atomic<int64_t> answer_written_ns_{0};
  std::atomic<uint32_t> answer_step_{0};
  std::atomic<bool> over_{false};
  std::atomic<int> streams_left_{kSeats};
};

class Load {
 public:
  explicit Load(const Settings& settings);
  ~Load();
  int Run();

  // For games and seats.
  Counters<Count>& counters() { return counters_; }
  Histogram& host_added() { return host_added_; }
  TimerThread& timers() { return timers_; }
  const Settings& settings() const { return settings_; }
  PlayStub* play_stub_for(uint64_t game, int seat) {
    return play_stubs_[size_t((game * kSeats + uint64_t(seat)) % play_stubs_.size())].get();
  }
  int64_t stream_deadline_ns() const { return stream_deadline_ns_; }
  bool events_in_decision() const { return settings_.events_in_decision; }
  bool view_deltas() const { return settings_.view_deltas; }
  void GameDone(uint64_t index);
  bool stopping() const { return stopping_.load(); }
  void LogError(const std::string& message);
  // One of the first --games games is past its head start (or over): when
  // all are, a line on stderr says so (bench/gateway_streams.sh waits for it).
  void HeadStartDone();

 private:
  struct Sample {
    int64_t at_ns;
    CountValues counters;
    Histogram::Snapshot host_added, lateness;
    ProcessSample host;
    double own_cpu_s;
    MachineSample machine;
    std::string load_average;
  };
  Sample TakeSample();
  void MaybeCreate();
  void CreateOne(uint64_t index);
  size_t LiveGames();
  void WriteGamesFile();
  void Report(const Sample& start, const Sample& end, const Sample& idle, double ramp_s);

  const Settings settings_;
  std::vector<std::unique_ptr<v1::GameHost::Stub>> stubs_;  // CreateGame
  std::vector<std::unique_ptr<PlayStub>> play_stubs_;       // Play, on the same channels
  Counters<Count> counters_;
  Histogram host_added_;
  TimerThread timers_;
  int64_t stream_deadline_ns_ = 0;
  std::atomic<int64_t> head_starts_left_{settings_.head_start > 0 ? settings_.games : 0};

  std::mutex mutex_;
  std::map<uint64_t, std::shared_ptr<ClientGame>> live_;
  uint64_t creating_ = 0;
  uint64_t next_index_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> errors_logged_{0};
  std::mutex games_file_mutex_;  // taken before mutex_: the last list read is the last written
};

// --- Seat

void Seat::Start(PlayStub* stub, const std::string& game_id, const std::string& token, int64_t deadline_ns,
                 bool events_in_decision, bool view_deltas) {
  context_.AddMetadata("authorization", "Bearer " + token);
  context_.set_deadline(std::chrono::system_clock::now() + std::chrono::nanoseconds(deadline_ns - NowNs()));
  stub->PrepareBidiStreamingCall(&context_, kPlayMethod, grpc::StubOptions(), this);
  v1::PlayRequest hello;
  hello.mutable_hello()->set_game_id(game_id);
  if (events_in_decision) hello.mutable_hello()->add_capabilities(v1::CAPABILITY_EVENTS_IN_DECISION);
  if (view_deltas) hello.mutable_hello()->add_capabilities(v1::CAPABILITY_VIEW_DELTAS);
  {
    std::lock_guard lock(mutex_);
    writing_ = true;
    writing_request_ = std::move(hello);
  }
  StartWrite(&writing_request_);
  StartRead(&update_);
  AddHold();
  StartCall();
}

uint64_t Seat::PickLegal() { return legal_[size_t(SplitMixNext(&rng_) % legal_.size())]; }

void Seat::OnReadDone(bool ok) {
  if (!ok) {
    {
      std::lock_guard lock(mutex_);
      read_closed_ = true;
    }
    ReleaseHoldIfIdle();
    return;
  }
  Load* load = game_->load();
  if (!SummarizeUpdate(update_, &summary_)) {
    load->counters().Add(kMalformedUpdates);
    load->LogError("an update could not be read");
    summary_ = UpdateSummary{};
  }
  load->counters().Add(kUpdatesReceived);
  switch (summary_.kind) {
    case v1::PlayUpdate::kDecision: {
      load->counters().Add(kDecisionsReceived);
      game_->DecisionArrived(summary_.step);
      game_->HeadStartCheck(summary_.step);
      if (summary_.view_delta && !summary_.legal_in_delta) {
        legal_ = answered_legal_;
      } else {
        legal_.swap(summary_.legal);
      }
      if (legal_.empty()) {
        load->counters().Add(kEmptyDecisions);
        break;
      }
      const uint64_t code = PickLegal();
      const int64_t think_ms = load->settings().think_ms;
      if (think_ms == 0 || summary_.step < game_->head_start_steps()) {
        Answer(summary_.step, code);
      } else {
        {
          std::lock_guard lock(mutex_);
          thinking_ = true;
        }
        auto game = game_->shared_from_this();  // keeps this seat alive until the timer runs
        const uint32_t step = summary_.step;
        load->timers().Schedule(NowNs() + think_ms * 1'000'000, [game, this, step, code] { ThinkDone(step, code); });
      }
      break;
    }
    case v1::PlayUpdate::kRejected: {
      load->counters().Add(kRejected);
      load->LogError("answer rejected: " + summary_.error);
      // The seat is still to act: another of the decision's actions.
      if (!legal_.empty()) Answer(summary_.step, PickLegal());
      break;
    }
    case v1::PlayUpdate::kGameOver:
      game_->GameOver();
      break;
    default:  // welcome, events
      break;
  }
  update_.Clear();
  StartRead(&update_);
}

void Seat::ThinkDone(uint32_t step, uint64_t code) {
  bool closed;
  {
    std::lock_guard lock(mutex_);
    thinking_ = false;
    closed = read_closed_;
  }
  if (!closed) Answer(step, code);
  ReleaseHoldIfIdle();
}

void Seat::Answer(uint32_t step, uint64_t code) {
  if (game_->load()->settings().view_deltas) answered_legal_ = legal_;  // the host's next base
  v1::PlayRequest request;
  request.mutable_answer()->set_step(step);
  request.mutable_answer()->mutable_action()->set_code(code);
  {
    std::lock_guard lock(mutex_);
    if (writing_) {  // only the hello can be in flight still
      next_write_ = std::move(request);
      return;
    }
    writing_ = true;
    writing_request_ = std::move(request);
  }
  StartWriteOf(writing_request_);
}

// The answer's clock starts as it is handed to gRPC.
void Seat::StartWriteOf(const v1::PlayRequest& request) {
  if (request.has_answer()) {
    game_->load()->counters().Add(kAnswersWritten);
    game_->AnswerWritten(request.answer().step());
  }
  StartWrite(&request);
}

void Seat::OnWriteDone(bool ok) {
  bool more = false;
  {
    std::lock_guard lock(mutex_);
    if (ok && next_write_) {
      writing_request_ = std::move(*next_write_);
      more = true;
    } else {
      writing_ = false;
    }
    next_write_.reset();
  }
  if (more) StartWriteOf(writing_request_);
}

void Seat::ReleaseHoldIfIdle() {
  {
    std::lock_guard lock(mutex_);
    if (!read_closed_ || thinking_ || hold_released_) return;
    hold_released_ = true;
  }
  RemoveHold();
}

void Seat::OnDone(const grpc::Status& status) {
  Load* load = game_->load();
  if (!status.ok() && !load->stopping()) {
    load->counters().Add(kStreamErrors);
    AddError(load->counters(), status.error_code());
    const int code = int(status.error_code());
    load->LogError("Play stream failed: " + std::to_string(code) + " " + status.error_message());
  }
  game_->SeatDone();  // may destroy this seat: the last thing done here
}

// --- ClientGame

ClientGame::ClientGame(Load* load, uint64_t index, std::string id, const std::vector<std::string>& tokens)
    : load_(load), index_(index), id_(std::move(id)), tokens_(tokens) {
  uint64_t seed = load->settings().seed ^ (index * 0x100000001B3ull);
  for (int i = 0; i < kSeats; ++i) seats_[size_t(i)] = std::make_unique<Seat>(this, SplitMixNext(&seed));
  // Only the first --games games: their replacements start at their own
  // times, so the ages stay spread once the first ones are.
  const auto head_start = uint64_t(load->settings().head_start);
  if (head_start > 0 && index < uint64_t(load->settings().games)) {
    head_start_steps_ = uint32_t(SplitMixNext(&seed) % head_start);
    head_start_pending_ = head_start_steps_ > 0;
    if (head_start_steps_ == 0) load->HeadStartDone();
  }
}

void ClientGame::Start() {
  for (int i = 0; i < kSeats; ++i) {
    seats_[size_t(i)]->Start(load_->play_stub_for(index_, i), id_, tokens_[size_t(i)], load_->stream_deadline_ns(),
                             load_->events_in_decision(), load_->view_deltas());
  }
}

void ClientGame::AnswerWritten(uint32_t step) {
  answer_step_.store(step, std::memory_order_relaxed);
  answer_written_ns_.store(NowNs(), std::memory_order_release);
}

void ClientGame::DecisionArrived(uint32_t step) {
  const int64_t written = answer_written_ns_.exchange(0, std::memory_order_acq_rel);
  if (written == 0 || step <= answer_step_.load(std::memory_order_relaxed)) return;
  load_->counters().Add(kDecisionsApplied);
  load_->host_added().Record(NowNs() - written);
}

void ClientGame::HeadStartCheck(uint32_t step) {
  if (step >= head_start_steps_ && head_start_pending_.exchange(false)) load_->HeadStartDone();
}

void ClientGame::GameOver() {
  if (over_.exchange(true)) return;
  if (head_start_pending_.exchange(false)) load_->HeadStartDone();
  // The last answer ended the game: applied, but no next decision to time.
  if (answer_written_ns_.exchange(0) != 0) load_->counters().Add(kDecisionsApplied);
  load_->counters().Add(kGamesFinished);
}

void ClientGame::SeatDone() {
  if (streams_left_.fetch_sub(1) == 1) load_->GameDone(index_);
}

// --- Load

Load::Load(const Settings& settings) : settings_(settings) {
  for (int64_t i = 0; i < settings_.channels; ++i) {
    grpc::ChannelArguments args;
    // Distinct arguments and a local subchannel pool: one TCP connection per channel.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt(GRPC_ARG_CHANNEL_ID, int(i));
    auto channel = grpc::CreateCustomChannel(settings_.host, grpc::InsecureChannelCredentials(), args);
    stubs_.push_back(v1::GameHost::NewStub(channel));
    play_stubs_.push_back(std::make_unique<PlayStub>(channel));
  }
}

Load::~Load() = default;

void Load::HeadStartDone() {
  if (head_starts_left_.fetch_sub(1) == 1) std::cerr << "gamehost_load: every first game is past its head start\n";
}

void Load::LogError(const std::string& message) {
  if (errors_logged_.fetch_add(1) < 20) std::cerr << "gamehost_load: " << message << "\n";
}

size_t Load::LiveGames() {
  std::lock_guard lock(mutex_);
  return live_.size();
}

// Written whole and renamed into place, so that a reader never sees half a list.
void Load::WriteGamesFile() {
  if (settings_.games_file.empty()) return;
  std::lock_guard file_lock(games_file_mutex_);
  std::string text;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [index, game] : live_) text += game->id() + "\n";
  }
  const std::string temp = settings_.games_file + ".new";
  std::FILE* f = std::fopen(temp.c_str(), "w");
  const bool written = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f) std::fclose(f);
  if (!written || std::rename(temp.c_str(), settings_.games_file.c_str()) != 0)
    LogError("cannot write " + settings_.games_file);
}

void Load::MaybeCreate() {
  std::vector<uint64_t> to_create;
  {
    std::lock_guard lock(mutex_);
    while (!stopping_ && live_.size() + creating_ < uint64_t(settings_.games) &&
           creating_ < uint64_t(settings_.create_concurrency)) {
      ++creating_;
      to_create.push_back(next_index_++);
    }
  }
  for (uint64_t index : to_create) CreateOne(index);
}

void Load::CreateOne(uint64_t index) {
  struct Call {
    grpc::ClientContext context;
    v1::CreateGameRequest request;
    v1::CreateGameResponse response;
  };
  auto* call = new Call;
  call->context.AddMetadata("authorization", "Bearer " + settings_.admin_token);
  call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  call->request.mutable_config()->set_num_seats(kSeats);
  for (int i = 0; i < kSeats; ++i) {
    v1::SeatSpec* seat = call->request.add_seats();
    seat->set_name("load-" + std::to_string(i));
    seat->set_fallback_bot(settings_.fallback_bot);
  }
  call->request.mutable_deadlines()->set_decision_ms(uint32_t(settings_.decision_ms));
  call->request.set_chance_seed(settings_.seed * 1'000'003ull + index + 1);  // distinct per game, never 0
  call->request.set_ladder("load");
  stubs_[index % stubs_.size()]->async()->CreateGame(
      &call->context, &call->request, &call->response, [this, call, index](grpc::Status status) {
        std::unique_ptr<Call> owned(call);
        std::shared_ptr<ClientGame> game;
        if (status.ok() && owned->response.seat_tokens_size() == kSeats) {
          std::vector<std::string> tokens(owned->response.seat_tokens().begin(), owned->response.seat_tokens().end());
          game = std::make_shared<ClientGame>(this, index, owned->response.game_id(), tokens);
        }
        bool inserted = false;
        {
          std::lock_guard lock(mutex_);
          --creating_;
          if (game && !stopping_) {
            live_[index] = game;
            inserted = true;
          }
        }
        if (!game) {
          counters_.Add(kCreateErrors);
          AddError(counters_, status.error_code());
          const int code = int(status.error_code());
          LogError("CreateGame failed: " + std::to_string(code) + " " + status.error_message());
          // Not at once: a host that refuses would be asked in a tight loop.
          timers_.Schedule(NowNs() + 200'000'000, [this] { MaybeCreate(); });
          return;
        }
        counters_.Add(kGamesCreated);
        // A game created after the stop is left to the host's start timeout and fallback bots.
        if (inserted) {
          game->Start();
          WriteGamesFile();
        }
        MaybeCreate();
      });
}

void Load::GameDone(uint64_t index) {
  std::shared_ptr<ClientGame> done;  // released outside the lock
  {
    std::lock_guard lock(mutex_);
    auto it = live_.find(index);
    if (it != live_.end()) {
      done = std::move(it->second);
      live_.erase(it);
    }
  }
  if (done) WriteGamesFile();
  MaybeCreate();
}

Load::Sample Load::TakeSample() {
  Sample s;
  s.at_ns = NowNs();
  s.counters = counters_.Take();
  s.host_added = host_added_.Take();
  s.lateness = timers_.lateness().Take();
  if (settings_.host_pid > 0) s.host = SampleProcess(settings_.host_pid);
  s.own_cpu_s = OwnCpuSeconds();
  s.machine = SampleMachine();
  s.load_average = LoadAverage();
  return s;
}

int Load::Run() {
  const int64_t t0 = NowNs();
  stream_deadline_ns_ =
      t0 + (settings_.ramp_timeout_s + settings_.warmup_s + settings_.duration_s + 300) * 1'000'000'000;
  const Sample idle = TakeSample();
  if (settings_.host_pid > 0 && !idle.host.ok) {
    std::cerr << "gamehost_load: cannot read /proc/" << settings_.host_pid << "/stat\n";
    return 2;
  }
  std::cerr << "gamehost_load: " << settings_.games << " games of " << kSeats << " seats on " << settings_.host
            << ", think " << settings_.think_ms << " ms, " << settings_.channels << " channel(s)\n";
  MaybeCreate();

  // Ramp: until every game is live, then the warm-up, then the window.
  auto progress = [&](const char* phase, int64_t second, uint64_t* last_applied) {
    const CountValues c = counters_.Take();
    const ProcessSample h = settings_.host_pid > 0 ? SampleProcess(settings_.host_pid) : ProcessSample{};
    char line[256];
    std::snprintf(line, sizeof line,
                  "[%-6s %4" PRId64 "s] live games %5zu  decisions/s %7" PRIu64 "  finished %6" PRIu64
                  "  rejected %" PRIu64 "  errors %" PRIu64 "%s",
                  phase, second, LiveGames(), c[kDecisionsApplied] - *last_applied, c[kGamesFinished], c[kRejected],
                  c[kStreamErrors] + c[kCreateErrors],
                  h.ok ? (" host rss " + std::to_string(h.rss_kb / 1024) + " MiB").c_str() : "");
    *last_applied = c[kDecisionsApplied];
    std::cerr << line << "\n";
  };
  uint64_t last_applied = 0;
  int64_t second = 0;
  const int64_t ramp_deadline = t0 + settings_.ramp_timeout_s * 1'000'000'000;
  while (LiveGames() < size_t(settings_.games) && NowNs() < ramp_deadline) {
    std::this_thread::sleep_until(SteadyClock::time_point(std::chrono::nanoseconds(t0 + ++second * 1'000'000'000)));
    progress("ramp", second, &last_applied);
  }
  const double ramp_s = double(NowNs() - t0) / 1e9;
  if (LiveGames() < size_t(settings_.games)) {
    std::cerr << "gamehost_load: only " << LiveGames() << " of " << settings_.games << " games live after "
              << settings_.ramp_timeout_s << " s; measuring anyway\n";
  }
  const int64_t warm_start = NowNs();
  for (int64_t i = 1; i <= settings_.warmup_s; ++i) {
    std::this_thread::sleep_until(SteadyClock::time_point(std::chrono::nanoseconds(warm_start + i * 1'000'000'000)));
    progress("warmup", i, &last_applied);
  }

  host_added_.ResetMax();
  timers_.lateness().ResetMax();
  const Sample start = TakeSample();
  last_applied = start.counters[kDecisionsApplied];
  for (int64_t i = 1; i <= settings_.duration_s; ++i) {
    std::this_thread::sleep_until(SteadyClock::time_point(std::chrono::nanoseconds(start.at_ns + i * 1'000'000'000)));
    progress("run", i, &last_applied);
  }
  const Sample end = TakeSample();
  Report(start, end, idle, ramp_s);

  // Hang up every stream; the host's fallback bots finish those games.
  std::vector<std::shared_ptr<ClientGame>> games;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [index, game] : live_) games.push_back(game);
  }
  for (auto& g : games) g->Cancel();
  games.clear();
  const int64_t drain_deadline = NowNs() + 20'000'000'000;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (live_.empty() && creating_ == 0) break;
    }
    if (NowNs() > drain_deadline) {
      std::cerr << "gamehost_load: streams still open 20 s after cancelling them; exiting\n";
      std::fflush(stdout);
      std::quick_exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return 0;
}

void Load::Report(const Sample& start, const Sample& end, const Sample& idle, double ramp_s) {
  const double window_s = double(end.at_ns - start.at_ns) / 1e9;
  const CountValues c = Counters<Count>::Difference(end.counters, start.counters);
  Histogram::Snapshot added = Histogram::Difference(end.host_added, start.host_added);
  Histogram::Snapshot late = Histogram::Difference(end.lateness, start.lateness);
  const double per_s = double(c[kDecisionsApplied]) / window_s;
  const bool host = settings_.host_pid > 0 && start.host.ok && end.host.ok;
  const double host_cpu_s = host ? end.host.cpu_s - start.host.cpu_s : 0;
  const double host_us_per_decision = c[kDecisionsApplied] ? host_cpu_s * 1e6 / double(c[kDecisionsApplied]) : 0;
  const double own_cpu_s = end.own_cpu_s - start.own_cpu_s;
  const double own_us_per_decision = c[kDecisionsApplied] ? own_cpu_s * 1e6 / double(c[kDecisionsApplied]) : 0;
  const uint64_t machine_total = end.machine.total - start.machine.total;
  const double machine_busy = machine_total ? double(end.machine.busy - start.machine.busy) / double(machine_total) : 0;
  const unsigned cores = std::thread::hardware_concurrency();
  // Other programs' share: the machine's busy time less the host's and ours.
  const double others_cores = std::max(0.0, machine_busy * cores - (host_cpu_s + own_cpu_s) / std::max(window_s, 1e-9));
  std::string codes;
  for (int i = 1; i < kStatusCodes; ++i) {
    const uint64_t n = c[size_t(kErrorCode0 + i)];
    if (n) codes += (codes.empty() ? "" : ", ") + std::to_string(n) + " × code " + std::to_string(i);
  }

  if (settings_.json) {
    std::ostringstream j;
    j << "{\"host\":\"" << settings_.host << "\",\"games\":" << settings_.games
      << ",\"think_ms\":" << settings_.think_ms << ",\"channels\":" << settings_.channels
      << ",\"ramp_s\":" << Fixed(ramp_s, 2) << ",\"warmup_s\":" << settings_.warmup_s
      << ",\"window_s\":" << Fixed(window_s, 3) << ",\"decisions_per_s\":" << Fixed(per_s, 1)
      << ",\"decisions_applied\":" << c[kDecisionsApplied] << ",\"decisions_received\":" << c[kDecisionsReceived]
      << ",\"updates_received\":" << c[kUpdatesReceived] << ",\"answers_written\":" << c[kAnswersWritten]
      << ",\"games_created\":" << c[kGamesCreated] << ",\"games_finished\":" << c[kGamesFinished]
      << ",\"rejected\":" << c[kRejected] << ",\"stream_errors\":" << c[kStreamErrors]
      << ",\"create_errors\":" << c[kCreateErrors] << ",\"empty_decisions\":" << c[kEmptyDecisions]
      << ",\"malformed_updates\":" << c[kMalformedUpdates] << ",\"host_added_us\":{\"count\":" << added.total
      << ",\"p50\":" << Fixed(double(added.Quantile(0.5)) / 1e3, 1)
      << ",\"p90\":" << Fixed(double(added.Quantile(0.9)) / 1e3, 1)
      << ",\"p99\":" << Fixed(double(added.Quantile(0.99)) / 1e3, 1) << ",\"max\":" << Fixed(double(added.max) / 1e3, 1)
      << "}"
      << ",\"think_timer_late_us\":{\"p50\":" << Fixed(double(late.Quantile(0.5)) / 1e3, 1)
      << ",\"p99\":" << Fixed(double(late.Quantile(0.99)) / 1e3, 1) << "}";
    if (host) {
      j << ",\"host_cpu_s\":" << Fixed(host_cpu_s, 3)
        << ",\"host_cpu_us_per_decision\":" << Fixed(host_us_per_decision, 2)
        << ",\"host_rss_kb\":{\"idle\":" << idle.host.rss_kb << ",\"start\":" << start.host.rss_kb
        << ",\"end\":" << end.host.rss_kb << "}";
    }
    j << ",\"load_cpu_s\":" << Fixed(own_cpu_s, 3) << ",\"load_cpu_us_per_decision\":" << Fixed(own_us_per_decision, 2)
      << ",\"machine_busy\":" << Fixed(machine_busy, 4) << ",\"cores\":" << cores
      << ",\"others_cores\":" << Fixed(others_cores, 2) << ",\"load_average_end\":\"" << end.load_average << "\"}";
    std::cout << j.str() << "\n";
    return;
  }

  std::cout << "\ngamehost_load: " << settings_.host << ", " << settings_.games << " games × " << kSeats
            << " network seats, think " << settings_.think_ms << " ms, " << settings_.channels << " channel(s); ramp "
            << Fixed(ramp_s, 1) << " s, warm-up " << settings_.warmup_s << " s, window " << Fixed(window_s, 1)
            << " s\n\n";
  std::cout << "| measure | value |\n|---|---|\n";
  auto row = [](const std::string& k, const std::string& v) { std::cout << "| " << k << " | " << v << " |\n"; };
  row("decisions per second (answers applied)", "**" + Thousands(uint64_t(per_s + 0.5)) + "**");
  row("decisions applied / answers written / decisions received", Thousands(c[kDecisionsApplied]) + " / " +
                                                                      Thousands(c[kAnswersWritten]) + " / " +
                                                                      Thousands(c[kDecisionsReceived]));
  row("messages the seats received per decision (the host's writes)",
      c[kDecisionsApplied] ? Fixed(double(c[kUpdatesReceived]) / double(c[kDecisionsApplied]), 2) : "-");
  row("games finished / created in the window", Thousands(c[kGamesFinished]) + " / " + Thousands(c[kGamesCreated]));
  row("rejected answers", Thousands(c[kRejected]));
  if (c[kEmptyDecisions] || c[kMalformedUpdates]) {
    row("decisions without legal actions / unreadable updates",
        Thousands(c[kEmptyDecisions]) + " / " + Thousands(c[kMalformedUpdates]));
  }
  row("failed streams / failed CreateGame",
      Thousands(c[kStreamErrors]) + " / " + Thousands(c[kCreateErrors]) + (codes.empty() ? "" : " (" + codes + ")"));
  row("host-added round trip p50 / p90 / p99 / max (µs)",
      Micros(added.Quantile(0.5)) + " / " + Micros(added.Quantile(0.9)) + " / " + Micros(added.Quantile(0.99)) + " / " +
          Micros(added.max) + " (" + Thousands(added.total) + " samples)");
  if (settings_.think_ms > 0) {
    row("think timers late p50 / p99 (µs)", Micros(late.Quantile(0.5)) + " / " + Micros(late.Quantile(0.99)));
  }
  if (host) {
    row("host CPU", Fixed(host_cpu_s, 2) + " s = " + Fixed(host_cpu_s / window_s, 2) + " cores; **" +
                        Fixed(host_us_per_decision, 1) + " µs per decision**");
    row("host RSS idle / window start / end (MiB)", Fixed(double(idle.host.rss_kb) / 1024, 1) + " / " +
                                                        Fixed(double(start.host.rss_kb) / 1024, 1) + " / " +
                                                        Fixed(double(end.host.rss_kb) / 1024, 1));
  }
  row("load program CPU", Fixed(own_cpu_s, 2) + " s = " + Fixed(own_cpu_s / window_s, 2) + " cores; " +
                              Fixed(own_us_per_decision, 1) + " µs per decision");
  row("machine", std::to_string(cores) + " cores " + Fixed(machine_busy * 100, 0) + " % busy; other programs " +
                     Fixed(others_cores, 2) + " cores; load average " + end.load_average);
}

int Main(int argc, char** argv) {
  metropolis::cli::Flags flags(
      "gamehost_load", "--admin-token TOKEN [flags]",
      "Keeps --games games of four network seats live on a running metropolis-gamehost (a finished game is\n"
      "replaced by a new one); each seat answers a uniformly random legal action after --think-ms. Measures\n"
      "decisions per second, the time the host adds to a decision's round trip, errors, and with --host-pid\n"
      "the host's CPU per decision and its memory. Progress goes to stderr, the result to stdout.");
  auto add = [&](std::string name, std::string value, std::string help) {
    flags.Add({.name = std::move(name), .value_name = std::move(value), .help = std::move(help)});
  };
  add("host", "ADDR", "the game host (default 127.0.0.1:50051)");
  add("admin-token", "TOKEN", "the host's administrator token, for CreateGame (required)");
  add("games", "N", "games kept live at once, 4 streams each (default 100)");
  add("duration-s", "N", "length of the measured window (default 60)");
  add("warmup-s", "N", "unmeasured seconds after every game is live (default 5)");
  add("ramp-timeout-s", "N", "start measuring after this long even if not every game is live (default 120)");
  add("think-ms", "N", "each seat answers this long after its decision arrives; 0 = at once (default 0)");
  add("head-start", "STEPS",
      "the first --games games play a random number of steps below STEPS at once before thinking, so that\n"
      "the live games are at spread ages from the start, as on a running ladder (default 0: all start together)");
  add("decision-ms", "N", "the games' per-decision limit, CreateGame deadlines (default 10000)");
  add("fallback-bot", "SPEC", "the seats' fallback bot (default random)");
  add("channels", "K", "spread the streams over K connections (default 4)");
  add("create-concurrency", "N", "CreateGame calls in flight at most (default 32)");
  add("seed", "N", "seeds the games' chance (distinct per game) and the seats' choices (default 1)");
  add("host-pid", "PID", "the host's process: report its CPU (utime+stime) per decision and its RSS");
  add("games-file", "FILE", "keep FILE listing the live games' ids, one per line (rewritten as games start and end)");
  add("events-in-decision", "",
      "ask for the events owed at a decision inside it (PlayHello capability EVENTS_IN_DECISION: one message\n"
      "per decision instead of two)");
  add("view-deltas", "",
      "ask for views as deltas against the last decision answered (PlayHello capability VIEW_DELTAS)");
  add("json", "", "print the result as one JSON object instead of a table");

  std::string error;
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto usage = [&] {
    std::string u = flags.Usage();
    const std::string prefix = "usage: metropolis-engine ";
    if (u.rfind(prefix, 0) == 0) u = "usage: " + u.substr(prefix.size());
    return u;
  };
  if (!flags.Parse(args, &error)) {
    std::cerr << "gamehost_load: " << error << "\n(see gamehost_load --help)\n";
    return 2;
  }
  if (flags.Help()) {
    std::cout << usage();
    return 0;
  }
  Settings s;
  s.host = flags.Get("host", s.host);
  s.admin_token = flags.Get("admin-token");
  s.fallback_bot = flags.Get("fallback-bot", s.fallback_bot);
  s.games_file = flags.Get("games-file");
  s.json = flags.Has("json");
  s.events_in_decision = flags.Has("events-in-decision");
  s.view_deltas = flags.Has("view-deltas");
  auto int_flag = [&](const char* name, int64_t min, int64_t max, int64_t* out) {
    if (!flags.Has(name)) return true;
    return flags.GetInt(name, min, max, out, &error);
  };
  bool ok = int_flag("games", 1, 1'000'000, &s.games) && int_flag("duration-s", 1, 86'400, &s.duration_s) &&
            int_flag("warmup-s", 0, 3'600, &s.warmup_s) && int_flag("ramp-timeout-s", 1, 3'600, &s.ramp_timeout_s) &&
            int_flag("think-ms", 0, 3'600'000, &s.think_ms) && int_flag("head-start", 0, 1'000'000, &s.head_start) &&
            int_flag("decision-ms", 1, 3'600'000, &s.decision_ms) && int_flag("channels", 1, 1'024, &s.channels) &&
            int_flag("create-concurrency", 1, 100'000, &s.create_concurrency) &&
            int_flag("host-pid", 1, int64_t(1) << 32, &s.host_pid);
  if (ok && flags.Has("seed")) ok = flags.GetUint64("seed", &s.seed, &error);
  if (ok && s.admin_token.empty()) {
    ok = false;
    error = "--admin-token is required";
  }
  if (!ok) {
    std::cerr << "gamehost_load: " << error << "\n(see gamehost_load --help)\n";
    return 2;
  }
  // Debian's gRPC and abseil are built without NDEBUG, which leaves abseil's
  // lock-order checks on: they cost this program about a tenth of its CPU
  // (gRPC's locks are abseil's), and checking is no part of the load.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  Load load(s);
  return load.Run();
}

}  // namespace
}  // namespace metropolis::load

int main(int argc, char** argv) { return metropolis::load::Main(argc, argv); }
