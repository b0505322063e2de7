// Request ids and game ids on log lines, so that one grep follows a game (or one
// piece of work) through every service (docs/OBSERVABILITY.md, "Following a game").
//
// A call carries its request id in the `x-request-id` metadata and, where it
// concerns one game, the game id in `x-game-id`. A handler opens a CallLogContext
// at its start; from then until it returns, every line the thread logs has
// `request_id=` (the caller's, or a new one) and `game=` (when known) on it, and
// the calls it makes (PropagateRequestId) pass both on. Work that no call started
// (a matching round, the outbox) opens a LogContext with an id of its own.
//
// The context is the thread's: it does not follow work handed to other threads,
// which log the game id themselves.
#pragma once

#include <string>
#include <string_view>

namespace grpc {
class ClientContext;
class ServerContextBase;
}  // namespace grpc

namespace metropolis::services {

inline constexpr char kRequestIdMetadata[] = "x-request-id";
inline constexpr char kGameIdMetadata[] = "x-game-id";

// A new request id: 16 hex digits from 64 random bits.
std::string NewRequestId();

// True for 1 to 64 letters, digits, '-', '_', '.' and ':': what a caller may send
// as a request id, so that nothing odd reaches the logs.
bool ValidRequestId(std::string_view id);

// The call's x-request-id when it is valid, else empty; the same for x-game-id.
std::string IncomingRequestId(const grpc::ServerContextBase& context);
std::string IncomingGameId(const grpc::ServerContextBase& context);

// Puts request_id= and game= on every line this thread logs while it lives.
// Contexts nest: the one opened before is back when this one closes.
class LogContext {
 public:
  explicit LogContext(std::string request_id, std::string game_id = {});
  ~LogContext();
  LogContext(const LogContext&) = delete;
  LogContext& operator=(const LogContext&) = delete;

  // The game the work turned out to concern (e.g. once a game is created).
  void SetGame(std::string game_id) { game_id_ = std::move(game_id); }
  const std::string& request_id() const { return request_id_; }
  const std::string& game_id() const { return game_id_; }

 private:
  std::string request_id_, game_id_;
  LogContext* previous_;
};

// A served call's context: its x-request-id, or a new id when it has none; the
// game is `game_id` (from the request), or the call's x-game-id when that is
// empty or not a plausible id.
class CallLogContext : public LogContext {
 public:
  explicit CallLogContext(const grpc::ServerContextBase& context, std::string game_id = {});
};

// The innermost context of this thread, or null.
const LogContext* CurrentLogContext();

// For an outgoing call: x-request-id from this thread's context (a new id when
// there is none) and x-game-id — `game_id`, else the context's game, if any.
// Returns the request id sent.
std::string PropagateRequestId(grpc::ClientContext* context, std::string_view game_id = {});

}  // namespace metropolis::services
