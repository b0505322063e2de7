#include "services/gateway/api.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <functional>

#include "grpc/health/v1/health.grpc.pb.h"
#include "lib/common/credentials.h"
#include "lib/common/grpc_util.h"
#include "lib/flags/flags.h"
#include "services/gateway/analysis.h"
#include "services/gateway/tables.h"
#include "services/gateway/verification.h"

namespace metropolis::gateway {
namespace {

constexpr std::string_view kLivePrefix = "/api/v1/live/";
constexpr int64_t kMaxSeason = 1'000'000;
constexpr int64_t kMaxOffset = 100'000'000;
// Unix milliseconds up to the year 5000: anything later is a typo.
constexpr int64_t kMaxUnixMs = 95'617'584'000'000;

bool Fail(ApiError* error, ApiError e) {
  *error = std::move(e);
  return false;
}

bool CheckLadder(const std::string& id, const std::string& parameter, ApiError* error) {
  if (ValidLadderId(id)) return true;
  return Fail(error, BadParameter(parameter, "'" + id + "' is not a ladder id (^[a-z0-9][a-z0-9_-]{0,63}$)"));
}

bool CheckGame(const std::string& id, ApiError* error) {
  if (ValidGameId(id)) return true;
  return Fail(error, BadParameter("game_id",
                                  "'" + id.substr(0, 80) + "' is not a game id (1 to 64 letters, digits, '-' or '_')"));
}

bool CheckName(const std::string& name, const std::string& parameter, ApiError* error) {
  if (ValidPlayerName(name)) return true;
  return Fail(error, BadParameter(parameter, "'" + name.substr(0, 80) +
                                                 "' is not a player name (1 to 64 letters, digits, '-', '_' or '.')"));
}

bool Backend(const grpc::Status& s, std::string_view backend, ApiError* error) {
  if (s.ok()) return true;
  return Fail(error, BackendError(s, backend));
}

}  // namespace

HttpResponse JsonResponse(int status, const Json& body) {
  HttpResponse r;
  r.status = status;
  r.body = Dump(body);
  return r;
}

HttpResponse ErrorResponse(const ApiError& error) {
  HttpResponse r = JsonResponse(error.http, ErrorToJson(error));
  r.backend = error.backend;
  r.grpc_status = error.grpc_status;
  return r;
}

HttpResponse Api::Get(std::string_view path, std::string_view raw_query, std::string* route) {
  using Handler = bool (Api::*)(const Args&, const Query&, Json*, ApiError*);
  struct Route {
    std::string_view pattern;
    Handler handler;
    std::initializer_list<std::string_view> parameters;
  };
  static const Route kRoutes[] = {
      {"/api/v1/ladders", &Api::Ladders, {}},
      {"/api/v1/ladders/{}", &Api::Ladder, {}},
      {"/api/v1/ladders/{}/leaderboard", &Api::Leaderboard, {"season", "offset", "limit", "around", "q"}},
      {"/api/v1/players", &Api::Players, {"q", "limit"}},
      {"/api/v1/players/{}", &Api::Player, {"ladder", "season", "games", "history"}},
      {"/api/v1/players/{}/history", &Api::PlayerHistory, {"ladder", "season", "limit", "page_token"}},
      {"/api/v1/players/{}/luck", &Api::PlayerLuck, {}},
      {"/api/v1/games",
       &Api::Games,
       {"ladder", "season", "player", "tournament", "after", "before", "limit", "page_token"}},
      {"/api/v1/games/{}", &Api::Game, {}},
      {"/api/v1/games/{}/record", &Api::GameRecordFile, {}},
      {"/api/v1/games/{}/analysis", &Api::Analysis, {}},
      {"/api/v1/games/{}/positions/{}", &Api::Position, {"viewer"}},
      {"/api/v1/live", &Api::LiveGames, {}},
      {"/api/v1/live/{}", &Api::LiveGame, {}},
      {"/api/v1/tournaments", &Api::Tournaments, {}},
      {"/api/v1/tournaments/{}", &Api::Tournament, {}},
      {"/api/v1/tournaments/{}/games", &Api::TournamentGames, {}},
  };
  Args args;
  // The bulk export answers JSON lines rather than one JSON value.
  for (const auto& [pattern, tournament] : {std::pair<std::string_view, bool>{"/api/v1/ladders/{}/games.jsonl", false},
                                            {"/api/v1/tournaments/{}/games.jsonl", true}}) {
    if (!MatchRoute(pattern, path, &args)) continue;
    *route = pattern;
    return GamesJsonLines(args[0], tournament, raw_query);
  }
  for (const Route& r : kRoutes) {
    if (!MatchRoute(r.pattern, path, &args)) continue;
    *route = r.pattern;
    Query query;
    ApiError error;
    Json out;
    if (!Query::Parse(raw_query, &query, &error) || !query.OnlyThese(r.parameters, &error) ||
        !(this->*r.handler)(args, query, &out, &error))
      return ErrorResponse(error);
    return JsonResponse(200, out);
  }
  *route = "unmatched";
  return ErrorResponse(NotFound("no endpoint " + std::string(path.substr(0, 200)) + " (docs/GATEWAY.md lists them)"));
}

std::string Api::AnyLadder() {
  std::vector<LadderRow> ladders;
  if (!catalog_->Ladders(&ladders).ok() || ladders.empty()) return "";
  return ladders[0].id;
}

bool Api::FindPlayer(const std::string& name, const std::string& parameter, PlayerRow* out, ApiError* error) {
  if (!CheckName(name, parameter, error)) return false;
  const grpc::Status s = catalog_->Player(name, out);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
    ApiError e = NotFound(s.error_message());
    if (parameter != "name") e.parameter = parameter;
    return Fail(error, e);
  }
  return Backend(s, "accounts", error);
}

// ---- Ladders and leaderboards --------------------------------------------------------

bool Api::Ladders(const Args&, const Query&, Json* out, ApiError* error) {
  std::vector<LadderRow> ladders;
  if (!Backend(catalog_->Ladders(&ladders), "accounts", error)) return false;
  Json list = Json::array();
  for (const LadderRow& l : ladders) list.push_back(LadderToJson(l));
  *out = {{"ladders", list}};
  return true;
}

bool Api::Ladder(const Args& args, const Query&, Json* out, ApiError* error) {
  if (!CheckLadder(args[0], "ladder", error)) return false;
  LadderRow ladder;
  const grpc::Status s = catalog_->Ladder(args[0], &ladder);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return Fail(error, NotFound(s.error_message()));
  if (!Backend(s, "accounts", error)) return false;
  *out = LadderToJson(ladder);
  return true;
}

bool Api::Leaderboard(const Args& args, const Query& q, Json* out, ApiError* error) {
  if (!CheckLadder(args[0], "ladder", error)) return false;
  int64_t season, offset, limit;
  if (!q.Int("season", 0, 0, kMaxSeason, &season, error) || !q.Int("offset", 0, 0, kMaxOffset, &offset, error) ||
      !q.Int("limit", 50, 1, limits_.leaderboard, &limit, error))
    return false;
  const int given = int(q.Has("around")) + int(q.Has("q")) + int(q.Has("offset"));
  if (given > 1)
    return Fail(error, BadParameter(q.Has("q") ? "q" : "around", "offset, around and q exclude each other"));

  if (q.Has("q")) {
    // Search: the players whose names start with q, with their standing here.
    const std::string prefix = q.Get("q");
    if (!CheckName(prefix, "q", error)) return false;
    std::vector<PlayerRow> players;
    if (!Backend(catalog_->SearchPlayers(prefix, int(std::min<int64_t>(limit, limits_.search)), &players), "accounts",
                 error))
      return false;
    Json entries = Json::array();
    uint32_t board_season = uint32_t(season);
    uint64_t total = 0;
    for (const PlayerRow& p : players) {
      v1::GetPlayerRatingRequest request;
      request.set_ladder(args[0]);
      request.set_season(uint32_t(season));
      request.set_identity_id(p.id);
      v1::PlayerRating rating;
      auto context = backends_->Context();
      const grpc::Status s = backends_->ratings().GetPlayerRating(context.get(), request, &rating);
      if (s.error_code() == grpc::StatusCode::NOT_FOUND && s.error_message().find("has no rating") != std::string::npos)
        continue;  // not rated on this board
      if (!Backend(s, "ratings", error)) return false;
      board_season = rating.season();
      total = rating.total();
      Json entry = {{"identity_id", p.id},
                    {"name", p.name},
                    {"ordinal", rating.ordinal()},
                    {"mu", rating.mu()},
                    {"sigma", rating.sigma()},
                    {"games", rating.games()},
                    {"provisional", rating.provisional()}};
      entry["rank"] = rating.provisional() ? Json(nullptr) : Json(rating.rank());
      entries.push_back(std::move(entry));
    }
    *out = {{"ladder", args[0]}, {"season", board_season}, {"total", total}, {"q", prefix}, {"entries", entries}};
    if (players.empty() || entries.empty()) {
      // The board itself must exist for an empty answer to mean "nobody".
      v1::GetLeaderboardRequest request;
      request.set_ladder(args[0]);
      request.set_season(uint32_t(season));
      request.set_limit(1);
      v1::Leaderboard board;
      auto context = backends_->Context();
      if (!Backend(backends_->ratings().GetLeaderboard(context.get(), request, &board), "ratings", error)) return false;
      (*out)["season"] = board.season();
      (*out)["total"] = board.total();
    }
    return true;
  }

  v1::GetLeaderboardRequest request;
  request.set_ladder(args[0]);
  request.set_season(uint32_t(season));
  request.set_offset(uint32_t(offset));
  request.set_limit(uint32_t(limit));
  PlayerRow around;
  if (q.Has("around")) {
    if (!FindPlayer(q.Get("around"), "around", &around, error)) return false;
    request.set_around_identity_id(around.id);
  }
  v1::Leaderboard board;
  auto context = backends_->Context();
  const grpc::Status s = backends_->ratings().GetLeaderboard(context.get(), request, &board);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND && q.Has("around") &&
      s.error_message().find("is not ranked") != std::string::npos) {
    ApiError e = NotFound("around: player '" + around.name + "' is not ranked on this board (no rating, or still " +
                          "in placement)");
    e.parameter = "around";
    return Fail(error, e);
  }
  if (!Backend(s, "ratings", error)) return false;
  *out = LeaderboardToJson(board);
  (*out)["offset"] = board.entries_size() ? board.entries(0).rank() - 1 : uint64_t(offset);
  (*out)["limit"] = limit;
  return true;
}

// ---- Players ---------------------------------------------------------------------------

bool Api::Players(const Args&, const Query& q, Json* out, ApiError* error) {
  int64_t limit;
  if (!q.Int("limit", 20, 1, limits_.search, &limit, error)) return false;
  if (!q.Has("q")) return Fail(error, BadParameter("q", "required: the start of a player's name"));
  const std::string prefix = q.Get("q");
  if (!CheckName(prefix, "q", error)) return false;
  std::vector<PlayerRow> players;
  if (!Backend(catalog_->SearchPlayers(prefix, int(limit), &players), "accounts", error)) return false;
  Json list = Json::array();
  for (const PlayerRow& p : players) list.push_back(PlayerToJson(p));
  *out = {{"q", prefix}, {"players", list}};
  return true;
}

bool Api::Player(const Args& args, const Query& q, Json* out, ApiError* error) {
  int64_t season, games, history;
  if (!q.Int("season", 0, 0, kMaxSeason, &season, error) ||
      !q.Int("games", 10, 0, limits_.player_games, &games, error) ||
      !q.Int("history", 50, 0, limits_.history, &history, error))
    return false;
  if (q.Has("ladder") && !CheckLadder(q.Get("ladder"), "ladder", error)) return false;
  if (q.Has("season") && !q.Has("ladder")) return Fail(error, BadParameter("season", "needs ladder"));
  PlayerRow player;
  if (!FindPlayer(args[0], "name", &player, error)) return false;

  // Ratings: on the ladder asked for, else on every ladder's current season.
  std::vector<std::pair<std::string, uint32_t>> boards;
  if (q.Has("ladder")) {
    LadderRow ladder;
    const grpc::Status s = catalog_->Ladder(q.Get("ladder"), &ladder);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
      ApiError e = NotFound(s.error_message());
      e.parameter = "ladder";
      return Fail(error, e);
    }
    if (!Backend(s, "accounts", error)) return false;
    boards.push_back({ladder.id, uint32_t(season)});
  } else {
    std::vector<LadderRow> ladders;
    if (!Backend(catalog_->Ladders(&ladders), "accounts", error)) return false;
    for (const LadderRow& l : ladders)
      if (l.current_season() > 0) boards.push_back({l.id, 0});
  }
  Json ratings = Json::array();
  std::string main_ladder;
  uint32_t main_season = 0, most_games = 0;
  for (const auto& [ladder, board_season] : boards) {
    v1::GetPlayerRatingRequest request;
    request.set_ladder(ladder);
    request.set_season(board_season);
    request.set_identity_id(player.id);
    v1::PlayerRating rating;
    auto context = backends_->Context();
    const grpc::Status s = backends_->ratings().GetPlayerRating(context.get(), request, &rating);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) continue;  // no rating there, or no such season
    if (!Backend(s, "ratings", error)) return false;
    ratings.push_back(PlayerRatingToJson(rating));
    if (main_ladder.empty() || rating.games() > most_games) {
      main_ladder = ladder;
      main_season = rating.season();
      most_games = rating.games();
    }
  }

  // The rating history of the ladder asked for, or of the one played most.
  Json history_json = nullptr;
  if (!main_ladder.empty() && history > 0) {
    v1::GetRatingHistoryRequest request;
    request.set_ladder(main_ladder);
    request.set_season(main_season);
    request.set_identity_id(player.id);
    request.set_limit(uint32_t(history));
    v1::RatingHistory h;
    auto context = backends_->Context();
    if (!Backend(backends_->ratings().GetRatingHistory(context.get(), request, &h), "ratings", error)) return false;
    Json entries = Json::array();
    for (const auto& e : h.entries()) entries.push_back(HistoryEntryToJson(e));
    history_json = {{"ladder", main_ladder}, {"season", main_season}, {"entries", entries}};
    history_json["next_page_token"] = h.next_page_token().empty() ? Json(nullptr) : Json(h.next_page_token());
  }

  // Recent games, and head-to-head results over a longer window.
  v1::ListStoredGamesRequest request;
  request.set_identity_id(player.id);
  if (q.Has("ladder")) {
    request.set_ladder(q.Get("ladder"));
    request.set_season(uint32_t(season));
  }
  request.set_page_size(uint32_t(std::max<int64_t>(games, limits_.opponent_window)));
  v1::ListStoredGamesResponse listed;
  auto context = backends_->Context();
  if (!Backend(backends_->replays().ListGames(context.get(), request, &listed), "replays", error)) return false;
  std::vector<v1::StoredGameSummary> window(listed.games().begin(), listed.games().end());
  Json recent = Json::array();
  for (size_t i = 0; i < window.size() && i < size_t(games); ++i) recent.push_back(GameSummaryToJson(window[i]));
  Json opponents = Json::array();
  for (const OpponentRecord& r : FrequentOpponents(window, player.id, 10)) opponents.push_back(OpponentToJson(r));

  *out = PlayerToJson(player);
  (*out)["ratings"] = ratings;
  (*out)["history"] = history_json;
  (*out)["recent_games"] = recent;
  (*out)["opponents"] = {{"games_considered", window.size()}, {"opponents", opponents}};
  // Over the same window: a profile's figures without another read.
  (*out)["stats"] = PlayerStatsToJson(PlayerStatsOf(window, player.id));
  (*out)["stats"]["games_considered"] = window.size();
  return true;
}

bool Api::PlayerHistory(const Args& args, const Query& q, Json* out, ApiError* error) {
  int64_t season, limit;
  if (!q.Int("season", 0, 0, kMaxSeason, &season, error) || !q.Int("limit", 50, 1, limits_.history, &limit, error))
    return false;
  if (!q.Has("ladder")) return Fail(error, BadParameter("ladder", "required"));
  if (!CheckLadder(q.Get("ladder"), "ladder", error)) return false;
  PlayerRow player;
  if (!FindPlayer(args[0], "name", &player, error)) return false;
  v1::GetRatingHistoryRequest request;
  request.set_ladder(q.Get("ladder"));
  request.set_season(uint32_t(season));
  request.set_identity_id(player.id);
  request.set_limit(uint32_t(limit));
  request.set_page_token(q.Get("page_token"));
  v1::RatingHistory h;
  auto context = backends_->Context();
  const grpc::Status s = backends_->ratings().GetRatingHistory(context.get(), request, &h);
  if (!Backend(s, "ratings", error)) {
    if (s.error_message().rfind("page_token", 0) == 0) error->parameter = "page_token";
    return false;
  }
  Json entries = Json::array();
  for (const auto& e : h.entries()) entries.push_back(HistoryEntryToJson(e));
  *out = {{"player", player.name}, {"ladder", q.Get("ladder")}, {"entries", entries}};
  (*out)["next_page_token"] = h.next_page_token().empty() ? Json(nullptr) : Json(h.next_page_token());
  return true;
}

// A read of its own rather than a part of the player page: the page stays whole
// when the replays service analyses no games or cannot say, and the luck
// panel alone is missing.
bool Api::PlayerLuck(const Args& args, const Query&, Json* out, ApiError* error) {
  PlayerRow player;
  if (!FindPlayer(args[0], "name", &player, error)) return false;
  v1::GetLuckSummaryRequest request;
  request.set_identity_id(player.id);
  v1::LuckSummary summary;
  auto context = backends_->Context();
  if (!Backend(backends_->replays().GetLuckSummary(context.get(), request, &summary), "replays", error)) return false;
  *out = LuckSummaryToJson(summary);
  (*out)["player"] = player.name;
  return true;
}

// ---- Stored games -----------------------------------------------------------------------

bool Api::Games(const Args&, const Query& q, Json* out, ApiError* error) {
  int64_t season, after, before, limit;
  if (!q.Int("season", 0, 0, kMaxSeason, &season, error) || !q.Int("after", 0, 0, kMaxUnixMs, &after, error) ||
      !q.Int("before", 0, 0, kMaxUnixMs, &before, error) || !q.Int("limit", 20, 1, limits_.games, &limit, error))
    return false;
  v1::ListStoredGamesRequest request;
  if (q.Has("ladder")) {
    if (!CheckLadder(q.Get("ladder"), "ladder", error)) return false;
    request.set_ladder(q.Get("ladder"));
  }
  if (q.Has("season") && !q.Has("ladder")) return Fail(error, BadParameter("season", "needs ladder"));
  if (q.Has("tournament")) {
    if (!ValidGameId(q.Get("tournament")))
      return Fail(error, BadParameter("tournament", "not a tournament id (1 to 64 letters, digits, '-' or '_')"));
    request.set_tournament(q.Get("tournament"));
  }
  if (q.Has("player")) {
    PlayerRow player;
    if (!FindPlayer(q.Get("player"), "player", &player, error)) return false;
    request.set_identity_id(player.id);
  }
  if (after && before && after >= before) return Fail(error, BadParameter("before", "must be later than after"));
  request.set_season(uint32_t(season));
  request.set_finished_after_unix_ms(after);
  request.set_finished_before_unix_ms(before);
  request.set_page_size(uint32_t(limit));
  request.set_page_token(q.Get("page_token"));
  v1::ListStoredGamesResponse response;
  auto context = backends_->Context();
  const grpc::Status s = backends_->replays().ListGames(context.get(), request, &response);
  if (!Backend(s, "replays", error)) {
    if (s.error_message().rfind("page_token", 0) == 0) error->parameter = "page_token";
    return false;
  }
  Json games = Json::array();
  for (const auto& g : response.games()) games.push_back(GameSummaryToJson(g));
  *out = {{"games", games}};
  (*out)["next_page_token"] = response.next_page_token().empty() ? Json(nullptr) : Json(response.next_page_token());
  return true;
}

bool Api::Game(const Args& args, const Query&, Json* out, ApiError* error) {
  if (!CheckGame(args[0], error)) return false;
  v1::GetReplayRequest request;
  request.set_game_id(args[0]);
  v1::Replay replay;
  auto context = backends_->Context();
  if (!Backend(backends_->replays().GetReplay(context.get(), request, &replay), "replays", error)) return false;
  *out = ReplayToJson(replay.game());
  (*out)["chance"] = ChanceToJson(replay.game());
  return true;
}

bool Api::GameRecordFile(const Args& args, const Query&, Json* out, ApiError* error) {
  if (!CheckGame(args[0], error)) return false;
  v1::ExportGameRequest request;
  request.set_game_id(args[0]);
  v1::ExportGameResponse response;
  auto context = backends_->Context();
  if (!Backend(backends_->replays().ExportGame(context.get(), request, &response), "replays", error)) return false;
  return RecordToJson(args[0], response, out, error);
}

bool Api::Analysis(const Args& args, const Query&, Json* out, ApiError* error) {
  return AnalysisCall(backends_, args[0], /*request=*/false, out, error);
}

bool Api::Position(const Args& args, const Query& q, Json* out, ApiError* error) {
  if (!CheckGame(args[0], error)) return false;
  int64_t step, viewer;
  if (!cli::ParseInt(args[1], 0, 1'000'000, &step))
    return Fail(error, BadParameter("step", "'" + args[1].substr(0, 40) + "' is not an integer in 0..1000000"));
  if (!q.Int("viewer", -1, -1, 3, &viewer, error)) return false;
  v1::GetPositionRequest request;
  request.set_game_id(args[0]);
  request.set_step(uint32_t(step));
  request.set_viewer(int32_t(viewer));
  v1::PositionResponse position;
  auto context = backends_->Context();
  const grpc::Status s = backends_->replays().GetPosition(context.get(), request, &position);
  if (!Backend(s, "replays", error)) {
    if (s.error_code() == grpc::StatusCode::OUT_OF_RANGE) error->parameter = "step";
    if (s.error_message().rfind("viewer", 0) == 0) error->parameter = "viewer";
    return false;
  }
  *out = PositionToJson(args[0], int(viewer), position);
  return true;
}

// ---- Live games ---------------------------------------------------------------------------

bool Api::LiveGames(const Args&, const Query&, Json* out, ApiError* error) {
  grpc::Status matchmaker_status;
  const std::vector<std::string> hosts = backends_->HostAddresses(AnyLadder(), &matchmaker_status);
  if (hosts.empty() && !matchmaker_status.ok()) return Backend(matchmaker_status, "matchmaker", error);
  Json games = Json::array();
  Json host_list = Json::array();
  for (const std::string& address : hosts) {
    Json host = {{"address", address}, {"live", 0}};
    v1::ListGamesRequest request;
    request.set_page_size(1000);
    // A host with more than a page of live games is listed in pages; a few
    // pages at most, so that one answer stays small.
    grpc::Status s;
    for (int page = 0; page < 5; ++page) {
      v1::ListGamesResponse response;
      auto context = backends_->HostContext();
      s = backends_->Host(address)->ListGames(context.get(), request, &response);
      if (!s.ok()) break;
      for (const auto& g : response.games()) {
        if (g.status() != v1::GAME_STATUS_LIVE) continue;
        backends_->NoteGameHost(g.game_id(), address);
        Json game = LiveGameToJson(g);
        if (game["host"].get<std::string>().empty()) game["host"] = address;
        games.push_back(std::move(game));
        host["live"] = host["live"].get<int>() + 1;
      }
      if (response.next_page_token().empty()) break;
      request.set_page_token(response.next_page_token());
    }
    if (!s.ok()) host["error"] = ErrorToJson(BackendError(s, "gamehost"))["error"];
    host_list.push_back(std::move(host));
  }
  *out = {{"games", games}, {"hosts", host_list}};
  if (!matchmaker_status.ok())
    (*out)["matchmaker_error"] = ErrorToJson(BackendError(matchmaker_status, "matchmaker"))["error"];
  return true;
}

bool Api::FindLiveGame(const std::string& game_id, v1::GameInfo* out, ApiError* error) {
  if (!CheckGame(game_id, error)) return false;
  // The host that listed it, then every known host.
  std::vector<std::string> hosts;
  if (std::string known = backends_->GameHostOf(game_id); !known.empty()) hosts.push_back(known);
  grpc::Status matchmaker_status;
  for (const std::string& h : backends_->HostAddresses(AnyLadder(), &matchmaker_status))
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  grpc::Status last_failure;
  for (const std::string& address : hosts) {
    v1::GetGameRequest request;
    request.set_game_id(game_id);
    auto context = backends_->HostContext();
    const grpc::Status s = backends_->Host(address)->GetGame(context.get(), request, out);
    if (s.ok()) {
      if (out->host().empty()) out->set_host(address);
      backends_->NoteGameHost(game_id, out->host());
      return true;
    }
    if (s.error_code() != grpc::StatusCode::NOT_FOUND) last_failure = s;
  }
  // Not found anywhere that answered; a host that did not answer might run it.
  if (!last_failure.ok()) return Backend(last_failure, "gamehost", error);
  if (hosts.empty() && !matchmaker_status.ok()) return Backend(matchmaker_status, "matchmaker", error);
  return Fail(error,
              NotFound("no game host knows game '" + game_id + "' (finished games: /api/v1/games/" + game_id + ")"));
}

bool Api::LiveGame(const Args& args, const Query&, Json* out, ApiError* error) {
  v1::GameInfo info;
  if (!FindLiveGame(args[0], &info, error)) return false;
  *out = LiveGameToJson(info);
  return true;
}

bool Api::IsLiveStream(std::string_view path) {
  Args args;
  return MatchRoute("/api/v1/live/{}/events", path, &args);
}

bool Api::PrepareLiveStream(std::string_view path, std::string_view raw_query, LiveStreamRequest* out,
                            ApiError* error) {
  Args args;
  if (!MatchRoute("/api/v1/live/{}/events", path, &args)) return Fail(error, NotFound("not a live stream"));
  Query q;
  if (!Query::Parse(raw_query, &q, error) || !q.OnlyThese({"from_start"}, error) ||
      !q.Bool("from_start", false, &out->from_start, error))
    return false;
  v1::GameInfo info;
  if (!FindLiveGame(args[0], &info, error)) return false;
  out->game_id = args[0];
  out->host = info.host();
  return TableSpectatorDelay(backends_, out->game_id, &out->delay, error);
}

// ---- Tournaments ------------------------------------------------------------------------

namespace {

// The matchmaker hosts the Tournaments service: a gateway started without one
// cannot answer, which is the deployment's doing, not the client's.
ApiError NoMatchmaker() {
  ApiError e = MakeError(503, "UNAVAILABLE", "tournaments: the gateway has no --matchmaker, which hosts them");
  e.backend = "matchmaker";
  return e;
}

bool CheckTournament(const std::string& id, ApiError* error) {
  if (ValidTournamentId(id)) return true;
  return Fail(error, BadParameter("tournament", "'" + id.substr(0, 80) +
                                                    "' is not a tournament id (1 to 40 letters, digits, '-' or '_')"));
}

}  // namespace

bool Api::Tournaments(const Args&, const Query&, Json* out, ApiError* error) {
  if (!backends_->tournaments()) return Fail(error, NoMatchmaker());
  v1::ListTournamentsResponse response;
  auto context = backends_->Context();
  if (!Backend(backends_->tournaments()->ListTournaments(context.get(), v1::ListTournamentsRequest(), &response),
               "matchmaker", error))
    return false;
  Json list = Json::array();
  for (const auto& t : response.tournaments()) list.push_back(TournamentSummaryToJson(t));
  *out = {{"tournaments", list}};
  return true;
}

bool Api::GetTournament(const std::string& id, v1::Tournament* out, ApiError* error) {
  if (!CheckTournament(id, error)) return false;
  if (!backends_->tournaments()) return Fail(error, NoMatchmaker());
  v1::GetTournamentRequest request;
  request.set_id(id);
  auto context = backends_->Context();
  return Backend(backends_->tournaments()->GetTournament(context.get(), request, out), "matchmaker", error);
}

bool Api::Tournament(const Args& args, const Query&, Json* out, ApiError* error) {
  v1::Tournament t;
  if (!GetTournament(args[0], &t, error)) return false;
  *out = TournamentToJson(t);
  return true;
}

bool Api::TournamentGames(const Args& args, const Query&, Json* out, ApiError* error) {
  // The tournament first: its entrants name the seats of its games.
  v1::Tournament t;
  if (!GetTournament(args[0], &t, error)) return false;
  v1::ListTournamentGamesRequest request;
  request.set_id(args[0]);
  v1::ListTournamentGamesResponse games;
  auto context = backends_->Context();
  if (!Backend(backends_->tournaments()->ListTournamentGames(context.get(), request, &games), "matchmaker", error))
    return false;
  *out = TournamentGamesToJson(t, games);
  return true;
}

HttpResponse Api::GamesJsonLines(const std::string& id, bool tournament, std::string_view raw_query) {
  Query q;
  ApiError error;
  int64_t limit = 0;
  if (!Query::Parse(raw_query, &q, &error) || !q.OnlyThese({"cursor", "limit"}, &error) ||
      !q.Int("limit", 100, 1, 500, &limit, &error) ||
      !(tournament ? CheckTournament(id, &error) : CheckLadder(id, "ladder", &error)))
    return ErrorResponse(error);
  v1::ExportGamesRequest request;
  (tournament ? request.mutable_tournament() : request.mutable_ladder())->assign(id);
  request.set_cursor(q.Get("cursor"));
  request.set_page_size(uint32_t(limit));
  v1::ExportGamesResponse response;
  auto context = backends_->Context();
  const grpc::Status s = backends_->replays().ExportGames(context.get(), request, &response);
  if (!Backend(s, "replays", &error)) {
    if (s.error_message().rfind("cursor", 0) == 0) error.parameter = "cursor";
    return ErrorResponse(error);
  }
  HttpResponse r;
  r.content_type = "application/x-ndjson";
  for (const v1::ExportedGame& g : response.games()) {
    r.body += g.record_json();
    r.body += '\n';
  }
  r.headers = {{"Metropolis-Cursor", response.next_cursor()}, {"Metropolis-More", response.more() ? "true" : "false"}};
  return r;
}

Json Api::Readiness(bool* all_serving) {
  namespace health = grpc::health::v1;
  *all_serving = true;
  Json out = Json::object();
  auto check = [&](const char* name, const std::string& address) {
    if (address.empty()) return;
    auto stub = health::Health::NewStub(services::Dial(address));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(1));
    health::HealthCheckRequest request;
    health::HealthCheckResponse response;
    const grpc::Status s = stub->Check(&context, request, &response);
    const bool serving = s.ok() && response.status() == health::HealthCheckResponse::SERVING;
    *all_serving &= serving;
    out[name] = s.ok() ? health::HealthCheckResponse::ServingStatus_Name(response.status())
                       : std::string(services::StatusCodeName(s.error_code()));
  };
  check("replays", backends_->options().replays);
  check("ratings", backends_->options().ratings);
  check("matchmaker", backends_->options().matchmaker);
  check("accounts", backends_->options().accounts);
  return out;
}

}  // namespace metropolis::gateway
