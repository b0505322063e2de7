// The replays tables' rows in pqxx, shared by the PostgreSQL stores
// (pg_replay_store.h, and the tests that read the tables): a stored game read
// back as its digest covers it (digest.h), the digest kept beside it in
// games.digest, and rows of `games` as StoredGameSummary with their seats.
// Internal to those stores: the logic never sees a row.
#pragma once

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "metropolis/v1/replays.pb.h"
#include "services/replays/digest.h"

namespace metropolis::replays {

// The stored game `game_id` read in `tx`; false when there is none.
bool ReadStoredGame(pqxx::transaction_base& tx, const std::string& game_id, StoredGame* out);

// The digest of the stored game `game_id`: games.digest, which StoreGame writes
// in the game's own transaction (migration 0050), so that ConfirmGame is one key
// lookup. A game stored before that column has none: its digest is computed from
// the tables (ReadStoredGame) and written in, once, so `tx` must be able to
// write. False when there is no such game.
bool StoredDigest(pqxx::transaction_base& tx, const std::string& game_id, std::string* out);

// games.digest as kept, read only: *found false when there is no such game;
// *out empty for a game stored before the column (StoredDigest computes it).
void KeptDigest(pqxx::transaction_base& tx, const std::string& game_id, bool* found, std::string* out);

// Game ids as a PostgreSQL text array literal ($1::text[]; libpqxx 6 has no
// array parameters). Game ids are letters, digits, '-' and '_' (the logic
// checks them with ValidGameId), so no element needs quoting.
std::string GameIdArray(const std::vector<std::string>& ids);

// The columns SummaryFrom reads, in its order, from `games` aliased `g`: one
// conversion for the listing (ListGames) and the tournaments' result reads
// (GetResults).
inline constexpr char kSummaryColumns[] =
    "g.id, coalesce(g.ladder_id, ''), coalesce(g.season, 0), coalesce(g.tournament_id, ''), g.reason, "
    "coalesce(g.winner, -1), g.actions, g.finished_unix_ms, g.vp, coalesce(g.turns, 0), coalesce(g.resigned_seat, -1)";

void SummaryFrom(const pqxx::row& r, v1::StoredGameSummary* s);

// Adds every game's seats, in seat order, in one query rather than one per
// game. kWithOutcome: each seat's fallback decisions and forfeit too (what
// ratings and standings need; the public listing leaves them out).
enum class SeatDetail { kPublic, kWithOutcome };
void AddSeats(pqxx::transaction_base& tx, google::protobuf::RepeatedPtrField<v1::StoredGameSummary>* games,
              SeatDetail detail);

}  // namespace metropolis::replays
