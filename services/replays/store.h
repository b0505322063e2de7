// The replays' storage in PostgreSQL: a completed game is one transaction over
// games, game_seats and replays, keyed by the game id, so storing is idempotent
// and a game is never half there.
#pragma once

#include <grpcpp/support/status.h>

#include <string>

#include "lib/storage/pg_pool.h"
#include "metropolis/v1/replays.pb.h"

namespace metropolis::replays {

class ReplayStore {
 public:
  explicit ReplayStore(storage::PgPool* pool) : pool_(pool) {}

  // Checks the record (CheckRecord), then stores it. Storing the same game again
  // is OK with already_stored; another game under a stored id is ALREADY_EXISTS.
  grpc::Status Store(const v1::CompletedGameRecord& game, v1::StoreGameResponse* out);
  grpc::Status List(const v1::ListStoredGamesRequest& request, v1::ListStoredGamesResponse* out);
  grpc::Status Load(const std::string& game_id, v1::CompletedGameRecord* out);
  // Whether the stored game `game_id` has this digest (digest.h); NOT_FOUND
  // when no game has the id. Hidden games are confirmed too: nothing is shown.
  grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed);

 private:
  // Runs `fn` on a pooled connection, turning database failures into statuses:
  // UNAVAILABLE when the server cannot be reached, INTERNAL otherwise.
  grpc::Status Run(const char* what, const std::function<grpc::Status(pqxx::connection&)>& fn);

  storage::PgPool* pool_;
};

}  // namespace metropolis::replays
