#include "services/gateway/catalog_store.h"

#include <pqxx/pqxx>

#include "lib/storage/pg_status.h"
#include "services/gateway/params.h"

namespace metropolis::gateway {
namespace {

std::string Ms(const char* column) { return std::string("(extract(epoch FROM ") + column + ") * 1000)::bigint"; }

const std::string kPlayerColumns = "SELECT i.id, i.kind, i.name, coalesce(o.name, ''), " + Ms("i.created_at") +
                                   " FROM identities i LEFT JOIN identities o ON o.id = i.owner_id ";

PlayerRow ReadPlayer(const pqxx::row& r) {
  return {r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
          r[4].as<int64_t>()};
}

grpc::Status ReadLadders(pqxx::read_transaction& tx, const std::string* only, std::vector<LadderRow>* out) {
  out->clear();
  const std::string where = only ? " WHERE id = $1" : "";
  const std::string ladder_sql =
      "SELECT id, title, ruleset, options, seats, placement_games, decision_ms, time_bank_ms,"
      " coalesce(allow_three_after_ms, -1), coalesce(bot_fill_after_ms, -1), mu, sigma, " +
      Ms("created_at") + " FROM ladders" + where + " ORDER BY id";
  const std::string season_sql = "SELECT ladder_id, season, " + Ms("starts_at") + ", coalesce(" + Ms("ends_at") +
                                 ", 0) FROM seasons" + (only ? " WHERE ladder_id = $1" : "") +
                                 " ORDER BY ladder_id, season";
  const pqxx::result ladders = only ? tx.exec_params(ladder_sql, *only) : tx.exec(ladder_sql);
  const pqxx::result seasons = only ? tx.exec_params(season_sql, *only) : tx.exec(season_sql);
  for (const auto& r : ladders) {
    LadderRow l;
    l.id = r[0].as<std::string>();
    l.title = r[1].as<std::string>();
    l.ruleset = r[2].as<std::string>();
    l.options = r[3].as<std::string>();
    l.seats = r[4].as<int>();
    l.placement_games = r[5].as<int>();
    l.decision_ms = r[6].as<int>();
    l.time_bank_ms = r[7].as<int>();
    l.allow_three_after_ms = r[8].as<int64_t>();
    l.bot_fill_after_ms = r[9].as<int64_t>();
    l.mu = r[10].as<double>();
    l.sigma = r[11].as<double>();
    l.created_unix_ms = r[12].as<int64_t>();
    out->push_back(std::move(l));
  }
  // Both are ordered by ladder id: one merge pass.
  size_t i = 0;
  for (const auto& r : seasons) {
    const std::string ladder = r[0].as<std::string>();
    while (i < out->size() && (*out)[i].id < ladder) ++i;
    if (i == out->size() || (*out)[i].id != ladder) continue;
    (*out)[i].seasons.push_back({r[1].as<int>(), r[2].as<int64_t>(), r[3].as<int64_t>()});
  }
  return grpc::Status::OK;
}

}  // namespace

int LadderRow::current_season() const {
  int open = 0;
  for (const SeasonRow& s : seasons)
    if (s.ends_unix_ms == 0) open = std::max(open, s.season);
  return open;
}

grpc::Status Catalog::Ladders(std::vector<LadderRow>* out) {
  return storage::RunPg(pool_, "list ladders", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    return ReadLadders(tx, nullptr, out);
  });
}

grpc::Status Catalog::Ladder(const std::string& id, LadderRow* out) {
  return storage::RunPg(pool_, "read ladder", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    std::vector<LadderRow> rows;
    if (grpc::Status s = ReadLadders(tx, &id, &rows); !s.ok()) return s;
    if (rows.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "ladder '" + id + "' does not exist");
    *out = std::move(rows[0]);
    return grpc::Status::OK;
  });
}

grpc::Status Catalog::Player(const std::string& name, PlayerRow* out) {
  return storage::RunPg(pool_, "read player", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    // Spelt as created, through the unique index; only a miss pays for the
    // case-insensitive scan.
    pqxx::result r = tx.exec_params(kPlayerColumns + "WHERE i.name = $1", name);
    if (r.empty()) r = tx.exec_params(kPlayerColumns + "WHERE lower(i.name) = lower($1)", name);
    if (r.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "player '" + name + "' does not exist");
    *out = ReadPlayer(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status Catalog::SearchPlayers(const std::string& prefix, int limit, std::vector<PlayerRow>* out) {
  return storage::RunPg(pool_, "search players", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const std::string& spelling : NameSearchSpellings(prefix)) {
      // A range over the unique index on name ('~' sorts after every character a
      // name may hold); left() keeps exactly the names with the prefix.
      const pqxx::result r =
          tx.exec_params(kPlayerColumns +
                             "WHERE i.name >= $1 AND i.name < $1 || '~' AND left(i.name, length($1)) = $1 "
                             "ORDER BY i.name LIMIT $2",
                         spelling, limit);
      for (const auto& row : r) {
        PlayerRow p = ReadPlayer(row);
        bool seen = false;
        for (const PlayerRow& q : *out) seen |= q.id == p.id;
        if (!seen) out->push_back(std::move(p));
      }
    }
    std::sort(out->begin(), out->end(), [](const PlayerRow& a, const PlayerRow& b) { return a.name < b.name; });
    if (out->size() > size_t(limit)) out->resize(size_t(limit));
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::gateway
