#include "services/gateway/json.h"

#include <algorithm>
#include <map>

#include "engine/action.h"
#include "lib/chance/verifiable.h"
#include "lib/common/grpc_util.h"
#include "lib/protocol/convert.h"
#include "lib/ranking/ranks.h"
#include "services/gateway/proto_json.h"

namespace metropolis::gateway {

Json ErrorToJson(const ApiError& e) {
  Json error = {{"code", e.http}, {"status", e.status}, {"message", e.message}};
  if (!e.parameter.empty()) error["parameter"] = e.parameter;
  if (!e.backend.empty()) error["backend"] = e.backend;
  if (!e.grpc_status.empty()) error["grpc_status"] = e.grpc_status;
  return {{"error", error}};
}

int HttpStatusFor(grpc::StatusCode code) {
  switch (code) {
    case grpc::OK:
      return 200;
    case grpc::INVALID_ARGUMENT:
    case grpc::OUT_OF_RANGE:
      return 400;
    case grpc::NOT_FOUND:
      return 404;
    case grpc::PERMISSION_DENIED:
      return 403;
    case grpc::FAILED_PRECONDITION:
    case grpc::ALREADY_EXISTS:
      return 409;
    // The backend is down, overloaded or slow: the client may try again.
    case grpc::UNAVAILABLE:
    case grpc::DEADLINE_EXCEEDED:
    case grpc::RESOURCE_EXHAUSTED:
    case grpc::ABORTED:
    case grpc::CANCELLED:
      return 503;
    // The backend refused the gateway's own credentials, or failed: not the
    // client's doing, and not fixed by trying again.
    default:
      return 502;
  }
}

ApiError BackendError(const grpc::Status& status, std::string_view backend) {
  ApiError e;
  e.http = HttpStatusFor(status.error_code());
  e.status = services::StatusCodeName(status.error_code());
  e.grpc_status = e.status;
  e.backend = std::string(backend);
  e.message = std::string(backend) + ": " + status.error_message();
  return e;
}

ApiError InTheirWords(const grpc::Status& status, ApiError error) {
  switch (status.error_code()) {
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      error.http = 409;
      [[fallthrough]];
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::FAILED_PRECONDITION:
      error.message = status.error_message();
      break;
    default:
      break;
  }
  return error;
}

Json ProtoToJson(const google::protobuf::Message& message) { return Json::parse(PrintProtoJson(message)); }

void AddActionTexts(google::protobuf::RepeatedPtrField<v1::Event>* events) {
  for (v1::Event& e : *events) {
    if (!e.has_action() || !e.action().text().empty()) continue;
    // Through the engine's event rather than the bare code: a spectator's chance
    // outcome carries a hidden card, which no code of its own names.
    metropolis::Event event;
    std::string error;
    if (!protocol::EventFromProto(e, &event, &error)) continue;
    v1::Event with_text;
    protocol::EventToProto(event, &with_text, {.want_text = true});
    e.mutable_action()->set_text(with_text.action().text());
  }
}

Json ActionToJson(uint64_t code) {
  const std::optional<Action> a = Decode(code);
  return {{"code", std::to_string(code)}, {"text", a ? ActionToString(*a) : ""}};
}

Json LadderToJson(const LadderRow& l) {
  Json seasons = Json::array();
  for (const SeasonRow& s : l.seasons) {
    Json season = {{"season", s.season}, {"starts_unix_ms", s.starts_unix_ms}};
    season["ends_unix_ms"] = s.ends_unix_ms ? Json(s.ends_unix_ms) : Json(nullptr);
    seasons.push_back(std::move(season));
  }
  auto never_is_null = [](int64_t ms) { return ms < 0 ? Json(nullptr) : Json(ms); };
  return {{"id", l.id},
          {"title", l.title},
          {"ruleset", l.ruleset},
          {"options", l.options},
          {"seats", l.seats},
          {"placement_games", l.placement_games},
          {"decision_ms", l.decision_ms},
          {"time_bank_ms", l.time_bank_ms},
          {"allow_three_after_ms", never_is_null(l.allow_three_after_ms)},
          {"bot_fill_after_ms", never_is_null(l.bot_fill_after_ms)},
          {"mu", l.mu},
          {"sigma", l.sigma},
          {"created_unix_ms", l.created_unix_ms},
          {"current_season", l.current_season()},
          {"seasons", seasons}};
}

Json PlayerToJson(const PlayerRow& p) {
  Json out = {{"id", p.id}, {"name", p.name}, {"kind", p.kind}, {"created_unix_ms", p.created_unix_ms}};
  out["owner"] = p.owner.empty() ? Json(nullptr) : Json(p.owner);
  return out;
}

Json EntryToJson(const v1::LeaderboardEntry& e) {
  return {{"rank", e.rank()},  {"identity_id", e.identity_id()},
          {"name", e.name()},  {"ordinal", e.ordinal()},
          {"mu", e.mu()},      {"sigma", e.sigma()},
          {"games", e.games()}};
}

Json LeaderboardToJson(const v1::Leaderboard& board) {
  Json entries = Json::array();
  for (const auto& e : board.entries()) entries.push_back(EntryToJson(e));
  return {{"ladder", board.ladder()}, {"season", board.season()}, {"total", board.total()}, {"entries", entries}};
}

Json PlayerRatingToJson(const v1::PlayerRating& r) {
  Json out = {{"ladder", r.ladder()},
              {"season", r.season()},
              {"mu", r.mu()},
              {"sigma", r.sigma()},
              {"ordinal", r.ordinal()},
              {"games", r.games()},
              {"provisional", r.provisional()},
              {"placement_games", r.placement_games()},
              {"total", r.total()}};
  out["rank"] = r.provisional() ? Json(nullptr) : Json(r.rank());
  return out;
}

Json HistoryEntryToJson(const v1::RatingHistoryEntry& e) {
  return {{"game_id", e.game_id()},
          {"rank", e.rank()},
          {"seats", e.seats()},
          {"mu_before", e.mu_before()},
          {"sigma_before", e.sigma_before()},
          {"mu_after", e.mu_after()},
          {"sigma_after", e.sigma_after()},
          {"ordinal_after", e.ordinal_after()},
          {"at_unix_ms", e.at_unix_ms()}};
}

std::vector<int> Places(const v1::GameResult& result, const google::protobuf::RepeatedPtrField<v1::SeatRecord>& seats) {
  ranking::GameResultInput input;
  input.winner = result.winner();
  input.resigned = result.reason() == v1::END_REASON_RESIGNED;
  for (uint32_t vp : result.vp()) input.victory_points.push_back(int(vp));
  if (seats.size() == result.vp_size())
    for (const auto& s : seats) input.forfeited.push_back(s.forfeited());
  std::vector<int> places;
  std::string why_not;
  if (!ranking::RanksFromResult(input, &places, &why_not)) return {};
  return places;
}

std::string EndReasonName(v1::EndReason reason) {
  switch (reason) {
    case v1::END_REASON_WON:
      return "won";
    case v1::END_REASON_LENGTH_CAP:
      return "length_cap";
    case v1::END_REASON_ABORTED:
      return "aborted";
    case v1::END_REASON_RESIGNED:
      return "resigned";
    default:
      return "unspecified";
  }
}

namespace {

Json ResultToJson(const v1::GameResult& r) {
  Json out = {{"reason", EndReasonName(r.reason())},
              {"vp", Json(std::vector<uint32_t>(r.vp().begin(), r.vp().end()))},
              {"actions", r.actions()},
              {"turns", r.turns()}};
  out["resigned_seat"] = r.has_resigned_seat() ? Json(r.resigned_seat()) : Json(nullptr);
  out["winner"] = r.winner() >= 0 ? Json(r.winner()) : Json(nullptr);
  return out;
}

// Whether the host's own bot played a seat. A record stored before SeatRecord.kind
// (UNSPECIFIED) reads as it always did: no identity, a built-in bot. An identity
// alone never decides for a newer record: a network client may have none.
bool BuiltIn(const v1::SeatRecord& s) {
  if (s.kind() == v1::SEAT_KIND_UNSPECIFIED) return s.identity_id() == 0;
  return s.kind() == v1::SEAT_KIND_BUILT_IN;
}

// The seats with their points and places.
Json SeatsToJson(const google::protobuf::RepeatedPtrField<v1::SeatRecord>& seats, const v1::GameResult& result) {
  const std::vector<int> places = Places(result, seats);
  Json out = Json::array();
  for (int i = 0; i < seats.size(); ++i) {
    const v1::SeatRecord& s = seats[i];
    const bool built_in = BuiltIn(s);
    Json seat = {{"seat", s.seat()},           {"name", s.name()},
                 {"built_in", built_in},       {"played_by", built_in ? "built_in" : "network"},
                 {"forfeited", s.forfeited()}, {"fallback_decisions", s.fallback_decisions()}};
    seat["identity_id"] = s.identity_id() ? Json(s.identity_id()) : Json(nullptr);
    seat["vp"] = i < result.vp_size() ? Json(result.vp(i)) : Json(nullptr);
    seat["place"] = size_t(i) < places.size() ? Json(places[size_t(i)]) : Json(nullptr);
    out.push_back(std::move(seat));
  }
  return out;
}

Json OptionalText(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace

Json GameSummaryToJson(const v1::StoredGameSummary& g) {
  return {{"game_id", g.game_id()},
          {"ladder", OptionalText(g.ladder())},
          {"season", g.season()},
          {"tournament", OptionalText(g.tournament())},
          {"finished_unix_ms", g.finished_unix_ms()},
          {"result", ResultToJson(g.result())},
          {"players", SeatsToJson(g.seats(), g.result())}};
}

Json ReplayToJson(const v1::CompletedGameRecord& g) {
  Json actions = Json::array();
  for (uint64_t code : g.actions()) actions.push_back(ActionToJson(code));
  return {{"game_id", g.game_id()},
          {"ladder", OptionalText(g.ladder())},
          {"season", g.season()},
          {"tournament", OptionalText(g.tournament())},
          {"created_unix_ms", g.created_unix_ms()},
          {"finished_unix_ms", g.finished_unix_ms()},
          {"chance_seed", std::to_string(g.chance_seed())},
          {"config", ProtoToJson(g.config())},
          {"result", ResultToJson(g.result())},
          {"players", SeatsToJson(g.seats(), g.result())},
          {"steps", g.actions_size()},
          {"actions", actions}};
}

Json PositionToJson(const std::string& game_id, int viewer, const v1::PositionResponse& p) {
  v1::PositionResponse copy = p;
  AddActionTexts(copy.mutable_events());
  Json events = Json::array();
  for (const auto& e : copy.events()) events.push_back(ProtoToJson(e));
  Json out = {{"game_id", game_id}, {"step", p.step()},        {"viewer", viewer}, {"view", ProtoToJson(p.view())},
              {"events", events},   {"notation", p.notation()}};
  out["action"] = p.has_action() ? ActionToJson(p.action().code()) : Json(nullptr);
  return out;
}

Json LiveGameToJson(const v1::GameInfo& g) {
  Json players = Json::array();
  for (const auto& p : g.players()) {
    Json player = {{"seat", p.seat()},           {"name", p.name()},
                   {"built_in", p.built_in()},   {"connected", p.connected()},
                   {"decisions", p.decisions()}, {"fallback_decisions", p.fallback_decisions()},
                   {"forfeited", p.forfeited()}};
    player["identity_id"] = p.identity_id() ? Json(p.identity_id()) : Json(nullptr);
    players.push_back(std::move(player));
  }
  Json out = {{"game_id", g.game_id()},
              {"host", g.host()},
              {"status", g.status() == v1::GAME_STATUS_FINISHED ? "finished" : "live"},
              {"ladder", OptionalText(g.ladder())},
              {"created_unix_ms", g.created_unix_ms()},
              {"step", g.step()},
              {"turn", g.turn()},
              {"vp", Json(std::vector<uint32_t>(g.vp().begin(), g.vp().end()))},
              {"players", players}};
  out["result"] = g.status() == v1::GAME_STATUS_FINISHED ? ResultToJson(g.result()) : Json(nullptr);
  // Announced before the first die: the seed revealed with the finished game
  // must hash to it (docs/CHANCE.md). null for a version 1 game.
  out["chance_commitment"] = g.chance_commitment().empty() ? Json(nullptr) : Json(chance::ToHex(g.chance_commitment()));
  return out;
}

std::vector<OpponentRecord> FrequentOpponents(const std::vector<v1::StoredGameSummary>& games, int64_t identity_id,
                                              size_t max) {
  std::map<int64_t, OpponentRecord> by_id;
  for (const v1::StoredGameSummary& g : games) {
    const std::vector<int> places = Places(g.result(), g.seats());
    if (places.empty()) continue;
    int me = -1;
    for (int i = 0; i < g.seats_size(); ++i)
      if (g.seats(i).identity_id() == identity_id) me = i;
    if (me < 0) continue;
    for (int i = 0; i < g.seats_size(); ++i) {
      const v1::SeatRecord& s = g.seats(i);
      if (i == me || s.identity_id() == 0 || s.identity_id() == identity_id) continue;
      OpponentRecord& r = by_id[s.identity_id()];
      r.identity_id = s.identity_id();
      if (r.name.empty()) r.name = s.name();  // the newest game's name
      ++r.games;
      const int mine = places[size_t(me)], theirs = places[size_t(i)];
      (mine < theirs ? r.ahead : mine > theirs ? r.behind : r.level)++;
    }
  }
  std::vector<OpponentRecord> out;
  for (auto& [id, r] : by_id) out.push_back(std::move(r));
  std::sort(out.begin(), out.end(), [](const OpponentRecord& a, const OpponentRecord& b) {
    return a.games != b.games ? a.games > b.games : a.name < b.name;
  });
  if (out.size() > max) out.resize(max);
  return out;
}

PlayerStats PlayerStatsOf(const std::vector<v1::StoredGameSummary>& games, int64_t identity_id) {
  // Ladders first by id, newest season first; the games of no ladder last.
  auto order = [](const std::pair<std::string, uint32_t>& a, const std::pair<std::string, uint32_t>& b) {
    if (a.first.empty() != b.first.empty()) return b.first.empty();
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  std::map<std::pair<std::string, uint32_t>, PlayerStatsRow, decltype(order)> boards(order);
  PlayerStats out;
  for (const v1::StoredGameSummary& g : games) {
    int me = -1;
    for (int i = 0; i < g.seats_size(); ++i)
      if (g.seats(i).identity_id() == identity_id) me = i;
    if (me < 0) continue;
    const std::vector<int> places = Places(g.result(), g.seats());
    const std::pair<std::string, uint32_t> key{g.ladder(), g.ladder().empty() ? 0 : g.season()};
    PlayerStatsRow& board = boards.try_emplace(key, PlayerStatsRow{key.first, key.second}).first->second;
    for (PlayerStatsRow* row : {&board, &out.all}) {
      ++row->games;
      if (places.empty()) continue;
      ++row->ranked;
      row->wins += places[size_t(me)] == 1;
      row->place_sum += places[size_t(me)];
    }
  }
  for (auto& [key, row] : boards) out.boards.push_back(std::move(row));
  return out;
}

namespace {

Json StatsRowToJson(const PlayerStatsRow& r) {
  Json out = {{"games", r.games}, {"ranked", r.ranked}, {"wins", r.wins}};
  out["average_place"] = r.ranked ? Json(double(r.place_sum) / r.ranked) : Json(nullptr);
  return out;
}

}  // namespace

Json PlayerStatsToJson(const PlayerStats& stats) {
  Json boards = Json::array();
  for (const PlayerStatsRow& r : stats.boards) {
    Json row = StatsRowToJson(r);
    row["ladder"] = r.ladder.empty() ? Json(nullptr) : Json(r.ladder);
    row["season"] = r.ladder.empty() ? Json(nullptr) : Json(r.season);
    boards.push_back(std::move(row));
  }
  return {{"boards", boards}, {"all", StatsRowToJson(stats.all)}};
}

Json OpponentToJson(const OpponentRecord& r) {
  return {{"identity_id", r.identity_id}, {"name", r.name},  {"games", r.games}, {"ahead", r.ahead},
          {"behind", r.behind},           {"level", r.level}};
}

Json TournamentSummaryToJson(const v1::Tournament& t) {
  Json out = {{"id", t.id()},
              {"title", t.title()},
              {"format", t.format()},
              {"ruleset", t.ruleset()},
              {"options", t.options()},
              {"seats", t.seats()},
              {"rounds", t.rounds()},
              {"state", t.state()},
              {"entrant_count", t.entrants_size()},
              {"created_unix_ms", t.created_unix_ms()},
              {"starts_unix_ms", t.starts_unix_ms()},
              {"max_entrants", t.max_entrants()},
              {"occurrence", t.occurrence()}};
  out["finished_unix_ms"] = t.finished_unix_ms() ? Json(t.finished_unix_ms()) : Json(nullptr);
  // A recurring tournament's period and series; null for one held once.
  out["repeat_every_ms"] = t.repeat_every_ms() ? Json(t.repeat_every_ms()) : Json(nullptr);
  out["series"] = t.series().empty() ? Json(nullptr) : Json(t.series());
  out["reason"] = t.reason().empty() ? Json(nullptr) : Json(t.reason());
  // An arena pairs until its end; the other formats have none.
  out["arena_ends_unix_ms"] = t.arena_ms() ? Json(t.starts_unix_ms() + t.arena_ms()) : Json(nullptr);
  return out;
}

Json TournamentToJson(const v1::Tournament& t) {
  Json out = TournamentSummaryToJson(t);
  out["seed"] = std::to_string(t.seed());
  out["max_games_per_entrant"] = t.max_games_per_entrant();
  out["decision_ms"] = t.decision_ms();
  out["time_bank_ms"] = t.time_bank_ms();
  out["games_total"] = t.games_total();
  out["games_playing"] = t.games_playing();
  out["games_finished"] = t.games_finished();
  out["games_void"] = t.games_void();
  out["sequential_stop"] = t.sequential_stop();
  out["current_round"] = t.current_round();
  Json entrants = Json::array();
  for (const auto& e : t.entrants())
    entrants.push_back({{"index", e.index()}, {"identity_id", e.identity_id()}, {"name", e.name()}});
  out["entrants"] = entrants;
  // Duplicate: score and interval are per complete set (Standing.sets).
  const bool duplicate = t.format() == "duplicate";
  Json standings = Json::array();
  for (const auto& s : t.standings()) {
    Json st = {{"rank", s.rank()},
               {"identity_id", s.identity_id()},
               {"name", s.name()},
               {"games", s.games()},
               {"wins", s.wins()}};
    const uint32_t counted = duplicate ? s.sets() : s.games();
    st["sets"] = duplicate ? Json(s.sets()) : Json(nullptr);
    st["score"] = counted > 0 ? Json(s.score()) : Json(nullptr);
    st["ci_low"] = counted >= 2 ? Json(s.ci_low()) : Json(nullptr);
    st["ci_high"] = counted >= 2 ? Json(s.ci_high()) : Json(nullptr);
    standings.push_back(std::move(st));
  }
  out["standings"] = standings;
  Json pairs = Json::array();
  for (const auto& p : t.pairs()) {
    Json pair = {{"a", {{"identity_id", p.a_identity_id()}, {"name", p.a_name()}}},
                 {"b", {{"identity_id", p.b_identity_id()}, {"name", p.b_name()}}},
                 {"shared", p.shared()},
                 {"difference", p.difference()},
                 {"better", p.better()},
                 {"sprt", p.sprt()},
                 {"sprt_llr", p.sprt_llr()},
                 {"sprt_sets", p.sprt_sets()}};
    pair["ci_low"] = p.shared() >= 2 ? Json(p.ci_low()) : Json(nullptr);
    pair["ci_high"] = p.shared() >= 2 ? Json(p.ci_high()) : Json(nullptr);
    pairs.push_back(std::move(pair));
  }
  out["pairs"] = pairs;
  return out;
}

Json TournamentGamesToJson(const v1::Tournament& t, const v1::ListTournamentGamesResponse& games) {
  std::map<int64_t, std::string> names;
  for (const auto& e : t.entrants()) names[e.identity_id()] = e.name();
  Json list = Json::array();
  for (const auto& g : games.games()) {
    Json players = Json::array();
    for (int seat = 0; seat < g.entrants_size(); ++seat) {
      const int64_t id = g.entrants(seat);
      Json p = {{"seat", seat}, {"identity_id", id}, {"name", names.count(id) ? names[id] : ""}};
      p["place"] = seat < g.places_size() ? Json(g.places(seat)) : Json(nullptr);
      players.push_back(std::move(p));
    }
    Json game = {{"number", g.number()},
                 {"round", g.round()},
                 {"rotation", g.rotation()},
                 {"state", g.state()},
                 {"chance_seed", std::to_string(g.chance_seed())},
                 {"board_seed", std::to_string(g.board_seed())},
                 {"attempts", g.attempts()},
                 {"players", players}};
    game["set"] = g.set() >= 0 ? Json(g.set()) : Json(nullptr);
    game["game_id"] = OptionalText(g.game_id());
    list.push_back(std::move(game));
  }
  return {{"tournament", t.id()}, {"games", list}};
}

std::string Dump(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string SseEvent(std::string_view event, std::string_view data, std::string_view id) {
  // Sized at once: grown by appends it would hold up to twice its length, and
  // a live game keeps its events texts for as long as it lasts.
  const size_t lines = 1 + size_t(std::count(data.begin(), data.end(), '\n'));
  std::string out;
  out.reserve(7 + event.size() + 1 + (id.empty() ? 0 : 4 + id.size() + 1) + data.size() + lines * 7 + 2);
  out = "event: ";
  out.append(event);
  out.push_back('\n');
  if (!id.empty()) {
    out += "id: ";
    out.append(id);
    out.push_back('\n');
  }
  // A newline inside data would end the field: each line is its own data field,
  // which the client joins back with newlines.
  size_t start = 0;
  while (true) {
    const size_t end = data.find('\n', start);
    out += "data: ";
    out.append(data.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    out.push_back('\n');
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  out.push_back('\n');
  return out;
}

std::string EventsToSse(const v1::Events& events) { return SseEvent("events", PrintProtoJson(events)); }

std::string SpectateUpdateToSse(v1::SpectateUpdate update) {
  switch (update.msg_case()) {
    case v1::SpectateUpdate::kWelcome:
      return SseEvent("welcome", Dump(ProtoToJson(update.welcome())));
    case v1::SpectateUpdate::kView:
      // Views and events are most of a live game's updates: printed straight
      // from the message, not parsed and printed again (they hold no text
      // but the engine's own, so nothing a parse would have to repair).
      return SseEvent("view", PrintProtoJson(update.view()), std::to_string(update.view().position().action_count()));
    case v1::SpectateUpdate::kEvents:
      AddActionTexts(update.mutable_events()->mutable_events());
      return EventsToSse(update.events());
    case v1::SpectateUpdate::kGameOver:
      return SseEvent("game_over", Dump(ProtoToJson(update.game_over())));
    case v1::SpectateUpdate::kPaused:
      return SseEvent("paused", Dump(ProtoToJson(update.paused())));
    default:
      return "";
  }
}

Json DecisionToJson(const v1::Decision& decision) {
  Json legal = Json::array();
  for (int i = 0; i < decision.view().legal_size(); ++i) {
    Json action = ActionToJson(decision.view().legal(i));
    // The host's text when it sent one (want_text); the same words otherwise.
    if (i < decision.legal_text_size()) action["text"] = decision.legal_text(i);
    legal.push_back(std::move(action));
  }
  return {{"step", decision.step()},
          {"view", ProtoToJson(decision.view())},
          {"legal", std::move(legal)},
          {"decision_ms_left", decision.decision_ms_left()},
          {"time_bank_ms_left", decision.time_bank_ms_left()}};
}

std::string PlayUpdateToSse(v1::PlayUpdate update) {
  switch (update.msg_case()) {
    case v1::PlayUpdate::kWelcome:
      return SseEvent("welcome", Dump(ProtoToJson(update.welcome())));
    case v1::PlayUpdate::kEvents:
      AddActionTexts(update.mutable_events()->mutable_events());
      return SseEvent("events", Dump(ProtoToJson(update.events())));
    case v1::PlayUpdate::kDecision:
      return SseEvent("decision", Dump(DecisionToJson(update.decision())), std::to_string(update.decision().step()));
    case v1::PlayUpdate::kRejected:
      return SseEvent("rejected", Dump(ProtoToJson(update.rejected())));
    case v1::PlayUpdate::kGameOver:
      return SseEvent("game_over", Dump(ProtoToJson(update.game_over())));
    case v1::PlayUpdate::kPaused:
      return SseEvent("paused", Dump(ProtoToJson(update.paused())));
    default:
      return "";
  }
}

}  // namespace metropolis::gateway
