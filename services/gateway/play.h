// People's play streams: the gateway plays a person's seat on its game host
// (GameHost.Play with the seat token, which never leaves the gateway) and
// forwards what the host says as server-sent events; the person's answers
// come back over plain POSTs and go up the same stream. One stream per session
// and game: a reload or a second tab opens a new one with take_over, and the
// host ends the old one (docs/GATEWAY.md, "People and play").
#pragma once

#include <grpcpp/client_context.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "metropolis/v1/gamehost.pb.h"
#include "services/gateway/live.h"
#include "services/gateway/params.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

// One open GameHost.Play: its events for the browser, and a way up for answers.
class PlayStream {
 public:
  PlayStream() : out(std::make_shared<Spectator>(8 << 20)) {}
  // What to write to the browser; closed when the upstream ends.
  const std::shared_ptr<Spectator> out;
  // Sends an answer up; false once the stream has ended.
  bool Answer(const v1::PlayAnswer& answer);
  void Cancel();

 private:
  friend class PlayHub;
  std::mutex mutex_;
  std::shared_ptr<grpc::ClientContext> context_;
  grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayUpdate>* stream_ = nullptr;  // while open
  bool cancelled_ = false;
};

class PlayHub {
 public:
  explicit PlayHub(Backends* backends, std::chrono::milliseconds linger = std::chrono::seconds(20))
      : backends_(backends), linger_(linger) {}
  ~PlayHub();  // cancels every stream and waits for their threads

  // Opens the seat's stream for `session_key` (replacing one it had for this
  // game). `on_game_over` runs when the host reports the end.
  std::shared_ptr<PlayStream> Open(const std::string& session_key, const HeldSeat& seat,
                                   std::function<void()> on_game_over);
  // 409 when the session has no open stream for the game.
  bool Answer(const std::string& session_key, const std::string& game_id, const v1::PlayAnswer& answer,
              ApiError* error);
  // The browser left. The upstream stays open for `linger` first: a reload
  // comes back within it and takes the seat over without a gap, where a
  // dropped stream would hand the seat's decision to the fallback bot at once.
  void Close(const std::shared_ptr<PlayStream>& stream);
  size_t streams() const;

 private:
  void Run(std::shared_ptr<PlayStream> stream, HeldSeat seat, std::function<void()> on_game_over);

  Backends* const backends_;
  const std::chrono::milliseconds linger_;
  mutable std::mutex mutex_;
  std::condition_variable all_ended_;
  std::map<std::string, std::shared_ptr<PlayStream>> streams_;  // session key + "/" + game id
  // Every running stream, replaced ones too (until take_over ends them), so
  // that shutting down cancels them all.
  std::set<std::shared_ptr<PlayStream>> running_streams_;
};

}  // namespace metropolis::gateway
