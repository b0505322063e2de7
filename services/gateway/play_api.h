// The endpoints of people and play (docs/GATEWAY.md, "People and play"):
// sessions, practice games, the ladder queue and the answers to a seat's
// decisions. Like api.h, this is the logic; server.cc moves the bytes, and
// streams GET /api/v1/play/{game}/events from what PrepareEvents checked.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "services/gateway/api.h"
#include "services/gateway/bodies.h"
#include "services/gateway/bots.h"
#include "services/gateway/debug_notes.h"
#include "services/gateway/people.h"
#include "services/gateway/play.h"
#include "services/gateway/queue.h"

namespace metropolis::gateway {

// What the server hands over of a request.
struct HttpRequest {
  std::string_view method, path, query, body;
  std::string_view cookie;   // the Cookie header
  std::string_view address;  // the client's IP address
};

struct PlayApiOptions {
  // Practice games: a person reads the board, so more time than a bot's 10 s.
  int decision_ms = 60'000;
  int time_bank_ms = 300'000;
  std::string fallback_bot = "heuristic";  // plays the person's seat while they are away
  // Practice games a person may have unfinished at once (--max-practice-games):
  // each holds a host's game slot and bots' CPU. Counted by the People service.
  int max_practice_games = 2;
  // A practice slot reserved this long ago and still without a game (the
  // gateway that reserved it died before it stored the seat) is freed.
  std::chrono::milliseconds reservation_grace = std::chrono::minutes(2);
  // The lobby polls GET /api/v1/queue and /session while a person is matched:
  // a game its host said runs is not asked about again for this long.
  std::chrono::milliseconds running_recheck = std::chrono::seconds(3);
  // The session cookie says Secure (sent over HTTPS only): for a gateway behind
  // an HTTPS proxy. Off by default, as the local stack serves plain HTTP.
  bool secure_cookies = false;
};

// A checked request for a play stream.
struct PlayEventsRequest {
  Session session;
  HeldSeat seat;
  std::string session_key;  // the session's hash in hex: one stream per session and game
};

class PlayApi {
 public:
  // `bots`: the person's own bots (bots.h); null answers their paths 503.
  // `debug`: their games' debug notes (debug_notes.h), read for the person's
  // bots, so with `bots` only; null answers their path 503.
  PlayApi(Api* api, Backends* backends, People* people, QueueHub* queue, PlayHub* play, PlayApiOptions options,
          BotStore* bots = nullptr, DebugSource* debug = nullptr)
      : api_(api),
        backends_(backends),
        people_(people),
        queue_(queue),
        play_(play),
        options_(std::move(options)),
        bots_(bots),
        debug_(debug) {}

  // Whether `path` is one of these endpoints (all under /api/v1), whatever the
  // method: the people's own paths, which no other site may read.
  static bool Handles(std::string_view path);
  // Whether this request is for these endpoints: any method of Handles' paths,
  // and asking for a game's analysis (POST /api/v1/games/{id}/analysis), whose
  // GET is a public read of Api's.
  static bool Takes(std::string_view method, std::string_view path);
  // True for GET /api/v1/play/{game}/events.
  static bool IsPlayStream(std::string_view path);

  HttpResponse Handle(const HttpRequest& request, std::string* route);
  // Checks a play stream's request: 401, 400, 403 (no seat of the person's),
  // 404 (an unknown game).
  bool PrepareEvents(const HttpRequest& request, PlayEventsRequest* out, ApiError* error);
  // Opens the seat's play stream for the checked request.
  std::shared_ptr<PlayStream> OpenEvents(const PlayEventsRequest& request);
  void CloseEvents(const std::shared_ptr<PlayStream>& stream);

 private:
  HttpResponse SignUp(const HttpRequest& request);
  HttpResponse SignIn(const HttpRequest& request);
  HttpResponse SignOut(const Session& session);
  HttpResponse GetSession(const Session& session);
  HttpResponse Practice(const Session& session, const HttpRequest& request);
  HttpResponse Queue(const Session& session, const HttpRequest& request);
  HttpResponse Answer(const Session& session, const std::string& game_id, const HttpRequest& request);
  // POST /api/v1/play/{id}/resign: PlayAnswer.resign on the person's stream.
  HttpResponse Resign(const Session& session, const std::string& game_id, const HttpRequest& request);
  HttpResponse RequestAnalysis(const std::string& game_id, const HttpRequest& request);

  bool Authenticate(const HttpRequest& request, Session* out, ApiError* error);
  // The person's seat in the game: 403 when the game exists and the seat is
  // not theirs, 404 when no host knows the game.
  bool FindSeat(const Session& session, const std::string& game_id, HeldSeat* out, ApiError* error);
  Json ActiveGame(const Session& session);
  // Whether the seat's game is over: its host says it finished, or no longer
  // knows it. An unreachable host proves nothing: false.
  bool GameEnded(const std::string& game_id, const std::string& host);
  // GameEnded for the lobby's polls: false without asking while the host's
  // last "it runs" is younger than options_.running_recheck.
  bool PolledGameEnded(const std::string& game_id, const std::string& host);
  // The person's queue; a match whose game is over is done with (QueueHub::
  // EndMatch), or the lobby would open the finished game again and again.
  QueueState CurrentQueue(const Session& session);
  // Takes a practice slot for `game_id`: 429 when the person has
  // max_practice_games unfinished, after freeing those whose game ended unseen.
  bool ReservePractice(const Session& session, const std::string& game_id, ApiError* error);
  // Marks finished the person's open practice seats whose game is over or no
  // longer known to its host, and reservations older than the grace.
  void FinishEndedPractice(const Session& session);
  CookieTransport Transport() const {
    return options_.secure_cookies ? CookieTransport::kHttpsOnly : CookieTransport::kAny;
  }

  Api* const api_;
  Backends* const backends_;
  People* const people_;
  QueueHub* const queue_;
  PlayHub* const play_;
  const PlayApiOptions options_;
  BotStore* const bots_;
  DebugSource* const debug_;
  std::mutex running_mutex_;
  // Game id → when (the People clock's monotonic time) its host said it runs.
  std::unordered_map<std::string, services::Millis> running_seen_;
};

}  // namespace metropolis::gateway
