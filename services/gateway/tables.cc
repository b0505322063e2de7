#include "services/gateway/tables.h"

#include <vector>

#include "services/gateway/backends.h"
#include "services/gateway/bodies.h"

namespace metropolis::gateway {
namespace {

constexpr std::string_view kTables = "/api/v1/tables", kTable = "/api/v1/tables/{}";
constexpr std::string_view kActions[] = {"/api/v1/tables/{}/join", "/api/v1/tables/{}/leave", "/api/v1/tables/{}/start",
                                         "/api/v1/tables/{}/rematch"};

// The matchmaker's refusals are written for the person (why a table cannot be
// joined, who may start it): shown as they are, without the backend's name. A
// full table is a conflict, not an overloaded backend.
ApiError TableError(const grpc::Status& status) {
  ApiError e = InTheirWords(status, BackendError(status, "matchmaker"));
  if (status.error_code() == grpc::StatusCode::PERMISSION_DENIED) e.message = status.error_message();
  return e;
}

int SeatOf(const v1::FriendsTable& t, int64_t identity_id) {
  if (identity_id == 0) return -1;
  for (const v1::TableSeat& s : t.seating())
    if (s.identity_id() == identity_id) return int(s.seat());
  return -1;
}

void ActFor(const Session* session, v1::TablePerson* out) {
  if (!session) return;
  out->set_identity_id(session->person.id);
  out->set_name(session->person.name);
}

// The person's seat in the table's game, saved with their seats once (after
// which the host knows the stream that plays it, and /play/{game} finds it).
bool SaveSeatOnce(Backends* backends, PeopleStore* seats, const Session& session, const v1::FriendsTable& table,
                  ApiError* error) {
  if (table.state() != "playing" || table.game_over() || SeatOf(table, session.person.id) < 0) return true;
  HeldSeat held;
  const grpc::Status found = seats->FindSeat(session.person.id, table.game_id(), &held);
  if (found.ok()) return true;
  if (found.error_code() != grpc::StatusCode::NOT_FOUND) {
    *error = StoreError(found);
    return false;
  }
  v1::GetTableRequest request;
  request.set_table_id(table.table_id());
  request.set_claim_seat(true);
  ActFor(&session, request.mutable_acting_for());
  v1::FriendsTable claimed;
  auto context = backends->Context();
  if (grpc::Status s = backends->matchmaker()->GetTable(context.get(), request, &claimed); !s.ok()) {
    *error = TableError(s);
    return false;
  }
  // No token: a stream plays the seat now, so the seat was saved already.
  if (claimed.your_seat().seat_token().empty()) return true;
  backends->NoteGameHost(table.game_id(), table.host());
  const grpc::Status saved = seats->SaveSeat(
      session.person.id,
      {table.game_id(), table.host(), claimed.your_seat().seat_token(), int(claimed.your_seat().seat())});
  if (!saved.ok()) *error = StoreError(saved);
  return saved.ok();
}

}  // namespace

bool TableSpectatorDelay(Backends* backends, const std::string& game_id, std::chrono::milliseconds* out,
                         ApiError* error) {
  *out = std::chrono::milliseconds(0);
  constexpr std::string_view kPrefix = "table-";
  const size_t last = game_id.rfind('-');
  if (!game_id.starts_with(kPrefix) || last == std::string::npos || last <= kPrefix.size()) return true;
  if (!backends->matchmaker()) {
    *error = MakeError(503, "UNAVAILABLE", "matchmaker: a table's game is shown only with its table's spectator delay");
    return false;
  }
  v1::GetTableRequest request;
  request.set_table_id(game_id.substr(kPrefix.size(), last - kPrefix.size()));
  v1::FriendsTable table;
  auto context = backends->Context();
  const grpc::Status s = backends->matchmaker()->GetTable(context.get(), request, &table);
  if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT) return true;  // not a table's id after all
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
    // Its table expired (twelve hours after its round started): its delay is
    // unknown, and the game is not shown rather than shown as it happens.
    *error = MakeError(404, "NOT_FOUND",
                       "game " + game_id + " is a table's whose table has expired: it is no longer shown live");
    return false;
  }
  if (!s.ok()) {
    *error = BackendError(s, "matchmaker");
    return false;
  }
  *out = std::chrono::milliseconds(table.settings().spectator_delay_ms());
  return true;
}

std::string TablesRoute(std::string_view path) {
  std::vector<std::string> args;
  if (path == kTables) return std::string(kTables);
  for (std::string_view action : kActions)
    if (MatchRoute(action, path, &args)) return std::string(action);
  if (MatchRoute(kTable, path, &args)) return std::string(kTable);
  return "";
}

bool IsTablesPath(std::string_view path) { return !TablesRoute(path).empty(); }

std::string TablesMethods(std::string_view path) {
  const std::string route = TablesRoute(path);
  if (route.empty()) return "";
  return route == kTable ? "GET, HEAD" : "POST";
}

Json TableToJson(const v1::FriendsTable& t, const Session* session) {
  const v1::TableSettings& s = t.settings();
  const int64_t me = session ? session->person.id : 0;
  Json members = Json::array(), seating = Json::array();
  bool member = false;
  for (const v1::TablePerson& m : t.members()) {
    members.push_back({{"id", m.identity_id()}, {"name", m.name()}});
    member = member || (me != 0 && m.identity_id() == me);
  }
  for (const v1::TableSeat& seat : t.seating())
    seating.push_back({{"seat", seat.seat()},
                       {"name", seat.name()},
                       {"id", seat.identity_id() == 0 ? Json(nullptr) : Json(seat.identity_id())},
                       {"bot", seat.identity_id() == 0}});
  const int my_seat = SeatOf(t, me);
  return {{"id", t.table_id()},
          {"state", t.state()},
          {"round", t.round()},
          {"settings",
           {{"ruleset", s.ruleset()},
            {"options", s.options()},
            {"seats", s.seats()},
            {"bot", s.bot()},
            {"decision_ms", s.decision_ms()},
            {"time_bank_ms", s.time_bank_ms()},
            {"ladder", s.ladder()},
            {"spectator_delay_ms", s.spectator_delay_ms()}}},
          {"creator", t.creator()},
          {"members", members},
          {"seating", seating},
          {"game_id", t.game_id()},
          {"game_over", t.game_over()},
          {"you",
           {{"member", member},
            {"creator", me != 0 && t.creator() == me},
            {"seat", my_seat < 0 ? Json(nullptr) : Json(my_seat)}}}};
}

HttpResponse HandleTables(Backends* backends, PeopleStore* seats, const Session* session, std::string_view path,
                          std::string_view body) {
  if (!backends->matchmaker())
    return ErrorResponse(MakeError(503, "UNAVAILABLE", "matchmaker: this gateway has no --matchmaker for tables"));
  const std::string route = TablesRoute(path);
  const bool reading = route == kTable;
  if (!session && !reading) return ErrorResponse(MakeError(401, "UNAUTHENTICATED", "sign in to play at a table"));
  std::vector<std::string> args;
  MatchRoute(route, path, &args);
  const std::string id = args.empty() ? "" : args[0];
  auto context = backends->Context();
  v1::Matchmaker::Stub* matchmaker = backends->matchmaker();
  v1::FriendsTable table;
  grpc::Status status;
  ApiError error;
  int created = 200;
  if (route == kTables) {
    v1::CreateTableRequest request;
    if (!ReadTableSettings(body, request.mutable_settings(), &error)) return ErrorResponse(error);
    ActFor(session, request.mutable_acting_for());
    status = matchmaker->CreateTable(context.get(), request, &table);
    created = 201;
  } else if (reading) {
    v1::GetTableRequest request;
    request.set_table_id(id);
    ActFor(session, request.mutable_acting_for());
    status = matchmaker->GetTable(context.get(), request, &table);
  } else if (route == kActions[3]) {
    v1::RematchTableRequest request;
    uint32_t round = 0;
    if (!ReadRematch(body, &round, &error)) return ErrorResponse(error);
    request.set_round(round);
    request.set_table_id(id);
    ActFor(session, request.mutable_acting_for());
    status = matchmaker->RematchTable(context.get(), request, &table);
  } else {
    if (!ReadNothing(body, &error)) return ErrorResponse(error);
    v1::TableRequest request;
    request.set_table_id(id);
    ActFor(session, request.mutable_acting_for());
    if (route == kActions[0]) status = matchmaker->JoinTable(context.get(), request, &table);
    if (route == kActions[1]) status = matchmaker->LeaveTable(context.get(), request, &table);
    if (route == kActions[2]) status = matchmaker->StartTable(context.get(), request, &table);
  }
  if (!status.ok()) return ErrorResponse(TableError(status));
  // The table changed as asked; a seat that could not be saved now is saved
  // at the next read (the page polls), and the failure is reported, not hidden.
  if (session && !SaveSeatOnce(backends, seats, *session, table, &error)) return ErrorResponse(error);
  return JsonResponse(created, TableToJson(table, session));
}

}  // namespace metropolis::gateway
