// Friends' tables kept in a TableStore: every change reads the table, applies
// one of table.h's rules and writes it back only if nobody changed it
// meanwhile (TableStore::Swap), trying again on the newer table otherwise. So
// two friends taking the last seat at once, or two clicks on Start, come out
// as exactly one change, whichever replica serves them.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "services/matchmaker/tables/table.h"
#include "services/matchmaker/tables/table_store.h"

namespace metropolis::matchmaker::tables {

struct TablesOptions {
  int64_t ttl_ms = 2 * 3600 * 1000;  // a table lives this long after its last change,
  // and this long while a round is being started or played: its game's spectators
  // need its delay, and a rematch its members, for as long as a game may last.
  int64_t playing_ttl_ms = 12 * 3600 * 1000;
  int max_attempts = 32;  // lost races in a row before ABORTED
};

class Tables {
 public:
  // `new_id` and `new_seed` default to the system's random source; tests give their own.
  Tables(TableStore* store, TablesOptions options = {}, std::function<std::string()> new_id = {},
         std::function<uint64_t()> new_seed = {});

  grpc::Status Create(const Member& creator, const TableSettings& settings, FriendsTable* out);
  grpc::Status Get(const std::string& id, FriendsTable* out);
  grpc::Status Join(const std::string& id, const Member& member, FriendsTable* out);
  grpc::Status Leave(const std::string& id, int64_t identity_id, FriendsTable* out);
  grpc::Status BeginStart(const std::string& id, int64_t by, int64_t now_ms, FriendsTable* out);
  grpc::Status BeginRematch(const std::string& id, int64_t by, uint32_t round, int64_t now_ms, FriendsTable* out);
  grpc::Status ChooseHost(const std::string& id, uint32_t round, const std::string& host, const std::string& replacing,
                          FriendsTable* out);
  grpc::Status MarkStarted(const std::string& id, uint32_t round, const std::string& game_id, const std::string& host,
                           FriendsTable* out);

  // Lost races retried so far (every Swap that found the table changed).
  int retries() const { return retries_; }

 private:
  using Change = std::function<grpc::Status(FriendsTable* table, bool* changed)>;
  grpc::Status Update(const std::string& id, const Change& change, FriendsTable* out);
  grpc::Status Read(const std::string& id, std::string* value, FriendsTable* out);

  TableStore* const store_;
  const TablesOptions options_;
  std::function<std::string()> new_id_;
  std::function<uint64_t()> new_seed_;
  std::atomic<int> retries_{0};
};

// 12 letters and digits: a table's id is its invitation, so it is drawn from
// the system's random source (about 62 bits) and unguessable.
std::string RandomTableId();
bool ValidTableId(const std::string& id);

}  // namespace metropolis::matchmaker::tables
