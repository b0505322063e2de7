// People's play streams: the gateway plays a person's seat on its game host
// (GameHost.Play with the seat token, which never leaves the gateway) and
// forwards what the host says as server-sent events; the person's answers
// come back over plain POSTs and go up the same stream. One stream per session
// and game: a reload or a second tab opens a new one with take_over, and the
// host ends the old one (docs/GATEWAY.md, "People and play"). A game whose
// host died goes on on another host (docs/GAMEHOST.md, "Checkpoints and
// takeover"): the stream follows it there (PlayRoute).
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
#include <vector>

#include "metropolis/v1/gamehost.pb.h"
#include "services/gateway/live.h"
#include "services/gateway/params.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

// Where a seat's stream goes next. First the host recorded for the seat; a
// redirect to a known host (the game runs there now); and when a host cannot
// be reached (UNAVAILABLE: it died, or it lost the game to another host) the
// other known hosts in turn, after a growing wait: any of them sends the seat
// on to the host that runs the game, once that host has taken it over. The
// streams opened since the last welcome are bounded, so that a game no host
// runs any more ends the person's stream instead of retrying forever.
class PlayRoute {
 public:
  struct Options {
    int max_streams = 12;  // opened in a row without a welcome
    std::chrono::milliseconds initial_backoff{250}, max_backoff{2000};
  };
  // The game hosts the gateway knows: asked once, at the first unreachable
  // host (it may ask the matchmaker). They may include `host`; their order is
  // kept.
  using KnownHosts = std::function<std::vector<std::string>()>;
  PlayRoute(std::string host, KnownHosts known_hosts, Options options);

  const std::string& host() const { return host_; }

  struct Next {
    bool again = false;                 // open another stream, to host()
    std::chrono::milliseconds wait{0};  // first
  };
  // After a stream to host() ended before the game was over: `redirect` is
  // what it said (empty if nothing), `welcomed` whether it got as far as the
  // welcome. A redirect is followed only to a host `is_known` accepts, and not
  // back to the host that was just unreachable (its lease has not lapsed yet:
  // host() is asked again after a wait). UNAVAILABLE moves on to the next known
  // host, and so does NOT_FOUND once a stream was welcomed (the game moved).
  Next After(const grpc::Status& status, const std::string& redirect, bool welcomed,
             const std::function<bool(const std::string&)>& is_known);

 private:
  const Options options_;
  KnownHosts known_hosts_;               // null once asked
  std::vector<std::string> candidates_;  // the seat's host first
  std::string host_;
  std::chrono::milliseconds Backoff();  // the next wait; they grow with failures_

  std::string unreachable_;  // the host whose stream last ended UNAVAILABLE
  bool ever_welcomed_ = false;
  size_t next_candidate_ = 1;
  int streams_ = 1;   // since the last welcome, this one included
  int failures_ = 0;  // likewise: the waits grow with them
};

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
  // Waits `wait` or until cancelled; false if cancelled.
  bool Wait(std::chrono::milliseconds wait);

  std::mutex mutex_;
  std::condition_variable cancelled_cv_;
  std::shared_ptr<grpc::ClientContext> context_;
  grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayUpdate>* stream_ = nullptr;  // while open
  bool cancelled_ = false;
};

class PlayHub {
 public:
  // `known_hosts` defaults to the configured hosts and the matchmaker's
  // registry as last heard (Backends::KnownHosts).
  explicit PlayHub(Backends* backends, std::chrono::milliseconds linger = std::chrono::seconds(20),
                   PlayRoute::Options route = {}, PlayRoute::KnownHosts known_hosts = nullptr);
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
  const PlayRoute::Options route_;
  const PlayRoute::KnownHosts known_hosts_;
  mutable std::mutex mutex_;
  std::condition_variable all_ended_;
  std::map<std::string, std::shared_ptr<PlayStream>> streams_;  // session key + "/" + game id
  // Every running stream, replaced ones too (until take_over ends them), so
  // that shutting down cancels them all.
  std::set<std::shared_ptr<PlayStream>> running_streams_;
};

}  // namespace metropolis::gateway
