#include "services/accounts/pg_ladder_store.h"

#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

// Timestamps leave the database as Unix milliseconds.
std::string Ms(const std::string& column) { return "(extract(epoch FROM " + column + ") * 1000)::bigint"; }

// A ladder with its open season, in the columns ReadLadder reads.
const std::string kSelectLadders =
    "SELECT l.id, l.title, l.ruleset, l.seats, l.placement_games, l.mu, l.sigma, l.beta, l.kappa, l.tau, " +
    Ms("l.created_at") + ", coalesce(s.season, 0), coalesce(" + Ms("s.starts_at") +
    ", 0), l.options, coalesce(l.allow_three_after_ms, -1), coalesce(l.bot_fill_after_ms, -1), l.decision_ms, "
    "l.time_bank_ms, (SELECT coalesce(max(season), 0) FROM seasons WHERE ladder_id = l.id) "
    "FROM ladders l LEFT JOIN seasons s ON s.ladder_id = l.id AND s.ends_at IS NULL";

LadderInfo ReadLadder(const pqxx::row& r) {
  LadderInfo info;
  LadderSpec& spec = info.spec;
  spec.id = r[0].as<std::string>();
  spec.title = r[1].as<std::string>();
  spec.ruleset = r[2].as<std::string>();
  spec.seats = r[3].as<int>();
  spec.placement_games = r[4].as<int>();
  spec.mu = r[5].as<double>();
  spec.sigma = r[6].as<double>();
  spec.beta = r[7].as<double>();
  spec.kappa = r[8].as<double>();
  spec.tau = r[9].as<double>();
  info.created_unix_ms = r[10].as<int64_t>();
  info.season = r[11].as<int>();
  info.season_started_unix_ms = r[12].as<int64_t>();
  spec.options = r[13].as<std::string>();
  spec.allow_three_after_ms = r[14].as<int64_t>();
  spec.bot_fill_after_ms = r[15].as<int64_t>();
  spec.decision_ms = r[16].as<int>();
  spec.time_bank_ms = r[17].as<int>();
  info.latest_season = r[18].as<int>();
  return info;
}

}  // namespace

grpc::Status PgLadderStore::InsertLadder(const LadderSpec& spec, LadderInfo* out) {
  return storage::RunPg(pool_, "create ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result inserted = tx.exec_params(
        "INSERT INTO ladders (id, title, ruleset, seats, placement_games, mu, sigma, beta, kappa, tau, options, "
        " allow_three_after_ms, bot_fill_after_ms, decision_ms, time_bank_ms) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULLIF($12::int, -1), NULLIF($13::int, -1), $14, $15) "
        "ON CONFLICT (id) DO NOTHING RETURNING " +
            Ms("created_at"),
        spec.id, spec.title, spec.ruleset, spec.seats, spec.placement_games, spec.mu, spec.sigma, spec.beta, spec.kappa,
        spec.tau, spec.options, spec.allow_three_after_ms, spec.bot_fill_after_ms, spec.decision_ms, spec.time_bank_ms);
    if (inserted.empty()) return {grpc::StatusCode::ALREADY_EXISTS, "ladder '" + spec.id + "' exists"};
    tx.commit();
    *out = {spec, inserted[0][0].as<int64_t>(), 0, 0};
    return grpc::Status::OK;
  });
}

grpc::Status PgLadderStore::ChangeLadder(const std::string& ladder_id, const LadderChange& change, LadderInfo* out) {
  return storage::RunPg(pool_, "update ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The row lock makes two updates of one ladder apply one after the other,
    // each to what the other left, and the whole checked as one ladder.
    const pqxx::result r = tx.exec_params(kSelectLadders + " WHERE l.id = $1 FOR UPDATE OF l", ladder_id);
    if (r.empty()) return NoLadder(ladder_id);
    LadderInfo info = ReadLadder(r[0]);
    if (grpc::Status s = change(&info.spec); !s.ok()) return s;
    const LadderSpec& spec = info.spec;
    tx.exec_params(
        "UPDATE ladders SET title = $2, ruleset = $3, seats = $4, placement_games = $5, mu = $6, sigma = $7, "
        " beta = $8, kappa = $9, tau = $10, options = $11, allow_three_after_ms = NULLIF($12::int, -1), "
        " bot_fill_after_ms = NULLIF($13::int, -1), decision_ms = $14, time_bank_ms = $15 "
        "WHERE id = $1",
        spec.id, spec.title, spec.ruleset, spec.seats, spec.placement_games, spec.mu, spec.sigma, spec.beta, spec.kappa,
        spec.tau, spec.options, spec.allow_three_after_ms, spec.bot_fill_after_ms, spec.decision_ms, spec.time_bank_ms);
    tx.commit();
    *out = std::move(info);
    return grpc::Status::OK;
  });
}

grpc::Status PgLadderStore::FindLadder(const std::string& ladder_id, LadderInfo* out) {
  return storage::RunPg(pool_, "get ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(kSelectLadders + " WHERE l.id = $1", ladder_id);
    if (r.empty()) return NoLadder(ladder_id);
    *out = ReadLadder(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status PgLadderStore::OpenSeason(const std::string& ladder_id, int* season_out) {
  return storage::RunPg(pool_, "create season", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The ladder's row lock serialises two administrators opening seasons at once.
    if (tx.exec_params("SELECT 1 FROM ladders WHERE id = $1 FOR UPDATE", ladder_id).empty()) return NoLadder(ladder_id);
    // clock_timestamp(), not now(): this transaction may have begun before the
    // open season's, while it waited for the lock, and a season must end after it
    // starts.
    const pqxx::row row = tx.exec_params1(
        "WITH closed AS ("
        "  UPDATE seasons SET ends_at = greatest(clock_timestamp(), starts_at + interval '1 microsecond') "
        "  WHERE ladder_id = $1 AND ends_at IS NULL RETURNING ends_at) "
        "INSERT INTO seasons (ladder_id, season, starts_at) "
        "SELECT $1, coalesce((SELECT max(season) FROM seasons WHERE ladder_id = $1), 0) + 1, "
        "  coalesce((SELECT max(ends_at) FROM closed), clock_timestamp()) "
        "RETURNING season",
        ladder_id);
    tx.commit();
    *season_out = row[0].as<int>();
    return grpc::Status::OK;
  });
}

grpc::Status PgLadderStore::ListLadders(std::vector<LadderInfo>* out) {
  return storage::RunPg(pool_, "list ladders", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const auto& r : tx.exec(kSelectLadders + " ORDER BY l.id")) out->push_back(ReadLadder(r));
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::accounts
