#include "services/accounts/pg_account_store.h"

#include <optional>
#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

// Timestamps leave the database as Unix milliseconds.
std::string Ms(const std::string& column) { return "(extract(epoch FROM " + column + ") * 1000)::bigint"; }

}  // namespace

grpc::Status PgAccountStore::InsertIdentity(const std::string& kind, const std::string& name,
                                            const std::string& owner_name, Identity* out) {
  return storage::RunPg(pool_, "create identity", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result taken = tx.exec_params("SELECT name FROM identities WHERE lower(name) = lower($1)", name);
    if (!taken.empty()) {
      const std::string other = taken[0][0].as<std::string>();
      return {grpc::StatusCode::ALREADY_EXISTS,
              "name '" + name + "' is taken" + (other == name ? "" : " (by '" + other + "')")};
    }
    std::optional<int64_t> owner_id;
    if (kind == "bot") {
      const pqxx::result owner = tx.exec_params("SELECT id, kind FROM identities WHERE name = $1", owner_name);
      if (owner.empty()) return {grpc::StatusCode::NOT_FOUND, "owner: no identity named '" + owner_name + "'"};
      if (owner[0][1].as<std::string>() != "player")
        return {grpc::StatusCode::INVALID_ARGUMENT, "owner: '" + owner_name + "' is a bot; a bot's owner is a player"};
      owner_id = owner[0][0].as<int64_t>();
    }
    pqxx::row row;
    try {
      row = tx.exec_params1(
          "INSERT INTO identities (kind, name, owner_id) VALUES ($1, $2, $3) RETURNING id, " + Ms("created_at"), kind,
          name, owner_id);
    } catch (const pqxx::unique_violation&) {  // created meanwhile by another call
      return {grpc::StatusCode::ALREADY_EXISTS, "name '" + name + "' is taken"};
    }
    tx.commit();
    *out = {row[0].as<int64_t>(), kind, name, owner_name, row[1].as<int64_t>()};
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::FindIdentity(const std::string& name, Identity* out) {
  return storage::RunPg(pool_, "find identity", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r =
        tx.exec_params("SELECT i.id, i.kind, coalesce(o.name, ''), " + Ms("i.created_at") +
                           " FROM identities i LEFT JOIN identities o ON o.id = i.owner_id WHERE i.name = $1",
                       name);
    if (r.empty()) return NoIdentity(name);
    *out = {r[0][0].as<int64_t>(), r[0][1].as<std::string>(), name, r[0][2].as<std::string>(), r[0][3].as<int64_t>()};
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) {
  if (ids.empty()) return grpc::Status::OK;
  return storage::RunPg(pool_, "identity names", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    for (const pqxx::row& row :
         tx.exec_params("SELECT id, name FROM identities WHERE id = ANY($1::bigint[])", storage::IntArray(ids)))
      (*out)[row[0].as<int64_t>()] = row[1].as<std::string>();
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::ListIdentities(std::vector<Identity>* out) {
  return storage::RunPg(pool_, "list identities", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const auto& r : tx.exec("SELECT i.id, i.kind, i.name, coalesce(o.name, ''), " + Ms("i.created_at") +
                                 " FROM identities i LEFT JOIN identities o ON o.id = i.owner_id ORDER BY i.id")) {
      out->push_back({r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                      r[4].as<int64_t>()});
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::InsertToken(const std::string& identity_name, const std::string& sha256,
                                         const std::string& label, bool admin, int64_t* token_id) {
  return storage::RunPg(pool_, "issue token", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result identity = tx.exec_params("SELECT id FROM identities WHERE name = $1", identity_name);
    if (identity.empty()) return NoIdentity(identity_name);
    const pqxx::row row = tx.exec_params1(
        "INSERT INTO api_tokens (identity_id, token_sha256, label, is_admin) VALUES ($1, $2, $3, $4) RETURNING id",
        identity[0][0].as<int64_t>(), pqxx::binarystring(sha256), label, admin);
    tx.commit();
    *token_id = row[0].as<int64_t>();
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::RevokeToken(int64_t token_id) {
  return storage::RunPg(pool_, "revoke token", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result revoked = tx.exec_params(
        "UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id", token_id);
    if (revoked.empty()) {
      const pqxx::result r = tx.exec_params(
          "SELECT to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') FROM api_tokens WHERE id = $1",
          token_id);
      if (r.empty()) return {grpc::StatusCode::NOT_FOUND, "no token with id " + std::to_string(token_id)};
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "token " + std::to_string(token_id) + " was already revoked at " + r[0][0].as<std::string>() + " UTC"};
    }
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::ListTokens(const std::string& identity_name, std::vector<TokenInfo>* out) {
  return storage::RunPg(pool_, "list tokens", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result identity = tx.exec_params("SELECT id FROM identities WHERE name = $1", identity_name);
    if (identity.empty()) return NoIdentity(identity_name);
    out->clear();
    for (const auto& r :
         tx.exec_params("SELECT id, label, is_admin, " + Ms("created_at") + ", coalesce(" + Ms("revoked_at") +
                            ", 0) FROM api_tokens WHERE identity_id = $1 ORDER BY id",
                        identity[0][0].as<int64_t>())) {
      out->push_back(
          {r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<bool>(), r[3].as<int64_t>(), r[4].as<int64_t>()});
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgAccountStore::FindToken(const std::string& sha256, StoredToken* out, bool* found) {
  return storage::RunPg(pool_, "authenticate", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT t.id, t.is_admin, t.revoked_at IS NOT NULL, i.id, i.name, i.kind "
        "FROM api_tokens t JOIN identities i ON i.id = t.identity_id WHERE t.token_sha256 = $1",
        pqxx::binarystring(sha256));
    *found = !r.empty();
    if (!*found) return grpc::Status::OK;
    const pqxx::row row = r[0];
    Principal& p = out->owner;
    p.token_id = row[0].as<int64_t>();
    p.admin = row[1].as<bool>();
    out->revoked = row[2].as<bool>();
    p.identity_id = row[3].as<int64_t>();
    p.name = row[4].as<std::string>();
    p.kind = row[5].as<std::string>();
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::accounts
