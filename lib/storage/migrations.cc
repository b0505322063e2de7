#include "lib/storage/migrations.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <pqxx/pqxx>
#include <regex>
#include <sstream>

namespace metropolis::storage {
namespace {

// Any fixed number: the key of the advisory lock all migration runs take.
constexpr long long kMigrationLock = 0x6d65747230;  // "metr0"

constexpr char kCreateTable[] =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " sha256 TEXT NOT NULL,"
    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())";

// Applied versions and their checksums, read under the lock.
std::map<int, std::string> Applied(pqxx::work& tx) {
  std::map<int, std::string> out;
  for (const auto& row : tx.exec("SELECT version, sha256 FROM schema_migrations"))
    out[row[0].as<int>()] = row[1].as<std::string>();
  return out;
}

std::string Checksum(pqxx::work& tx, const std::string& sql) {
  return tx.exec_params1("SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex')", sql)[0].as<std::string>();
}

void Lock(pqxx::work& tx) { tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock); }

}  // namespace

namespace {

// Reads the NNNN_name.sql files of one folder; `owner` is the folder's name below
// the migrations root ("" for the root itself).
bool LoadFolder(const std::filesystem::path& dir, const std::string& owner, std::vector<Migration>* found,
                std::vector<std::filesystem::path>* owners, std::string* error) {
  namespace fs = std::filesystem;
  static const std::regex kName(R"(^(\d{4})_[a-z0-9_]+\.sql$)");
  static const std::regex kOwner(R"(^[a-z][a-z0-9_]*$)");
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    *error = "migrations directory " + dir.string() + ": " + ec.message();
    return false;
  }
  for (const auto& entry : it) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory()) {
      // One level of owners: migrations/<service>/NNNN_name.sql.
      if (owner.empty() && std::regex_match(name, kOwner)) owners->push_back(entry.path());
      continue;
    }
    if (entry.path().extension() != ".sql") continue;
    const std::string shown = owner.empty() ? name : owner + "/" + name;
    std::smatch m;
    if (!std::regex_match(name, m, kName)) {
      *error = "migration " + shown + ": not named NNNN_name.sql (four digits, lower-case name)";
      return false;
    }
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      *error = "migration " + shown + ": cannot be read";
      return false;
    }
    found->push_back({std::stoi(m[1]), shown, text.str(), owner});
  }
  return true;
}

}  // namespace

bool LoadMigrations(const std::string& dir, std::vector<Migration>* out, std::string* error) {
  std::vector<Migration> found;
  std::vector<std::filesystem::path> owners;
  if (!LoadFolder(dir, "", &found, &owners, error)) return false;
  std::vector<std::filesystem::path> none;  // owner folders hold no folders of their own
  for (const auto& folder : owners) {
    if (!LoadFolder(folder, folder.filename().string(), &found, &none, error)) return false;
  }
  // Versions are global across owners: one order for the whole database.
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.version < b.version; });
  for (size_t i = 1; i < found.size(); ++i) {
    if (found[i].version == found[i - 1].version) {
      *error = "migrations " + found[i - 1].name + " and " + found[i].name + " share version " +
               std::to_string(found[i].version);
      return false;
    }
  }
  *out = std::move(found);
  return true;
}

bool Migrate(pqxx::connection& db, const std::vector<Migration>& migrations, std::vector<int>* applied,
             std::string* error) {
  applied->clear();
  const Migration* current = nullptr;
  try {
    {
      pqxx::work tx(db);
      Lock(tx);
      tx.exec(kCreateTable);
      tx.commit();
    }
    for (const Migration& m : migrations) {
      current = &m;
      pqxx::work tx(db);
      Lock(tx);  // held until commit: a concurrent run waits, then sees this one applied
      const auto done = Applied(tx);
      const std::string sum = Checksum(tx, m.sql);
      if (auto it = done.find(m.version); it != done.end()) {
        if (it->second != sum) {
          *error = "migration " + m.name + " changed since it was applied (checksum " + it->second + ", now " + sum +
                   "); add a new migration instead";
          return false;
        }
        continue;
      }
      tx.exec(m.sql);
      tx.exec_params("INSERT INTO schema_migrations (version, name, sha256) VALUES ($1, $2, $3)", m.version, m.name,
                     sum);
      tx.commit();
      applied->push_back(m.version);
    }
  } catch (const std::exception& e) {
    *error = (current ? "migration " + current->name + ": " : std::string("migrations: ")) + e.what();
    while (!error->empty() && error->back() == '\n') error->pop_back();
    return false;
  }
  return true;
}

bool Status(pqxx::connection& db, const std::vector<Migration>& migrations, std::vector<MigrationStatus>* out,
            std::string* error) {
  out->clear();
  try {
    pqxx::work tx(db);
    std::map<int, std::string> when;
    const bool exists = tx.exec1("SELECT to_regclass('schema_migrations') IS NOT NULL")[0].as<bool>();
    if (exists) {
      for (const auto& row :
           tx.exec("SELECT version, to_char(applied_at, 'YYYY-MM-DD HH24:MI:SS') FROM schema_migrations"))
        when[row[0].as<int>()] = row[1].as<std::string>();
    }
    for (const Migration& m : migrations) {
      MigrationStatus s;
      s.version = m.version;
      s.name = m.name;
      if (auto it = when.find(m.version); it != when.end()) {
        s.applied = true;
        s.applied_at = it->second;
      }
      out->push_back(std::move(s));
    }
  } catch (const std::exception& e) {
    *error = std::string("migrations: ") + e.what();
    return false;
  }
  return true;
}

bool MigrateAt(const std::string& conninfo, const std::vector<Migration>& migrations, std::vector<int>* applied,
               std::string* error) {
  try {
    pqxx::connection db(conninfo);
    return Migrate(db, migrations, applied, error);
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

bool StatusAt(const std::string& conninfo, const std::vector<Migration>& migrations, std::vector<MigrationStatus>* out,
              std::string* error) {
  try {
    pqxx::connection db(conninfo);
    return Status(db, migrations, out, error);
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace metropolis::storage
