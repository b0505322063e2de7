#include "services/ratings/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace metropolis::ratings {

struct RatingsMetrics::Impl {
  prometheus::Family<prometheus::Counter>* games;
  prometheus::Counter* updates;
  prometheus::Family<prometheus::Counter>* failures;
  prometheus::Histogram* rate_seconds;
  prometheus::Family<prometheus::Counter>* write_failures;
  prometheus::Counter* served_from_postgres;
  prometheus::Counter* rebuilds;
  prometheus::Family<prometheus::Counter>* reads;
  prometheus::Counter* conflicting;
  prometheus::Counter* unconfirmed;
};

RatingsMetrics::RatingsMetrics(prometheus::Registry* r) : impl_(std::make_unique<Impl>()) {
  using namespace prometheus;
  impl_->games = &BuildCounter()
                      .Name("metropolis_ratings_games_rated_total")
                      .Help("RateGame calls that decided a game, by result (rated, already_rated, not_rated)")
                      .Register(*r);
  for (const char* result : {"rated", "already_rated", "not_rated"}) impl_->games->Add({{"result", result}});
  impl_->updates = &BuildCounter()
                        .Name("metropolis_ratings_rating_updates_total")
                        .Help("Players' ratings changed by rated games (one per rated seat)")
                        .Register(*r)
                        .Add({});
  impl_->failures = &BuildCounter()
                         .Name("metropolis_ratings_rate_failures_total")
                         .Help("RateGame calls that rated nothing, by gRPC status code")
                         .Register(*r);
  impl_->rate_seconds = &BuildHistogram()
                             .Name("metropolis_ratings_rate_seconds")
                             .Help("Time to rate a game (every RateGame call)")
                             .Register(*r)
                             .Add({}, Histogram::BucketBoundaries{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                                  0.5, 1, 2.5, 5, 10});
  impl_->write_failures = &BuildCounter()
                               .Name("metropolis_ratings_leaderboard_write_failures_total")
                               .Help(
                                   "Leaderboard writes that did not reach Redis, by reason: refused (an error "
                                   "reply, e.g. NOPERM from a user that may not write the keys) or unavailable; "
                                   "the rating is in PostgreSQL and the board is rebuilt on its next read")
                               .Register(*r);
  for (const char* reason : {"refused", "unavailable"}) impl_->write_failures->Add({{"reason", reason}});
  impl_->served_from_postgres = &BuildCounter()
                                     .Name("metropolis_ratings_leaderboard_reads_from_postgres_total")
                                     .Help(
                                         "Leaderboard reads served from PostgreSQL because the Redis board was "
                                         "stale and could not be rebuilt (Redis refused the writes)")
                                     .Register(*r)
                                     .Add({});
  impl_->rebuilds = &BuildCounter()
                         .Name("metropolis_ratings_leaderboard_rebuilds_total")
                         .Help("Leaderboards rebuilt in Redis from PostgreSQL")
                         .Register(*r)
                         .Add({});
  impl_->reads = &BuildCounter()
                      .Name("metropolis_ratings_reads_total")
                      .Help("Reads, by kind (leaderboard, player, history)")
                      .Register(*r);
  impl_->conflicting = &BuildCounter()
                            .Name("metropolis_ratings_conflicting_results_total")
                            .Help("Results refused because their game was rated from a different result")
                            .Register(*r)
                            .Add({});
  impl_->unconfirmed = &BuildCounter()
                            .Name("metropolis_ratings_unconfirmed_digests_total")
                            .Help("Results refused because Replays holds their game with another digest")
                            .Register(*r)
                            .Add({});
}

uint64_t RatingsMetrics::conflicting_results() const { return uint64_t(impl_->conflicting->Value()); }
uint64_t RatingsMetrics::unconfirmed_digests() const { return uint64_t(impl_->unconfirmed->Value()); }
uint64_t RatingsMetrics::leaderboard_writes_refused() const {
  return uint64_t(impl_->write_failures->Add({{"reason", "refused"}}).Value());
}
uint64_t RatingsMetrics::leaderboard_reads_from_postgres() const {
  return uint64_t(impl_->served_from_postgres->Value());
}

RatingsMetrics::~RatingsMetrics() = default;

void RatingsMetrics::GameRated(const std::string& result, int updates, double seconds) {
  impl_->games->Add({{"result", result}}).Increment();
  impl_->updates->Increment(updates);
  impl_->rate_seconds->Observe(seconds);
}

void RatingsMetrics::RateFailed(const std::string& code, double seconds) {
  impl_->failures->Add({{"code", code}}).Increment();
  impl_->rate_seconds->Observe(seconds);
}

void RatingsMetrics::LeaderboardWriteFailed(WriteFailure why) {
  impl_->write_failures->Add({{"reason", why == WriteFailure::kRefused ? "refused" : "unavailable"}}).Increment();
}

void RatingsMetrics::LeaderboardServedFromPostgres() { impl_->served_from_postgres->Increment(); }

void RatingsMetrics::ConflictingResult() { impl_->conflicting->Increment(); }

void RatingsMetrics::DigestNotConfirmed() { impl_->unconfirmed->Increment(); }

void RatingsMetrics::LeaderboardRebuilt() { impl_->rebuilds->Increment(); }

void RatingsMetrics::Read(const std::string& kind) { impl_->reads->Add({{"kind", kind}}).Increment(); }

}  // namespace metropolis::ratings
