// A small, bounded pool of PostgreSQL connections for the services' worker
// threads. A connection that broke (the server restarted) is replaced on its next
// use, so a service rides out a database restart: calls fail with UNAVAILABLE
// meanwhile and work again once the server is back.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <vector>

#include "lib/storage/availability.h"

namespace metropolis::services {
class ProcessMetrics;
}

namespace metropolis::storage {

class PgPool {
 public:
  // Connection and query failures are counted in `metrics`
  // (metropolis_database_errors_total); null: not counted.
  PgPool(std::string conninfo, int size, services::ProcessMetrics* metrics = nullptr);

  // Runs `fn` with a connection, waiting for a free one. Exceptions from `fn`
  // pass through; a broken connection is dropped and reopened next time.
  void With(const std::function<void(pqxx::connection&)>& fn);
  const std::string& conninfo() const { return conninfo_; }

 private:
  std::string conninfo_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;
  int free_slots_;
  services::ProcessMetrics* const metrics_;
  Availability availability_{"database"};
};

}  // namespace metropolis::storage
