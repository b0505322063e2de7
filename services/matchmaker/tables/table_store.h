// Where friends' tables are kept (table.h): each table one value under its id,
// living `ttl_ms` after its last change, so a table nobody uses goes away by
// itself. Changes are compare-and-swap on the whole value, so any number of
// matchmaker replicas may change a table at once and none overwrites another's
// change (tables.h retries a lost race on the value it lost to).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>

namespace metropolis::matchmaker::tables {

class TableStore {
 public:
  virtual ~TableStore() = default;
  // Stores a new table; *created false when the id is taken (nothing changed).
  virtual grpc::Status Create(const std::string& id, const std::string& value, int64_t ttl_ms, bool* created) = 0;
  // *found false for an unknown or expired table.
  virtual grpc::Status Get(const std::string& id, std::string* value, bool* found) = 0;
  // Replaces the table's value with `value` only if it is still `expected`;
  // *swapped false (nothing changed) when it is not, or the table is gone.
  virtual grpc::Status Swap(const std::string& id, const std::string& expected, const std::string& value,
                            int64_t ttl_ms, bool* swapped) = 0;
};

}  // namespace metropolis::matchmaker::tables
