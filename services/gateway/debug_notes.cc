#include "services/gateway/debug_notes.h"

#include <algorithm>
#include <map>

#include "services/gateway/backends.h"

namespace metropolis::gateway {
namespace {

// What the person reads when Replays says no: "not yours" in the gateway's words,
// since the gateway, not the person, named the identities; the rest as any
// backend error (a hidden game 409, an unknown one 404, replays down 503).
ApiError DebugError(const grpc::Status& s, const std::string& game_id) {
  ApiError e = BackendError(s, "replays");
  if (s.error_code() == grpc::StatusCode::PERMISSION_DENIED)
    e.message = "no seat of game " + game_id +
                " was played by you or by a bot of yours: a game's notes are for its bots' authors only";
  return e;
}

Json SeatToJson(const v1::SeatDebug& seat, const std::map<int64_t, std::string>& bot_names) {
  Json steps = Json::array();
  for (const v1::StepDebug& s : seat.steps())
    steps.push_back({{"step", s.step()},
                     {"think_ms", s.think_ms()},
                     {"note", s.note()},
                     {"evaluation", s.has_evaluation() ? Json(s.evaluation()) : Json(nullptr)}});
  const auto bot = bot_names.find(seat.identity_id());
  return {{"seat", seat.seat()},
          {"identity_id", seat.identity_id()},
          {"bot", bot == bot_names.end() ? Json(nullptr) : Json(bot->second)},
          {"recorded_from_step", seat.recorded_from_step()},
          {"notes_dropped", seat.notes_dropped()},
          {"steps", steps}};
}

}  // namespace

grpc::Status GrpcDebugSource::GetDebug(const std::vector<int64_t>& identities, const std::string& game_id,
                                       v1::GameDebug* out) {
  v1::GetDebugRequest request;
  request.set_game_id(game_id);
  for (int64_t id : identities) request.add_identities(id);
  auto context = backends_->Context();
  return backends_->replays().GetDebug(context.get(), request, out);
}

bool IsDebugPath(std::string_view path) {
  std::vector<std::string> args;
  return MatchRoute(kDebugRoute, path, &args);
}

HttpResponse HandleDebug(BotStore* bots, DebugSource* source, const Session& session, const std::string& game_id,
                         bool download) {
  if (!ValidGameId(game_id))
    return ErrorResponse(BadParameter(
        "game_id", "'" + game_id.substr(0, 80) + "' is not a game id (1 to 64 letters, digits, '-' or '_')"));
  OwnBots owned;
  if (grpc::Status s = bots->ListBots(session.person.id, &owned); !s.ok()) return ErrorResponse(StoreError(s));
  // Whom the gateway reads for: the person signed in and the bots they own, no
  // one else. Replays trusts the gateway's token to name only these.
  std::vector<int64_t> identities = {session.person.id};
  std::map<int64_t, std::string> bot_names;
  for (const OwnBot& b : owned.bots) {
    identities.push_back(b.id);
    bot_names[b.id] = b.name;
  }
  // A call names at most kMaxDebugIdentities, and a person may own more bots than
  // that: each call answers the seats of its own identities, and only when every
  // call finds none of them seated is the game not the person's.
  v1::GameDebug debug;
  grpc::Status denied(grpc::StatusCode::PERMISSION_DENIED, "");  // the person is always named: never left so
  bool any_seat = false;
  for (size_t from = 0; from < identities.size(); from += kMaxDebugIdentities) {
    const std::vector<int64_t> some(
        identities.begin() + ptrdiff_t(from),
        identities.begin() + ptrdiff_t(std::min(identities.size(), from + kMaxDebugIdentities)));
    v1::GameDebug part;
    const grpc::Status s = source->GetDebug(some, game_id, &part);
    if (s.error_code() == grpc::StatusCode::PERMISSION_DENIED) {
      denied = s;
      continue;
    }
    if (!s.ok()) return ErrorResponse(DebugError(s, game_id));
    any_seat = true;
    for (v1::SeatDebug& seat : *part.mutable_seats()) *debug.add_seats() = std::move(seat);
  }
  if (!any_seat) return ErrorResponse(DebugError(denied, game_id));
  std::vector<const v1::SeatDebug*> seats;
  for (const v1::SeatDebug& seat : debug.seats()) seats.push_back(&seat);
  std::sort(seats.begin(), seats.end(), [](const auto* a, const auto* b) { return a->seat() < b->seat(); });
  Json list = Json::array();
  for (const v1::SeatDebug* seat : seats) list.push_back(SeatToJson(*seat, bot_names));
  HttpResponse r = JsonResponse(200, {{"game_id", game_id}, {"seats", list}});
  // The game id is letters, digits, '-' and '_' only: nothing to quote.
  if (download) r.headers.push_back({"Content-Disposition", "attachment; filename=\"" + game_id + "-debug.json\""});
  return r;
}

}  // namespace metropolis::gateway
