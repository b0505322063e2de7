// Ladders and seasons in PostgreSQL (migrations/accounts/): a ladder's row lock
// serialises its updates and the seasons opened on it. The services that run
// ladders read these tables through the Accounts service.
#pragma once

#include "services/accounts/ladder_store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::accounts {

class PgLadderStore final : public LadderStore {
 public:
  explicit PgLadderStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status ListLadders(std::vector<LadderInfo>* out) override;

 protected:
  grpc::Status InsertLadder(const LadderSpec& spec, LadderInfo* out) override;
  grpc::Status ChangeLadder(const std::string& ladder_id, const LadderChange& change, LadderInfo* out) override;
  grpc::Status FindLadder(const std::string& ladder_id, LadderInfo* out) override;
  grpc::Status OpenSeason(const std::string& ladder_id, int* season_out) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::accounts
