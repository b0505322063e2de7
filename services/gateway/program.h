// metropolis-gateway's settings and its wiring, apart from its main: the flags it
// reads, checked into one Config, and the parts (backends, catalog, API, people,
// play, live streams, the HTTP server) built from it and served until a signal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/common/credentials.h"
#include "lib/common/rate_limit.h"
#include "lib/common/settings.h"
#include "services/gateway/backends.h"

namespace metropolis::gateway {

struct GatewayConfig {
  std::string listen, web_root, metrics_listen;  // web_root resolved; empty: the API only
  BackendOptions backends;
  int threads = 32, loop_threads = 2, max_connections = 12288, max_spectators = 10000, max_live_games = 256,
      stream_interval_ms = 100, heartbeat_ms = 15000, resume_batch_ms = 5, trim_memory_s = 10;
  int spectator_delay_ms = 0;  // LiveOptions::spectator_delay
  int64_t session_ttl_hours = 168, signin_failures = 5, signin_window_s = 300;
  int practice_decision_ms = 60000, practice_time_bank_ms = 300000, max_practice_games = 2;
  bool secure_cookies = false;
  services::RateLimit rate_limit;
  int public_cache_ms = 1000;                // PublicReadsOptions::cache_ms
  services::RateLimit upstream_rate_limit;   // per client address, of cache misses
  std::vector<std::string> trusted_proxies;  // whose X-Forwarded-For names the client (client_address.h)
  services::ServerTls tls;
};

// Every flag of metropolis-gateway, with its default and help.
void AddGatewaySettings(services::Settings* settings);

// The parsed settings, checked: false with *error (naming the flag) on a value out
// of range, a missing required setting or a --web-root that does not exist.
bool ReadGatewayConfig(const services::Settings& settings, GatewayConfig* config, std::string* error);

// Builds the gateway's parts and serves until SIGINT or SIGTERM; the process's exit
// code (a start that fails says why, as every server program does).
int RunGateway(const GatewayConfig& config);

}  // namespace metropolis::gateway
