// The JSON API under /api/v1 (docs/GATEWAY.md): each endpoint checks its
// parameters, calls the services, and builds its answer with json.h. The HTTP
// server (server.cc) only moves requests and responses.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "services/gateway/backends.h"
#include "services/gateway/catalog.h"
#include "services/gateway/json.h"
#include "services/gateway/params.h"

namespace metropolis::gateway {

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // For metrics: the service whose failure this is, and its status.
  std::string backend, grpc_status;
};

HttpResponse JsonResponse(int status, const Json& body);
HttpResponse ErrorResponse(const ApiError& error);

// Page sizes: a request above one is refused (400 naming the parameter).
struct ApiLimits {
  int leaderboard = 100;      // entries per leaderboard page
  int games = 100;            // stored games per page
  int history = 500;          // rating history entries per page
  int search = 50;            // players per search
  int player_games = 50;      // recent games on a player's page
  int opponent_window = 200;  // a player's latest games that head-to-head results count
};

// What the live stream endpoint needs, checked: the game, its host, and whether
// to start from the game's first event.
struct LiveStreamRequest {
  std::string game_id, host;
  bool from_start = false;
  std::chrono::milliseconds delay{0};  // the game's own spectator delay (a friends' table's)
};

class Api {
 public:
  Api(Catalog* catalog, Backends* backends, ApiLimits limits = {})
      : catalog_(catalog), backends_(backends), limits_(limits) {}

  // A GET of `path` (under /api/v1/, %-decoded) with its raw query string.
  // *route is the matched pattern, for metrics ("/api/v1/games/{}"), or
  // "unmatched".
  HttpResponse Get(std::string_view path, std::string_view raw_query, std::string* route);

  // True when `path` is a live game's event stream (/api/v1/live/{id}/events).
  static bool IsLiveStream(std::string_view path);
  // Checks a live stream request and finds the host running the game: 400, 404
  // (no known host runs it), 503.
  bool PrepareLiveStream(std::string_view path, std::string_view raw_query, LiveStreamRequest* out, ApiError* error);

  // Which backends answer: {"replays": "SERVING", ...} and whether all do.
  Json Readiness(bool* all_serving);

  // A live (or just finished) game on any known host: 400 a bad id, 404 no
  // host knows it, 503. Also for the play endpoints (play_api.h).
  bool FindLiveGame(const std::string& game_id, v1::GameInfo* out, ApiError* error);
  // Some ladder's id, for the matchmaker's host registry (any ladder names it).
  std::string AnyLadder();

 private:
  using Args = std::vector<std::string>;
  bool Ladders(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Ladder(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Leaderboard(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Players(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Player(const Args& args, const Query& q, Json* out, ApiError* error);
  bool PlayerHistory(const Args& args, const Query& q, Json* out, ApiError* error);
  bool PlayerLuck(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Games(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Game(const Args& args, const Query& q, Json* out, ApiError* error);
  bool GameRecordFile(const Args& args, const Query& q, Json* out, ApiError* error);
  // GET /api/v1/ladders/{id}/games.jsonl and /api/v1/tournaments/{id}/games.jsonl:
  // a page of Replays.ExportGames as JSON lines, its cursor in the headers.
  HttpResponse GamesJsonLines(const std::string& id, bool tournament, std::string_view raw_query);
  bool Analysis(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Position(const Args& args, const Query& q, Json* out, ApiError* error);
  bool LiveGames(const Args& args, const Query& q, Json* out, ApiError* error);
  bool LiveGame(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Tournaments(const Args& args, const Query& q, Json* out, ApiError* error);
  bool Tournament(const Args& args, const Query& q, Json* out, ApiError* error);
  bool TournamentGames(const Args& args, const Query& q, Json* out, ApiError* error);

  // Shared steps.
  bool FindPlayer(const std::string& name, const std::string& parameter, PlayerRow* out, ApiError* error);
  bool GetTournament(const std::string& id, v1::Tournament* out, ApiError* error);

  Catalog* const catalog_;
  Backends* const backends_;
  const ApiLimits limits_;
};

}  // namespace metropolis::gateway
