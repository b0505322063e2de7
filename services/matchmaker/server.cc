#include "services/matchmaker/server.h"

#include <grpcpp/server_builder.h>
#include <unistd.h>

#include <chrono>

#include "lib/auth/roles.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"
#include "lib/common/negative_control.h"
#include "lib/common/secret.h"

namespace metropolis::matchmaker {
namespace {

namespace ms = services;

struct Newcomers final : RatingSource {
  double Mu(const LadderConfig& ladder, int64_t) override { return ladder.mu; }
};

std::unique_ptr<RatingSource> MakeRatingSource(const MatchmakerConfig& config) {
  if (config.ratings.empty()) return std::make_unique<Newcomers>();
  return std::make_unique<GrpcRatingSource>(config.ratings, config.service_token);
}

ServiceOptions MakeServiceOptions(MatchmakerMetrics* metrics, tables::TableApi* tables) {
  ServiceOptions options;
  options.metrics = metrics;
  options.tables = tables;
  options.check_resumed_seats = !services::ProtectionRemoved("spent_seat");
  return options;
}

// Unique among the replicas, and readable in logs: "pid@host-random" (the
// random part for a process that restarts with the same pid). The scheduler's
// lease names its holder so; an operator (and a fault test) finds its process.
std::string ReplicaName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::to_string(getpid()) + "@" + std::string(host[0] ? host : "replica") + "-" + ms::RandomSecretHex(3);
}

MatchmakerOptions MakeMatchmakerOptions(const MatchmakerConfig& config, const std::string& replica,
                                        MatchmakerMetrics* metrics) {
  MatchmakerOptions options;
  options.metrics = metrics;
  if (config.share_ladders) options.replica = replica;
  // A replica is heard once a round: a few rounds' silence, not one slow round,
  // hands its ladders over.
  options.replica_ttl_ms = std::max<int64_t>(options.replica_ttl_ms, 3 * config.round_ms);
  options.ticket_ttl_ms = config.ticket_ttl_ms;
  options.host_forget_ms = config.host_forget_ms;
  options.bot = config.bot;
  if (services::ProtectionRemoved("fresh_claim")) options.claim_fresh_ms = 0;
  options.check_held_seats = !services::ProtectionRemoved("held_seats");
  return options;
}

RunnerOptions MakeRunnerOptions(const MatchmakerConfig& config) {
  RunnerOptions options;
  options.bot = config.bot;
  return options;
}

}  // namespace

MatchmakerServer::MatchmakerServer(storage::PgPool* pool, storage::RedisPool* redis, const MatchmakerConfig& config,
                                   ms::ProcessMetrics* metrics)
    : config_(config),
      replica_(ReplicaName()),
      metrics_(metrics->registry()),
      account_lookup_(config.accounts, config.service_token),
      auth_(&account_lookup_,
            {{config.service_token, std::string(auth::kGameHostRole)},
             {config.gateway_token, std::string(auth::kGatewayRole)}},
            {.metrics = metrics}),
      limited_auth_(&auth_, config.rate_limit, "matchmaker", metrics),
      tickets_(redis, config.redis_prefix),
      ladders_(config.accounts, config.service_token),
      ratings_(MakeRatingSource(config)),
      creator_(config.host_admin_token),
      matchmaker_(&tickets_, &creator_, MakeMatchmakerOptions(config, replica_, &metrics_)),
      table_store_(redis, config.redis_prefix),
      tables_(&table_store_),
      table_api_(
          &tables_, &tickets_, &creator_,
          [this](const std::string& id, LadderConfig* out) { return FindLadder(&ladders_, id, out); },
          [this](int64_t* now) { return tickets_.Now(now); },
          {.host_ttl_ms = MatchmakerOptions{}.host_ttl_ms, .rated_ladders = config.table_ladders}),
      service_(&tickets_, &ladders_, ratings_.get(), &limited_auth_, &creator_,
               MakeServiceOptions(&metrics_, &table_api_)),
      tournament_store_(pool),
      results_(config.replays, config.service_token),
      entrants_(config.accounts, config.service_token),
      roster_(redis, config.redis_prefix),
      tournaments_(&tournament_store_, &entrants_, &roster_, &limited_auth_, &clock_),
      runner_(&tournament_store_, &results_, &entrants_, &roster_, &tickets_, &creator_, MakeRunnerOptions(config)) {}

MatchmakerServer::~MatchmakerServer() { Stop(0); }

void MatchmakerServer::Register(grpc::ServerBuilder* builder) {
  builder->RegisterService(&service_);
  builder->RegisterService(&tournaments_);
}

void MatchmakerServer::Listening(int port, services::LogFieldList* fields) {
  port_ = port;
  fields->push_back({"replica", replica_});
}

void MatchmakerServer::Start() {
  rounds_ = std::thread([this] { Rounds(); });
  scheduler_ = std::thread([this] { Schedule(); });
}

void MatchmakerServer::Stop(int) {
  stopping_ = true;
  if (rounds_.joinable()) {
    rounds_.join();
    // The other replicas take this one's ladders at their next round.
    if (const grpc::Status s = tickets_.ReplicaLeave(replica_); !s.ok())
      ms::LogWarning("leaving the matchmaker replicas failed; they take its ladders when its heartbeat lapses",
                     {{"error", s.error_message()}});
  }
  if (scheduler_.joinable()) scheduler_.join();
}

void MatchmakerServer::Rounds() {
  while (!stopping_) {
    int64_t now = 0;
    RoundStats s;
    if (s.error = tickets_.Now(&now); s.error.ok()) s = matchmaker_.RunRound(ladders_.Ladders(), now);
    if (!s.error.ok()) {
      ms::LogWarning("matching round failed", {{"error", s.error.error_message()}});
    } else if (s.tables || s.expired || s.released || s.failed || s.stale || s.reseated) {
      ms::LogDebug("round", {{"tables", std::to_string(s.tables)},
                             {"placed", std::to_string(s.placed)},
                             {"failed", std::to_string(s.failed)},
                             {"expired", std::to_string(s.expired)},
                             {"released", std::to_string(s.released)},
                             {"stale", std::to_string(s.stale)},
                             {"reseated", std::to_string(s.reseated)}});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(config_.round_ms));
  }
}

// One replica at a time schedules tournaments: the one holding the lease.
void MatchmakerServer::Schedule() {
  const std::string& replica = replica_;
  bool leading = false;
  while (!stopping_) {
    bool lead = false;
    if (const grpc::Status s = roster_.Lead(replica, config_.lease_ms, &lead); !s.ok()) {
      ms::LogWarning("tournament pass failed", {{"error", s.error_message()}});
      std::this_thread::sleep_for(std::chrono::milliseconds(config_.pass_ms));
      continue;
    }
    metrics_.Leader(lead);
    if (lead != leading)
      ms::LogInfo(lead ? "leading the tournament scheduler" : "no longer leading the tournament scheduler");
    leading = lead;
    if (!lead) tournament_store_.ClearFence();
    // A new leader, or one whose change was refused by a newer fence while it
    // still holds the lease (two replicas that both believed they led), takes
    // the next fence before it changes anything.
    if (lead && tournament_store_.fence() == 0) {
      int64_t fence = 0;
      if (const grpc::Status s = tournament_store_.TakeFence(&fence); !s.ok()) {
        ms::LogWarning("taking the tournament scheduler's fence failed", {{"error", s.error_message()}});
        std::this_thread::sleep_for(std::chrono::milliseconds(config_.pass_ms));
        continue;
      }
      ms::LogInfo("tournament scheduler fence taken", {{"fence", std::to_string(fence)}});
    }
    if (lead) {
      int64_t now = 0;
      RunnerStats s;
      if (s.error = tickets_.Now(&now); s.error.ok()) s = runner_.Pass(now);
      if (!s.error.ok()) {
        ms::LogWarning("tournament pass failed", {{"error", s.error.error_message()}});
        std::this_thread::sleep_for(std::chrono::milliseconds(config_.pass_ms));
        continue;
      }
      metrics_.TournamentGames(s.started, s.finished, s.lost);
      if (s.started || s.finished || s.lost || s.failed || s.rounds || s.tournaments_finished ||
          s.tournaments_started || s.tournaments_cancelled) {
        ms::LogDebug("tournament pass", {{"started", std::to_string(s.started)},
                                         {"finished", std::to_string(s.finished)},
                                         {"lost", std::to_string(s.lost)},
                                         {"failed", std::to_string(s.failed)}});
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(config_.pass_ms));
  }
}

}  // namespace metropolis::matchmaker
