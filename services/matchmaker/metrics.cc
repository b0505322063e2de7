#include "services/matchmaker/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace metropolis::matchmaker {

struct MatchmakerMetrics::Impl {
  prometheus::Family<prometheus::Gauge>* queue_depth;
  prometheus::Family<prometheus::Counter>* tables;
  prometheus::Family<prometheus::Histogram>* time_to_match;
  prometheus::Family<prometheus::Counter>* placement_failures;
  prometheus::Family<prometheus::Counter>* expired;
  prometheus::Family<prometheus::Counter>* queued;
  prometheus::Gauge* hosts;
  prometheus::Counter* tournament_started;
  prometheus::Counter* tournament_finished;
  prometheus::Counter* tournament_lost;
  prometheus::Gauge* leader;
  prometheus::Gauge* ladders_owned;
  prometheus::Gauge* replicas;
};

MatchmakerMetrics::MatchmakerMetrics(prometheus::Registry* r) : impl_(std::make_unique<Impl>()) {
  using namespace prometheus;
  Impl& m = *impl_;
  m.queue_depth = &BuildGauge()
                       .Name("metropolis_matchmaker_queue_depth")
                       .Help("Tickets queued on a ladder, as of this replica's last matching round")
                       .Register(*r);
  m.tables = &BuildCounter()
                  .Name("metropolis_matchmaker_tables_formed_total")
                  .Help("Tables this replica formed and claimed, by ladder")
                  .Register(*r);
  m.time_to_match = &BuildHistogram()
                         .Name("metropolis_matchmaker_time_to_match_seconds")
                         .Help("From enqueueing to a seat in a created game, per player, by ladder")
                         .Register(*r);
  m.placement_failures = &BuildCounter()
                              .Name("metropolis_matchmaker_placement_failures_total")
                              .Help(
                                  "Formed tables sent back to the queue, by ladder and reason (no_host, create_failed, "
                                  "assign_failed, claim_lapsed)")
                              .Register(*r);
  m.expired = &BuildCounter()
                   .Name("metropolis_matchmaker_tickets_expired_total")
                   .Help("Queued tickets expired for want of heartbeats, by ladder")
                   .Register(*r);
  m.queued = &BuildCounter()
                  .Name("metropolis_matchmaker_tickets_queued_total")
                  .Help("Tickets created by Enqueue calls to this replica, by ladder")
                  .Register(*r);
  m.hosts = &BuildGauge()
                 .Name("metropolis_matchmaker_hosts_known")
                 .Help("Game hosts whose heartbeat is recent enough to get games")
                 .Register(*r)
                 .Add({});
  auto& tournament = BuildCounter()
                         .Name("metropolis_matchmaker_tournament_games_total")
                         .Help("Tournament games by event (started, finished, lost with their host), this replica")
                         .Register(*r);
  m.tournament_started = &tournament.Add({{"event", "started"}});
  m.tournament_finished = &tournament.Add({{"event", "finished"}});
  m.tournament_lost = &tournament.Add({{"event", "lost"}});
  m.leader = &BuildGauge()
                  .Name("metropolis_matchmaker_leader")
                  .Help("1 while this replica holds the tournament scheduler's lease, else 0")
                  .Register(*r)
                  .Add({});
  m.ladders_owned = &BuildGauge()
                         .Name("metropolis_matchmaker_ladders_owned")
                         .Help("Ladders whose matching rounds this replica runs (the replicas share them out)")
                         .Register(*r)
                         .Add({});
  m.replicas = &BuildGauge()
                    .Name("metropolis_matchmaker_replicas_live")
                    .Help("Matchmaker replicas heard from lately, this one included, as of its last round")
                    .Register(*r)
                    .Add({});
}

MatchmakerMetrics::~MatchmakerMetrics() = default;

void MatchmakerMetrics::QueueDepth(const std::string& ladder, size_t tickets) {
  impl_->queue_depth->Add({{"ladder", ladder}}).Set(double(tickets));
}

void MatchmakerMetrics::TableFormed(const std::string& ladder) { impl_->tables->Add({{"ladder", ladder}}).Increment(); }

void MatchmakerMetrics::Matched(const std::string& ladder, double seconds) {
  // Seconds for bots that find a table at once, minutes for a quiet ladder.
  static const prometheus::Histogram::BucketBoundaries kBuckets = {0.25, 0.5, 1,   2,   5,   10,  20,
                                                                   30,   60,  120, 300, 600, 1800};
  impl_->time_to_match->Add({{"ladder", ladder}}, kBuckets).Observe(seconds);
}

void MatchmakerMetrics::PlacementFailed(const std::string& ladder, const std::string& reason) {
  impl_->placement_failures->Add({{"ladder", ladder}, {"reason", reason}}).Increment();
}

void MatchmakerMetrics::TicketsExpired(const std::string& ladder, int tickets) {
  if (tickets > 0) impl_->expired->Add({{"ladder", ladder}}).Increment(tickets);
}

void MatchmakerMetrics::TicketQueued(const std::string& ladder) {
  impl_->queued->Add({{"ladder", ladder}}).Increment();
}

void MatchmakerMetrics::HostsKnown(size_t hosts) { impl_->hosts->Set(double(hosts)); }

void MatchmakerMetrics::TournamentGames(int started, int finished, int lost) {
  if (started) impl_->tournament_started->Increment(started);
  if (finished) impl_->tournament_finished->Increment(finished);
  if (lost) impl_->tournament_lost->Increment(lost);
}

void MatchmakerMetrics::LaddersOwned(size_t ladders, size_t replicas) {
  impl_->ladders_owned->Set(double(ladders));
  impl_->replicas->Set(double(replicas));
}

void MatchmakerMetrics::Leader(bool leading) { impl_->leader->Set(leading ? 1 : 0); }

}  // namespace metropolis::matchmaker
