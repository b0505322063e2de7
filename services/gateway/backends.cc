#include "services/gateway/backends.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <thread>

#include "lib/common/credentials.h"

namespace metropolis::gateway {
namespace {

// Over TLS when the process was given --tls-ca (lib/common/credentials.h).
std::shared_ptr<grpc::Channel> Dial(const std::string& address) { return services::Dial(address); }

// One upstream's context, swapped when it follows a redirect, and cancelled
// whichever is current.
class GrpcUpstream : public Upstream {
 public:
  void Cancel() override {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    if (context_) context_->TryCancel();
  }
  // False once cancelled.
  bool Use(std::shared_ptr<grpc::ClientContext> context) {
    std::lock_guard lock(mutex_);
    if (cancelled_) return false;
    context_ = std::move(context);
    return true;
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<grpc::ClientContext> context_;
  bool cancelled_ = false;
};

// What the hub holds: cancelling it cancels the shared upstream.
class UpstreamHandle : public Upstream {
 public:
  explicit UpstreamHandle(std::shared_ptr<GrpcUpstream> upstream) : upstream_(std::move(upstream)) {}
  void Cancel() override { upstream_->Cancel(); }

 private:
  std::shared_ptr<GrpcUpstream> upstream_;
};

}  // namespace

Backends::Backends(BackendOptions options) : options_(std::move(options)) {
  replays_ = v1::Replays::NewStub(Dial(options_.replays));
  ratings_ = v1::Ratings::NewStub(Dial(options_.ratings));
  // One channel for both services the accounts' process hosts.
  auto accounts = Dial(options_.accounts);
  accounts_ = v1::Accounts::NewStub(accounts);
  people_ = v1::People::NewStub(accounts);
  if (!options_.matchmaker.empty()) {
    // One channel for both services the matchmaker hosts.
    auto channel = Dial(options_.matchmaker);
    matchmaker_ = v1::Matchmaker::NewStub(channel);
    tournaments_ = v1::Tournaments::NewStub(channel);
  }
}

std::unique_ptr<grpc::ClientContext> Backends::ContextWithToken(const std::string& token) const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", "Bearer " + token);
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(options_.timeout_ms));
  return context;
}

std::shared_ptr<v1::GameHost::Stub> Backends::Host(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto& stub = hosts_[address];
  if (!stub) stub = v1::GameHost::NewStub(Dial(address));
  return stub;
}

std::vector<std::string> Backends::HostAddresses(const std::string& any_ladder, grpc::Status* matchmaker_error) {
  *matchmaker_error = grpc::Status::OK;
  std::vector<std::string> registered;
  if (matchmaker_ && !any_ladder.empty()) {
    auto context = Context();
    v1::GetQueueRequest request;
    request.set_ladder(any_ladder);
    v1::QueueStatus response;
    *matchmaker_error = matchmaker_->GetQueue(context.get(), request, &response);
    for (const auto& h : response.hosts()) registered.push_back(h.address());
  }
  if (matchmaker_error->ok() && matchmaker_ && !any_ladder.empty()) {
    std::lock_guard lock(mutex_);
    registered_ = registered;
  }
  return KnownHosts();
}

std::vector<std::string> Backends::KnownHosts() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out = options_.hosts;
  for (const std::string& h : registered_)
    if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
  return out;
}

bool Backends::IsKnownHost(const std::string& address) {
  std::lock_guard lock(mutex_);
  return std::find(options_.hosts.begin(), options_.hosts.end(), address) != options_.hosts.end() ||
         std::find(registered_.begin(), registered_.end(), address) != registered_.end();
}

void Backends::NoteGameHost(const std::string& game_id, const std::string& host) {
  std::lock_guard lock(mutex_);
  // Live games come and go: a full map starts over rather than grow.
  if (game_hosts_.size() >= 100'000) game_hosts_.clear();
  game_hosts_[game_id] = host;
}

std::string Backends::GameHostOf(const std::string& game_id) {
  std::lock_guard lock(mutex_);
  auto it = game_hosts_.find(game_id);
  return it == game_hosts_.end() ? "" : it->second;
}

UpstreamFactory Backends::SpectateFactory() {
  return [this](const std::string& game_id, const std::string& host,
                std::shared_ptr<UpstreamSink> sink) -> std::unique_ptr<Upstream> {
    auto handle = std::make_shared<GrpcUpstream>();
    // Detached, and holding the sink until OnEnd: the last owner of the sink
    // may be this very thread. The hub waits for every OnEnd before it goes,
    // and nothing here touches the gateway after OnEnd.
    std::thread([this, game_id, host, sink, handle] {
      std::string at = host;
      grpc::Status status(grpc::StatusCode::CANCELLED, "cancelled");
      for (int hop = 0; hop < 2; ++hop) {
        // No deadline: the stream lasts as long as the game.
        auto context = std::make_shared<grpc::ClientContext>();
        context->AddMetadata("authorization", "Bearer " + options_.gamehost_token);
        if (!handle->Use(context)) break;
        v1::SpectateRequest request;
        request.set_game_id(game_id);
        request.set_from_start(true);
        auto reader = Host(at)->Spectate(context.get(), request);
        v1::SpectateUpdate update;
        std::string redirect;
        while (reader->Read(&update)) {
          if (update.has_redirect()) {
            redirect = update.redirect().host();
            continue;
          }
          sink->OnUpdate(update);
        }
        status = reader->Finish();
        // Followed once, and only to a host the gateway knows: the address
        // comes from a host, and is never dialled on a client's word.
        if (redirect.empty() || redirect == at || !IsKnownHost(redirect)) break;
        at = redirect;
        NoteGameHost(game_id, at);
      }
      sink->OnEnd(status);
    }).detach();
    return std::make_unique<UpstreamHandle>(handle);
  };
}

}  // namespace metropolis::gateway
