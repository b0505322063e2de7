// A fresh PostgreSQL database per test, on the server the test command started
// (METROPOLIS_PG_CONNINFO). Without that server the test fails: an integration test
// never skips.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "lib/storage/migrations.h"
#include "lib/storage/pg_pool.h"

namespace metropolis::storage::testing {

// Applies every migration of `dir` (the project's: METROPOLIS_MIGRATIONS_DIR)
// to the database; false with *error when one fails.
inline bool MigrateAll(const std::string& conninfo, const std::string& dir, std::string* error) {
  pqxx::connection db(conninfo);
  std::vector<Migration> migrations;
  std::vector<int> applied;
  return LoadMigrations(dir, &migrations, error) && Migrate(db, migrations, &applied, error);
}

inline std::string ServerConninfo() {
  const char* conninfo = std::getenv("METROPOLIS_PG_CONNINFO");
  if (conninfo == nullptr || *conninfo == '\0') {
    ADD_FAILURE() << "METROPOLIS_PG_CONNINFO is not set: run the integration tests through scripts/test.sh, "
                     "which starts PostgreSQL, or start one with scripts/lib/services.sh";
    return "";
  }
  return conninfo;
}

class TestDatabase {
 public:
  TestDatabase() : server_(ServerConninfo()) {
    if (server_.empty()) return;
    std::random_device rd;
    name_ = "test_" + std::to_string(rd()) + std::to_string(rd() % 1000);
    pqxx::connection admin(server_);
    pqxx::nontransaction tx(admin);
    tx.exec("CREATE DATABASE " + name_);
    conninfo_ = server_ + " dbname=" + name_;  // libpq: the last dbname wins
  }
  ~TestDatabase() {
    if (name_.empty()) return;
    try {
      pqxx::connection admin(server_);
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (const std::exception& e) {
      ADD_FAILURE() << "dropping " << name_ << ": " << e.what();
    }
  }
  bool ok() const { return !conninfo_.empty(); }
  const std::string& conninfo() const { return conninfo_; }
  const std::string& server() const { return server_; }

 private:
  std::string server_, name_, conninfo_;
};

// The SetUp of a PostgreSQL store's tests: every migration of `dir` (the
// project's: METROPOLIS_MIGRATIONS_DIR) applied to `database`, then a pool of
// `connections` on it. Null, with the test failed, when there is no server or a
// migration fails: the caller asserts the pool.
inline std::unique_ptr<PgPool> MigratedPool(const TestDatabase& database, const std::string& dir, int connections) {
  if (!database.ok()) {
    ADD_FAILURE() << "no test database";
    return nullptr;
  }
  std::string error;
  if (!MigrateAll(database.conninfo(), dir, &error)) {
    ADD_FAILURE() << "migrating " << database.conninfo() << ": " << error;
    return nullptr;
  }
  return std::make_unique<PgPool>(database.conninfo(), connections);
}

}  // namespace metropolis::storage::testing
