// The matchmaker's Prometheus metrics (docs/OBSERVABILITY.md). The server
// (server.h) makes them on the process's registry (lib/common/metrics.h) and
// passes them to what counts; tests pass their own registry, or nothing.
// Calls by method and code, and PostgreSQL and Redis errors, are counted for
// every service there.
//
// Every replica reports what it sees: hosts are read from the shared Redis, so
// replicas agree on them (take max() across replicas); a ladder's queue depth is
// reported by the replica that runs its rounds and as 0 by the others (max() or
// sum()); counts of tables and games are per replica (take sum()).
#pragma once

#include <memory>
#include <string>

namespace prometheus {
class Registry;
}

namespace metropolis::matchmaker {

class MatchmakerMetrics {
 public:
  explicit MatchmakerMetrics(prometheus::Registry* registry);
  ~MatchmakerMetrics();

  // Queued tickets of a ladder, as of this replica's last round.
  void QueueDepth(const std::string& ladder, size_t tickets);
  // A table claimed by this replica.
  void TableFormed(const std::string& ladder);
  // A player's ticket got its seat after waiting `seconds` (from enqueueing).
  void Matched(const std::string& ladder, double seconds);
  // A claimed table whose game could not be placed: "no_host" or "create_failed".
  void PlacementFailed(const std::string& ladder, const std::string& reason);
  void TicketsExpired(const std::string& ladder, int tickets);
  void TicketQueued(const std::string& ladder);
  // Game hosts seen lately (within the host heartbeat's time to live).
  void HostsKnown(size_t hosts);
  // The ladders whose rounds this replica runs, and the live replicas sharing them.
  void LaddersOwned(size_t ladders, size_t replicas);
  // Tournament games this replica's scheduler started, saw finish, found lost.
  void TournamentGames(int started, int finished, int lost);
  // Whether this replica holds the tournament scheduler's lease.
  void Leader(bool leading);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace metropolis::matchmaker
