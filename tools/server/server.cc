#include "tools/server/server.h"

#include <iostream>
#include <utility>

#include "lib/common/secret.h"
#include "lib/flags/flags.h"

namespace metropolis::server {

bool SelfAddress(const std::string& listen, std::string* out, std::string* error) {
  const size_t colon = listen.rfind(':');
  int64_t port = 0;
  if (colon == std::string::npos || !cli::ParseInt(listen.substr(colon + 1), 0, 65535, &port)) {
    *error = "--listen: '" + listen + "' is not HOST:PORT";
    return false;
  }
  if (port == 0) {
    *error = "--listen: '" + listen +
             "': port 0 is not supported here, the services of this process call each other at that address; "
             "give a free port";
    return false;
  }
  std::string host = listen.substr(0, colon);
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "[::]") host = "[::1]";
  *out = host + ":" + std::to_string(port);
  return true;
}

void GenerateMissingTokens(std::string_view program, Tokens* tokens) {
  if (!tokens->service.empty() && !tokens->host_admin.empty()) return;
  std::cout << program << ": generated for this run (give them as flags to keep them):\n";
  if (tokens->service.empty()) {
    tokens->service = "svc-" + services::RandomSecretHex(32);
    std::cout << "  --service-token " << tokens->service << "\n";
  }
  if (tokens->host_admin.empty()) {
    tokens->host_admin = "host-" + services::RandomSecretHex(32);
    std::cout << "  --host-admin-token " << tokens->host_admin << "\n";
  }
  std::cout.flush();
}

std::unique_ptr<Parts> Parts::Create(storage::Pools* pools, PartsConfig config, services::ProcessMetrics* metrics,
                                     std::string* error) {
  const std::string& self = config.self;
  // Completed games go through the outbox to this process's replays and
  // ratings, and the host announces itself to this process's matchmaker.
  gamehost::GameHostConfig& host = config.host;
  host.options.admin_token = config.tokens.host_admin;
  host.replays = host.ratings = host.matchmaker = self;
  host.replays_token = host.ratings_token = host.matchmaker_token = config.tokens.service;
  host.rate_limit = config.rate_limit;

  matchmaker::MatchmakerConfig& matchmaker = config.matchmaker;
  matchmaker.redis_prefix = config.redis_prefix;
  matchmaker.service_token = config.tokens.service;
  matchmaker.host_admin_token = config.tokens.host_admin;
  matchmaker.ratings = matchmaker.replays = self;
  // Every part checks its callers' tokens with the Accounts service at this address.
  matchmaker.accounts = self;
  matchmaker.rate_limit = config.rate_limit;
  matchmaker.gateway_token = config.gateway_token;

  std::unique_ptr<Parts> parts(new Parts(pools, config, metrics));
  parts->host_ = gamehost::GameHostServer::Create(host, metrics, error);
  if (!parts->host_) return nullptr;
  return parts;
}

Parts::Parts(storage::Pools* pools, const PartsConfig& config, services::ProcessMetrics* metrics)
    : accounts_(pools->pg(),
                {.service_token = config.tokens.service,
                 .gateway_token = config.gateway_token,
                 .seat_key = config.seat_key,
                 .rate_limit = config.rate_limit},
                metrics),
      replays_(pools->pg(),
               {.store_token = config.tokens.service,
                .accounts = config.self,
                .gateway_token = config.gateway_token,
                .rate_limit = config.rate_limit,
                // One thread analysing finished games, with the defaults of metropolis-replays.
                .analysis = {}},
               metrics),
      ratings_(pools->pg(), pools->redis(),
               {.service_token = config.tokens.service,
                .replays_address = config.self,
                .accounts_address = config.self,
                .redis_prefix = config.redis_prefix,
                .gateway_token = config.gateway_token,
                .rate_limit = config.rate_limit},
               metrics),
      matchmaker_(pools->pg(), pools->redis(), config.matchmaker, metrics) {}

std::vector<services::Component*> Parts::components() {
  return {&accounts_, &replays_, &ratings_, &matchmaker_, host_.get()};
}

}  // namespace metropolis::server
