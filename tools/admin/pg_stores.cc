#include "tools/admin/pg_stores.h"

#include "lib/storage/pg_pool.h"
#include "services/accounts/pg_account_store.h"
#include "services/accounts/pg_ladder_store.h"

namespace metropolis::admin {

PgStores::PgStores(const std::string& conninfo)
    : pool_(std::make_unique<storage::PgPool>(conninfo, 1)),
      accounts_(std::make_unique<accounts::PgAccountStore>(pool_.get())),
      ladders_(std::make_unique<accounts::PgLadderStore>(pool_.get())) {}

PgStores::~PgStores() = default;

}  // namespace metropolis::admin
