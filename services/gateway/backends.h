// The gRPC services behind the gateway: one channel each to the replays,
// ratings, accounts (Accounts and People) and matchmaker services, and one per game host, created when a host
// is first named (by --hosts, or by the matchmaker's registry). Every call
// carries the gateway's service token (or a person's or a host's) and a deadline.
#pragma once

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metropolis/v1/accounts.grpc.pb.h"
#include "metropolis/v1/gamehost.grpc.pb.h"
#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "metropolis/v1/people.grpc.pb.h"
#include "metropolis/v1/ratings.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "metropolis/v1/tournaments.grpc.pb.h"
#include "services/gateway/live.h"

namespace metropolis::gateway {

struct BackendOptions {
  std::string replays, ratings, matchmaker;  // addresses; matchmaker may be empty
  std::string accounts;                      // the Accounts and People services' address
  // The gateway's own identity at every service: People takes no other token,
  // and replays, ratings and the matchmaker know it as the gateway's, a service
  // they do not limit per identity, since the gateway limits its clients itself.
  // (An API token would put every browser behind one identity's budget, and
  // one client's flood would spend it for all of them and for that identity.)
  std::string service_token;
  std::vector<std::string> hosts;    // game hosts known without the matchmaker
  std::string gamehost_token;        // a game host's spectator (or administrator) token
  std::string gamehost_admin_token;  // a game host's administrator token: people's practice games
  int timeout_ms = 3000;
};

class Backends {
 public:
  explicit Backends(BackendOptions options);

  // A context with the gateway's service token (the services' reads) and the deadline.
  std::unique_ptr<grpc::ClientContext> Context() const { return ContextWithToken(options_.service_token); }
  // A context with the game hosts' spectator token and the deadline.
  std::unique_ptr<grpc::ClientContext> HostContext() const { return ContextWithToken(options_.gamehost_token); }
  // The same, for the People service.
  std::unique_ptr<grpc::ClientContext> AccountsContext() const { return ContextWithToken(options_.service_token); }
  // The same with another token (a person's, a host's administrator token).
  std::unique_ptr<grpc::ClientContext> ContextWithToken(const std::string& token) const;

  v1::Replays::Stub& replays() { return *replays_; }
  v1::Accounts::Stub& accounts() { return *accounts_; }
  v1::People::Stub& people() { return *people_; }
  v1::Ratings::Stub& ratings() { return *ratings_; }
  v1::Matchmaker::Stub* matchmaker() { return matchmaker_.get(); }
  // The matchmaker's Tournaments service (same address); null without --matchmaker.
  v1::Tournaments::Stub* tournaments() { return tournaments_.get(); }
  std::shared_ptr<v1::GameHost::Stub> Host(const std::string& address);

  // The configured hosts and, with a matchmaker, those it heard from lately
  // (its registry is the same for every ladder: `any_ladder` names one that
  // exists). A matchmaker that fails leaves *matchmaker_error set and the
  // configured hosts.
  std::vector<std::string> HostAddresses(const std::string& any_ladder, grpc::Status* matchmaker_error);
  bool IsKnownHost(const std::string& address);
  // The configured hosts and the registry as last heard, without asking the
  // matchmaker (for a play stream looking for a game's new host).
  std::vector<std::string> KnownHosts();

  // Remembers which host runs a live game, from listings, so that a spectator
  // goes straight there.
  void NoteGameHost(const std::string& game_id, const std::string& host);
  std::string GameHostOf(const std::string& game_id);

  // Watches a game on a host from its first event (LiveHub's upstreams): a
  // thread reads the stream and follows one redirect to another known host.
  UpstreamFactory SpectateFactory();

  const BackendOptions& options() const { return options_; }

 private:
  const BackendOptions options_;
  std::unique_ptr<v1::Replays::Stub> replays_;
  std::unique_ptr<v1::Ratings::Stub> ratings_;
  std::unique_ptr<v1::Accounts::Stub> accounts_;
  std::unique_ptr<v1::People::Stub> people_;
  std::unique_ptr<v1::Matchmaker::Stub> matchmaker_;
  std::unique_ptr<v1::Tournaments::Stub> tournaments_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<v1::GameHost::Stub>> hosts_;
  std::vector<std::string> registered_;            // the matchmaker's last answer
  std::map<std::string, std::string> game_hosts_;  // game id -> host, bounded
};

}  // namespace metropolis::gateway
