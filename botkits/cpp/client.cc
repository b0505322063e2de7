#include "botkits/cpp/client.h"

#include <absl/status/status.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "lib/common/credentials.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/debug_limits.h"
#include "lib/protocol/view_delta.h"
#include "metropolis/v1/gamehost.grpc.pb.h"

namespace metropolis::botkit {
namespace {

// Cancels a call unless it is destroyed first: bounds how long we wait for a
// host to end a stream we have nothing more to say on.
class CancelAfter {
 public:
  CancelAfter(grpc::ClientContext* context, int ms)
      : thread_([this, context, ms] {
          std::unique_lock<std::mutex> lock(mu_);
          if (!cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return done_; })) context->TryCancel();
        }) {}
  ~CancelAfter() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: it reads the members above
};

void SleepMs(int ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace

void AttachNote(const DecisionInfo::Note& note, v1::PlayAnswer* answer) {
  const bool evaluation = note.evaluation && std::isfinite(*note.evaluation);
  if (note.text.empty() && !evaluation) return;
  size_t length = std::min(note.text.size(), protocol::kMaxNoteBytes);
  // Back off continuation bytes (10xxxxxx) so the cut never splits a character.
  if (length < note.text.size())
    while (length > 0 && (static_cast<unsigned char>(note.text[length]) & 0xC0) == 0x80) --length;
  v1::AnswerDebug* debug = answer->mutable_debug();
  debug->set_note(note.text.substr(0, length));
  if (evaluation) debug->set_evaluation(*note.evaluation);
}

struct Client::Stream {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayUpdate>> rw;
  bool reconnecting = false;
  bool welcomed = false;
  bool game_over = false;
  bool redirected = false;
  bool drop_for_test = false;
  std::string host;
  bool stall_logged = false;
  // The decision we are answering: its view, what we told the bot, what we sent.
  bool pending = false;
  std::optional<View> view;
  DecisionInfo info;
  Action last_answer;
  // CAPABILITY_VIEW_DELTAS: the view of the last decision this stream answered
  // (the host's base for the next delta), and the one being answered.
  v1::View delta_base, decision_view;
  int64_t delta_base_step = -1;
};

std::string StatusCodeName(grpc::StatusCode code) {
  // gRPC's codes are abseil's, number for number.
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

bool RetryableAfterDrop(grpc::StatusCode code, bool reconnecting) {
  switch (code) {
    case grpc::StatusCode::UNAVAILABLE:  // connection lost, host restarting
    case grpc::StatusCode::CANCELLED:    // the host cancelled the call (shutting down)
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::UNKNOWN:
    case grpc::StatusCode::INTERNAL:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return true;
    case grpc::StatusCode::ALREADY_EXISTS:
      return reconnecting;
    default:
      // Refusals of the request itself (UNAUTHENTICATED, NOT_FOUND, ...) and
      // ABORTED: another stream took the seat over, and fighting it back would
      // make two programs play one seat in turn.
      return false;
  }
}

void Client::Log(std::string_view message) const {
  if (callbacks_.on_log) callbacks_.on_log(message);
}

int Client::Backoff(int failed_attempts) const {
  return int(std::min<int64_t>(int64_t(options_.reconnect_initial_backoff_ms) << std::min(failed_attempts, 20),
                               options_.reconnect_max_backoff_ms));
}

grpc::Status Client::Run(const Options& options, DecisionFn decide, const Callbacks& callbacks) {
  options_ = options;
  decide_ = std::move(decide);
  callbacks_ = callbacks;
  stats_ = RunStats{};
  welcomed_ = false;
  dropped_for_test_ = false;

  std::string host = options_.host;
  size_t next_host = 0;  // in other_hosts, for reconnecting elsewhere
  bool reconnecting = false;
  int failed_attempts = 0;  // consecutive, since a stream was last welcomed
  int redirects = 0;        // likewise
  std::string unreachable;  // the host whose stream last failed UNAVAILABLE
  while (true) {
    grpc::Status status;
    std::string redirect;
    const StreamEnd end = PlayOnce(host, reconnecting, &status, &redirect);
    switch (end) {
      case StreamEnd::kGameOver:
        return grpc::Status::OK;
      case StreamEnd::kRedirect:
        ++stats_.redirects;
        if (stream_welcomed_) redirects = 0;
        if (redirect == unreachable) {
          // The lease still names the host we could not reach.
          if (failed_attempts >= options_.max_reconnect_attempts)
            return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                "game " + options_.game_id + " stays on unreachable host " + redirect +
                                    " (gave up after " + std::to_string(failed_attempts) + " attempts)");
          // Its lease lapses and another host takes the game over, or the host
          // comes back at its address (restarted in place) and plays it on: after
          // a backoff, try it again; if it is still down, the other hosts next.
          const int backoff = Backoff(failed_attempts++);
          Log("game " + options_.game_id + " is still leased to unreachable " + redirect + "; trying it again in " +
              std::to_string(backoff) + " ms");
          SleepMs(backoff);
          host = redirect;
          reconnecting = welcomed_;
          continue;
        }
        if (++redirects > options_.max_redirects)
          return grpc::Status(
              grpc::StatusCode::ABORTED,
              "redirected more than " + std::to_string(options_.max_redirects) + " times (last to " + redirect + ")");
        Log("game " + options_.game_id + " runs on " + redirect + ": connecting there");
        host = redirect;
        reconnecting = welcomed_;
        failed_attempts = 0;
        continue;
      case StreamEnd::kDroppedByUs:
        Log("dropped the stream (--disconnect-after); reconnecting in " + std::to_string(options_.reconnect_delay_ms) +
            " ms");
        SleepMs(options_.reconnect_delay_ms);
        reconnecting = true;
        continue;
      case StreamEnd::kLocalError:
        return status;
      case StreamEnd::kFailed:
        break;
    }
    // A failed stream. A seat that was playing reconnects; before any welcome
    // the failure is about the address, the token or the game — unless the host
    // is unreachable and other hosts are known: it may have died with the game,
    // which one of them takes over. A seat that was playing and asks a host
    // that no longer knows the game (taken over from there, since finished
    // elsewhere) asks the others too: the one that finished it has the result.
    const bool moved = status.error_code() == grpc::StatusCode::UNAVAILABLE ||
                       (welcomed_ && status.error_code() == grpc::StatusCode::NOT_FOUND);
    const bool lost_host = moved && !options_.other_hosts.empty();
    const bool retry =
        !status.ok() && ((welcomed_ && RetryableAfterDrop(status.error_code(), reconnecting)) || lost_host);
    if (!retry) return status;
    // A stream that got as far as a welcome worked: its drop starts a fresh budget.
    if (stream_welcomed_) failed_attempts = redirects = 0;
    unreachable = status.error_code() == grpc::StatusCode::UNAVAILABLE ? host : std::string();
    if (failed_attempts >= options_.max_reconnect_attempts)
      return grpc::Status(status.error_code(), status.error_message() + " (gave up after " +
                                                   std::to_string(failed_attempts) + " reconnect attempts)");
    const int backoff = Backoff(failed_attempts++);
    Log("stream to " + host + " ended: " + StatusCodeName(status.error_code()) + ": " + status.error_message() +
        "; reconnecting in " + std::to_string(backoff) + " ms (attempt " + std::to_string(failed_attempts) + " of " +
        std::to_string(options_.max_reconnect_attempts) + ")");
    SleepMs(backoff);
    reconnecting = welcomed_;
    // A host that cannot be reached may be dead: its games go on elsewhere.
    if (lost_host) {
      const size_t n = options_.other_hosts.size() + 1;
      const size_t pick = next_host++ % n;
      host = pick == 0 ? options_.host : options_.other_hosts[pick - 1];
      Log("trying game host " + host);
    }
  }
}

Client::StreamEnd Client::PlayOnce(const std::string& host, bool reconnecting, grpc::Status* status,
                                   std::string* redirect) {
  auto stub = v1::GameHost::NewStub(services::Dial(host));
  Stream s;
  s.reconnecting = reconnecting;
  s.host = host;
  s.context.AddMetadata("authorization", "Bearer " + options_.token);
  s.rw = stub->Play(&s.context);

  v1::PlayRequest hello;
  hello.mutable_hello()->set_game_id(options_.game_id);
  // A reconnection takes over only if the first stream was allowed to: the
  // host may not yet have noticed that our old stream is gone (ALREADY_EXISTS
  // is retried instead), and taking over unasked could evict another program.
  hello.mutable_hello()->set_take_over(options_.take_over);
  hello.mutable_hello()->set_want_text(options_.want_text);
  if (options_.events_in_decision) hello.mutable_hello()->add_capabilities(v1::CAPABILITY_EVENTS_IN_DECISION);
  if (options_.view_deltas) hello.mutable_hello()->add_capabilities(v1::CAPABILITY_VIEW_DELTAS);
  // How far this seat saw the game: a host whose copy is behind voids it rather
  // than show the seat a different game from there (PlayHello.last_step_seen).
  if (seat_log_.seen_any()) hello.mutable_hello()->set_last_step_seen(seat_log_.last_step());
  bool open = s.rw->Write(hello);

  v1::PlayUpdate update;
  bool ended_by_handler = false;
  while (open && s.rw->Read(&update)) {
    if (!Handle(s, update, status, redirect)) {
      ended_by_handler = true;
      break;
    }
  }

  if (s.game_over || s.redirected) {
    // Nothing more to say; let the host end the stream, but not wait forever.
    s.rw->WritesDone();
    {
      CancelAfter watchdog(&s.context, options_.finish_grace_ms);
      while (s.rw->Read(&update)) {
      }
    }
    s.rw->Finish().IgnoreError();
    return s.game_over ? StreamEnd::kGameOver : StreamEnd::kRedirect;
  }
  if (ended_by_handler) {
    // Our decision (a test drop) or a message we could not read: hang up.
    s.context.TryCancel();
    while (s.rw->Read(&update)) {
    }
    s.rw->Finish().IgnoreError();
    return s.drop_for_test ? StreamEnd::kDroppedByUs : StreamEnd::kLocalError;
  }
  stream_welcomed_ = s.welcomed;
  *status = s.rw->Finish();
  if (status->ok()) {
    // The host closed the stream cleanly mid-game (shutting down, or handing
    // the game over): like a drop, the game goes on without us.
    *status = grpc::Status(grpc::StatusCode::UNAVAILABLE, "the host ended the stream before the game was over");
  }
  if (!s.welcomed) {
    *status =
        grpc::Status(status->error_code(), status->error_message() + " (" + host + ", game " + options_.game_id + ")");
  }
  return StreamEnd::kFailed;
}

bool Client::Handle(Stream& s, const v1::PlayUpdate& update, grpc::Status* status, std::string* redirect) {
  auto fail = [&](const std::string& message) {
    *status = grpc::Status(grpc::StatusCode::INTERNAL, message);
    return false;
  };
  switch (update.msg_case()) {
    case v1::PlayUpdate::kWelcome: {
      const v1::Welcome& w = update.welcome();
      WelcomeInfo info;
      std::string error;
      if (!protocol::ConfigFromProto(w.config(), &info.config, &error))
        return fail("welcome: cannot read the game's configuration: " + error);
      if (w.seat() < 0 || w.seat() >= info.config.num_seats)
        return fail("welcome: seat " + std::to_string(w.seat()) + " is not a seat of the game");
      config_ = info.config;
      s.welcomed = true;
      if (s.reconnecting) ++stats_.reconnects;
      welcomed_ = true;
      stats_.seat = w.seat();
      info.game_id = w.game_id();
      info.host = s.host;
      info.seat = w.seat();
      info.step = w.step();
      info.reconnected = s.reconnecting;
      info.message = &w;
      seat_log_.OnWelcome(w.step());
      Log((s.reconnecting ? "playing again seat " : "playing seat ") + std::to_string(w.seat()) + " of game " +
          w.game_id() + " at step " + std::to_string(w.step()));
      if (callbacks_.on_welcome) callbacks_.on_welcome(info);
      return true;
    }
    case v1::PlayUpdate::kEvents:
      HandleEvents(update.events());
      return true;
    case v1::PlayUpdate::kDecision:
      return HandleDecision(s, update.decision(), status);
    case v1::PlayUpdate::kRejected:
      return HandleRejected(s, update.rejected());
    case v1::PlayUpdate::kGameOver:
      s.game_over = true;
      stats_.game_over = true;
      stats_.result = update.game_over().result();
      seat_log_.OnGameOver(stats_.result);
      if (callbacks_.on_game_over) callbacks_.on_game_over(stats_.result);
      return false;
    case v1::PlayUpdate::kRedirect:
      if (update.redirect().host().empty()) return fail("redirect without a host");
      s.redirected = true;
      *redirect = update.redirect().host();
      return false;
    case v1::PlayUpdate::kPaused:
      // The host holds the game until it can save it; the decision owed, if
      // any, comes again afterwards (an answer sent meanwhile is refused as
      // "paused", which says nothing about the action).
      if (update.paused().paused()) s.pending = false;
      Log(update.paused().paused() ? "game paused by its host: " + update.paused().reason()
                                   : "game goes on after a pause");
      return true;
    case v1::PlayUpdate::MSG_NOT_SET:
      break;
  }
  // A message kind newer than this kit: skipping it is what proto3 readers do.
  return true;
}

void Client::HandleEvents(const v1::Events& events_msg) {
  seat_log_.OnEvents(events_msg);
  if (!callbacks_.on_events) return;
  std::vector<Event> events;
  events.reserve(size_t(events_msg.events_size()));
  for (const v1::Event& e : events_msg.events()) {
    Event out;
    std::string error;
    // Events only inform; one we cannot read is reported, not fatal.
    if (protocol::EventFromProto(e, &out, &error))
      events.push_back(out);
    else
      Log("skipped an event we cannot read: " + error);
  }
  callbacks_.on_events(events_msg.step(), events);
}

bool Client::HandleDecision(Stream& s, const v1::Decision& decision, grpc::Status* status) {
  if (decision.has_events()) HandleEvents(decision.events());  // they happened before it
  ++stats_.decisions_received;
  seat_log_.OnStep(decision.step());
  s.pending = false;
  if (!s.welcomed) {
    *status = grpc::Status(grpc::StatusCode::INTERNAL, "a decision came before the welcome");
    return false;
  }
  if (options_.stall_after > 0 && int(stats_.decisions_answered) >= options_.stall_after) {
    if (!s.stall_logged) Log("stalling (--stall-after): decisions from now on are left to the deadline");
    s.stall_logged = true;
    return true;
  }
  if (options_.disconnect_after > 0 && !dropped_for_test_ &&
      int(stats_.decisions_answered) >= options_.disconnect_after) {
    dropped_for_test_ = true;
    s.drop_for_test = true;
    return false;
  }
  std::string error;
  const v1::View* whole = &decision.view();
  if (decision.has_view_delta()) {
    const v1::ViewDelta& delta = decision.view_delta();
    if (int64_t(delta.base_step()) != s.delta_base_step) {
      *status = grpc::Status(grpc::StatusCode::INTERNAL,
                             "decision at step " + std::to_string(decision.step()) + ": a view delta against step " +
                                 std::to_string(delta.base_step()) + ", but the last decision answered was at step " +
                                 std::to_string(s.delta_base_step));
      return false;
    }
    s.decision_view = s.delta_base;
    if (!protocol::ApplyViewDelta(delta, &s.decision_view, &error)) {
      *status = grpc::Status(grpc::StatusCode::INTERNAL,
                             "decision at step " + std::to_string(decision.step()) + ": " + error);
      return false;
    }
    whole = &s.decision_view;
  } else if (options_.view_deltas) {
    s.decision_view = decision.view();
  }
  View view{State()};
  if (!protocol::ViewFromProto(*whole, config_, &view, &error)) {
    *status = grpc::Status(grpc::StatusCode::INTERNAL,
                           "decision at step " + std::to_string(decision.step()) + ": cannot read the view: " + error);
    return false;
  }
  if (view.legal.empty()) {
    // The host only asks a seat that has a choice; answering nothing lets the
    // fallback bot take it rather than guessing.
    Log("decision at step " + std::to_string(decision.step()) + " without legal actions: not answered");
    return true;
  }
  s.view = std::move(view);
  s.info = DecisionInfo{};
  s.info.step = decision.step();
  s.info.seat = stats_.seat;
  s.info.config = &config_;
  s.info.decision_ms_left = decision.decision_ms_left();
  s.info.time_bank_ms_left = decision.time_bank_ms_left();
  s.info.legal_text.assign(decision.legal_text().begin(), decision.legal_text().end());
  s.pending = true;
  return Answer(s);
}

bool Client::HandleRejected(Stream& s, const v1::Rejected& rejected) {
  ++stats_.rejections;
  Log("step " + std::to_string(rejected.step()) + ": answer rejected: " + rejected.error());
  // A rejection of an older step (the fallback bot moved when the deadline
  // ran out) needs nothing: a new decision follows if the seat is to act.
  if (!s.pending || rejected.step() != s.info.step) return true;
  s.info.rejected.push_back(s.last_answer);
  s.info.rejected_error = rejected.error();
  return Answer(s);
}

bool Client::Answer(Stream& s) {
  DecisionInfo::Note note;
  bool resign = false;
  s.info.note = &note;
  s.info.resign = &resign;
  const Action action = decide_(*s.view, s.info);
  s.info.note = nullptr;
  s.info.resign = nullptr;
  if (resign) {
    Log("step " + std::to_string(s.info.step) + ": the bot resigns");
    s.pending = false;
    v1::PlayRequest request;
    request.mutable_answer()->set_step(s.info.step);
    request.mutable_answer()->set_resign(true);
    s.rw->Write(request);
    return true;
  }
  if (std::find(s.info.rejected.begin(), s.info.rejected.end(), action) != s.info.rejected.end()) {
    // Sending it again would be refused again, forever.
    Log("step " + std::to_string(s.info.step) + ": the bot chose " + ActionToString(action) +
        " again after it was rejected; leaving this decision to the fallback bot");
    s.pending = false;
    return true;
  }
  if (s.info.rejected.empty()) ++stats_.decisions_answered;
  if (options_.view_deltas && s.delta_base_step != int64_t(s.info.step)) {
    // Answering acknowledges the decision's view: the host's next delta is against it.
    s.delta_base.Swap(&s.decision_view);
    s.delta_base_step = s.info.step;
  }
  s.last_answer = action;
  v1::PlayRequest request;
  request.mutable_answer()->set_step(s.info.step);
  protocol::ActionToProto(action, request.mutable_answer()->mutable_action());
  AttachNote(note, request.mutable_answer());
  // A failed write means the stream is gone; the next Read reports how.
  s.rw->Write(request);
  return true;
}

}  // namespace metropolis::botkit
