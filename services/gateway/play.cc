#include "services/gateway/play.h"

#include <thread>

#include "services/common/log.h"
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
}

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
  std::string host = seat.host;
  grpc::Status status;
  bool over = false;
  for (int hop = 0; hop < 2 && !over; ++hop) {
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
    rw->Write(hello);
    {
      std::lock_guard lock(stream->mutex_);
      stream->stream_ = rw.get();
    }
    v1::PlayUpdate update;
    std::string redirect;
    while (rw->Read(&update)) {
      if (update.has_redirect()) {
        redirect = update.redirect().host();
        continue;
      }
      if (update.has_game_over()) over = true;
      stream->out->PushOrdered(PlayUpdateToSse(std::move(update)));
    }
    {
      std::lock_guard lock(stream->mutex_);
      stream->stream_ = nullptr;
    }
    status = rw->Finish();
    // Followed once, and only to a host the gateway knows.
    if (redirect.empty() || redirect == host || !backends_->IsKnownHost(redirect)) break;
    host = redirect;
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
