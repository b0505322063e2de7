// Schema migrations: numbered SQL files applied in order,
// each in its own transaction with its version recorded in schema_migrations, so a
// failed file changes nothing and a run applies only what is missing. Runs may be
// concurrent (several replicas starting at once): an advisory lock serialises them.
// A file that changed after it was applied is an error, never silently skipped.
#pragma once

#include <pqxx/connection>
#include <string>
#include <vector>

namespace metropolis::storage {

struct Migration {
  int version = 0;
  std::string name;  // the file, e.g. "0003_games.sql" or "ratings/0012_result_digest.sql"
  std::string sql;
  std::string owner;  // the service whose tables it changes; "" for 0001-0009 (before owners)
};

// Reads every NNNN_name.sql of `dir` and of its owner folders (`dir`/<service>/,
// one level, lower-case names; docs/OWNERSHIP.md), sorted by version: versions are
// global, so the whole database has one order. Errors: an unreadable directory, a
// .sql file not named NNNN_*.sql, two files with one version (in any folders).
bool LoadMigrations(const std::string& dir, std::vector<Migration>* out, std::string* error);

struct MigrationStatus {
  int version = 0;
  std::string name;
  bool applied = false;
  std::string applied_at;  // empty when pending
};

// Applies the migrations not yet applied; *applied lists their versions. On an
// error (a failing file, a changed file, no database) it stops with *error naming
// the file; what was applied before stays applied.
bool Migrate(pqxx::connection& db, const std::vector<Migration>& migrations, std::vector<int>* applied,
             std::string* error);

// Which migrations are applied, for `metropolis-migrate --status`.
bool Status(pqxx::connection& db, const std::vector<Migration>& migrations, std::vector<MigrationStatus>* out,
            std::string* error);

// The same two over a connection of their own to `conninfo`, for programs that hold
// no pool (metropolis-migrate, metropolis-server --migrations): a database that cannot
// be reached is an *error, never an exception.
bool MigrateAt(const std::string& conninfo, const std::vector<Migration>& migrations, std::vector<int>* applied,
               std::string* error);
bool StatusAt(const std::string& conninfo, const std::vector<Migration>& migrations, std::vector<MigrationStatus>* out,
              std::string* error);

}  // namespace metropolis::storage
