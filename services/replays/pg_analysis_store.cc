#include "services/replays/pg_analysis_store.h"

#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"

namespace metropolis::replays {

grpc::Status PgAnalysisStore::Put(const std::string& game_id, const StoredAnalysis& a) {
  return storage::RunPg(pool_, "store analysis", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    try {
      tx.exec_params(
          "INSERT INTO game_analyses (game_id, method_version, analysis, cpu_seconds) VALUES ($1, $2, $3, $4) "
          "ON CONFLICT (game_id) DO NOTHING",
          game_id, int64_t(a.method_version), a.json, a.cpu_seconds);
      tx.commit();
    } catch (const pqxx::foreign_key_violation&) {
      return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgAnalysisStore::Get(const std::string& game_id, StoredAnalysis* out, bool* found) {
  return storage::RunPg(pool_, "read analysis", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT analysis, method_version, cpu_seconds, (extract(epoch FROM analysed_at) * 1000)::bigint "
        "FROM game_analyses WHERE game_id = $1",
        game_id);
    *found = !r.empty();
    if (*found)
      *out = {r[0][0].as<std::string>(), uint32_t(r[0][1].as<int64_t>()), r[0][2].as<double>(), r[0][3].as<int64_t>()};
    return grpc::Status::OK;
  });
}

namespace {

// A game some worker owes an analysis (AnalysisStore::Owed), `g` its games row.
constexpr const char* kOwed =
    "NOT EXISTS (SELECT 1 FROM game_analyses a WHERE a.game_id = g.id) "
    "AND NOT EXISTS (SELECT 1 FROM game_analysis_skips k WHERE k.game_id = g.id) "
    "AND EXISTS (SELECT 1 FROM game_seats s2 WHERE s2.game_id = g.id AND s2.identity_id IS NOT NULL "
    "  AND s2.kind IS DISTINCT FROM 1)";

}  // namespace

grpc::Status PgAnalysisStore::Skip(const std::string& game_id, const std::string& reason) {
  return storage::RunPg(pool_, "skip analysis", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    try {
      tx.exec_params("INSERT INTO game_analysis_skips (game_id, reason) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                     game_id, reason);
      tx.commit();
    } catch (const pqxx::foreign_key_violation&) {
      return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgAnalysisStore::Owed(const std::string& game_id, bool* owed) {
  return storage::RunPg(pool_, "analysis owed", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    *owed = !tx.exec_params(std::string("SELECT 1 FROM games g WHERE g.id = $1 AND ") + kOwed, game_id).empty();
    return grpc::Status::OK;
  });
}

grpc::Status PgAnalysisStore::Missing(int64_t since_unix_ms, int limit, std::vector<Unanalysed>* out) {
  return storage::RunPg(pool_, "games without analysis", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    // The newest first: after a long outage the most recent games, which
    // people are most likely to open, come back first.
    const pqxx::result r = tx.exec_params(
        std::string("SELECT o.id, s.identity_id, s.name FROM (SELECT g.id, g.finished_unix_ms FROM games g "
                    "  WHERE g.finished_unix_ms >= $1 AND ") +
            kOwed +
            "  ORDER BY g.finished_unix_ms DESC, g.id DESC LIMIT $2::int) o "
            "JOIN game_seats s ON s.game_id = o.id AND s.identity_id IS NOT NULL AND s.kind IS DISTINCT FROM 1 "
            "ORDER BY o.finished_unix_ms DESC, o.id DESC, s.seat",
        since_unix_ms, limit);
    for (const pqxx::row& row : r) {
      const std::string id = row[0].as<std::string>();
      if (out->empty() || out->back().game_id != id) out->push_back({id, {}, {}});
      out->back().identity_ids.push_back(row[1].as<int64_t>());
      out->back().names.push_back(row[2].as<std::string>());
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgAnalysisStore::Luck(int64_t identity_id, LuckTotals* out) {
  return storage::RunPg(pool_, "luck summary", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    // The seat's entry of the analysis's luck account (analysis/analyse.cc,
    // AnalysisToJson); a tournament's game counts once revealed, as it is shown.
    const pqxx::result r = tx.exec_params(
        "WITH seat AS (SELECT (a.analysis::jsonb -> 'luck' -> 'seats' -> s.seat::int) AS x "
        "  FROM game_seats s JOIN game_analyses a ON a.game_id = s.game_id JOIN games g ON g.id = s.game_id "
        "  WHERE s.identity_id = $1 AND (coalesce(g.tournament_id, '') = '' OR EXISTS ("
        "    SELECT 1 FROM game_reveals r WHERE r.tournament_id = g.tournament_id "
        "    AND (r.game_id = '' OR r.game_id = g.id)))) "
        "SELECT count(*), coalesce(avg((x ->> 'luck_cards')::float8), 0), "
        "  coalesce(avg((x ->> 'dice_cards')::float8 - (x ->> 'expected_cards')::float8), 0), "
        "  coalesce(avg((x ->> 'draws')::float8 - (x ->> 'expected_draws')::float8), 0), "
        "  coalesce(avg((x ->> 'place')::float8), 0), coalesce(avg((x ->> 'adjusted_place')::float8), 0) "
        "FROM seat WHERE x IS NOT NULL",
        identity_id);
    *out = {uint32_t(r[0][0].as<int64_t>()),
            r[0][1].as<double>(),
            r[0][2].as<double>(),
            r[0][3].as<double>(),
            r[0][4].as<double>(),
            r[0][5].as<double>()};
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::replays
