// Friends' tables in Redis (table_store.h): one string per table with a PX
// expiry; Swap is one Lua script (compare the whole value, then set), so two
// replicas that read the same table cannot both write on top of it.
#pragma once

#include <string>

#include "lib/storage/redis.h"
#include "services/matchmaker/tables/table_store.h"

namespace metropolis::matchmaker::tables {

class RedisTableStore final : public TableStore {
 public:
  explicit RedisTableStore(storage::RedisPool* redis, std::string prefix = "metropolis");

  grpc::Status Create(const std::string& id, const std::string& value, int64_t ttl_ms, bool* created) override;
  grpc::Status Get(const std::string& id, std::string* value, bool* found) override;
  grpc::Status Swap(const std::string& id, const std::string& expected, const std::string& value, int64_t ttl_ms,
                    bool* swapped) override;

  // Negative control "table_swap": Swap sets without comparing (what a
  // read-modify-write without the script would do). Tests only.
  void set_blind_swap(bool blind) { blind_swap_ = blind; }

 private:
  std::string Key(const std::string& id) const { return prefix_ + ":table:" + id; }
  storage::RedisPool* redis_;
  const std::string prefix_;
  bool blind_swap_ = false;
};

}  // namespace metropolis::matchmaker::tables
