// Migrations against a real PostgreSQL: the project's files apply from scratch, a
// second run applies nothing, a failing file changes nothing, a changed file is
// refused, and concurrent runs apply each file once.
#include "lib/storage/migrations.h"

#include <filesystem>
#include <fstream>
#include <thread>

#include "lib/storage/tests/test_database.h"

namespace metropolis::storage {
namespace {

std::vector<Migration> ProjectMigrations() {
  std::vector<Migration> m;
  std::string error;
  EXPECT_TRUE(LoadMigrations(METROPOLIS_MIGRATIONS_DIR, &m, &error)) << error;
  return m;
}

int CountRows(pqxx::connection& db, const std::string& sql) {
  pqxx::work tx(db);
  return tx.exec1(sql)[0].as<int>();
}

TEST(Migrations, ProjectFilesApplyOnceInOrder) {
  testing::TestDatabase database;
  ASSERT_TRUE(database.ok());
  pqxx::connection db(database.conninfo());
  const auto migrations = ProjectMigrations();
  ASSERT_GE(migrations.size(), 4u);
  std::vector<int> applied;
  std::string error;
  ASSERT_TRUE(Migrate(db, migrations, &applied, &error)) << error;
  EXPECT_EQ(applied.size(), migrations.size());
  EXPECT_TRUE(std::is_sorted(applied.begin(), applied.end()));
  // The schema is there: every table of the design.
  for (const char* table : {"identities", "api_tokens", "ladders", "seasons", "games", "game_seats", "replays",
                            "ratings", "rated_games", "rating_history"}) {
    EXPECT_EQ(CountRows(db, std::string("SELECT count(*) FROM ") + table), 0) << table;
  }
  ASSERT_TRUE(Migrate(db, migrations, &applied, &error)) << error;
  EXPECT_TRUE(applied.empty());
  std::vector<MigrationStatus> status;
  ASSERT_TRUE(Status(db, migrations, &status, &error)) << error;
  for (const auto& s : status) EXPECT_TRUE(s.applied) << s.name;
}

TEST(Migrations, FailingFileChangesNothingAndNamesItself) {
  testing::TestDatabase database;
  ASSERT_TRUE(database.ok());
  pqxx::connection db(database.conninfo());
  std::vector<Migration> migrations = {
      {1, "0001_ok.sql", "CREATE TABLE a (x INT);", ""},
      {2, "0002_broken.sql", "CREATE TABLE b (x INT); INSERT INTO nowhere VALUES (1);", ""},
  };
  std::vector<int> applied;
  std::string error;
  EXPECT_FALSE(Migrate(db, migrations, &applied, &error));
  EXPECT_EQ(applied, std::vector<int>{1});
  EXPECT_EQ(error.rfind("migration 0002_broken.sql: ", 0), 0u) << error;
  EXPECT_NE(error.find("nowhere"), std::string::npos) << error;
  EXPECT_EQ(CountRows(db, "SELECT count(*) FROM pg_tables WHERE tablename = 'b'"), 0) << "rolled back";
  EXPECT_EQ(CountRows(db, "SELECT count(*) FROM schema_migrations"), 1);

  migrations[0].sql = "CREATE TABLE a (x BIGINT);";  // edited after it was applied
  migrations[1].sql = "CREATE TABLE b (x INT);";
  EXPECT_FALSE(Migrate(db, migrations, &applied, &error));
  EXPECT_NE(error.find("0001_ok.sql changed since it was applied"), std::string::npos) << error;
}

TEST(Migrations, ConcurrentRunsApplyEachFileOnce) {
  testing::TestDatabase database;
  ASSERT_TRUE(database.ok());
  const auto migrations = ProjectMigrations();
  std::vector<std::vector<int>> applied(4);
  std::vector<std::string> errors(4);
  std::vector<bool> ok(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      pqxx::connection db(database.conninfo());
      ok[i] = Migrate(db, migrations, &applied[i], &errors[i]);
    });
  }
  for (auto& t : threads) t.join();
  size_t total = 0;
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(ok[i]) << errors[i];
    total += applied[i].size();
  }
  EXPECT_EQ(total, migrations.size());
}

TEST(Migrations, BadFileNamesAreRefused) {
  const std::string dir = ::testing::TempDir() + "/migrations-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/1_short.sql") << "SELECT 1;";
  std::vector<Migration> m;
  std::string error;
  EXPECT_FALSE(LoadMigrations(dir, &m, &error));
  EXPECT_NE(error.find("1_short.sql: not named NNNN_name.sql"), std::string::npos) << error;
  std::filesystem::remove(dir + "/1_short.sql");
  std::ofstream(dir + "/0001_a.sql") << "SELECT 1;";
  std::ofstream(dir + "/0001_b.sql") << "SELECT 1;";
  EXPECT_FALSE(LoadMigrations(dir, &m, &error));
  EXPECT_NE(error.find("share version 1"), std::string::npos) << error;
  EXPECT_FALSE(LoadMigrations(dir + "/missing", &m, &error));
  std::filesystem::remove_all(dir);
}

// New migrations go in their owner's folder (migrations/<service>/); versions stay
// global, so one file in any two folders with the same number is refused.
TEST(Migrations, OwnerFoldersAreReadWithGlobalVersions) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "/owners-" + std::to_string(::getpid());
  fs::create_directories(dir + "/ratings");
  fs::create_directories(dir + "/accounts");
  std::ofstream(dir + "/0001_shared.sql") << "SELECT 1;";
  std::ofstream(dir + "/ratings/0003_r.sql") << "SELECT 3;";
  std::ofstream(dir + "/accounts/0002_a.sql") << "SELECT 2;";
  std::ofstream(dir + "/accounts/README.md") << "not a migration";
  std::vector<Migration> m;
  std::string error;
  ASSERT_TRUE(LoadMigrations(dir, &m, &error)) << error;
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "0001_shared.sql");
  EXPECT_EQ(m[0].owner, "");
  EXPECT_EQ(m[1].name, "accounts/0002_a.sql");
  EXPECT_EQ(m[1].owner, "accounts");
  EXPECT_EQ(m[2].name, "ratings/0003_r.sql");
  EXPECT_EQ(m[2].sql, "SELECT 3;");

  std::ofstream(dir + "/ratings/0002_clash.sql") << "SELECT 2;";
  EXPECT_FALSE(LoadMigrations(dir, &m, &error));
  EXPECT_NE(error.find("accounts/0002_a.sql"), std::string::npos) << error;
  EXPECT_NE(error.find("ratings/0002_clash.sql"), std::string::npos) << error;
  fs::remove(dir + "/ratings/0002_clash.sql");
  std::ofstream(dir + "/ratings/12_bad.sql") << "SELECT 2;";
  EXPECT_FALSE(LoadMigrations(dir, &m, &error));
  EXPECT_NE(error.find("ratings/12_bad.sql: not named"), std::string::npos) << error;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace metropolis::storage
