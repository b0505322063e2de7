// The upgrade every running installation goes through: a database at the schema
// before table owners (migrations 0001-0009) that holds data in every table is
// migrated to today's schema, and every value written before is still there.
// A later migration that drops or rewrites a column people's data lives in fails
// here unless this test is changed with it, in the same review.
#include <map>
#include <string>
#include <vector>

#include "lib/storage/migrations.h"
#include "lib/storage/tests/test_database.h"

namespace metropolis::storage {
namespace {

// The last migration of the shared history (before migrations/<owner>/).
constexpr int kBeforeOwners = 9;

// One row or more in every table of that schema, as a running ladder holds them.
constexpr char kData[] = R"sql(
INSERT INTO identities (id, kind, name) VALUES (1, 'player', 'Alice');
INSERT INTO identities (id, kind, name, owner_id) VALUES (2, 'bot', 'alice-bot', 1);
INSERT INTO api_tokens (identity_id, token_sha256, label) VALUES (2, decode(repeat('ab', 32), 'hex'), 'ci');
INSERT INTO ladders (id, title, seats, decision_ms) VALUES ('ck4', 'C&K, 4 seats', 4, 5000);
INSERT INTO seasons (ladder_id, season) VALUES ('ck4', 1);
INSERT INTO games (id, ladder_id, season, tournament_id, rules_version, config, chance_seed, num_seats, reason,
                   winner, vp, actions, created_at, finished_at, finished_unix_ms)
  VALUES ('g1', 'ck4', 1, 't1', 7, '\x0a02', 12345, 3, 1, 0, '{13,9,4}', 812,
          '2026-11-30 10:00:00+00', '2026-11-30 10:20:00+00', 1796033000000);
INSERT INTO game_seats (game_id, seat, identity_id, name, fallback_decisions, forfeited)
  VALUES ('g1', 0, 1, 'Alice', 0, false), ('g1', 1, 2, 'alice-bot', 3, false), ('g1', 2, NULL, 'heuristic', 0, true);
INSERT INTO replays (game_id, rules_version, codes, compact, compact_format)
  VALUES ('g1', 7, '\x0000000000000001', '\x01', 1);
INSERT INTO ratings (ladder_id, season, identity_id, mu, sigma, games) VALUES ('ck4', 1, 1, 27.5, 7.9, 1),
                                                                              ('ck4', 1, 2, 22.5, 7.9, 1);
INSERT INTO rated_games (game_id, ladder_id, season, rated, not_rated_reason) VALUES ('g1', 'ck4', 1, true, '');
INSERT INTO rating_history (game_id, ladder_id, season, identity_id, rank, mu_before, sigma_before, mu_after,
                            sigma_after)
  VALUES ('g1', 'ck4', 1, 1, 1, 25, 8.3, 27.5, 7.9), ('g1', 'ck4', 1, 2, 2, 25, 8.3, 22.5, 7.9);
INSERT INTO tournaments (id, format, ruleset, seats, rounds, seed, max_games_per_entrant, decision_ms, time_bank_ms)
  VALUES ('t1', 'duplicate', 'cities_and_knights', 3, 1, 99, 6, 1000, 10000);
INSERT INTO tournament_entrants (tournament_id, entrant, identity_id) VALUES ('t1', 0, 1), ('t1', 1, 2);
INSERT INTO tournament_games (tournament_id, number, round, set_no, rotation, entrants, chance_seed, board_seed,
                              state, game_id, host, places)
  VALUES ('t1', 0, 0, 0, 0, '{0,1,0}', 5, 6, 'finished', 'g1', '10.0.0.7:7000', '{1,2,3}'),
         ('t1', 1, 0, 0, 1, '{1,0,1}', 5, 6, 'pending', NULL, NULL, NULL);
INSERT INTO player_passwords (identity_id, password_hash) VALUES (1, '$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA');
INSERT INTO web_sessions (token_sha256, identity_id, expires_at)
  VALUES (decode(repeat('cd', 32), 'hex'), 1, '2027-01-01 00:00:00+00');
INSERT INTO web_seats (identity_id, game_id, seat, host, seat_token) VALUES (1, 'g1', 0, '10.0.0.7:7000', 'seat-1');
)sql";

// Each table of the current schema and its columns, in order.
std::map<std::string, std::vector<std::string>> Columns(pqxx::connection& db) {
  pqxx::work tx(db);
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& row :
       tx.exec("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() "
               "AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position"))
    out[row[0].as<std::string>()].push_back(row[1].as<std::string>());
  return out;
}

// Every value of `columns` in `table`, as text, rows in a fixed order.
std::string Contents(pqxx::connection& db, const std::string& table, const std::vector<std::string>& columns) {
  std::string list;
  for (const auto& c : columns) list += (list.empty() ? "" : ", ") + pqxx::work(db).quote_name(c);
  pqxx::work tx(db);
  const std::string sql = "SELECT coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '') FROM (SELECT " + list +
                          " FROM " + tx.quote_name(table) + ") r";
  return tx.exec1(sql)[0].as<std::string>();
}

TEST(Upgrade, DataWrittenBeforeTableOwnersSurvivesEveryLaterMigration) {
  testing::TestDatabase database;
  ASSERT_TRUE(database.ok());
  std::vector<Migration> all;
  std::string error;
  ASSERT_TRUE(LoadMigrations(METROPOLIS_MIGRATIONS_DIR, &all, &error)) << error;
  std::vector<Migration> before;
  for (const auto& m : all)
    if (m.version <= kBeforeOwners) before.push_back(m);
  ASSERT_EQ(before.size(), static_cast<size_t>(kBeforeOwners));

  pqxx::connection db(database.conninfo());
  std::vector<int> applied;
  ASSERT_TRUE(Migrate(db, before, &applied, &error)) << error;
  {
    pqxx::work tx(db);
    tx.exec(kData);
    tx.commit();
  }
  const auto columns = Columns(db);
  std::map<std::string, std::string> was;
  for (const auto& [table, cols] : columns) {
    was[table] = Contents(db, table, cols);
    EXPECT_FALSE(was[table].empty()) << table << " holds no row: the test data must cover every table";
  }

  ASSERT_TRUE(Migrate(db, all, &applied, &error)) << error;
  EXPECT_EQ(applied.size(), all.size() - before.size());
  const auto now = Columns(db);
  for (const auto& [table, cols] : columns) {
    ASSERT_TRUE(now.count(table)) << table << " was dropped by the upgrade";
    for (const auto& c : cols)
      ASSERT_NE(std::find(now.at(table).begin(), now.at(table).end(), c), now.at(table).end())
          << table << "." << c << " was dropped by the upgrade";
    EXPECT_EQ(Contents(db, table, cols), was[table]) << table << " changed in the upgrade";
  }
}

// The negative control of the test above: a migration that loses a value is caught.
TEST(Upgrade, AMigrationThatLosesAValueIsCaught) {
  testing::TestDatabase database;
  ASSERT_TRUE(database.ok());
  std::vector<Migration> all;
  std::string error;
  ASSERT_TRUE(LoadMigrations(METROPOLIS_MIGRATIONS_DIR, &all, &error)) << error;
  all.resize(kBeforeOwners);
  pqxx::connection db(database.conninfo());
  std::vector<int> applied;
  ASSERT_TRUE(Migrate(db, all, &applied, &error)) << error;
  {
    pqxx::work tx(db);
    tx.exec(kData);
    tx.commit();
  }
  const auto columns = Columns(db);
  const std::string was = Contents(db, "web_seats", columns.at("web_seats"));
  all.push_back({9999, "9999_lossy.sql", "UPDATE web_seats SET seat_token = ''", "accounts"});
  ASSERT_TRUE(Migrate(db, all, &applied, &error)) << error;
  EXPECT_NE(Contents(db, "web_seats", columns.at("web_seats")), was);
}

// Names unique in any letter case (migrations/accounts/0030): a database where two
// names already differ only in case keeps the oldest and renames the others, each
// rename recorded to be told; afterwards the database itself refuses such a name.
TEST(Upgrade, NamesThatDifferOnlyInCaseAreRenamedThenRefused) {
  testing::TestDatabase database;
  ASSERT_TRUE(database.ok());
  std::vector<Migration> all;
  std::string error;
  ASSERT_TRUE(LoadMigrations(METROPOLIS_MIGRATIONS_DIR, &all, &error)) << error;
  std::vector<Migration> before(all.begin(), all.begin() + kBeforeOwners);
  pqxx::connection db(database.conninfo());
  std::vector<int> applied;
  ASSERT_TRUE(Migrate(db, before, &applied, &error)) << error;
  const std::string long_name(64, 'x');
  {
    pqxx::work tx(db);
    tx.exec(
        "INSERT INTO identities (id, kind, name) VALUES (1, 'player', 'Alice'), (2, 'player', 'alice'), "
        "(3, 'player', 'ALICE'), (4, 'player', 'bob'), (5, 'player', " +
        tx.quote(long_name) +
        "), "
        "(6, 'player', " +
        tx.quote(std::string(64, 'X')) + ")");
    tx.commit();
  }
  ASSERT_TRUE(Migrate(db, all, &applied, &error)) << error;
  pqxx::work tx(db);
  std::map<int64_t, std::string> names;
  for (const auto& row : tx.exec("SELECT id, name FROM identities")) names[row[0].as<int64_t>()] = row[1].c_str();
  EXPECT_EQ(names[1], "Alice");  // the oldest keeps its name
  EXPECT_EQ(names[2], "alice-2");
  EXPECT_EQ(names[3], "ALICE-3");
  EXPECT_EQ(names[4], "bob");
  EXPECT_EQ(names[5], long_name);
  EXPECT_EQ(names[6], std::string(62, 'X') + "-6");  // shortened to fit 64
  std::map<int64_t, std::string> renamed;
  for (const auto& row : tx.exec("SELECT identity_id, old_name || '>' || new_name FROM identity_renames "
                                 "WHERE told_at IS NULL"))
    renamed[row[0].as<int64_t>()] = row[1].c_str();
  EXPECT_EQ(renamed, (std::map<int64_t, std::string>{{2, "alice>alice-2"},
                                                     {3, "ALICE>ALICE-3"},
                                                     {6, std::string(64, 'X') + ">" + std::string(62, 'X') + "-6"}}));
  tx.commit();
  // The negative control of the check the services made before: now the database
  // refuses the second name itself, whoever inserts it.
  pqxx::work insert(db);
  EXPECT_THROW(insert.exec("INSERT INTO identities (kind, name) VALUES ('player', 'BOB')"), pqxx::unique_violation);
}

}  // namespace
}  // namespace metropolis::storage
