// A stored game read back from the replays tables as its digest covers it
// (digest.h), for the digest of a game stored before and for ConfirmGame.
#pragma once

#include <pqxx/pqxx>
#include <string>

#include "services/replays/digest.h"

namespace metropolis::replays {

// The stored game `game_id` read in `tx`; false when there is none.
bool ReadStoredGame(pqxx::transaction_base& tx, const std::string& game_id, StoredGame* out);

}  // namespace metropolis::replays
