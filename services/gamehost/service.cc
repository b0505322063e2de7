#include "services/gamehost/service.h"

#include <algorithm>
#include <functional>

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/common/secret.h"
#include "services/gamehost/stream_writer.h"

namespace metropolis::gamehost {
namespace {

// Consecutive Events messages waiting in a seat's queue become one.
std::shared_ptr<const v1::PlayUpdate> MergePlay(const v1::PlayUpdate& older, const v1::PlayUpdate& newer) {
  if (!older.has_events() || !newer.has_events()) return nullptr;
  auto merged = std::make_shared<v1::PlayUpdate>(older);
  merged->mutable_events()->set_step(newer.events().step());
  merged->mutable_events()->mutable_events()->MergeFrom(newer.events().events());
  return merged;
}

// For spectators a newer view replaces a waiting one, and events merge.
std::shared_ptr<const v1::SpectateUpdate> MergeSpectate(const v1::SpectateUpdate& older,
                                                        const v1::SpectateUpdate& newer) {
  if (older.has_view() && newer.has_view()) return std::make_shared<v1::SpectateUpdate>(newer);
  if (older.has_events() && newer.has_events()) {
    auto merged = std::make_shared<v1::SpectateUpdate>(older);
    merged->mutable_events()->set_step(newer.events().step());
    merged->mutable_events()->mutable_events()->MergeFrom(newer.events().events());
    return merged;
  }
  return nullptr;
}

// One Play stream. The reactor is deleted by OnDone; the game holds the
// SeatStream adapter, which outlives it harmlessly (sends after the end are
// dropped because Finish was called before OnDone can run).
class PlayReactor final : public grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate> {
 public:
  PlayReactor(grpc::CallbackServerContext* context, Host* host, HostMetrics* metrics, const services::Clock* clock)
      : host_(host), metrics_(metrics), clock_(clock), token_(services::BearerToken(*context)) {
    stream_ = std::make_shared<Stream>(this);
    if (metrics_) metrics_->StreamsChanged(1, 0);
    if (token_.empty()) {
      FinishWith({grpc::StatusCode::UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"});
      return;
    }
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {  // the client closed its side or the call broke
      if (game_) game_->Disconnect(seat_, stream_.get());
      FinishWith(grpc::Status::OK);
      return;
    }
    if (!game_) {
      if (!Hello()) return;
    } else if (request_.has_answer()) {
      game_->Answer(seat_, stream_.get(), request_.answer(), clock_->Now());
    } else {
      auto rejected = std::make_shared<v1::PlayUpdate>();
      rejected->mutable_rejected()->set_error(request_.has_hello() ? "hello was already sent on this stream"
                                                                   : "empty request: set hello or answer");
      if (metrics_) metrics_->Rejected("malformed");
      stream_->Send(std::move(rejected));
    }
    StartRead(&request_);
  }

  void OnWriteDone(bool ok) override { stream_->writer.WriteDone(ok); }

  void OnDone() override {
    if (metrics_) metrics_->StreamsChanged(-1, 0);
    delete this;
  }

 private:
  struct Stream final : SeatStream {
    explicit Stream(PlayReactor* r)
        : writer({[r](const v1::PlayUpdate* u) { r->StartWrite(u); }, [r](const grpc::Status& s) { r->Finish(s); },
                  MergePlay}) {}
    void Send(std::shared_ptr<const v1::PlayUpdate> update) override { writer.Send(std::move(update)); }
    void Finish(const grpc::Status& status) override { writer.Finish(status); }
    StreamWriter<v1::PlayUpdate> writer;
  };

  // The first message: which game, then the token decides the seat.
  bool Hello() {
    if (!request_.has_hello()) {
      FinishWith({grpc::StatusCode::INVALID_ARGUMENT, "the first message of a Play stream must be a hello"});
      return false;
    }
    const v1::PlayHello& hello = request_.hello();
    Host::Target target;
    grpc::Status status = host_->FindSeat(token_, hello.game_id(), &target);
    if (status.ok() && !target.redirect.empty()) {
      auto redirect = std::make_shared<v1::PlayUpdate>();
      redirect->mutable_redirect()->set_game_id(hello.game_id());
      redirect->mutable_redirect()->set_host(target.redirect);
      stream_->Send(std::move(redirect));
      status = {grpc::StatusCode::FAILED_PRECONDITION, "game " + hello.game_id() + " runs on host " + target.redirect};
    }
    if (status.ok()) status = target.game->Connect(target.seat, hello, stream_);
    if (!status.ok()) {
      FinishWith(status);
      return false;
    }
    game_ = std::move(target.game);
    seat_ = target.seat;
    services::LogDebug("seat connected", {{"game", game_->id()}, {"seat", std::to_string(seat_)}});
    return true;
  }

  void FinishWith(const grpc::Status& status) { stream_->Finish(status); }

  Host* host_;
  HostMetrics* metrics_;
  const services::Clock* clock_;
  const std::string token_;
  std::shared_ptr<Stream> stream_;
  std::shared_ptr<Game> game_;
  int seat_ = -1;
  v1::PlayRequest request_;
};

class SpectateReactor final : public grpc::ServerWriteReactor<v1::SpectateUpdate> {
 public:
  SpectateReactor(grpc::CallbackServerContext* context, const v1::SpectateRequest& request, Host* host,
                  HostMetrics* metrics)
      : metrics_(metrics) {
    stream_ = std::make_shared<Stream>(this);
    if (metrics_) metrics_->StreamsChanged(0, 1);
    Host::Target target;
    grpc::Status status = host->FindForViewing(services::BearerToken(*context), request.game_id(), &target);
    if (status.ok() && !target.redirect.empty()) {
      auto redirect = std::make_shared<v1::SpectateUpdate>();
      redirect->mutable_redirect()->set_game_id(request.game_id());
      redirect->mutable_redirect()->set_host(target.redirect);
      stream_->Send(std::move(redirect));
      status = {grpc::StatusCode::FAILED_PRECONDITION,
                "game " + request.game_id() + " runs on host " + target.redirect};
    }
    if (status.ok() && target.game && target.game->hidden()) {
      status = {grpc::StatusCode::PERMISSION_DENIED,
                "game " + request.game_id() + " is hidden until its duplicate set has finished"};
    }
    if (!status.ok()) {
      stream_->Finish(status);
      return;
    }
    game_ = std::move(target.game);
    const auto& asked = request.capabilities();
    const bool view_deltas = std::find(asked.begin(), asked.end(), v1::CAPABILITY_VIEW_DELTAS) != asked.end();
    game_->AddSpectator(request.from_start(), stream_, view_deltas);
  }

  void OnWriteDone(bool ok) override { stream_->writer.WriteDone(ok); }
  void OnCancel() override {
    if (game_) game_->RemoveSpectator(stream_.get());
    stream_->Finish({grpc::StatusCode::CANCELLED, "cancelled by the client"});
  }
  void OnDone() override {
    if (game_) game_->RemoveSpectator(stream_.get());
    if (metrics_) metrics_->StreamsChanged(0, -1);
    delete this;
  }

 private:
  struct Stream final : SpectatorStream {
    explicit Stream(SpectateReactor* r)
        : writer({[r](const v1::SpectateUpdate* u) { r->StartWrite(u); }, [r](const grpc::Status& s) { r->Finish(s); },
                  MergeSpectate}) {}
    void Send(std::shared_ptr<const v1::SpectateUpdate> update) override { writer.Send(std::move(update)); }
    void Finish(const grpc::Status& status) override { writer.Finish(status); }
    StreamWriter<v1::SpectateUpdate> writer;
  };

  HostMetrics* metrics_;
  std::shared_ptr<Stream> stream_;
  std::shared_ptr<Game> game_;
};

// A stream refused before it started (the caller's rate limit): it ends at once.
// Every call, this one too, is counted by the server's RPC metrics
// (InstallRpcMetrics), not here.
template <typename Reactor>
class Refused final : public Reactor {
 public:
  explicit Refused(const grpc::Status& status) { this->Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace

grpc::Status GameHostService::Admit(const grpc::CallbackServerContext& context) {
  if (!limiter_.limit().enabled()) return grpc::Status::OK;
  const std::string token = services::BearerToken(context);
  if (token.empty()) return grpc::Status::OK;  // refused as unauthenticated further on
  for (const std::string& exempt : exempt_)
    if (services::SameSecret(token, exempt)) return grpc::Status::OK;
  // The bucket's key is a hash of the token, not the token: keys may end up in a core dump.
  const int64_t retry_ms = limiter_.Take("token:" + std::to_string(std::hash<std::string>{}(token)));
  if (retry_ms == 0) return grpc::Status::OK;
  return services::RateLimited("gamehost", limiter_.limit(), retry_ms, refusals_);
}

grpc::ServerUnaryReactor* GameHostService::Unary(grpc::CallbackServerContext* context, const char* method,
                                                 grpc::Status status) {
  if (!status.ok()) {
    services::LogInfo("request refused", {{"method", method},
                                          {"code", services::StatusCodeName(status.error_code())},
                                          {"error", status.error_message()}});
  }
  auto* reactor = context->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

grpc::ServerUnaryReactor* GameHostService::CreateGame(grpc::CallbackServerContext* context,
                                                      const v1::CreateGameRequest* request,
                                                      v1::CreateGameResponse* response) {
  services::CallLogContext call(*context, request->game_id());
  if (grpc::Status s = Admit(*context); !s.ok()) return Unary(context, "CreateGame", s);
  return Unary(context, "CreateGame", host_->CreateGame(services::BearerToken(*context), *request, response));
}

grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate>* GameHostService::Play(grpc::CallbackServerContext* context) {
  if (grpc::Status s = Admit(*context); !s.ok())
    return new Refused<grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate>>(s);
  return new PlayReactor(context, host_, metrics_, clock_);
}

grpc::ServerWriteReactor<v1::SpectateUpdate>* GameHostService::Spectate(grpc::CallbackServerContext* context,
                                                                        const v1::SpectateRequest* request) {
  if (grpc::Status s = Admit(*context); !s.ok()) return new Refused<grpc::ServerWriteReactor<v1::SpectateUpdate>>(s);
  return new SpectateReactor(context, *request, host_, metrics_);
}

grpc::ServerUnaryReactor* GameHostService::GetGame(grpc::CallbackServerContext* context,
                                                   const v1::GetGameRequest* request, v1::GameInfo* response) {
  services::CallLogContext call(*context, request->game_id());
  if (grpc::Status s = Admit(*context); !s.ok()) return Unary(context, "GetGame", s);
  return Unary(context, "GetGame", host_->GetGame(services::BearerToken(*context), request->game_id(), response));
}

grpc::ServerUnaryReactor* GameHostService::ListGames(grpc::CallbackServerContext* context,
                                                     const v1::ListGamesRequest* request,
                                                     v1::ListGamesResponse* response) {
  if (grpc::Status s = Admit(*context); !s.ok()) return Unary(context, "ListGames", s);
  return Unary(context, "ListGames", host_->ListGames(services::BearerToken(*context), *request, response));
}

grpc::ServerUnaryReactor* GameHostService::SeatsOf(grpc::CallbackServerContext* context,
                                                   const v1::SeatsOfRequest* request, v1::SeatsOfResponse* response) {
  if (grpc::Status s = Admit(*context); !s.ok()) return Unary(context, "SeatsOf", s);
  return Unary(context, "SeatsOf", host_->SeatsOf(services::BearerToken(*context), *request, response));
}

}  // namespace metropolis::gamehost
