// metropolis-matchmaker: queues per ladder, tables by rating, games on the hosts.
#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <thread>

#include "services/accounts/roles.h"
#include "services/accounts/service.h"
#include "services/accounts/store.h"
#include "services/common/grpc_util.h"
#include "services/common/log.h"
#include "services/common/settings.h"
#include "services/matchmaker/clients.h"
#include "services/matchmaker/tournaments/runner.h"
#include "services/matchmaker/tournaments/service.h"
#include "services/storage/pg_pool.h"

namespace ms = metropolis::services;
namespace mm = metropolis::matchmaker;

namespace {

int Fail(const std::string& message) {
  std::cerr << "metropolis-matchmaker: " << message << "\n";
  return 2;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings("metropolis-matchmaker",
                        "Queues players and bots per ladder, forms tables by rating, and creates their games on the "
                        "game hosts. Replicas share their state in Redis and may run side by side.",
                        "METROPOLIS_MATCHMAKER_");
  settings.Add("listen", "ADDR", "127.0.0.1:50063", "gRPC address (port 0 picks a free port)");
  settings.Add("pg", "CONNINFO", "", "PostgreSQL: accounts and ladders (required)");
  settings.Add("redis", "HOST:PORT", "", "Redis: tickets and hosts (required)");
  settings.Add("redis-prefix", "PREFIX", "metropolis", "prefix of the Redis keys");
  settings.Add("service-token", "TOKEN", "",
               "the game hosts' service token: RegisterHost, and reading ratings (required)");
  settings.Add("host-admin-token", "TOKEN", "", "the game hosts' --admin-token, to create games (required)");
  settings.Add("ratings", "ADDR", "", "ratings service, for players' ratings (empty: everyone matched as a newcomer)");
  settings.Add("round-ms", "N", "100", "time between matching rounds");
  settings.Add("tournament-pass-ms", "N", "500", "time between passes of the tournament scheduler");
  settings.Add("lease-ms", "N", "5000",
               "the tournament scheduler's lease: another replica takes over this long after the leader stops");
  settings.Add("ticket-ttl-ms", "N", "10000", "a queued ticket without a heartbeat for this long expires");
  settings.Add("bot", "SPEC", "heuristic", "the built-in bot that fills seats and plays for absent players");
  settings.Add("connections", "N", "8", "PostgreSQL and Redis connections (each)");
  settings.Add("max-calls", "N", "4096", "calls served at once; a waiting player's stream is one");
  settings.Add("log-level", "LEVEL", "info", "debug, info, warning or error");
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  ms::LogLevel level;
  if (!ms::ParseLogLevel(settings.Get("log-level"), &level))
    return Fail("--log-level: not debug, info, warning or error");
  ms::SetLogService("matchmaker");
  ms::SetLogLevel(level);
  std::string error;
  int64_t round_ms, ticket_ttl_ms, connections, max_calls, pass_ms, lease_ms;
  if (!settings.GetInt("round-ms", 1, 60'000, &round_ms, &error) ||
      !settings.GetInt("tournament-pass-ms", 10, 60'000, &pass_ms, &error) ||
      !settings.GetInt("lease-ms", 100, 600'000, &lease_ms, &error) ||
      !settings.GetInt("ticket-ttl-ms", 100, 3'600'000, &ticket_ttl_ms, &error) ||
      !settings.GetInt("connections", 1, 256, &connections, &error) ||
      !settings.GetInt("max-calls", 1, 100'000, &max_calls, &error))
    return Fail(error);
  for (const char* required : {"pg", "redis", "service-token", "host-admin-token"})
    if (settings.Get(required).empty()) return Fail(std::string("--") + required + " is required");

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  metropolis::storage::PgPool pool(settings.Get("pg"), int(connections));
  metropolis::storage::RedisPool redis(settings.Get("redis"), int(connections));
  metropolis::accounts::AccountStore accounts(&pool);
  metropolis::accounts::LadderStore ladder_store(&pool);
  metropolis::accounts::TokenAuthenticator auth(
      &accounts, {{settings.Get("service-token"), std::string(metropolis::accounts::kGameHostRole)}});
  mm::TicketStore tickets(&redis, settings.Get("redis-prefix"));
  mm::PgLadderSource ladders(&ladder_store);
  std::unique_ptr<mm::RatingSource> ratings;
  struct Newcomers final : mm::RatingSource {
    double Mu(const mm::LadderConfig& ladder, int64_t) override { return ladder.mu; }
  };
  if (settings.Get("ratings").empty()) {
    ratings = std::make_unique<Newcomers>();
  } else {
    ratings = std::make_unique<mm::GrpcRatingSource>(settings.Get("ratings"), settings.Get("service-token"));
  }
  mm::GrpcGameCreator creator(settings.Get("host-admin-token"));
  mm::MatchmakerOptions options;
  options.ticket_ttl_ms = ticket_ttl_ms;
  options.bot = settings.Get("bot");
  mm::Matchmaker matchmaker(&tickets, &creator, options);
  mm::MatchmakerService service(&tickets, &ladders, ratings.get(), &auth, NowMs);
  mm::TournamentStore tournament_store(&pool);
  mm::Roster roster(&redis, settings.Get("redis-prefix"));
  mm::TournamentsService tournaments(&tournament_store, &roster, &auth, NowMs);
  // Accounts, tokens and ladders for metropolisctl: the matchmaker already
  // holds the accounts database and the authenticator.
  metropolis::accounts::AccountsService accounts_service(&accounts, &ladder_store, &auth);
  mm::RunnerOptions runner_options;
  runner_options.bot = settings.Get("bot");
  mm::TournamentRunner runner(&tournament_store, &roster, &tickets, &creator, runner_options);

  ms::EnableHealthAndReflection();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(settings.Get("listen"), grpc::InsecureServerCredentials(), &port);
  grpc::ResourceQuota quota("matchmaker");
  quota.SetMaxThreads(int(max_calls));
  builder.SetResourceQuota(quota);
  builder.RegisterService(&service);
  builder.RegisterService(&tournaments);
  builder.RegisterService(&accounts_service);
  auto server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::cerr << "metropolis-matchmaker: cannot listen on " << settings.Get("listen") << "\n";
    return 1;
  }
  ms::SetServing(*server, "metropolis.v1.Matchmaker", true);
  ms::SetServing(*server, "metropolis.v1.Tournaments", true);
  ms::SetServing(*server, "metropolis.v1.Accounts", true);
  ms::LogInfo("listening", {{"port", std::to_string(port)}});

  std::atomic<bool> stopping{false};
  std::thread rounds([&] {
    while (!stopping) {
      try {
        const mm::RoundStats s = matchmaker.RunRound(ladders.Ladders(), NowMs());
        if (s.tables || s.expired || s.released || s.failed) {
          ms::LogDebug("round", {{"tables", std::to_string(s.tables)},
                                 {"placed", std::to_string(s.placed)},
                                 {"failed", std::to_string(s.failed)},
                                 {"expired", std::to_string(s.expired)},
                                 {"released", std::to_string(s.released)}});
        }
      } catch (const std::exception& e) {
        ms::LogWarning("matching round failed", {{"error", e.what()}});
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(round_ms));
    }
  });
  // One replica at a time schedules tournaments: the one holding the lease.
  std::thread scheduler([&] {
    const std::string replica = std::to_string(getpid()) + "@" + std::to_string(port) + "-" + std::to_string(NowMs());
    bool leading = false;
    while (!stopping) {
      try {
        const bool lead = roster.Lead(replica, lease_ms);
        if (lead != leading)
          ms::LogInfo(lead ? "leading the tournament scheduler" : "no longer leading the tournament scheduler");
        leading = lead;
        if (lead) {
          const mm::RunnerStats s = runner.Pass(NowMs());
          if (s.started || s.finished || s.lost || s.failed || s.rounds || s.tournaments_finished) {
            ms::LogDebug("tournament pass", {{"started", std::to_string(s.started)},
                                             {"finished", std::to_string(s.finished)},
                                             {"lost", std::to_string(s.lost)},
                                             {"failed", std::to_string(s.failed)}});
          }
        }
      } catch (const std::exception& e) {
        ms::LogWarning("tournament pass failed", {{"error", e.what()}});
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(pass_ms));
    }
  });
  int signal = 0;
  sigwait(&signals, &signal);
  stopping = true;
  rounds.join();
  scheduler.join();
  ms::SetServing(*server, "metropolis.v1.Matchmaker", false);
  ms::SetServing(*server, "metropolis.v1.Tournaments", false);
  ms::SetServing(*server, "metropolis.v1.Accounts", false);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return 0;
}
