// Rows of `games` as StoredGameSummary, shared by the listing (ListGames) and the
// tournaments' result reads (GetResults): one conversion, and the seats of a whole
// page in one query rather than one per game.
#pragma once

#include <pqxx/pqxx>

#include "metropolis/v1/replays.pb.h"

namespace metropolis::replays {

// The columns SummaryFrom reads, in its order, from `games` aliased `g`.
inline constexpr char kSummaryColumns[] =
    "g.id, coalesce(g.ladder_id, ''), coalesce(g.season, 0), coalesce(g.tournament_id, ''), g.reason, "
    "coalesce(g.winner, -1), g.actions, g.finished_unix_ms, g.vp";
// Where kSummaryColumns puts the finishing time and the tournament (for paging and visibility).
inline constexpr int kSummaryTournament = 3;
inline constexpr int kSummaryFinished = 7;

void SummaryFrom(const pqxx::row& r, v1::StoredGameSummary* s);

// Adds every game's seats, in seat order. With `outcome`, each seat's fallback
// decisions and forfeit too (what ratings and standings need; the public listing
// leaves them out).
void AddSeats(pqxx::transaction_base& tx, google::protobuf::RepeatedPtrField<v1::StoredGameSummary>* games,
              bool outcome);

}  // namespace metropolis::replays
