// The ratings service's Prometheus metrics (docs/OBSERVABILITY.md). The server
// (server.h) makes them on the process's registry (lib/common/metrics.h) and
// passes them to what counts; tests pass their own registry, or nothing.
// Calls by method and code, and PostgreSQL and Redis errors, are counted for
// every service there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace prometheus {
class Registry;
}

namespace metropolis::ratings {

class RatingsMetrics {
 public:
  explicit RatingsMetrics(prometheus::Registry* registry);
  ~RatingsMetrics();

  // A RateGame call that succeeded: "rated", "already_rated" or "not_rated";
  // `updates` players' ratings changed.
  void GameRated(const std::string& result, int updates, double seconds);
  // A RateGame call refused or failed with `code`.
  void RateFailed(const std::string& code, double seconds);
  // A leaderboard write Redis refused (an error reply such as NOPERM) or that
  // did not reach it; the board is rebuilt on its next read.
  enum class WriteFailure { kRefused, kUnavailable };
  void LeaderboardWriteFailed(WriteFailure why);
  // A read served from PostgreSQL: the board in Redis was stale and Redis
  // refused its rebuild.
  void LeaderboardServedFromPostgres();
  void LeaderboardRebuilt();
  // A read: "leaderboard", "player" or "history".
  void Read(const std::string& kind);
  // A result refused because its game was rated from a different one (alert
  // MetropolisConflictingResults).
  void ConflictingResult();
  // A result refused because Replays holds its game with another digest.
  void DigestNotConfirmed();
  uint64_t conflicting_results() const;  // for tests
  uint64_t unconfirmed_digests() const;
  uint64_t leaderboard_writes_refused() const;
  uint64_t leaderboard_reads_from_postgres() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace metropolis::ratings
