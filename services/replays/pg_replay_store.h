// The replays' storage in PostgreSQL: a completed game is one transaction over
// games, game_seats and replays, keyed by the game id, so storing is idempotent
// and a game is never half there.
#pragma once

#include "services/replays/replay_store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::replays {

class PgReplayStore final : public ReplayStore {
 public:
  explicit PgReplayStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status Insert(const PreparedGame& game, bool* already_stored, std::string* stored_digest) override;
  grpc::Status Load(const std::string& game_id, v1::CompletedGameRecord* out) override;
  grpc::Status LoadDebug(const std::string& game_id, std::vector<v1::SeatDebug>* out) override;
  grpc::Status ListPage(const ListFilter& filter, const ListCursor& after, int limit, Summaries* out) override;
  grpc::Status Digest(const std::string& game_id, std::string* digest, bool* found) override;
  grpc::Status Results(const std::vector<std::string>& ids, Summaries* out) override;
  grpc::Status GamesWithoutTurns(const std::string& after, int limit, std::vector<std::string>* out) override;
  grpc::Status SetTurns(const std::string& game_id, uint32_t turns) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::replays
