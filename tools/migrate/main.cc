// metropolis-migrate: applies the numbered SQL files of migrations/ that the
// database does not have yet, or shows which are applied.
#include <iomanip>
#include <iostream>

#include "lib/common/settings.h"
#include "lib/storage/migrations.h"

namespace ms = metropolis::services;
namespace st = metropolis::storage;

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-migrate",
                        "Applies the migrations the database does not have yet, each in its own transaction, in "
                        "order. Safe to run again and from several places at once.",
                        "METROPOLIS_");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL connection string, e.g. 'host=127.0.0.1 dbname=metropolis'");
  settings.Add("dir", "DIR", "migrations", "the folder of NNNN_name.sql files");
  settings.AddSwitch("status", "only show which migrations are applied");
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  const std::string conninfo = settings.Get("pg");
  if (conninfo.empty()) {
    std::cerr << "metropolis-migrate: --pg (or METROPOLIS_PG) is required\n";
    return 2;
  }
  std::vector<st::Migration> migrations;
  std::string error;
  if (!st::LoadMigrations(settings.Get("dir"), &migrations, &error)) {
    std::cerr << "metropolis-migrate: " << error << "\n";
    return 2;
  }
  if (settings.Has("status")) {
    std::vector<st::MigrationStatus> status;
    if (!st::StatusAt(conninfo, migrations, &status, &error)) {
      std::cerr << "metropolis-migrate: " << error << "\n";
      return 1;
    }
    std::cout << std::left << std::setw(8) << "version" << std::setw(28) << "file"
              << "applied\n";
    for (const auto& s : status) {
      std::cout << std::setw(8) << s.version << std::setw(28) << s.name << (s.applied ? s.applied_at : "pending")
                << "\n";
    }
    return 0;
  }
  std::vector<int> applied;
  if (!st::MigrateAt(conninfo, migrations, &applied, &error)) {
    std::cerr << "metropolis-migrate: " << error << "\n";
    return 1;
  }
  std::cout << "metropolis-migrate: " << applied.size() << " applied, " << migrations.size() - applied.size()
            << " already there\n";
  for (int v : applied) std::cout << "  applied " << v << "\n";
  return 0;
}
