// Friends' tables through the gateway (docs/GATEWAY.md, "Friends' tables"):
// the tables are the matchmaker's (Matchmaker.CreateTable ... RematchTable),
// and the gateway only forwards, acting for the person signed in with its
// service token. Its one addition: when a table's round is playing and the
// person has a seat in it, the seat is saved with the person's seats (People),
// as a ladder match's is, so /play/{game} opens it.
//   POST /api/v1/tables                 settings (bodies.h ReadTableSettings) → 201 the table
//   GET  /api/v1/tables/{id}            the table; signed out too (the id is the invitation)
//   POST /api/v1/tables/{id}/join       → the table
//   POST /api/v1/tables/{id}/leave      → the table
//   POST /api/v1/tables/{id}/start      → the table (the creator; its game is created)
//   POST /api/v1/tables/{id}/rematch    {"round": N} → the table (its next round)
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "services/gateway/api.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

bool IsTablesPath(std::string_view path);
// The route counted in the metrics ("/api/v1/tables/{}/join"); empty for another path.
std::string TablesRoute(std::string_view path);
// "POST", "GET, HEAD" ...; empty for a path not of these.
std::string TablesMethods(std::string_view path);

// Answers a request whose method the caller checked; `session` is null for a
// visitor signed out (who may only read). Errors: 400 naming the field, 401
// signed out, 403 not the creator or a player, 404 an unknown or expired
// table, 409 a table not in a state that allows it (or full), 503 no
// matchmaker or game host.
HttpResponse HandleTables(Backends* backends, PeopleStore* seats, const Session* session, std::string_view path,
                          std::string_view body);

// The spectator delay of a table's game ("table-<table id>-<round>"), as its
// table sets it; 0 for any other game. A table's game whose delay cannot be
// read is not shown rather than shown as it happens: 503 with the matchmaker
// unreachable, 404 once its table expired.
bool TableSpectatorDelay(Backends* backends, const std::string& game_id, std::chrono::milliseconds* out,
                         ApiError* error);

// The table as the web app reads it, for `session`'s person (null: a visitor).
Json TableToJson(const v1::FriendsTable& table, const Session* session);

}  // namespace metropolis::gateway
