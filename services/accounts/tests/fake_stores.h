// In-memory fakes of the accounts' four stores for tests that need no database.
// They share one FakeAccountsDb, as the real ones share the accounts' tables,
// and keep the contracts of the stored rows: names unique in any letter case,
// a bot's owner a player, tokens found by their hash, ladders with the table's
// defaults, seasons that abut and number from 1, sessions that expire. The
// checks the interfaces make themselves (store.cc, ladder_store.cc) run as in
// production. `unavailable` makes every call UNAVAILABLE, as a database that
// cannot be reached does. The service tests run over these and over PostgreSQL
// (the same test file, built twice), which keeps the fakes honest.
#pragma once

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "services/accounts/catalog_store.h"
#include "services/accounts/ladder_store.h"
#include "services/accounts/people_store.h"
#include "services/accounts/store.h"

namespace metropolis::accounts::testing {

class FakeAccountsDb {
 public:
  struct IdentityRow {
    int64_t id = 0;
    std::string kind, name;
    int64_t owner_id = 0;
    int64_t created_ms = 0;
  };
  struct TokenRow {
    int64_t id = 0, identity_id = 0;
    std::string sha256, label;
    bool admin = false;
    int64_t created_ms = 0, revoked_ms = 0;
  };
  struct LadderRow {
    LadderSpec spec;
    int64_t created_ms = 0;
  };
  struct SeatRow {
    HeldSeat seat;
    int64_t saved = 0;  // order of saving, for the latest
    bool finished = false;
    bool practice = false;
  };
  struct RenameRow {
    Rename rename;
    bool told = false;
  };
  struct SessionRow {
    int64_t identity_id = 0, expires_ms = 0;
    int64_t created_ms = 0;  // the fake clock's: sessions keep their order
  };

  std::atomic<bool> unavailable{false};

  // Each call moves the clock by a millisecond, so that rows keep their order.
  int64_t Now() { return now_ms_ += 1; }
  static std::string Lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  static grpc::Status Down() { return {grpc::StatusCode::UNAVAILABLE, "the accounts database is down"}; }

  const IdentityRow* ByName(const std::string& name) const {
    for (const auto& [id, row] : identities)
      if (row.name == name) return &row;
    return nullptr;
  }
  const IdentityRow* ByNameAnyCase(const std::string& name) const {
    for (const auto& [id, row] : identities)
      if (Lower(row.name) == Lower(name)) return &row;
    return nullptr;
  }
  Identity ToIdentity(const IdentityRow& row) const {
    auto owner = identities.find(row.owner_id);
    return {row.id, row.kind, row.name, owner == identities.end() ? "" : owner->second.name, row.created_ms};
  }
  LadderInfo ToLadder(const LadderRow& row) const {
    LadderInfo info;
    info.spec = row.spec;
    info.created_unix_ms = row.created_ms;
    auto it = seasons.find(row.spec.id);
    if (it != seasons.end() && !it->second.empty()) {
      info.latest_season = it->second.back().season;
      if (it->second.back().ends_unix_ms == 0) {
        info.season = it->second.back().season;
        info.season_started_unix_ms = it->second.back().starts_unix_ms;
      }
    }
    return info;
  }
  int64_t AddIdentity(const std::string& kind, const std::string& name, int64_t owner_id) {
    const int64_t id = next_identity_++;
    identities[id] = {id, kind, name, owner_id, Now()};
    return id;
  }

  // Every row, every column, in a stable order: two equal snapshots mean
  // nothing changed.
  std::string Snapshot() {
    std::lock_guard lock(mutex);
    std::ostringstream out;
    for (const auto& [id, r] : identities)
      out << "identity " << id << ' ' << r.kind << ' ' << r.name << ' ' << r.owner_id << ' ' << r.created_ms << '\n';
    for (const auto& [id, t] : tokens)
      out << "token " << id << ' ' << t.identity_id << ' ' << t.label << ' ' << t.admin << ' ' << t.created_ms << ' '
          << t.revoked_ms << '\n';
    for (const auto& [id, l] : ladders) {
      const LadderSpec& s = l.spec;
      out << "ladder " << id << ' ' << s.title << ' ' << s.ruleset << ' ' << s.seats << ' ' << s.placement_games << ' '
          << s.mu << ' ' << s.sigma << ' ' << s.beta << ' ' << s.kappa << ' ' << s.tau << ' ' << s.options << ' '
          << s.allow_three_after_ms << ' ' << s.bot_fill_after_ms << ' ' << s.decision_ms << ' ' << s.time_bank_ms
          << '\n';
    }
    for (const auto& [ladder, list] : seasons)
      for (const SeasonInfo& s : list)
        out << "season " << ladder << ' ' << s.season << ' ' << s.starts_unix_ms << ' ' << s.ends_unix_ms << '\n';
    for (const auto& [id, hash] : passwords) out << "password " << id << ' ' << hash << '\n';
    for (const auto& r : renames)
      out << "rename " << r.rename.identity_id << ' ' << r.rename.old_name << ' ' << r.rename.new_name << ' ' << r.told
          << '\n';
    for (const auto& [sha, session] : sessions)  // the key is raw bytes: a hash of it reads better
      out << "session " << std::hash<std::string>{}(sha) << ' ' << session.identity_id << ' ' << session.expires_ms
          << ' ' << session.created_ms << '\n';
    for (const auto& [key, s] : seats)
      out << "seat " << key.first << ' ' << key.second << ' ' << s.seat.host << ' ' << s.seat.seat_token << ' '
          << s.seat.seat << ' ' << s.saved << ' ' << s.finished << '\n';
    return out.str();
  }

  std::mutex mutex;
  std::map<int64_t, IdentityRow> identities;
  std::map<int64_t, TokenRow> tokens;
  std::map<std::string, LadderRow> ladders;
  std::map<std::string, std::vector<SeasonInfo>> seasons;
  std::map<int64_t, std::string> passwords;
  std::vector<RenameRow> renames;
  std::map<std::string, SessionRow> sessions;  // by the cookie's SHA-256
  std::map<std::pair<int64_t, std::string>, SeatRow> seats;
  int64_t next_token = 1, next_save = 1;

 private:
  int64_t now_ms_ = 1'790'000'000'000;
  int64_t next_identity_ = 1;
};

class FakeAccountStore final : public AccountStore {
 public:
  explicit FakeAccountStore(FakeAccountsDb* db) : db_(db) {}

  grpc::Status FindIdentity(const std::string& name, Identity* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const auto* row = db_->ByName(name);
    if (!row) return NoIdentity(name);
    *out = db_->ToIdentity(*row);
    return grpc::Status::OK;
  }
  grpc::Status ListIdentities(std::vector<Identity>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    out->clear();
    for (const auto& [id, row] : db_->identities) out->push_back(db_->ToIdentity(row));
    return grpc::Status::OK;
  }
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override {
    if (ids.empty()) return grpc::Status::OK;
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    for (int64_t id : ids)
      if (auto it = db_->identities.find(id); it != db_->identities.end()) (*out)[id] = it->second.name;
    return grpc::Status::OK;
  }
  grpc::Status RevokeToken(int64_t token_id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->tokens.find(token_id);
    if (it == db_->tokens.end()) return {grpc::StatusCode::NOT_FOUND, "no token with id " + std::to_string(token_id)};
    if (it->second.revoked_ms != 0) {
      const std::time_t seconds = std::time_t(it->second.revoked_ms / 1000);
      std::tm utc{};
      gmtime_r(&seconds, &utc);
      char when[32];
      std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &utc);
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "token " + std::to_string(token_id) + " was already revoked at " + when + " UTC"};
    }
    it->second.revoked_ms = db_->Now();
    return grpc::Status::OK;
  }
  grpc::Status ListTokens(const std::string& identity_name, std::vector<TokenInfo>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const auto* identity = db_->ByName(identity_name);
    if (!identity) return NoIdentity(identity_name);
    out->clear();
    for (const auto& [id, t] : db_->tokens)
      if (t.identity_id == identity->id) out->push_back({t.id, t.label, t.admin, t.created_ms, t.revoked_ms});
    return grpc::Status::OK;
  }

 protected:
  grpc::Status InsertIdentity(const std::string& kind, const std::string& name, const std::string& owner_name,
                              Identity* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (const auto* taken = db_->ByNameAnyCase(name)) {
      return {grpc::StatusCode::ALREADY_EXISTS,
              "name '" + name + "' is taken" + (taken->name == name ? "" : " (by '" + taken->name + "')")};
    }
    int64_t owner_id = 0;
    if (kind == "bot") {
      const auto* owner = db_->ByName(owner_name);
      if (!owner) return {grpc::StatusCode::NOT_FOUND, "owner: no identity named '" + owner_name + "'"};
      if (owner->kind != "player")
        return {grpc::StatusCode::INVALID_ARGUMENT, "owner: '" + owner_name + "' is a bot; a bot's owner is a player"};
      owner_id = owner->id;
    }
    const int64_t id = db_->AddIdentity(kind, name, owner_id);
    *out = db_->ToIdentity(db_->identities.at(id));
    return grpc::Status::OK;
  }
  grpc::Status InsertToken(const std::string& identity_name, const std::string& sha256, const std::string& label,
                           bool admin, int64_t* token_id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const auto* identity = db_->ByName(identity_name);
    if (!identity) return NoIdentity(identity_name);
    *token_id = db_->next_token++;
    db_->tokens[*token_id] = {*token_id, identity->id, sha256, label, admin, db_->Now(), 0};
    return grpc::Status::OK;
  }
  grpc::Status FindToken(const std::string& sha256, StoredToken* out, bool* found) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    *found = false;
    for (const auto& [id, t] : db_->tokens) {
      if (t.sha256 != sha256) continue;
      const auto& identity = db_->identities.at(t.identity_id);
      *found = true;
      out->owner = {};
      out->owner.token_id = t.id;
      out->owner.admin = t.admin;
      out->owner.identity_id = identity.id;
      out->owner.name = identity.name;
      out->owner.kind = identity.kind;
      out->revoked = t.revoked_ms != 0;
    }
    return grpc::Status::OK;
  }

 private:
  FakeAccountsDb* db_;
};

class FakeLadderStore final : public LadderStore {
 public:
  explicit FakeLadderStore(FakeAccountsDb* db) : db_(db) {}

  grpc::Status ListLadders(std::vector<LadderInfo>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    out->clear();
    for (const auto& [id, row] : db_->ladders) out->push_back(db_->ToLadder(row));
    return grpc::Status::OK;
  }

 protected:
  grpc::Status InsertLadder(const LadderSpec& spec, LadderInfo* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (db_->ladders.count(spec.id)) return {grpc::StatusCode::ALREADY_EXISTS, "ladder '" + spec.id + "' exists"};
    db_->ladders[spec.id] = {spec, db_->Now()};
    *out = db_->ToLadder(db_->ladders.at(spec.id));
    return grpc::Status::OK;
  }
  grpc::Status ChangeLadder(const std::string& ladder_id, const LadderChange& change, LadderInfo* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->ladders.find(ladder_id);
    if (it == db_->ladders.end()) return NoLadder(ladder_id);
    LadderSpec spec = it->second.spec;
    if (grpc::Status s = change(&spec); !s.ok()) return s;
    it->second.spec = spec;
    *out = db_->ToLadder(it->second);
    return grpc::Status::OK;
  }
  grpc::Status FindLadder(const std::string& ladder_id, LadderInfo* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->ladders.find(ladder_id);
    if (it == db_->ladders.end()) return NoLadder(ladder_id);
    *out = db_->ToLadder(it->second);
    return grpc::Status::OK;
  }
  grpc::Status OpenSeason(const std::string& ladder_id, int* season_out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (!db_->ladders.count(ladder_id)) return NoLadder(ladder_id);
    std::vector<SeasonInfo>& list = db_->seasons[ladder_id];
    const int64_t now = db_->Now();
    if (!list.empty() && list.back().ends_unix_ms == 0) list.back().ends_unix_ms = now;
    list.push_back({list.empty() ? 1 : list.back().season + 1, now, 0});
    *season_out = list.back().season;
    return grpc::Status::OK;
  }

 private:
  FakeAccountsDb* db_;
};

class FakeCatalogStore final : public CatalogStore {
 public:
  explicit FakeCatalogStore(FakeAccountsDb* db) : db_(db) {}

  grpc::Status Seasons(const std::string& only_ladder, std::map<std::string, std::vector<SeasonInfo>>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    out->clear();
    for (const auto& [ladder, list] : db_->seasons)
      if ((only_ladder.empty() || ladder == only_ladder) && !list.empty()) (*out)[ladder] = list;
    return grpc::Status::OK;
  }
  grpc::Status FindIdentity(const std::string& name, Identity* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const auto* row = db_->ByName(name);
    if (!row) row = db_->ByNameAnyCase(name);
    if (!row) return {grpc::StatusCode::NOT_FOUND, "player '" + name + "' does not exist"};
    *out = db_->ToIdentity(*row);
    return grpc::Status::OK;
  }
  grpc::Status SearchIdentities(const std::string& prefix, int limit, std::vector<Identity>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    out->clear();
    const std::vector<std::string> spellings = NameSearchSpellings(prefix);
    for (const auto& [id, row] : db_->identities) {
      for (const std::string& s : spellings) {
        if (row.name.compare(0, s.size(), s) == 0) {
          out->push_back(db_->ToIdentity(row));
          break;
        }
      }
    }
    std::sort(out->begin(), out->end(), [](const Identity& a, const Identity& b) { return a.name < b.name; });
    if (out->size() > size_t(limit)) out->resize(size_t(limit));
    return grpc::Status::OK;
  }

 private:
  FakeAccountsDb* db_;
};

class FakePeopleStore final : public PeopleStore {
 public:
  explicit FakePeopleStore(FakeAccountsDb* db) : db_(db) {}

  grpc::Status CreatePerson(const std::string& name, const std::string& password_hash, Person* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (db_->ByNameAnyCase(name)) return {grpc::StatusCode::ALREADY_EXISTS, "name '" + name + "' is taken"};
    const int64_t id = db_->AddIdentity("player", name, 0);
    db_->passwords[id] = password_hash;
    *out = {id, name};
    return grpc::Status::OK;
  }
  grpc::Status FindPasswords(const std::string& name, std::vector<PasswordCandidate>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    out->clear();
    std::vector<PasswordCandidate> renamed;
    for (const auto& [id, row] : db_->identities) {
      auto password = db_->passwords.find(id);
      if (row.kind != "player" || password == db_->passwords.end()) continue;
      if (FakeAccountsDb::Lower(row.name) == FakeAccountsDb::Lower(name)) {
        out->push_back({{id, row.name}, password->second});
        continue;
      }
      for (const auto& r : db_->renames)
        if (r.rename.identity_id == id && r.rename.old_name == name && !r.told) {
          renamed.push_back({{id, row.name}, password->second});
          break;
        }
    }
    out->insert(out->end(), renamed.begin(), renamed.end());
    return grpc::Status::OK;
  }
  grpc::Status TakeRenames(int64_t identity_id, std::vector<Rename>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    out->clear();
    for (auto& r : db_->renames) {
      auto it = db_->identities.find(r.rename.identity_id);
      if (r.told || it == db_->identities.end()) continue;
      if (it->second.id != identity_id && it->second.owner_id != identity_id) continue;
      r.told = true;
      out->push_back(r.rename);
    }
    std::sort(out->begin(), out->end(), [](const Rename& a, const Rename& b) { return a.identity_id < b.identity_id; });
    return grpc::Status::OK;
  }
  grpc::Status FindPerson(int64_t identity_id, Person* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->identities.find(identity_id);
    if (it == db_->identities.end() || it->second.kind != "player" || !db_->passwords.count(identity_id))
      return {grpc::StatusCode::NOT_FOUND, "no person with identity id " + std::to_string(identity_id)};
    *out = {identity_id, it->second.name};
    return grpc::Status::OK;
  }
  grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    db_->sessions[token_sha256] = {identity_id, expires_unix_ms, db_->Now()};
    return grpc::Status::OK;
  }
  grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, WebSession* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->sessions.find(token_sha256);
    if (it == db_->sessions.end() || it->second.expires_ms <= now_unix_ms)
      return {grpc::StatusCode::NOT_FOUND, "no such session"};
    const int64_t id = it->second.identity_id;
    *out = {{id, db_->identities.at(id).name}, token_sha256, it->second.expires_ms};
    return grpc::Status::OK;
  }
  grpc::Status DeleteSession(const std::string& token_sha256) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    db_->sessions.erase(token_sha256);
    return grpc::Status::OK;
  }
  grpc::Status FindPasswordHash(int64_t identity_id, std::string* hash) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (!IsPerson(identity_id)) return NoPerson(identity_id);
    *hash = db_->passwords.at(identity_id);
    return grpc::Status::OK;
  }
  grpc::Status ReplacePassword(int64_t identity_id, const std::string& old_hash, const std::string& new_hash,
                               const std::string& keep_token_sha256, int* ended) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto password = db_->passwords.find(identity_id);
    if (password == db_->passwords.end() || password->second != old_hash)
      return {grpc::StatusCode::ABORTED, "the password was changed meanwhile"};
    password->second = new_hash;
    // Expiry is on the wall clock, as PostgreSQL's now() (the gateway's, which
    // set it), not on the fake's.
    const int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    *ended = 0;
    std::erase_if(db_->sessions, [&](const auto& entry) {
      const auto& [sha, row] = entry;
      if (row.identity_id != identity_id || sha == keep_token_sha256) return false;
      *ended += row.expires_ms > now;
      return true;
    });
    return grpc::Status::OK;
  }
  grpc::Status ListSessions(int64_t identity_id, int64_t now_unix_ms, const std::string& current_token_sha256,
                            std::vector<SessionInfo>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    std::vector<std::pair<const std::string*, const FakeAccountsDb::SessionRow*>> rows;
    for (const auto& [sha, row] : db_->sessions)
      if (row.identity_id == identity_id && row.expires_ms > now_unix_ms) rows.push_back({&sha, &row});
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.second->created_ms != b.second->created_ms ? a.second->created_ms > b.second->created_ms
                                                          : *a.first < *b.first;
    });
    out->clear();
    for (const auto& [sha, row] : rows)
      out->push_back({people::SessionId(*sha), row->created_ms, row->expires_ms, *sha == current_token_sha256});
    return grpc::Status::OK;
  }
  grpc::Status EndSession(int64_t identity_id, const std::string& id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    // Another's session is as unknown as none: the caller learns nothing of it.
    const size_t ended = std::erase_if(db_->sessions, [&](const auto& entry) {
      return entry.second.identity_id == identity_id && people::SessionId(entry.first) == id;
    });
    if (ended == 0) return {grpc::StatusCode::NOT_FOUND, "you have no session with id '" + id + "'"};
    return grpc::Status::OK;
  }
  grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto [it, inserted] = db_->seats.try_emplace({identity_id, seat.game_id});
    it->second.seat = seat;
    if (inserted) it->second.saved = db_->next_save++;
    return grpc::Status::OK;
  }
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->seats.find({identity_id, game_id});
    if (it == db_->seats.end() || it->second.seat.host.empty())
      return {grpc::StatusCode::NOT_FOUND, "no seat in game '" + game_id + "'"};
    *out = it->second.seat;
    return grpc::Status::OK;
  }
  grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const FakeAccountsDb::SeatRow* latest = nullptr;
    for (const auto& [key, row] : db_->seats)
      if (key.first == identity_id && !row.finished && !row.seat.host.empty() && (!latest || row.saved > latest->saved))
        latest = &row;
    if (!latest) return {grpc::StatusCode::NOT_FOUND, "no open seat"};
    *out = latest->seat;
    return grpc::Status::OK;
  }
  grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (auto it = db_->seats.find({identity_id, game_id}); it != db_->seats.end()) it->second.finished = true;
    return grpc::Status::OK;
  }
  grpc::Status ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    int open = 0;
    for (const auto& [key, row] : db_->seats) open += key.first == identity_id && row.practice && !row.finished;
    if (open >= max_open)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              std::to_string(open) + " practice games unfinished, the most at once is " + std::to_string(max_open)};
    auto [it, inserted] = db_->seats.try_emplace({identity_id, game_id});
    if (!inserted) return {grpc::StatusCode::ALREADY_EXISTS, "a seat in game '" + game_id + "' exists already"};
    it->second.seat.game_id = game_id;
    it->second.practice = true;
    it->second.saved = db_->next_save++;
    return grpc::Status::OK;
  }
  grpc::Status OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    std::vector<const FakeAccountsDb::SeatRow*> rows;
    for (const auto& [key, row] : db_->seats)
      if (key.first == identity_id && row.practice && !row.finished) rows.push_back(&row);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->saved < b->saved; });
    out->clear();
    for (const auto* row : rows) out->push_back({row->seat.game_id, row->seat.host, 0});
    return grpc::Status::OK;
  }
  grpc::Status RevokePersonToken(int64_t identity_id, int64_t token_id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    auto it = db_->tokens.find(token_id);
    // Another's token is as unknown as none: the caller learns nothing of it.
    if (it == db_->tokens.end() || it->second.identity_id != identity_id)
      return {grpc::StatusCode::NOT_FOUND,
              "identity " + std::to_string(identity_id) + " has no token with id " + std::to_string(token_id)};
    if (it->second.revoked_ms != 0)
      return {grpc::StatusCode::FAILED_PRECONDITION, "token " + std::to_string(token_id) + " was already revoked"};
    it->second.revoked_ms = db_->Now();
    return grpc::Status::OK;
  }
  grpc::Status CreatePersonBot(int64_t person_id, const std::string& name, int max_bots, PersonBot* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (!IsPerson(person_id)) return NoPerson(person_id);
    int owned = 0;
    for (const auto& [id, row] : db_->identities) owned += row.owner_id == person_id;
    if (owned >= max_bots)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              "you own " + std::to_string(owned) + " bots, the most a person may own is " + std::to_string(max_bots)};
    if (const auto* other = db_->ByNameAnyCase(name))
      return {grpc::StatusCode::ALREADY_EXISTS,
              "name '" + name + "' is taken" + (other->name == name ? "" : " (by '" + other->name + "')")};
    const int64_t id = db_->AddIdentity("bot", name, person_id);
    *out = {id, name, db_->identities.at(id).created_ms, 0};
    return grpc::Status::OK;
  }
  grpc::Status ListPersonBots(int64_t person_id, std::vector<PersonBot>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    if (!IsPerson(person_id)) return NoPerson(person_id);
    out->clear();
    for (const auto& [id, row] : db_->identities) {
      if (row.owner_id != person_id || row.kind != "bot") continue;
      int live = 0;
      for (const auto& [token_id, t] : db_->tokens) live += t.identity_id == id && t.revoked_ms == 0;
      out->push_back({id, row.name, row.created_ms, live});
    }
    std::sort(out->begin(), out->end(), [](const PersonBot& a, const PersonBot& b) { return a.name < b.name; });
    return grpc::Status::OK;
  }
  grpc::Status InsertBotToken(int64_t person_id, const std::string& bot, const std::string& sha256,
                              const std::string& label, int max_live, int64_t* token_id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const int64_t bot_id = OwnBot(person_id, bot);
    if (bot_id == 0) return NoBot(bot);
    int live = 0;
    for (const auto& [id, t] : db_->tokens) live += t.identity_id == bot_id && t.revoked_ms == 0;
    if (live >= max_live)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED, "bot '" + bot + "' has " + std::to_string(live) +
                                                        " unrevoked tokens, the most a bot may have is " +
                                                        std::to_string(max_live) + ": revoke one first"};
    const int64_t id = db_->next_token++;
    db_->tokens[id] = {id, bot_id, sha256, label, false, db_->Now(), 0};
    *token_id = id;
    return grpc::Status::OK;
  }
  grpc::Status ListBotTokens(int64_t person_id, const std::string& bot, std::vector<TokenInfo>* out) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const int64_t bot_id = OwnBot(person_id, bot);
    if (bot_id == 0) return NoBot(bot);
    out->clear();
    for (const auto& [id, t] : db_->tokens)
      if (t.identity_id == bot_id) out->push_back({id, t.label, t.admin, t.created_ms, t.revoked_ms});
    return grpc::Status::OK;
  }
  grpc::Status RevokeBotToken(int64_t person_id, const std::string& bot, int64_t token_id) override {
    if (db_->unavailable) return FakeAccountsDb::Down();
    std::lock_guard lock(db_->mutex);
    const int64_t bot_id = OwnBot(person_id, bot);
    if (bot_id == 0) return NoBot(bot);
    auto it = db_->tokens.find(token_id);
    if (it == db_->tokens.end() || it->second.identity_id != bot_id)
      return {grpc::StatusCode::NOT_FOUND, "bot '" + bot + "' has no token with id " + std::to_string(token_id)};
    if (it->second.revoked_ms != 0)
      return {grpc::StatusCode::FAILED_PRECONDITION, "token " + std::to_string(token_id) + " was already revoked"};
    it->second.revoked_ms = db_->Now();
    return grpc::Status::OK;
  }

 private:
  // Under the lock.
  bool IsPerson(int64_t id) const {
    auto it = db_->identities.find(id);
    return it != db_->identities.end() && it->second.kind == "player" && db_->passwords.count(id);
  }
  int64_t OwnBot(int64_t person_id, const std::string& bot) const {
    const auto* row = db_->ByName(bot);
    return row && row->kind == "bot" && row->owner_id == person_id && IsPerson(person_id) ? row->id : 0;
  }
  static grpc::Status NoPerson(int64_t id) {
    return {grpc::StatusCode::NOT_FOUND, "no person with identity id " + std::to_string(id)};
  }
  static grpc::Status NoBot(const std::string& bot) {
    return {grpc::StatusCode::NOT_FOUND, "you own no bot named '" + bot + "'"};
  }

  FakeAccountsDb* db_;
};

}  // namespace metropolis::accounts::testing
