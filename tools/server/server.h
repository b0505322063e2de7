// metropolis-server's parts, wired to each other at one address (main.cc reads
// the flags): the accounts, replays, ratings and matchmaker services and one game
// host, whose outbox stores and rates games there, which announces itself to the
// matchmaker there, and whose every part checks its callers' tokens with the
// Accounts service there.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/storage/server_storage.h"
#include "services/accounts/server.h"
#include "services/gamehost/server.h"
#include "services/matchmaker/server.h"
#include "services/ratings/server.h"
#include "services/replays/server.h"

namespace metropolis::server {

// The address the parts of this process call each other at: --listen with a
// wildcard host made loopback. The port must be known before the server starts,
// because the parts are built with it: 0 is refused.
bool SelfAddress(const std::string& listen, std::string* out, std::string* error);

// The tokens the parts pass to each other. One not given is generated and printed
// once on stdout, so that metropolisctl, or another game host, can use it too.
struct Tokens {
  std::string service;     // the game hosts' service token
  std::string host_admin;  // may create games on the game host
};
void GenerateMissingTokens(std::string_view program, Tokens* tokens);

struct PartsConfig {
  std::string self;  // SelfAddress
  Tokens tokens;
  std::string gateway_token;  // the only caller of People; empty: nobody
  std::string seat_key;       // people's seat tokens are sealed with it (AccountsConfig::seat_key)
  std::string redis_prefix;
  services::RateLimit rate_limit;
  // Their own settings read; the addresses and tokens of the other parts are set here.
  gamehost::GameHostConfig host;
  matchmaker::MatchmakerConfig matchmaker;
};

class Parts {
 public:
  // Null with *error when the game host cannot start (its outbox). Every part makes
  // its metrics on `metrics`'s registry, the process's, and counts in it.
  static std::unique_ptr<Parts> Create(storage::Pools* pools, PartsConfig config, services::ProcessMetrics* metrics,
                                       std::string* error);

  // Started in this order and stopped in the reverse: the host's heartbeat stops
  // before the matchmaker, whose rounds stop before the server does.
  std::vector<services::Component*> components();

 private:
  Parts(storage::Pools* pools, const PartsConfig& config, services::ProcessMetrics* metrics);

  accounts::AccountsServer accounts_;
  replays::ReplaysServer replays_;
  ratings::RatingsServer ratings_;
  matchmaker::MatchmakerServer matchmaker_;
  std::unique_ptr<gamehost::GameHostServer> host_;
};

}  // namespace metropolis::server
