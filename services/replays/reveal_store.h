// What the replays service may show of tournaments' games (visibility.h), in
// its own table game_reveals (migrations/replays/0025_game_reveals.sql), and the
// results the tournaments service learns its games' outcomes from. Kept apart
// from storing games (store.h): these are the tournaments' calls.
#pragma once

#include <grpcpp/support/status.h>

#include <pqxx/pqxx>
#include <set>
#include <string>
#include <vector>

#include "lib/storage/pg_pool.h"
#include "metropolis/v1/replays.pb.h"
#include "services/replays/visibility.h"

namespace metropolis::replays {

// The reveals of these tournaments, read in the caller's transaction.
std::vector<Reveal> LoadReveals(pqxx::transaction_base& tx, const std::set<std::string>& tournaments);

// Visible(), unless the negative control "hidden_games" switched the rule off
// (lib/common/negative_control.h): then every game is shown.
bool Shown(const std::string& game_id, const std::string& tournament, const std::vector<Reveal>& reveals);

class RevealStore {
 public:
  explicit RevealStore(storage::PgPool* pool) : pool_(pool) {}

  // Adds the reveals; idempotent. INVALID_ARGUMENT (and nothing written) for a
  // request without a tournament, with neither whole_tournament nor game ids,
  // with more than 500 ids or one that is not a game id.
  grpc::Status Reveal(const v1::RevealGamesRequest& request);
  // The stored games among the ids, hidden ones included. INVALID_ARGUMENT for
  // no ids, more than 500, or one that is not a game id.
  grpc::Status Results(const v1::GetResultsRequest& request, v1::GetResultsResponse* out);

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::replays
