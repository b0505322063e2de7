// A stored game read back from the replays tables as its digest covers it
// (digest.h), and the digest kept beside it in games.digest.
#pragma once

#include <pqxx/pqxx>
#include <string>

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

}  // namespace metropolis::replays
