#include "services/accounts/pg_catalog_store.h"

#include <algorithm>
#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

std::string Ms(const char* column) { return std::string("(extract(epoch FROM ") + column + ") * 1000)::bigint"; }

const std::string kIdentityColumns = "SELECT i.id, i.kind, i.name, coalesce(o.name, ''), " + Ms("i.created_at") +
                                     " FROM identities i LEFT JOIN identities o ON o.id = i.owner_id ";

Identity ReadIdentity(const pqxx::row& r) {
  return {r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
          r[4].as<int64_t>()};
}

}  // namespace

grpc::Status PgCatalogStore::Seasons(const std::string& only_ladder,
                                     std::map<std::string, std::vector<SeasonInfo>>* out) {
  return storage::RunPg(pool_, "read seasons", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    out->clear();
    const std::string sql = "SELECT ladder_id, season, " + Ms("starts_at") + ", coalesce(" + Ms("ends_at") +
                            ", 0) FROM seasons" + (only_ladder.empty() ? "" : " WHERE ladder_id = $1") +
                            " ORDER BY ladder_id, season";
    const pqxx::result rows = only_ladder.empty() ? tx.exec(sql) : tx.exec_params(sql, only_ladder);
    for (const auto& r : rows)
      (*out)[r[0].as<std::string>()].push_back({r[1].as<int>(), r[2].as<int64_t>(), r[3].as<int64_t>()});
    return grpc::Status::OK;
  });
}

grpc::Status PgCatalogStore::FindIdentity(const std::string& name, Identity* out) {
  return storage::RunPg(pool_, "read identity", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    // Spelt as created, through the unique index; only a miss pays for the
    // case-insensitive scan.
    pqxx::result r = tx.exec_params(kIdentityColumns + "WHERE i.name = $1", name);
    if (r.empty()) r = tx.exec_params(kIdentityColumns + "WHERE lower(i.name) = lower($1)", name);
    if (r.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "player '" + name + "' does not exist");
    *out = ReadIdentity(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status PgCatalogStore::SearchIdentities(const std::string& prefix, int limit, std::vector<Identity>* out) {
  return storage::RunPg(pool_, "search identities", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const std::string& spelling : NameSearchSpellings(prefix)) {
      // A range over the unique index on name ('~' sorts after every character a
      // name may hold); left() keeps exactly the names with the prefix.
      const pqxx::result r =
          tx.exec_params(kIdentityColumns +
                             "WHERE i.name >= $1 AND i.name < $1 || '~' AND left(i.name, length($1)) = $1 "
                             "ORDER BY i.name LIMIT $2",
                         spelling, limit);
      for (const auto& row : r) {
        Identity p = ReadIdentity(row);
        bool seen = false;
        for (const Identity& q : *out) seen |= q.id == p.id;
        if (!seen) out->push_back(std::move(p));
      }
    }
    std::sort(out->begin(), out->end(), [](const Identity& a, const Identity& b) { return a.name < b.name; });
    if (out->size() > size_t(limit)) out->resize(size_t(limit));
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::accounts
