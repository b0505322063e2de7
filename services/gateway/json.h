// The gateway's response side, as plain functions: JSON built from the
// services' messages and the catalog's rows, errors, places and head-to-head
// results, and server-sent events. Nothing here knows HTTP servers or gRPC
// channels; docs/GATEWAY.md shows every shape.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/ratings.pb.h"
#include "metropolis/v1/replays.pb.h"
#include "metropolis/v1/tournaments.pb.h"
#include "services/gateway/catalog.h"
#include "services/gateway/params.h"

namespace metropolis::gateway {

using Json = nlohmann::json;

// The text of a JSON value. Bytes that are not UTF-8 (a request's path or
// parameter echoed in an error, cut anywhere) become U+FFFD instead of the
// exception nlohmann's strict dump throws, which nothing would catch.
std::string Dump(const Json& value);

// ---- Errors --------------------------------------------------------------------

// {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": ..., "parameter": ...}}
Json ErrorToJson(const ApiError& e);
// The HTTP status a backend's gRPC status becomes (docs/GATEWAY.md, "Errors").
int HttpStatusFor(grpc::StatusCode code);
// A failed call to `backend` ("replays", "ratings", ...): the HTTP status, and
// the backend's status and message passed on.
ApiError BackendError(const grpc::Status& status, std::string_view backend);
// A service's refusal of what the person asked, in the service's own words
// (written for the person, so shown without the backend's name): for
// INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION and
// RESOURCE_EXHAUSTED, the last as 409 (a quota, a full table: trying again
// does not help). `error` as it is for any other code.
ApiError InTheirWords(const grpc::Status& status, ApiError error);

// ---- Messages ------------------------------------------------------------------

// Any message in protobuf's JSON mapping, field names as in the .proto, every
// field written (zeros too), enums by name; 64-bit integers are strings there.
Json ProtoToJson(const google::protobuf::Message& message);
// Fills Action.text of every action event (EVENT_ACTION, EVENT_TRADE_EXECUTED)
// from its code, for the web app's event log.
void AddActionTexts(google::protobuf::RepeatedPtrField<v1::Event>* events);
// {"code": "<decimal>", "text": "build_road e17"}; text empty for a code no
// action has.
Json ActionToJson(uint64_t code);

Json LadderToJson(const LadderRow& ladder);
Json PlayerToJson(const PlayerRow& player);

Json EntryToJson(const v1::LeaderboardEntry& entry);
Json LeaderboardToJson(const v1::Leaderboard& board);
Json PlayerRatingToJson(const v1::PlayerRating& rating);
Json HistoryEntryToJson(const v1::RatingHistoryEntry& entry);

// Each seat's place, as the ratings service ranks a game (docs/RATINGS.md): the
// winner first, forfeits last, the others by points. Empty for a game that ended
// without a winner, which is not ranked.
std::vector<int> Places(const v1::GameResult& result, const google::protobuf::RepeatedPtrField<v1::SeatRecord>& seats);
// "won", "length_cap", "aborted" or "unspecified".
std::string EndReasonName(v1::EndReason reason);

Json GameSummaryToJson(const v1::StoredGameSummary& game);
// A stored game: the summary's fields, the configuration, the chance seed, and
// every action with its text.
Json ReplayToJson(const v1::CompletedGameRecord& game);
Json PositionToJson(const std::string& game_id, int viewer, const v1::PositionResponse& position);
Json LiveGameToJson(const v1::GameInfo& game);

// How a player did against each opponent they met most often in `games`
// (their own, newest first): games together, and how often the player placed
// ahead, behind or level. Opponents with an identity only; ranked games only.
struct OpponentRecord {
  int64_t identity_id = 0;
  std::string name;
  int games = 0, ahead = 0, behind = 0, level = 0;
};
std::vector<OpponentRecord> FrequentOpponents(const std::vector<v1::StoredGameSummary>& games, int64_t identity_id,
                                              size_t max);
Json OpponentToJson(const OpponentRecord& record);

// A player's record in `games` (their own, newest first) on one board — a
// ladder's season; ladder empty for the games of no ladder (practice,
// tournaments, games an administrator made) — or, as the total, on all of them.
// Every game counts in `games`; wins and the places are of ranked games only
// (`ranked`; a game without a winner is not ranked).
struct PlayerStatsRow {
  std::string ladder;
  uint32_t season = 0;
  int games = 0, ranked = 0, wins = 0;
  int place_sum = 0;  // over the ranked games
};
struct PlayerStats {
  std::vector<PlayerStatsRow> boards;  // ladders by id, seasons newest first, then the games of no ladder
  PlayerStatsRow all;
};
PlayerStats PlayerStatsOf(const std::vector<v1::StoredGameSummary>& games, int64_t identity_id);
// {"boards": [row...], "all": row}, a row {"ladder" (null: no ladder; absent in
// "all"), "season", "games", "ranked", "wins", "average_place" (null without a
// ranked game)}.
Json PlayerStatsToJson(const PlayerStats& stats);

// ---- Tournaments -----------------------------------------------------------------

// A tournament in the list: what it is and its state. ListTournaments carries
// no schedule, so progress and standings are only in TournamentToJson.
Json TournamentSummaryToJson(const v1::Tournament& t);
// One tournament: the summary, its entrants, its progress and its standings,
// each with the 95 % interval of its score (null below two games: one game has
// no spread to measure).
Json TournamentToJson(const v1::Tournament& t);
// The schedule: every game with its seats named from the entrants, the stored
// game's id once it has one, and places once it is finished.
Json TournamentGamesToJson(const v1::Tournament& t, const v1::ListTournamentGamesResponse& games);

// ---- Server-sent events --------------------------------------------------------

// One event: "event: NAME\nid: ID\ndata: DATA\n\n" (data split at newlines).
std::string SseEvent(std::string_view event, std::string_view data, std::string_view id = {});
// A spectator's update as an event: welcome, view (id = the step), events,
// game_over. Empty for a redirect, which the gateway follows itself.
std::string SpectateUpdateToSse(v1::SpectateUpdate update);
// Events whose action texts are filled (AddActionTexts) as an "events" event:
// what SpectateUpdateToSse makes of them.
std::string EventsToSse(const v1::Events& events);
// A seat's decision: {"step", "view" (as the live stream's views), "legal":
// [{"code", "text"}], "decision_ms_left", "time_bank_ms_left"}.
Json DecisionToJson(const v1::Decision& decision);
// A player's update as an event: welcome, events, decision, rejected,
// game_over, the way the live stream writes the ones they share. Empty for a
// redirect, which the gateway follows itself.
std::string PlayUpdateToSse(v1::PlayUpdate update);

}  // namespace metropolis::gateway
