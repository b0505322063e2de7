// The public reads in PostgreSQL: names through the unique index on name (as
// spelt, then any case), seasons by ladder.
#pragma once

#include "services/accounts/catalog_store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::accounts {

class PgCatalogStore final : public CatalogStore {
 public:
  explicit PgCatalogStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status Seasons(const std::string& only_ladder, std::map<std::string, std::vector<SeasonInfo>>* out) override;
  grpc::Status FindIdentity(const std::string& name, Identity* out) override;
  grpc::Status SearchIdentities(const std::string& prefix, int limit, std::vector<Identity>* out) override;

 private:
  storage::PgPool* const pool_;
};

}  // namespace metropolis::accounts
