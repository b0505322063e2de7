#include "services/matchmaker/tables/tables.h"

#include <random>

namespace metropolis::matchmaker::tables {
namespace {

constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
constexpr size_t kIdLength = 12;

uint64_t RandomSeed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}

}  // namespace

std::string RandomTableId() {
  std::random_device rd;
  std::string id(kIdLength, 'a');
  for (char& c : id) c = kAlphabet[rd() % (sizeof kAlphabet - 1)];
  return id;
}

bool ValidTableId(const std::string& id) {
  if (id.size() != kIdLength) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

Tables::Tables(TableStore* store, TablesOptions options, std::function<std::string()> new_id,
               std::function<uint64_t()> new_seed)
    : store_(store),
      options_(options),
      new_id_(new_id ? std::move(new_id) : RandomTableId),
      new_seed_(new_seed ? std::move(new_seed) : RandomSeed) {}

grpc::Status Tables::Create(const Member& creator, const TableSettings& settings, FriendsTable* out) {
  if (grpc::Status s = CheckSettings(settings); !s.ok()) return s;
  // A taken id (a one in 2^62 draw, or a test's fixed ids) draws again.
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    FriendsTable table = NewTable(new_id_(), creator, settings);
    bool created = false;
    if (grpc::Status s = store_->Create(table.id, Encode(table), options_.ttl_ms, &created); !s.ok()) return s;
    if (created) {
      *out = std::move(table);
      return grpc::Status::OK;
    }
  }
  return {grpc::StatusCode::ABORTED, "no free table id was drawn: try again"};
}

grpc::Status Tables::Read(const std::string& id, std::string* value, FriendsTable* out) {
  if (!ValidTableId(id))
    return {grpc::StatusCode::INVALID_ARGUMENT, "table id '" + id + "' is not 12 letters and digits"};
  bool found = false;
  if (grpc::Status s = store_->Get(id, value, &found); !s.ok()) return s;
  if (!found) return {grpc::StatusCode::NOT_FOUND, "table " + id + " does not exist or has expired"};
  if (grpc::Status s = Decode(*value, out); !s.ok())
    return {grpc::StatusCode::DATA_LOSS, "table " + id + " is stored unreadable: " + s.error_message()};
  return grpc::Status::OK;
}

grpc::Status Tables::Get(const std::string& id, FriendsTable* out) {
  std::string value;
  return Read(id, &value, out);
}

grpc::Status Tables::Update(const std::string& id, const Change& change, FriendsTable* out) {
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    std::string value;
    FriendsTable table;
    if (grpc::Status s = Read(id, &value, &table); !s.ok()) return s;
    bool changed = false;
    if (grpc::Status s = change(&table, &changed); !s.ok()) return s;
    if (!changed) {
      *out = std::move(table);
      return grpc::Status::OK;
    }
    bool swapped = false;
    const int64_t ttl = table.state == TableState::kOpen ? options_.ttl_ms : options_.playing_ttl_ms;
    if (grpc::Status s = store_->Swap(id, value, Encode(table), ttl, &swapped); !s.ok()) return s;
    if (swapped) {
      *out = std::move(table);
      return grpc::Status::OK;
    }
    ++retries_;  // changed (or expired) meanwhile: the rule is applied again to what is there now
  }
  return {grpc::StatusCode::ABORTED, "table " + id + " kept changing: try again"};
}

grpc::Status Tables::Join(const std::string& id, const Member& member, FriendsTable* out) {
  return Update(
      id, [&](FriendsTable* t, bool* changed) { return tables::Join(t, member, changed); }, out);
}

grpc::Status Tables::Leave(const std::string& id, int64_t identity_id, FriendsTable* out) {
  return Update(
      id, [&](FriendsTable* t, bool* changed) { return tables::Leave(t, identity_id, changed); }, out);
}

grpc::Status Tables::BeginStart(const std::string& id, int64_t by, int64_t now_ms, FriendsTable* out) {
  return Update(
      id,
      [&](FriendsTable* t, bool* changed) {
        *changed = true;
        return tables::BeginStart(t, by, new_seed_(), now_ms);
      },
      out);
}

grpc::Status Tables::BeginRematch(const std::string& id, int64_t by, uint32_t round, int64_t now_ms,
                                  FriendsTable* out) {
  return Update(
      id,
      [&](FriendsTable* t, bool* changed) {
        *changed = true;
        return tables::BeginRematch(t, by, round, new_seed_(), now_ms);
      },
      out);
}

grpc::Status Tables::ChooseHost(const std::string& id, uint32_t round, const std::string& host,
                                const std::string& replacing, FriendsTable* out) {
  return Update(
      id, [&](FriendsTable* t, bool* changed) { return tables::ChooseHost(t, round, host, replacing, changed); }, out);
}

grpc::Status Tables::MarkStarted(const std::string& id, uint32_t round, const std::string& game_id,
                                 const std::string& host, FriendsTable* out) {
  return Update(
      id,
      [&](FriendsTable* t, bool* changed) {
        *changed = true;
        return tables::MarkStarted(t, round, game_id, host);
      },
      out);
}

}  // namespace metropolis::matchmaker::tables
