// The matchmaker as a part of a server program (lib/common/server_main.h):
// the Matchmaker and Tournaments services over PostgreSQL and Redis pools the
// program owns (callers' tokens and the ladders come from the Accounts service),
// and two threads beside them: the matching rounds, and the tournament scheduler
// (run by the one replica holding its lease). metropolis-matchmaker runs it
// alone; metropolis-server beside the others.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lib/auth/grpc_account_lookup.h"
#include "lib/auth/rate_limited.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/clock.h"
#include "lib/common/server_main.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/redis.h"
#include "services/matchmaker/clients.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/redis_ticket_store.h"
#include "services/matchmaker/service.h"
#include "services/matchmaker/tables/redis_table_store.h"
#include "services/matchmaker/tables/table_api.h"
#include "services/matchmaker/tables/tables.h"
#include "services/matchmaker/tournaments/pg_tournament_store.h"
#include "services/matchmaker/tournaments/redis_roster_store.h"
#include "services/matchmaker/tournaments/runner.h"
#include "services/matchmaker/tournaments/service.h"

namespace metropolis::matchmaker {

struct MatchmakerConfig {
  std::string redis_prefix = "metropolis";
  std::string service_token;     // the game hosts': RegisterHost, and reading ratings
  std::string host_admin_token;  // the game hosts' --admin-token, to create games
  std::string ratings;           // the ratings service's address; empty: everyone is matched as a newcomer
  std::string replays;           // the replays service's address: tournament results and reveals
  std::string accounts;          // the Accounts service's address: callers' tokens and the ladders (required)
  // The gateway's service token (the Accounts service's --gateway-token): its
  // reads (queues, tournaments) on behalf of the public, which it limits per
  // client itself. Empty: none.
  std::string gateway_token;
  int64_t round_ms = 100;   // between matching rounds
  int64_t pass_ms = 500;    // between passes of the tournament scheduler
  int64_t lease_ms = 5000;  // the scheduler's lease
  int64_t ticket_ttl_ms = 10'000;
  int64_t host_forget_ms = 60'000;  // a host silent this long leaves the registry
  // The live replicas share the ladders out (MatchmakerOptions::replica); false:
  // this one runs every ladder's rounds.
  bool share_ladders = true;
  std::string bot = "heuristic";  // fills seats and plays for absent players
  // The ladders friends' tables may be rated on (--table-ladders): an operator's
  // casual ladders, never a ranked one, where a table's own bots and clocks
  // would make a rating cheap. Empty: tables are never rated.
  std::vector<std::string> table_ladders = {};
  // Calls per identity at the Matchmaker and Tournaments services
  // (service tokens are not limited); refused with RESOURCE_EXHAUSTED.
  services::RateLimit rate_limit{.per_second = 50, .burst = 100};
};

class MatchmakerServer final : public services::Component {
 public:
  // Its metrics are made on `metrics`'s registry, the process's, where token checks
  // and refusals are counted too.
  MatchmakerServer(storage::PgPool* pool, storage::RedisPool* redis, const MatchmakerConfig& config,
                   services::ProcessMetrics* metrics);
  ~MatchmakerServer() override;

  std::vector<std::string> HealthNames() const override {
    return {"metropolis.v1.Matchmaker", "metropolis.v1.Tournaments"};
  }
  void Register(grpc::ServerBuilder* builder) override;
  void Listening(int port, services::LogFieldList* fields) override;
  void Start() override;
  void Stop(int signal) override;

 private:
  void Rounds();
  void Schedule();

  const MatchmakerConfig config_;
  // This replica's name in Redis: the ladders' share-out and the scheduler's lease.
  const std::string replica_;
  services::SystemClock clock_;  // the Compete streams' heartbeats (the rest is on the ticket store's clock)
  MatchmakerMetrics metrics_;
  auth::GrpcAccountLookup account_lookup_;
  auth::TokenAuthenticator auth_;
  // What the services check callers with: auth_, then the limit per identity.
  auth::RateLimitedAuthenticator limited_auth_;
  RedisTicketStore tickets_;
  GrpcLadderSource ladders_;
  std::unique_ptr<RatingSource> ratings_;
  GrpcGameCreator creator_;
  Matchmaker matchmaker_;
  tables::RedisTableStore table_store_;
  tables::Tables tables_;
  tables::TableApi table_api_;
  MatchmakerService service_;
  PgTournamentStore tournament_store_;
  GrpcGameResults results_;
  GrpcEntrantDirectory entrants_;  // the entrants' names, from Accounts
  RedisRosterStore roster_;
  TournamentsService tournaments_;
  TournamentRunner runner_;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread rounds_, scheduler_;
};

}  // namespace metropolis::matchmaker
