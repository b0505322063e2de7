#include "lib/storage/pg_pool.h"

#include <pqxx/except>

#include "lib/common/metrics.h"

namespace metropolis::storage {

PgPool::PgPool(std::string conninfo, int size, services::ProcessMetrics* metrics)
    : conninfo_(std::move(conninfo)), free_slots_(size), metrics_(metrics) {}

void PgPool::With(const std::function<void(pqxx::connection&)>& fn) {
  std::unique_ptr<pqxx::connection> c;
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return free_slots_ > 0; });
    --free_slots_;
    if (!idle_.empty()) {
      c = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  auto give_back = [&](bool keep) {
    std::lock_guard lock(mutex_);
    if (keep && c && c->is_open()) idle_.push_back(std::move(c));
    ++free_slots_;
    cv_.notify_one();
  };
  try {
    if (!c || !c->is_open()) c = std::make_unique<pqxx::connection>(conninfo_);
    fn(*c);
  } catch (const pqxx::broken_connection& e) {
    if (metrics_) metrics_->DatabaseError("connection");
    availability_.Failed(e.what());
    give_back(false);
    throw;
  } catch (const pqxx::integrity_constraint_violation&) {
    // A refusal the services answer (a duplicate, an unknown identity), not a failure.
    give_back(true);
    throw;
  } catch (const pqxx::failure&) {
    if (metrics_) metrics_->DatabaseError("query");
    give_back(true);
    throw;
  } catch (...) {
    give_back(true);
    throw;
  }
  availability_.Worked();
  give_back(true);
}

}  // namespace metropolis::storage
