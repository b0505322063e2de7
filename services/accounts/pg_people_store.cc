#include "services/accounts/pg_people_store.h"

#include <algorithm>
#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

HeldSeat SeatFrom(const pqxx::row& r) {
  return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<int>()};
}

}  // namespace

grpc::Status PgPeopleStore::CreatePerson(const std::string& name, const std::string& password_hash, Person* out) {
  // The identity and its password in one transaction, so a failure leaves no
  // identity that nobody can sign in as. The same any-case uniqueness holds as
  // for identities an administrator makes.
  return storage::RunPg(pool_, "create person", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    if (!tx.exec_params("SELECT 1 FROM identities WHERE lower(name) = lower($1)", name).empty())
      return {grpc::StatusCode::ALREADY_EXISTS, "name '" + name + "' is taken"};
    int64_t id = 0;
    try {
      id = tx.exec_params1("INSERT INTO identities (kind, name) VALUES ('player', $1) RETURNING id", name)[0]
               .as<int64_t>();
    } catch (const pqxx::unique_violation&) {  // taken meanwhile
      return {grpc::StatusCode::ALREADY_EXISTS, "name '" + name + "' is taken"};
    }
    tx.exec_params("INSERT INTO player_passwords (identity_id, password_hash) VALUES ($1, $2)", id, password_hash);
    tx.commit();
    *out = {id, name};
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::FindPasswords(const std::string& name, std::vector<PasswordCandidate>* out) {
  return storage::RunPg(pool_, "find password", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    // The renamed one second: a name that differed only in case from an older
    // one belongs, in any case, to the older identity.
    const pqxx::result r = tx.exec_params(
        "SELECT i.id, i.name, p.password_hash FROM identities i JOIN player_passwords p ON p.identity_id = i.id "
        "WHERE i.kind = 'player' AND (lower(i.name) = lower($1) OR i.id IN "
        " (SELECT identity_id FROM identity_renames WHERE old_name = $1 AND told_at IS NULL)) "
        "ORDER BY lower(i.name) = lower($1) DESC, i.id",
        name);
    out->clear();
    for (const auto& row : r)
      out->push_back({{row[0].as<int64_t>(), row[1].as<std::string>()}, row[2].as<std::string>()});
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::TakeRenames(int64_t identity_id, std::vector<Rename>* out) {
  return storage::RunPg(pool_, "take renames", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result r = tx.exec_params(
        "UPDATE identity_renames r SET told_at = now() FROM identities i "
        "WHERE r.identity_id = i.id AND r.told_at IS NULL AND (i.id = $1 OR i.owner_id = $1) "
        "RETURNING r.identity_id, r.old_name, r.new_name",
        identity_id);
    tx.commit();
    out->clear();
    for (const auto& row : r)
      out->push_back({row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<std::string>()});
    std::sort(out->begin(), out->end(), [](const Rename& a, const Rename& b) { return a.identity_id < b.identity_id; });
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::FindPerson(int64_t identity_id, Person* out) {
  return storage::RunPg(pool_, "find person", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT i.name FROM identities i JOIN player_passwords p ON p.identity_id = i.id "
        "WHERE i.id = $1 AND i.kind = 'player'",
        identity_id);
    if (r.empty()) return {grpc::StatusCode::NOT_FOUND, "no person with identity id " + std::to_string(identity_id)};
    *out = {identity_id, r[0][0].as<std::string>()};
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::CreateSession(const std::string& token_sha256, int64_t identity_id,
                                          int64_t expires_unix_ms) {
  return storage::RunPg(pool_, "create session", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // Expired sessions go as new ones come: the table holds live ones only.
    tx.exec("DELETE FROM web_sessions WHERE expires_at < now() - interval '1 day'");
    tx.exec_params(
        "INSERT INTO web_sessions (token_sha256, identity_id, expires_at) VALUES ($1, $2, to_timestamp($3 / 1000.0))",
        pqxx::binarystring(token_sha256), identity_id, expires_unix_ms);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::FindSession(const std::string& token_sha256, int64_t now_unix_ms, WebSession* out) {
  return storage::RunPg(pool_, "find session", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT i.id, i.name, (extract(epoch FROM s.expires_at) * 1000)::bigint FROM web_sessions s "
        "JOIN identities i ON i.id = s.identity_id WHERE s.token_sha256 = $1 AND s.expires_at > "
        "to_timestamp($2 / 1000.0)",
        pqxx::binarystring(token_sha256), now_unix_ms);
    if (r.empty()) return {grpc::StatusCode::NOT_FOUND, "no such session"};
    *out = {{r[0][0].as<int64_t>(), r[0][1].as<std::string>()}, token_sha256, r[0][2].as<int64_t>()};
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::DeleteSession(const std::string& token_sha256) {
  return storage::RunPg(pool_, "delete session", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    tx.exec_params("DELETE FROM web_sessions WHERE token_sha256 = $1", pqxx::binarystring(token_sha256));
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::SaveSeat(int64_t identity_id, const HeldSeat& seat) {
  return storage::RunPg(pool_, "save seat", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    tx.exec_params(
        "INSERT INTO web_seats (identity_id, game_id, seat, host, seat_token) VALUES ($1, $2, $3, $4, $5) "
        "ON CONFLICT (identity_id, game_id) DO UPDATE SET seat = $3, host = $4, seat_token = $5",
        identity_id, seat.game_id, seat.seat, seat.host, seat.seat_token);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) {
  return storage::RunPg(pool_, "find seat", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r =
        tx.exec_params("SELECT game_id, host, seat_token, seat FROM web_seats WHERE identity_id = $1 AND game_id = $2",
                       identity_id, game_id);
    if (r.empty()) return {grpc::StatusCode::NOT_FOUND, "no seat in game '" + game_id + "'"};
    *out = SeatFrom(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::LatestOpenSeat(int64_t identity_id, HeldSeat* out) {
  return storage::RunPg(pool_, "latest open seat", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT game_id, host, seat_token, seat FROM web_seats WHERE identity_id = $1 AND finished_at IS NULL "
        "ORDER BY created_at DESC LIMIT 1",
        identity_id);
    if (r.empty()) return {grpc::StatusCode::NOT_FOUND, "no open seat"};
    *out = SeatFrom(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::MarkSeatFinished(int64_t identity_id, const std::string& game_id) {
  return storage::RunPg(pool_, "finish seat", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    tx.exec_params("UPDATE web_seats SET finished_at = now() WHERE identity_id = $1 AND game_id = $2", identity_id,
                   game_id);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::RevokePersonToken(int64_t identity_id, int64_t token_id) {
  return storage::RunPg(pool_, "revoke person token", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result r =
        tx.exec_params("SELECT revoked_at IS NOT NULL FROM api_tokens WHERE id = $1 AND identity_id = $2 FOR UPDATE",
                       token_id, identity_id);
    // Another's token is as unknown as none: the caller learns nothing of it.
    if (r.empty())
      return {grpc::StatusCode::NOT_FOUND,
              "identity " + std::to_string(identity_id) + " has no token with id " + std::to_string(token_id)};
    if (r[0][0].as<bool>())
      return {grpc::StatusCode::FAILED_PRECONDITION, "token " + std::to_string(token_id) + " was already revoked"};
    tx.exec_params("UPDATE api_tokens SET revoked_at = now() WHERE id = $1", token_id);
    tx.commit();
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::accounts
