// metropolis-admin's stores: the Accounts service's own, on the database of --pg
// over one connection.
#pragma once

#include <memory>
#include <string>

#include "services/accounts/ladder_store.h"
#include "services/accounts/store.h"

namespace metropolis::storage {
class PgPool;
}  // namespace metropolis::storage

namespace metropolis::admin {

class PgStores {
 public:
  explicit PgStores(const std::string& conninfo);
  ~PgStores();
  accounts::AccountStore& accounts() { return *accounts_; }
  accounts::LadderStore& ladders() { return *ladders_; }

 private:
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<accounts::AccountStore> accounts_;
  std::unique_ptr<accounts::LadderStore> ladders_;
};

}  // namespace metropolis::admin
