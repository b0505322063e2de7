#include "services/gateway/play_api.h"

#include <algorithm>
#include <random>

#include "engine/hex.h"
#include "lib/common/secret.h"
#include "services/gateway/account.h"
#include "services/gateway/analysis.h"
#include "services/gateway/backends.h"
#include "services/gateway/tables.h"

namespace metropolis::gateway {
namespace {

bool Fail(ApiError* error, ApiError e) {
  *error = std::move(e);
  return false;
}

HttpResponse MethodNotAllowed(std::string_view method, const std::string& allow) {
  HttpResponse r = ErrorResponse(
      MakeError(405, "METHOD_NOT_ALLOWED", "method " + std::string(method.substr(0, 20)) + ": only " + allow));
  r.headers.push_back({"Allow", allow});
  return r;
}

Json PersonToJson(const Person& p) { return {{"id", p.id}, {"name", p.name}}; }

}  // namespace

bool PlayApi::Handles(std::string_view path) {
  std::vector<std::string> args;
  return path == "/api/v1/session" || path == "/api/v1/session/signup" || path == "/api/v1/session/signin" ||
         path == "/api/v1/session/signout" || path == "/api/v1/practice" || path == "/api/v1/queue" ||
         MatchRoute("/api/v1/play/{}/events", path, &args) || MatchRoute("/api/v1/play/{}/answer", path, &args) ||
         MatchRoute("/api/v1/play/{}/resign", path, &args) || IsAccountPath(path) || IsBotsPath(path) ||
         IsTablesPath(path) || IsDebugPath(path);
}

namespace {

constexpr std::string_view kAnalysisRoute = "/api/v1/games/{}/analysis";

}  // namespace

bool PlayApi::Takes(std::string_view method, std::string_view path) {
  if (Handles(path)) return true;
  std::vector<std::string> args;
  return method != "GET" && method != "HEAD" && MatchRoute(kAnalysisRoute, path, &args);
}

bool PlayApi::IsPlayStream(std::string_view path) {
  std::vector<std::string> args;
  return MatchRoute("/api/v1/play/{}/events", path, &args);
}

bool PlayApi::Authenticate(const HttpRequest& request, Session* out, ApiError* error) {
  return people_->Authenticate(CookieValue(request.cookie, kSessionCookie), out, error);
}

HttpResponse PlayApi::Handle(const HttpRequest& request, std::string* route) {
  const std::string_view m = request.method;
  std::vector<std::string> args;
  auto only = [&](std::initializer_list<std::string_view> methods, const std::string& allow) {
    return std::find(methods.begin(), methods.end(), m) != methods.end() ? std::string() : allow;
  };
  std::string refused;
  const std::string path(request.path);
  if (path == "/api/v1/session/signup" || path == "/api/v1/session/signin" || path == "/api/v1/session/signout" ||
      path == "/api/v1/practice")
    refused = only({"POST"}, "POST");
  else if (path == "/api/v1/session")
    refused = only({"GET", "HEAD"}, "GET, HEAD");
  else if (path == "/api/v1/queue")
    refused = only({"GET", "HEAD", "POST", "DELETE"}, "GET, HEAD, POST, DELETE");
  else if (MatchRoute("/api/v1/play/{}/answer", path, &args) || MatchRoute("/api/v1/play/{}/resign", path, &args))
    refused = only({"POST"}, "POST");
  else if (IsPlayStream(path))
    refused = only({"GET"}, "GET");  // an event stream has no HEAD
  else if (MatchRoute(kAnalysisRoute, path, &args))
    refused = only({"POST"}, "GET, HEAD, POST");  // the GET is Api's
  else if (const std::string allow = BotsMethods(path); !allow.empty())
    refused = allow == "POST" ? only({"POST"}, allow) : only({"GET", "HEAD", "POST"}, allow);
  else if (const std::string allow = AccountMethods(path); !allow.empty())
    refused = allow == "POST" ? only({"POST"}, allow) : only({"GET", "HEAD"}, allow);
  else if (const std::string allow = TablesMethods(path); !allow.empty())
    refused = allow == "POST" ? only({"POST"}, allow) : only({"GET", "HEAD"}, allow);
  else if (IsDebugPath(path))
    refused = only({"GET", "HEAD"}, "GET, HEAD");
  if (IsBotsPath(path))
    *route = BotsRoute(path);
  else if (IsAccountPath(path))
    *route = AccountRoute(path);
  else if (IsTablesPath(path))
    *route = TablesRoute(path);
  else if (IsDebugPath(path))
    *route = kDebugRoute;
  else if (MatchRoute("/api/v1/play/{}/answer", path, &args))
    *route = "/api/v1/play/{}/answer";
  else if (MatchRoute("/api/v1/play/{}/resign", path, &args))
    *route = "/api/v1/play/{}/resign";
  else if (IsPlayStream(path))
    *route = "/api/v1/play/{}/events";
  else if (MatchRoute(kAnalysisRoute, path, &args))
    *route = kAnalysisRoute;
  else
    *route = path;
  if (!refused.empty()) return MethodNotAllowed(m, refused);
  Query query;
  ApiError error;
  // None of these reads a parameter but the debug notes' download: a stray one
  // is an error, as elsewhere.
  bool download = false;
  if (!Query::Parse(request.query, &query, &error)) return ErrorResponse(error);
  if (IsDebugPath(path) ? !query.OnlyThese({"download"}, &error) || !query.Bool("download", false, &download, &error)
                        : !query.OnlyThese({}, &error))
    return ErrorResponse(error);
  if (m != "POST" && !request.body.empty())
    return ErrorResponse(MakeError(413, "PAYLOAD_TOO_LARGE", "only POST requests carry a body"));

  if (path == "/api/v1/session/signup") return SignUp(request);
  if (path == "/api/v1/session/signin") return SignIn(request);
  Session session;
  if (!Authenticate(request, &session, &error)) {
    // A table is read by whoever has its link, signed in or not.
    if (error.http == 401 && TablesMethods(path) == "GET, HEAD")
      return HandleTables(backends_, people_->store(), nullptr, path, request.body);
    return ErrorResponse(error);
  }
  if (IsTablesPath(path)) return HandleTables(backends_, people_->store(), &session, path, request.body);
  if (path == "/api/v1/session/signout") return SignOut(session);
  if (path == "/api/v1/session") return GetSession(session);
  if (path == "/api/v1/practice") return Practice(session, request);
  if (path == "/api/v1/queue") return Queue(session, request);
  if (MatchRoute("/api/v1/play/{}/answer", path, &args)) return Answer(session, args[0], request);
  if (MatchRoute("/api/v1/play/{}/resign", path, &args)) return Resign(session, args[0], request);
  if (MatchRoute(kAnalysisRoute, path, &args)) return RequestAnalysis(args[0], request);
  if (IsAccountPath(path))
    return HandleAccount(people_, session, path, request.body, std::string(request.address), Transport());
  if (IsBotsPath(path)) {
    if (!bots_) return ErrorResponse(MakeError(503, "UNAVAILABLE", "this gateway keeps no bots"));
    return HandleBots(bots_, session, m, path, request.body);
  }
  if (MatchRoute(kDebugRoute, path, &args)) {
    if (!bots_ || !debug_) return ErrorResponse(MakeError(503, "UNAVAILABLE", "this gateway reads no debug notes"));
    return HandleDebug(bots_, debug_, session, args[0], download);
  }
  return ErrorResponse(NotFound("no endpoint " + path.substr(0, 200)));
}

// Signed in only: each request may queue a game for the replays service's
// worker, so it is a person's, like every other POST here (docs/GATEWAY.md).
HttpResponse PlayApi::RequestAnalysis(const std::string& game_id, const HttpRequest& request) {
  ApiError error;
  Json out;
  if (!ReadNothing(request.body, &error) || !AnalysisCall(backends_, game_id, /*request=*/true, &out, &error)) {
    HttpResponse r = ErrorResponse(error);
    if (error.grpc_status == "RESOURCE_EXHAUSTED") r.headers.push_back({"Retry-After", "30"});
    return r;
  }
  // Queued is accepted, not done: the answer to poll is GET's.
  return JsonResponse(out["state"] == "queued" ? 202 : 200, out);
}

HttpResponse PlayApi::SignUp(const HttpRequest& request) {
  std::string name, password, cookie;
  Session session;
  ApiError error;
  if (!ReadCredentials(request.body, &name, &password, &error) ||
      !people_->SignUp(name, password, &session, &cookie, &error))
    return ErrorResponse(error);
  HttpResponse r = JsonResponse(201, {{"player", PersonToJson(session.person)}});
  r.headers.push_back(
      {"Set-Cookie", SessionCookie(cookie, people_->options().session_ttl.count() / 1000, Transport())});
  return r;
}

HttpResponse PlayApi::SignIn(const HttpRequest& request) {
  std::string name, password, cookie;
  Session session;
  ApiError error;
  if (!ReadCredentials(request.body, &name, &password, &error) ||
      !people_->SignIn(name, password, std::string(request.address), &session, &cookie, &error)) {
    HttpResponse r = ErrorResponse(error);
    if (error.http == 429) {
      const int64_t wait_ms = people_->SignInRetryAfterMs(name, std::string(request.address));
      r.headers.push_back({"Retry-After", std::to_string(std::max<int64_t>(1, (wait_ms + 999) / 1000))});
    }
    return r;
  }
  // Names a migration changed are told here, once (docs/GATEWAY.md).
  Json renamed = Json::array();
  for (const Rename& n : session.person.renamed)
    renamed.push_back({{"id", n.identity_id}, {"from", n.old_name}, {"to", n.new_name}});
  HttpResponse r = JsonResponse(200, {{"player", PersonToJson(session.person)}, {"renamed", renamed}});
  r.headers.push_back(
      {"Set-Cookie", SessionCookie(cookie, people_->options().session_ttl.count() / 1000, Transport())});
  return r;
}

HttpResponse PlayApi::SignOut(const Session& session) {
  ApiError error;
  if (!people_->SignOut(session, &error)) return ErrorResponse(error);
  HttpResponse r;
  r.status = 204;
  r.headers.push_back({"Set-Cookie", ClearedSessionCookie(Transport())});
  return r;
}

Json PlayApi::ActiveGame(const Session& session) {
  HeldSeat seat;
  if (!people_->store()->LatestOpenSeat(session.person.id, &seat).ok()) return nullptr;
  // The host says whether it still runs; a game that ended while nobody
  // watched it is marked finished here.
  if (PolledGameEnded(seat.game_id, seat.host)) {
    people_->store()->MarkSeatFinished(session.person.id, seat.game_id);
    return nullptr;
  }
  return {{"game_id", seat.game_id}, {"seat", seat.seat}};
}

bool PlayApi::GameEnded(const std::string& game_id, const std::string& host) {
  v1::GameInfo info;
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  auto context = backends_->HostContext();
  const grpc::Status s = backends_->Host(host)->GetGame(context.get(), request, &info);
  return s.error_code() == grpc::StatusCode::NOT_FOUND || (s.ok() && info.status() == v1::GAME_STATUS_FINISHED);
}

bool PlayApi::PolledGameEnded(const std::string& game_id, const std::string& host) {
  const services::Millis now = people_->clock()->Now();
  {
    std::lock_guard lock(running_mutex_);
    auto it = running_seen_.find(game_id);
    if (it != running_seen_.end() && now - it->second < options_.running_recheck.count()) return false;
  }
  const bool ended = GameEnded(game_id, host);
  std::lock_guard lock(running_mutex_);
  if (ended) {
    running_seen_.erase(game_id);
    return true;
  }
  // Kept small: entries too old to answer for are dropped once the map grows.
  if (running_seen_.size() >= 4096)
    std::erase_if(running_seen_, [&](const auto& e) { return now - e.second >= options_.running_recheck.count(); });
  running_seen_[game_id] = now;
  return false;
}

QueueState PlayApi::CurrentQueue(const Session& session) {
  QueueState q = queue_->Get(session.person.id);
  if (q.state != "matched") return q;
  HeldSeat seat;
  const grpc::Status found = people_->store()->FindSeat(session.person.id, q.game_id, &seat);
  // A seat that was never kept cannot be matched; one whose game is over is done.
  if ((found.ok() && PolledGameEnded(seat.game_id, seat.host)) || found.error_code() == grpc::StatusCode::NOT_FOUND) {
    queue_->EndMatch(session.person.id, q.game_id);
    q = queue_->Get(session.person.id);
  }
  return q;
}

HttpResponse PlayApi::GetSession(const Session& session) {
  const QueueState q = CurrentQueue(session);
  return JsonResponse(200, {{"player", PersonToJson(session.person)},
                            {"expires_at", session.expires_unix_ms},
                            {"active_game", ActiveGame(session)},
                            {"queue", q.state == "none" && q.ladder.empty() ? Json(nullptr) : QueueStateToJson(q)}});
}

HttpResponse PlayApi::Practice(const Session& session, const HttpRequest& request) {
  int64_t bots = 0;
  std::string strength;
  ApiError error;
  if (!ReadPractice(request.body, &bots, &strength, &error)) return ErrorResponse(error);
  if (backends_->options().gamehost_admin_token.empty())
    return ErrorResponse(
        MakeError(503, "UNAVAILABLE", "gamehost: the gateway has no --gamehost-admin-token to create games"));

  // The game's id is chosen here, so that its slot is taken before the game
  // exists: a refused start creates nothing on a host.
  const std::string game_id = "practice-" + services::RandomSecretHex(12);
  if (!ReservePractice(session, game_id, &error)) return ErrorResponse(error);

  // The person's seat is drawn, so that they do not always start.
  std::random_device random;
  const int seats = int(bots) + 1;
  const int mine = int(random() % unsigned(seats));
  v1::CreateGameRequest create;
  create.set_game_id(game_id);
  create.mutable_config()->set_num_seats(uint32_t(seats));
  // A board of its own for every game, as the ladders' (the matchmaker draws
  // theirs from the game id): on the default board each game would start the
  // same, and the bots would open the same way. Nonzero: 0 is "no random board".
  create.mutable_config()->set_random_board_seed(((uint64_t(random()) << 32) | random()) | 1);
  create.mutable_deadlines()->set_decision_ms(uint32_t(options_.decision_ms));
  create.mutable_deadlines()->set_time_bank_ms(uint32_t(options_.time_bank_ms));
  // No ladder: the host stores the game, and the ratings service rates only
  // games of a registered ladder, so practice never reaches a leaderboard.
  for (int i = 0; i < seats; ++i) {
    v1::SeatSpec* seat = create.add_seats();
    if (i == mine) {
      seat->set_name(session.person.name);
      seat->set_identity_id(session.person.id);
      seat->set_fallback_bot(options_.fallback_bot);
    } else {
      seat->set_name("bot:" + strength);
      seat->set_built_in(true);
      seat->set_fallback_bot(strength);
    }
  }
  grpc::Status matchmaker_status, last = {grpc::StatusCode::UNAVAILABLE, "no game host is known"};
  for (const std::string& host : backends_->HostAddresses(api_->AnyLadder(), &matchmaker_status)) {
    v1::CreateGameResponse created;
    auto context = backends_->ContextWithToken(backends_->options().gamehost_admin_token);
    last = backends_->Host(host)->CreateGame(context.get(), create, &created);
    if (!last.ok()) continue;
    const HeldSeat seat{created.game_id(), created.host().empty() ? host : created.host(), created.seat_tokens(mine),
                        mine};
    // Fills the reservation in. Should this fail, the reservation keeps the
    // slot until the grace has passed (the game then runs uncounted).
    const grpc::Status saved = people_->store()->SaveSeat(session.person.id, seat);
    if (!saved.ok()) return ErrorResponse(StoreError(saved));
    backends_->NoteGameHost(seat.game_id, seat.host);
    return JsonResponse(201, {{"game_id", seat.game_id}, {"seat", seat.seat}});
  }
  // No host created it: the slot is free again.
  people_->store()->MarkSeatFinished(session.person.id, game_id);
  return ErrorResponse(BackendError(last, "gamehost"));
}

bool PlayApi::ReservePractice(const Session& session, const std::string& game_id, ApiError* error) {
  PeopleStore* store = people_->store();
  const int max = options_.max_practice_games;
  grpc::Status s = store->ReservePracticeSeat(session.person.id, game_id, max);
  if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
    // A game may have ended with no stream of this gateway to see it (the
    // page closed, the fallback bot played on): its host knows.
    FinishEndedPractice(session);
    s = store->ReservePracticeSeat(session.person.id, game_id, max);
  }
  if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED)
    return Fail(error, MakeError(429, "RESOURCE_EXHAUSTED",
                                 "at most " + std::to_string(max) + " practice games at once, and you have " +
                                     std::to_string(max) + " unfinished: finishing or resigning one frees a slot"));
  if (!s.ok()) return Fail(error, StoreError(s));
  return true;
}

void PlayApi::FinishEndedPractice(const Session& session) {
  std::vector<OpenPracticeSeat> open;
  if (!people_->store()->OpenPracticeSeats(session.person.id, &open).ok()) return;
  for (const OpenPracticeSeat& seat : open) {
    bool ended = false;
    if (seat.host.empty()) {
      ended = seat.age_ms > options_.reservation_grace.count();
    } else {
      // An unreachable host proves nothing: its game keeps its slot.
      ended = GameEnded(seat.game_id, seat.host);
    }
    if (ended) people_->store()->MarkSeatFinished(session.person.id, seat.game_id);
  }
}

HttpResponse PlayApi::Queue(const Session& session, const HttpRequest& request) {
  ApiError error;
  if (request.method == "GET" || request.method == "HEAD")
    return JsonResponse(200, QueueStateToJson(CurrentQueue(session)));
  if (request.method == "DELETE") {
    if (!queue_->Leave(session.person, &error)) return ErrorResponse(error);
    HttpResponse r;
    r.status = 204;
    return r;
  }
  std::string ladder;
  QueueState state;
  if (!ReadQueueJoin(request.body, &ladder, &error) || !queue_->Join(session.person, ladder, &state, &error))
    return ErrorResponse(error);
  return JsonResponse(202, QueueStateToJson(state));
}

bool PlayApi::FindSeat(const Session& session, const std::string& game_id, HeldSeat* out, ApiError* error) {
  if (!ValidGameId(game_id))
    return Fail(error, BadParameter("game_id", "'" + game_id.substr(0, 80) +
                                                   "' is not a game id (1 to 64 letters, digits, '-' or '_')"));
  const grpc::Status s = people_->store()->FindSeat(session.person.id, game_id, out);
  if (s.ok()) return true;
  if (s.error_code() != grpc::StatusCode::NOT_FOUND) return Fail(error, StoreError(s));
  v1::GameInfo info;
  if (!api_->FindLiveGame(game_id, &info, error)) return false;  // 404 for a game no host knows
  return Fail(error, MakeError(403, "PERMISSION_DENIED", "you hold no seat in game '" + game_id + "'"));
}

HttpResponse PlayApi::Answer(const Session& session, const std::string& game_id, const HttpRequest& request) {
  ApiError error;
  HeldSeat seat;
  v1::PlayAnswer answer;
  if (!ReadAnswer(request.body, &answer, &error)) return ErrorResponse(error);
  if (!FindSeat(session, game_id, &seat, &error)) return ErrorResponse(error);
  if (!play_->Answer(HexOf(session.token_sha256), game_id, answer, &error)) return ErrorResponse(error);
  return JsonResponse(202, {{"sent", true}});
}

HttpResponse PlayApi::Resign(const Session& session, const std::string& game_id, const HttpRequest& request) {
  ApiError error;
  // Nothing to say but that: no body, or an empty JSON object.
  if (!ReadNothing(request.body, &error)) return ErrorResponse(error);
  HeldSeat seat;
  if (!FindSeat(session, game_id, &seat, &error)) return ErrorResponse(error);
  v1::PlayAnswer answer;
  answer.set_resign(true);
  if (!play_->Answer(HexOf(session.token_sha256), game_id, answer, &error)) return ErrorResponse(error);
  return JsonResponse(202, {{"sent", true}});
}

bool PlayApi::PrepareEvents(const HttpRequest& request, PlayEventsRequest* out, ApiError* error) {
  std::vector<std::string> args;
  MatchRoute("/api/v1/play/{}/events", request.path, &args);
  Query query;
  if (!Query::Parse(request.query, &query, error) || !query.OnlyThese({}, error)) return false;
  if (!Authenticate(request, &out->session, error)) return false;
  if (!FindSeat(out->session, args[0], &out->seat, error)) return false;
  out->session_key = HexOf(out->session.token_sha256);
  return true;
}

std::shared_ptr<PlayStream> PlayApi::OpenEvents(const PlayEventsRequest& request) {
  PeopleStore* store = people_->store();
  const int64_t identity = request.session.person.id;
  const std::string game_id = request.seat.game_id;
  return play_->Open(request.session_key, request.seat,
                     [store, identity, game_id] { store->MarkSeatFinished(identity, game_id); });
}

void PlayApi::CloseEvents(const std::shared_ptr<PlayStream>& stream) { play_->Close(stream); }

}  // namespace metropolis::gateway
