// The tournaments' reveals in PostgreSQL: the table game_reveals
// (migrations/replays/0025_game_reveals.sql), one row per revealed game, or
// one with an empty game id for a whole tournament.
#pragma once

#include "services/replays/reveal_store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::replays {

class PgRevealStore final : public RevealStore {
 public:
  explicit PgRevealStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status Add(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) override;
  grpc::Status Reveals(const std::set<std::string>& tournaments, std::vector<Reveal>* out) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::replays
