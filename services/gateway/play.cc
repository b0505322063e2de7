#include "services/gateway/play.h"

#include <algorithm>
#include <optional>
#include <thread>

#include "lib/common/log.h"
#include "lib/protocol/seat_record.h"
#include "services/gateway/backends.h"
#include "services/gateway/json.h"

namespace metropolis::gateway {

bool PlayStream::Answer(const v1::PlayAnswer& answer) {
  std::lock_guard lock(mutex_);
  if (!stream_) return false;
  v1::PlayRequest request;
  *request.mutable_answer() = answer;
  return stream_->Write(request);
}

void PlayStream::Cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  if (context_) context_->TryCancel();
  cancelled_cv_.notify_all();
}

bool PlayStream::Wait(std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  return !cancelled_cv_.wait_for(lock, wait, [&] { return cancelled_; });
}

PlayRoute::PlayRoute(std::string host, KnownHosts known_hosts, Options options)
    : options_(options), known_hosts_(std::move(known_hosts)), host_(std::move(host)) {
  candidates_.push_back(host_);
}

PlayRoute::Next PlayRoute::After(const grpc::Status& status, const std::string& redirect, bool welcomed,
                                 const std::function<bool(const std::string&)>& is_known) {
  // A stream that was welcomed worked: its end starts a fresh budget.
  if (welcomed) {
    streams_ = 1;
    failures_ = 0;
    ever_welcomed_ = true;
  }
  if (streams_ >= options_.max_streams) return {};
  if (!redirect.empty()) {
    if (redirect == host_ || !is_known(redirect)) return {};
    if (redirect == unreachable_) {
      // The lease still names the host we could not reach: the game is taken
      // over once it lapses. Ask this host again after a wait, not bounce.
      const auto wait = Backoff();
      ++streams_;
      return {.again = true, .wait = wait};
    }
    host_ = redirect;
    ++streams_;
    return {.again = true};
  }
  // A host that no longer knows a game the seat was playing lost it to
  // another host, which may have finished it since: the others are asked, as
  // for an unreachable host. Before any welcome NOT_FOUND is final.
  const bool moved = status.error_code() == grpc::StatusCode::UNAVAILABLE ||
                     (ever_welcomed_ && status.error_code() == grpc::StatusCode::NOT_FOUND);
  if (!moved) return {};
  unreachable_ = status.error_code() == grpc::StatusCode::UNAVAILABLE ? host_ : std::string();
  if (known_hosts_) {
    for (const std::string& h : known_hosts_())
      if (std::find(candidates_.begin(), candidates_.end(), h) == candidates_.end()) candidates_.push_back(h);
    known_hosts_ = nullptr;
  }
  // The seat's own host comes round again too: it may only be restarting.
  host_ = candidates_[next_candidate_++ % candidates_.size()];
  const auto wait = Backoff();
  ++streams_;
  return {.again = true, .wait = wait};
}

std::chrono::milliseconds PlayRoute::Backoff() {
  const auto wait = std::min<std::chrono::milliseconds>(
      options_.initial_backoff * (int64_t(1) << std::min(failures_, 20)), options_.max_backoff);
  ++failures_;
  return wait;
}

PlayHub::PlayHub(Backends* backends, std::chrono::milliseconds linger, PlayRoute::Options route,
                 PlayRoute::KnownHosts known_hosts)
    : backends_(backends),
      linger_(linger),
      route_(route),
      known_hosts_(known_hosts ? std::move(known_hosts) : [backends] { return backends->KnownHosts(); }) {}

PlayHub::~PlayHub() {
  std::unique_lock lock(mutex_);
  for (const auto& stream : running_streams_) stream->Cancel();
  all_ended_.wait(lock, [&] { return running_streams_.empty(); });
}

std::shared_ptr<PlayStream> PlayHub::Open(const std::string& session_key, const HeldSeat& seat,
                                          std::function<void()> on_game_over) {
  auto stream = std::make_shared<PlayStream>();
  std::shared_ptr<PlayStream> replaced;
  {
    std::lock_guard lock(mutex_);
    auto& slot = streams_[session_key + "/" + seat.game_id];
    replaced = std::move(slot);
    slot = stream;
    running_streams_.insert(stream);
  }
  // No cancel of the stream replaced: the new one's take_over ends it on the
  // host without a moment in which the seat has no stream.
  std::thread(&PlayHub::Run, this, stream, seat, std::move(on_game_over)).detach();
  return stream;
}

bool PlayHub::Answer(const std::string& session_key, const std::string& game_id, const v1::PlayAnswer& answer,
                     ApiError* error) {
  std::shared_ptr<PlayStream> stream;
  {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(session_key + "/" + game_id);
    if (it != streams_.end()) stream = it->second;
  }
  if (!stream || !stream->Answer(answer)) {
    *error = MakeError(409, "FAILED_PRECONDITION",
                       "no open play stream for game '" + game_id + "' in this session: open GET /api/v1/play/" +
                           game_id + "/events first");
    return false;
  }
  return true;
}

void PlayHub::Close(const std::shared_ptr<PlayStream>& stream) {
  // Holds the stream only, never the hub: cancelling it ends its thread, which
  // takes it out of the hub.
  std::thread([stream, linger = linger_] {
    std::this_thread::sleep_for(linger);
    stream->Cancel();
  }).detach();
}

size_t PlayHub::streams() const {
  std::lock_guard lock(mutex_);
  return streams_.size();
}

void PlayHub::Run(std::shared_ptr<PlayStream> stream, HeldSeat seat, std::function<void()> on_game_over) {
  PlayRoute route(seat.host, known_hosts_, route_);
  grpc::Status status;
  bool over = false;
  // The highest step the page was sent, for the next host's hello: a host whose
  // copy of the game is behind it voids the game rather than rewind it.
  std::optional<uint32_t> last_step;
  while (true) {
    const std::string host = route.host();
    // No deadline: the stream lasts as long as the game.
    auto context = std::make_shared<grpc::ClientContext>();
    context->AddMetadata("authorization", "Bearer " + seat.seat_token);
    {
      std::lock_guard lock(stream->mutex_);
      if (stream->cancelled_) break;
      stream->context_ = context;
    }
    auto rw = backends_->Host(host)->Play(context.get());
    v1::PlayRequest hello;
    hello.mutable_hello()->set_game_id(seat.game_id);
    // A reload or a second tab takes the seat over from the stream before.
    hello.mutable_hello()->set_take_over(true);
    hello.mutable_hello()->set_want_text(true);
    // Every seat's clock with the events: the table shows them all.
    hello.mutable_hello()->add_capabilities(v1::CAPABILITY_CLOCKS);
    if (last_step) hello.mutable_hello()->set_last_step_seen(*last_step);
    rw->Write(hello);
    {
      std::lock_guard lock(stream->mutex_);
      stream->stream_ = rw.get();
    }
    v1::PlayUpdate update;
    std::string redirect;
    bool welcomed = false;
    while (rw->Read(&update)) {
      if (update.has_redirect()) {
        redirect = update.redirect().host();
        continue;
      }
      // The new host welcomes the seat again and sends its decision anew; the
      // page takes a second welcome as a reconnect (docs/WEB.md, "Playing").
      if (update.has_welcome()) welcomed = true;
      if (update.has_game_over()) over = true;
      if (update.has_welcome() || update.has_events() || update.has_decision())
        last_step = std::max(last_step.value_or(0), protocol::StepOf(update));
      stream->out->PushOrdered(PlayUpdateToSse(std::move(update)));
    }
    {
      std::lock_guard lock(stream->mutex_);
      stream->stream_ = nullptr;
    }
    status = rw->Finish();
    if (over) break;
    const PlayRoute::Next next =
        route.After(status, redirect, welcomed, [&](const std::string& h) { return backends_->IsKnownHost(h); });
    if (!next.again) break;
    if (redirect.empty())
      services::LogWarning(
          "play stream: game host unreachable; trying another",
          {{"game", seat.game_id}, {"host", host}, {"next", route.host()}, {"error", status.error_message()}});
    if (!stream->Wait(next.wait)) {
      status = grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
      break;
    }
  }
  std::string final_sse;
  if (over) {
    if (on_game_over) on_game_over();
  } else if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
    // ABORTED: another stream took the seat over (a reload, another tab).
    final_sse = SseEvent("error", Dump(ErrorToJson(BackendError(status, "gamehost"))));
  }
  stream->out->Close(final_sse);
  std::lock_guard lock(mutex_);
  for (auto it = streams_.begin(); it != streams_.end(); ++it) {
    if (it->second == stream) {
      streams_.erase(it);
      break;
    }
  }
  running_streams_.erase(stream);
  all_ended_.notify_all();
}

}  // namespace metropolis::gateway
