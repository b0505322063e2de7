#include "services/accounts/pg_people_store.h"

#include <algorithm>
#include <optional>
#include <pqxx/pqxx>

#include "lib/common/negative_control.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

// The token is the stored text until PgPeopleStore::Open opens it.
HeldSeat SeatFrom(const pqxx::row& r) {
  return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<int>()};
}

// Rows sealed by SealClearSeats per transaction.
constexpr int kSealBatch = 500;

// Stores `sealed` for a token read in the clear, unless the row changed since
// (saved again meanwhile: its new token is sealed already).
void StoreSealed(pqxx::transaction_base& tx, int64_t identity_id, const std::string& game_id, const std::string& clear,
                 const std::string& sealed) {
  tx.exec_params("UPDATE web_seats SET seat_token = $3 WHERE identity_id = $1 AND game_id = $2 AND seat_token = $4",
                 identity_id, game_id, sealed, clear);
}

// Timestamps leave the database as Unix milliseconds.
std::string Ms(const std::string& column) { return "(extract(epoch FROM " + column + ") * 1000)::bigint"; }

grpc::Status NoPerson(int64_t person_id) {
  return {grpc::StatusCode::NOT_FOUND, "no person with identity id " + std::to_string(person_id)};
}

// Another's bot is as unknown as none: the caller learns nothing of it.
grpc::Status NoBot(const std::string& bot) {
  return {grpc::StatusCode::NOT_FOUND, "you own no bot named '" + bot + "'"};
}

// The id of `person_id`'s bot `bot`, its row locked when `lock`; null when the
// person owns no such bot (or is no person).
std::optional<int64_t> OwnBotId(pqxx::transaction_base& tx, int64_t person_id, const std::string& bot, bool lock) {
  const pqxx::result r = tx.exec_params(
      "SELECT b.id FROM identities b JOIN player_passwords p ON p.identity_id = b.owner_id "
      "WHERE b.kind = 'bot' AND b.name = $1 AND b.owner_id = $2" +
          std::string(lock ? " FOR UPDATE OF b" : ""),
      bot, person_id);
  if (r.empty()) return std::nullopt;
  return r[0][0].as<int64_t>();
}

grpc::Status NoSeatKey() {
  return {grpc::StatusCode::FAILED_PRECONDITION,
          "this Accounts service has no seat key (--seat-key-file): it keeps no seats"};
}

}  // namespace

PgPeopleStore::PgPeopleStore(storage::PgPool* pool, const SeatSealer* sealer)
    : pool_(pool),
      sealer_(sealer),
      seal_(!services::ProtectionRemoved("sealed_seats")),
      bind_(!services::ProtectionRemoved("bound_seats")) {}

SeatPlace PgPeopleStore::Place(int64_t identity_id, const HeldSeat& seat) const {
  if (!bind_) return {};
  return {.identity_id = identity_id, .game_id = seat.game_id, .seat = seat.seat, .host = seat.host};
}

std::string PgPeopleStore::Stored(int64_t identity_id, const HeldSeat& seat) const {
  return seal_ ? sealer_->Seal(seat.seat_token, Place(identity_id, seat)) : seat.seat_token;
}

grpc::Status PgPeopleStore::Open(int64_t identity_id, HeldSeat* seat, std::string* reseal) const {
  reseal->clear();
  if (!SeatSealer::IsSealed(seat->seat_token)) {
    // Stored in the clear before tokens were sealed: still the person's seat.
    if (seal_) *reseal = sealer_->Seal(seat->seat_token, Place(identity_id, *seat));
    return grpc::Status::OK;
  }
  std::string token;
  if (grpc::Status s = sealer_->Open(seat->seat_token, Place(identity_id, *seat), &token); !s.ok()) return s;
  seat->seat_token = std::move(token);
  return grpc::Status::OK;
}

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

grpc::Status PgPeopleStore::FindPasswordHash(int64_t identity_id, std::string* hash) {
  return storage::RunPg(pool_, "find password hash", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT p.password_hash FROM identities i JOIN player_passwords p ON p.identity_id = i.id "
        "WHERE i.id = $1 AND i.kind = 'player'",
        identity_id);
    if (r.empty()) return NoPerson(identity_id);
    *hash = r[0][0].as<std::string>();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::ReplacePassword(int64_t identity_id, const std::string& old_hash,
                                            const std::string& new_hash, const std::string& keep_token_sha256,
                                            int* ended) {
  return storage::RunPg(pool_, "replace password", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // Only over the hash the caller verified: a change committed meanwhile
    // leaves this one no row (PostgreSQL checks the condition again on the row
    // that change left), and the caller verifies the old password anew.
    if (tx.exec_params("UPDATE player_passwords SET password_hash = $3 WHERE identity_id = $1 AND password_hash = $2 "
                       "RETURNING 1",
                       identity_id, old_hash, new_hash)
            .empty())
      return {grpc::StatusCode::ABORTED, "the password was changed meanwhile"};
    // Whoever knew the old password is signed out everywhere but here.
    const pqxx::result r = tx.exec_params(
        "DELETE FROM web_sessions WHERE identity_id = $1 AND token_sha256 <> $2 RETURNING expires_at > now()",
        identity_id, pqxx::binarystring(keep_token_sha256));
    tx.commit();
    *ended = int(std::count_if(r.begin(), r.end(), [](const auto& row) { return row[0].template as<bool>(); }));
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::ListSessions(int64_t identity_id, int64_t now_unix_ms,
                                         const std::string& current_token_sha256, std::vector<SessionInfo>* out) {
  return storage::RunPg(pool_, "list sessions", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT encode(substring(token_sha256 FROM 1 FOR " + std::to_string(people::kSessionIdBytes) + "), 'hex'), " +
            Ms("created_at") + ", " + Ms("expires_at") +
            ", token_sha256 = $3 FROM web_sessions WHERE identity_id = $1 AND expires_at > to_timestamp($2 / 1000.0) "
            "ORDER BY created_at DESC, token_sha256",
        identity_id, now_unix_ms, pqxx::binarystring(current_token_sha256));
    out->clear();
    for (const auto& row : r)
      out->push_back({row[0].as<std::string>(), row[1].as<int64_t>(), row[2].as<int64_t>(), row[3].as<bool>()});
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::EndSession(int64_t identity_id, const std::string& id) {
  return storage::RunPg(pool_, "end session", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // Another's session is as unknown as none: the caller learns nothing of it.
    const pqxx::result r =
        tx.exec_params("DELETE FROM web_sessions WHERE identity_id = $1 AND encode(substring(token_sha256 FROM 1 FOR " +
                           std::to_string(people::kSessionIdBytes) + "), 'hex') = $2 RETURNING 1",
                       identity_id, id);
    if (r.empty()) return {grpc::StatusCode::NOT_FOUND, "you have no session with id '" + id + "'"};
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::SaveSeat(int64_t identity_id, const HeldSeat& seat) {
  if (!sealer_) return NoSeatKey();
  const std::string stored = Stored(identity_id, seat);
  return storage::RunPg(pool_, "save seat", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    tx.exec_params(
        "INSERT INTO web_seats (identity_id, game_id, seat, host, seat_token) VALUES ($1, $2, $3, $4, $5) "
        "ON CONFLICT (identity_id, game_id) DO UPDATE SET seat = $3, host = $4, seat_token = $5",
        identity_id, seat.game_id, seat.seat, seat.host, stored);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) {
  return ReadSeat(identity_id, &game_id, out);
}

grpc::Status PgPeopleStore::LatestOpenSeat(int64_t identity_id, HeldSeat* out) {
  return ReadSeat(identity_id, nullptr, out);
}

grpc::Status PgPeopleStore::ReadSeat(int64_t identity_id, const std::string* game_id, HeldSeat* out) {
  if (!sealer_) return NoSeatKey();
  return storage::RunPg(pool_, game_id ? "find seat" : "latest open seat", [&](pqxx::connection& c) -> grpc::Status {
    // A work, not a read transaction: a token found in the clear is sealed in it.
    pqxx::work tx(c);
    const pqxx::result r =
        game_id ? tx.exec_params(
                      "SELECT game_id, host, seat_token, seat FROM web_seats WHERE identity_id = $1 AND game_id = $2 "
                      "AND host <> ''",
                      identity_id, *game_id)
                : tx.exec_params(
                      "SELECT game_id, host, seat_token, seat FROM web_seats WHERE identity_id = $1 AND finished_at "
                      "IS NULL AND host <> '' ORDER BY created_at DESC LIMIT 1",
                      identity_id);
    if (r.empty())
      return {grpc::StatusCode::NOT_FOUND, game_id ? "no seat in game '" + *game_id + "'" : "no open seat"};
    HeldSeat seat = SeatFrom(r[0]);
    const std::string stored = seat.seat_token;
    std::string reseal;
    if (grpc::Status s = Open(identity_id, &seat, &reseal); !s.ok()) return s;
    if (!reseal.empty()) {
      StoreSealed(tx, identity_id, seat.game_id, stored, reseal);
      tx.commit();
    }
    *out = std::move(seat);
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

grpc::Status PgPeopleStore::ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) {
  return storage::RunPg(pool_, "reserve practice seat", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The person's row is the lock: a second reservation of theirs waits here
    // until this one is committed, then counts it.
    if (tx.exec_params("SELECT 1 FROM identities WHERE id = $1 FOR UPDATE", identity_id).empty())
      return {grpc::StatusCode::NOT_FOUND, "no identity with id " + std::to_string(identity_id)};
    const int64_t open =
        tx.exec_params1("SELECT count(*) FROM web_seats WHERE identity_id = $1 AND practice AND finished_at IS NULL",
                        identity_id)[0]
            .as<int64_t>();
    if (open >= max_open)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              std::to_string(open) + " practice games unfinished, the most at once is " + std::to_string(max_open)};
    // Host and token empty until SaveSeat: ReadSeat passes over it.
    const pqxx::result r = tx.exec_params(
        "INSERT INTO web_seats (identity_id, game_id, seat, host, seat_token, practice) "
        "VALUES ($1, $2, 0, '', '', true) ON CONFLICT (identity_id, game_id) DO NOTHING RETURNING 1",
        identity_id, game_id);
    if (r.empty()) return {grpc::StatusCode::ALREADY_EXISTS, "a seat in game '" + game_id + "' exists already"};
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) {
  return storage::RunPg(pool_, "open practice seats", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(
        "SELECT game_id, host, (extract(epoch FROM now() - created_at) * 1000)::bigint FROM web_seats "
        "WHERE identity_id = $1 AND practice AND finished_at IS NULL ORDER BY created_at, game_id",
        identity_id);
    out->clear();
    for (const auto& row : r)
      out->push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int64_t>()});
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

grpc::Status PgPeopleStore::CreatePersonBot(int64_t person_id, const std::string& name, int max_bots, PersonBot* out) {
  return storage::RunPg(pool_, "create person bot", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The person's row is the lock: a second creation of theirs waits here
    // until this one is committed, then counts its bot.
    if (tx.exec_params("SELECT 1 FROM identities i JOIN player_passwords p ON p.identity_id = i.id "
                       "WHERE i.id = $1 AND i.kind = 'player' FOR UPDATE OF i",
                       person_id)
            .empty())
      return NoPerson(person_id);
    const int64_t owned =
        tx.exec_params1("SELECT count(*) FROM identities WHERE owner_id = $1", person_id)[0].as<int64_t>();
    if (owned >= max_bots)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              "you own " + std::to_string(owned) + " bots, the most a person may own is " + std::to_string(max_bots)};
    const pqxx::result taken = tx.exec_params("SELECT name FROM identities WHERE lower(name) = lower($1)", name);
    if (!taken.empty()) {
      const std::string other = taken[0][0].as<std::string>();
      return {grpc::StatusCode::ALREADY_EXISTS,
              "name '" + name + "' is taken" + (other == name ? "" : " (by '" + other + "')")};
    }
    pqxx::row row;
    try {
      row = tx.exec_params1(
          "INSERT INTO identities (kind, name, owner_id) VALUES ('bot', $1, $2) RETURNING id, " + Ms("created_at"),
          name, person_id);
    } catch (const pqxx::unique_violation&) {  // created meanwhile by another call
      return {grpc::StatusCode::ALREADY_EXISTS, "name '" + name + "' is taken"};
    }
    tx.commit();
    *out = {row[0].as<int64_t>(), name, row[1].as<int64_t>(), 0};
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::ListPersonBots(int64_t person_id, std::vector<PersonBot>* out) {
  return storage::RunPg(pool_, "list person bots", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    if (tx.exec_params("SELECT 1 FROM identities i JOIN player_passwords p ON p.identity_id = i.id "
                       "WHERE i.id = $1 AND i.kind = 'player'",
                       person_id)
            .empty())
      return NoPerson(person_id);
    out->clear();
    for (const auto& r :
         tx.exec_params("SELECT b.id, b.name, " + Ms("b.created_at") +
                            ", (SELECT count(*) FROM api_tokens t WHERE t.identity_id = b.id AND t.revoked_at IS NULL) "
                            "FROM identities b WHERE b.owner_id = $1 AND b.kind = 'bot' ORDER BY b.name",
                        person_id))
      out->push_back({r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<int64_t>(), r[3].as<int>()});
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::InsertBotToken(int64_t person_id, const std::string& bot, const std::string& sha256,
                                           const std::string& label, int max_live, int64_t* token_id) {
  return storage::RunPg(pool_, "issue bot token", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The bot's row is the lock: a second issue for it waits here until this
    // one is committed, then counts its token.
    const std::optional<int64_t> bot_id = OwnBotId(tx, person_id, bot, /*lock=*/true);
    if (!bot_id) return NoBot(bot);
    const int64_t live =
        tx.exec_params1("SELECT count(*) FROM api_tokens WHERE identity_id = $1 AND revoked_at IS NULL", *bot_id)[0]
            .as<int64_t>();
    if (live >= max_live)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED, "bot '" + bot + "' has " + std::to_string(live) +
                                                        " unrevoked tokens, the most a bot may have is " +
                                                        std::to_string(max_live) + ": revoke one first"};
    const pqxx::row row = tx.exec_params1(
        "INSERT INTO api_tokens (identity_id, token_sha256, label, is_admin) VALUES ($1, $2, $3, false) RETURNING id",
        *bot_id, pqxx::binarystring(sha256), label);
    tx.commit();
    *token_id = row[0].as<int64_t>();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::ListBotTokens(int64_t person_id, const std::string& bot, std::vector<TokenInfo>* out) {
  return storage::RunPg(pool_, "list bot tokens", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const std::optional<int64_t> bot_id = OwnBotId(tx, person_id, bot, /*lock=*/false);
    if (!bot_id) return NoBot(bot);
    out->clear();
    for (const auto& r :
         tx.exec_params("SELECT id, label, is_admin, " + Ms("created_at") + ", coalesce(" + Ms("revoked_at") +
                            ", 0) FROM api_tokens WHERE identity_id = $1 ORDER BY id",
                        *bot_id))
      out->push_back(
          {r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<bool>(), r[3].as<int64_t>(), r[4].as<int64_t>()});
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::RevokeBotToken(int64_t person_id, const std::string& bot, int64_t token_id) {
  return storage::RunPg(pool_, "revoke bot token", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const std::optional<int64_t> bot_id = OwnBotId(tx, person_id, bot, /*lock=*/false);
    if (!bot_id) return NoBot(bot);
    const pqxx::result r =
        tx.exec_params("SELECT revoked_at IS NOT NULL FROM api_tokens WHERE id = $1 AND identity_id = $2 FOR UPDATE",
                       token_id, *bot_id);
    if (r.empty())
      return {grpc::StatusCode::NOT_FOUND, "bot '" + bot + "' has no token with id " + std::to_string(token_id)};
    if (r[0][0].as<bool>())
      return {grpc::StatusCode::FAILED_PRECONDITION, "token " + std::to_string(token_id) + " was already revoked"};
    tx.exec_params("UPDATE api_tokens SET revoked_at = now() WHERE id = $1", token_id);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgPeopleStore::SealClearSeats(int64_t* sealed) {
  *sealed = 0;
  if (!sealer_ || !seal_) return grpc::Status::OK;
  for (;;) {
    pqxx::result::size_type batch = 0;
    const grpc::Status s = storage::RunPg(pool_, "seal clear seats", [&](pqxx::connection& c) -> grpc::Status {
      pqxx::work tx(c);
      // Another replica sweeping at the same time skips the rows this one holds.
      const pqxx::result r = tx.exec_params(
          "SELECT game_id, host, seat_token, seat, identity_id FROM web_seats "
          "WHERE left(seat_token, length($1)) <> $1 AND seat_token <> '' LIMIT $2 FOR UPDATE SKIP LOCKED",
          std::string(SeatSealer::kPrefix), kSealBatch);
      for (const auto& row : r) {
        const int64_t identity_id = row[4].as<int64_t>();
        const HeldSeat seat = SeatFrom(row);
        StoreSealed(tx, identity_id, seat.game_id, seat.seat_token, Stored(identity_id, seat));
      }
      tx.commit();
      batch = r.size();
      return grpc::Status::OK;
    });
    if (!s.ok()) return s;
    *sealed += int64_t(batch);
    if (batch < pqxx::result::size_type(kSealBatch)) return grpc::Status::OK;
  }
}

}  // namespace metropolis::accounts
