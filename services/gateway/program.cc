#include "services/gateway/program.h"

#include <prometheus/registry.h>

#include <climits>
#include <cstdlib>

#include "lib/common/clock.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"
#include "lib/common/process_setup.h"
#include "lib/common/server_main.h"
#include "lib/common/server_program.h"
#include "lib/flags/flags.h"
#include "services/gateway/api.h"
#include "services/gateway/catalog.h"
#include "services/gateway/client_address.h"
#include "services/gateway/live.h"
#include "services/gateway/metrics.h"
#include "services/gateway/people_client.h"
#include "services/gateway/play_api.h"
#include "services/gateway/public_reads.h"
#include "services/gateway/server.h"

namespace metropolis::gateway {

namespace ms = metropolis::services;

void AddGatewaySettings(ms::Settings* settings) {
  settings->Add("listen", "HOST:PORT", "127.0.0.1:8080", "HTTP address");
  settings->Add("web-root", "DIR", "", "the web app's files (empty: the API only)");
  settings->Add("accounts", "ADDR", "",
                "the Accounts service (with People): ladders, players' names, people's accounts (required)");
  settings->Add("accounts-token", "TOKEN", "",
                "the gateway's service token: the Accounts service's --gateway-token, and the --gateway-token of "
                "replays, ratings and the matchmaker, which it reads with (required)");
  settings->Add("replays", "ADDR", "127.0.0.1:50061", "the replays service");
  settings->Add("ratings", "ADDR", "127.0.0.1:50062", "the ratings service");
  settings->Add("matchmaker", "ADDR", "", "the matchmaker, whose registry names the game hosts (empty: --hosts only)");
  settings->Add("hosts", "ADDR,...", "", "game hosts to list live games from, besides the matchmaker's");
  settings->Add("gamehost-token", "TOKEN", "", "the game hosts' spectator token, for live games");
  settings->Add("gamehost-admin-token", "TOKEN", "",
                "the game hosts' administrator token, to create people's practice games (empty: no practice)");
  settings->Add("session-ttl-hours", "N", "168", "a sign-in lasts this long (fixed from sign-in, not sliding)");
  settings->Add("practice-decision-ms", "N", "60000", "time per decision of a person in a practice game");
  settings->Add("practice-time-bank-ms", "N", "300000", "a person's time bank in a practice game");
  settings->Add("max-practice-games", "N", "2",
                "practice games a person may have unfinished at once, on all gateways together (1 to 100)");
  settings->Add("secure-cookies", "BOOL", "false",
                "mark the session cookie Secure (HTTPS only): for a gateway behind an HTTPS proxy");
  settings->Add("signin-failures", "N", "5",
                "failed sign-ins per name and address before it waits --signin-window-s (in memory, per gateway)");
  settings->Add("signin-window-s", "N", "300", "the window of --signin-failures");
  settings->Add("backend-timeout-ms", "N", "3000", "deadline of each call to a service");
  settings->Add("threads", "N", "32", "worker threads for requests that call a service (the event loop never waits)");
  settings->Add("loop-threads", "N", "2", "event-loop threads of the HTTP server; connections are spread over them");
  settings->Add("max-connections", "N", "12288",
                "open HTTP connections at once, streams included; more are not served until one closes");
  settings->Add("max-spectators", "N", "10000", "live streams at once; more are refused with 503");
  settings->Add("max-live-games", "N", "256", "live games watched at once (an upstream stream each)");
  settings->Add("spectator-delay-ms", "N", "0",
                "spectators see every live game this far behind its players, so that nobody outside a game can "
                "advise a player as it happens (0: as it happens; the delayed updates are held in memory)");
  settings->Add("stream-interval-ms", "N", "100",
                "a live stream writes a view at most this often (views in between merge; events go at once)");
  settings->Add("stream-resume-batch-ms", "N", "5",
                "waiting streams are resumed in batches at most this long (0: each at once; fewer looks "
                "through the waiting connections, less CPU)");
  settings->Add("trim-memory-s", "N", "10",
                "give the allocator's free memory back to the system this often (0: never); streams come and go "
                "in waves, and glibc keeps what they freed");
  settings->Add("heartbeat-ms", "N", "15000", "a comment line on an idle live stream, to find clients that left");
  ms::AddMetricsSetting(settings, "127.0.0.1:9467");
  settings->Add("tls-cert", "FILE", "", "PEM certificate chain: serve HTTPS (with --tls-key; empty: plain HTTP)");
  settings->Add("tls-key", "FILE", "", "PEM private key of --tls-cert (unencrypted)");
  ms::AddChannelTlsSetting(settings);
  ms::AddRateLimitSettings(settings, {.per_second = 100, .burst = 200},
                           "per client address (/healthz and /readyz are not limited)");
  settings->Add("public-cache-ms", "N", "1000",
                "API answers everyone polls (ladders, leaderboards, live games, tournaments) are served again for "
                "this long, and requests for a URL being answered wait for that answer (0: neither)");
  settings->Add("upstream-rate-limit", "N", "80",
                "API reads per second per client address that reach the services (cache misses; 0: no limit)");
  settings->Add("upstream-rate-burst", "N", "160", "bucket size of --upstream-rate-limit");
  settings->Add("trusted-proxies", "ADDR,...", "",
                "proxies in front of the gateway: a request from one is the client's that its X-Forwarded-For "
                "names last (for the rate limit and the sign-in throttle); empty: the TCP peer is the client");
  ms::AddLogLevelSetting(settings);
}

bool ReadGatewayConfig(const ms::Settings& settings, GatewayConfig* config, std::string* error) {
  int64_t timeout_ms, threads, loop_threads, max_connections, max_spectators, max_games, interval_ms, heartbeat_ms;
  int64_t resume_batch_ms, trim_memory_s, spectator_delay_ms;
  int64_t practice_decision_ms, practice_bank_ms, max_practice_games;
  int64_t public_cache_ms, upstream_rate, upstream_burst;
  if (!settings.GetInt("backend-timeout-ms", 10, 600'000, &timeout_ms, error) ||
      !settings.GetInt("threads", 2, 1024, &threads, error) ||
      !settings.GetInt("loop-threads", 1, 64, &loop_threads, error) ||
      !settings.GetInt("max-connections", 16, 1'000'000, &max_connections, error) ||
      !settings.GetInt("max-spectators", 0, 100'000, &max_spectators, error) ||
      !settings.GetInt("max-live-games", 1, 100'000, &max_games, error) ||
      !settings.GetInt("spectator-delay-ms", 0, 3'600'000, &spectator_delay_ms, error) ||
      !settings.GetInt("stream-interval-ms", 0, 10'000, &interval_ms, error) ||
      !settings.GetInt("stream-resume-batch-ms", 0, 1000, &resume_batch_ms, error) ||
      !settings.GetInt("trim-memory-s", 0, 86'400, &trim_memory_s, error) ||
      !settings.GetInt("heartbeat-ms", 100, 3'600'000, &heartbeat_ms, error) ||
      !settings.GetInt("session-ttl-hours", 1, 24 * 366, &config->session_ttl_hours, error) ||
      !settings.GetInt("practice-decision-ms", 1000, 86'400'000, &practice_decision_ms, error) ||
      !settings.GetInt("practice-time-bank-ms", 0, 86'400'000, &practice_bank_ms, error) ||
      // 1 at least: no practice at all is the empty --gamehost-admin-token.
      !settings.GetInt("max-practice-games", 1, 100, &max_practice_games, error) ||
      !settings.GetInt("signin-failures", 1, 1000, &config->signin_failures, error) ||
      !settings.GetInt("signin-window-s", 1, 86'400, &config->signin_window_s, error) ||
      !settings.GetInt("public-cache-ms", 0, 60'000, &public_cache_ms, error) ||
      !settings.GetInt("upstream-rate-limit", 0, 1'000'000, &upstream_rate, error) ||
      !settings.GetInt("upstream-rate-burst", 1, 1'000'000, &upstream_burst, error))
    return false;
  config->public_cache_ms = int(public_cache_ms);
  config->upstream_rate_limit = {.per_second = double(upstream_rate), .burst = double(upstream_burst)};
  config->threads = int(threads);
  config->loop_threads = int(loop_threads);
  config->max_connections = int(max_connections);
  config->max_spectators = int(max_spectators);
  config->max_live_games = int(max_games);
  config->spectator_delay_ms = int(spectator_delay_ms);
  config->stream_interval_ms = int(interval_ms);
  config->heartbeat_ms = int(heartbeat_ms);
  config->resume_batch_ms = int(resume_batch_ms);
  config->trim_memory_s = int(trim_memory_s);
  config->practice_decision_ms = int(practice_decision_ms);
  config->practice_time_bank_ms = int(practice_bank_ms);
  config->max_practice_games = int(max_practice_games);
  if (!ms::ReadRateLimitSettings(settings, &config->rate_limit, error) ||
      !ms::LoadServerTls(settings.Get("tls-cert"), settings.Get("tls-key"), &config->tls, error) ||
      !ms::ReadChannelTlsSetting(settings, error))
    return false;
  if (std::string missing =
          ms::MissingSettings(settings, {"accounts", "accounts-token"}, ms::MissingWording::kFirstWithEnv);
      !missing.empty())
    return *error = missing, false;
  const std::string secure = settings.Get("secure-cookies");
  if (secure != "true" && secure != "false")
    return *error = "--secure-cookies: '" + secure + "' is neither true nor false", false;
  config->secure_cookies = secure == "true";

  config->backends = BackendOptions{
      .replays = settings.Get("replays"),
      .ratings = settings.Get("ratings"),
      .matchmaker = settings.Get("matchmaker"),
      .accounts = settings.Get("accounts"),
      .service_token = settings.Get("accounts-token"),
      .hosts = {},
      .gamehost_token = settings.Get("gamehost-token"),
      .gamehost_admin_token = settings.Get("gamehost-admin-token"),
      .timeout_ms = int(timeout_ms),
  };
  if (!settings.Get("hosts").empty()) {
    for (const std::string& h : metropolis::cli::SplitCommas(settings.Get("hosts"))) {
      if (h.empty()) return *error = "--hosts: an empty address in '" + settings.Get("hosts") + "'", false;
      config->backends.hosts.push_back(h);
    }
  }
  config->web_root.clear();
  if (!settings.Get("web-root").empty()) {
    char real[PATH_MAX];
    if (!::realpath(settings.Get("web-root").c_str(), real))
      return *error = "--web-root " + settings.Get("web-root") + ": no such directory", false;
    config->web_root = real;
  }
  if (!ParseTrustedProxies(settings.Get("trusted-proxies"), &config->trusted_proxies, error)) return false;
  config->listen = settings.Get("listen");
  config->metrics_listen = settings.Get("metrics-listen");
  return true;
}

int RunGateway(const GatewayConfig& config) {
  auto fail = [](const std::string& message) { return ms::FailStartup("metropolis-gateway", message); };
  ms::ShutdownSignals signals;
  ms::IgnoreBrokenPipes();
  // Every connection is a socket: as many as --max-connections.
  ms::RaiseOpenFileLimit();

  // One registry for the process, the shared parts' counts (rate limit refusals)
  // and the gateway's own, served as every service serves it (common/metrics.h).
  const auto registry = std::make_shared<prometheus::Registry>();
  ms::ProcessMetrics process_metrics(registry.get());
  GatewayMetrics metrics(registry.get());
  ms::MetricsEndpoint metrics_endpoint;
  if (std::string error; !metrics_endpoint.Start(config.metrics_listen, registry, &error)) return fail(error);

  Backends backends(config.backends);
  Catalog catalog(&backends);
  Api api(&catalog, &backends);
  PublicReads reads({.cache_ms = config.public_cache_ms, .upstream = config.upstream_rate_limit},
                    [&api](std::string_view path, std::string_view query, std::string* route) {
                      return api.Get(path, query, route);
                    });

  // People and play: a person is a player identity of the accounts; their
  // passwords, sessions and seats are the Accounts service's (People), the
  // streams held for them the gateway's.
  const ms::SystemClock clock;
  GrpcPeopleStore people_store(&backends);
  People people(&people_store, &clock, NewSessionToken,
                {.session_ttl = std::chrono::hours(config.session_ttl_hours),
                 .limiter = {.max_failures = int(config.signin_failures),
                             .window = std::chrono::seconds(config.signin_window_s)}});
  QueueHub queue(&backends, &people_store, &clock);
  // A play stream whose host is unreachable looks for the game's new host
  // among all the hosts known, the matchmaker's registry asked afresh.
  PlayHub play(&backends, std::chrono::seconds(20), {}, [&backends, &api] {
    grpc::Status ignored;  // without the matchmaker: the configured hosts and its last answer
    return backends.HostAddresses(api.AnyLadder(), &ignored);
  });
  // A person's own bots and their tokens: the Accounts service's (People).
  GrpcBotStore bot_store(&backends);
  // Their games' debug notes: the Replays service's GetDebug.
  GrpcDebugSource debug_source(&backends);
  PlayApi play_api(&api, &backends, &people, &queue, &play,
                   {.decision_ms = config.practice_decision_ms,
                    .time_bank_ms = config.practice_time_bank_ms,
                    .max_practice_games = config.max_practice_games,
                    .secure_cookies = config.secure_cookies},
                   &bot_store, &debug_source);
  // Declared after the backends, whose stubs its upstreams use: it goes first.
  LiveHub hub({.max_spectators = size_t(config.max_spectators),
               .max_games = size_t(config.max_live_games),
               .spectator_delay = std::chrono::milliseconds(config.spectator_delay_ms)},
              backends.SpectateFactory(), [&metrics](ptrdiff_t change) { metrics.LiveHistoryBytesChanged(change); });
  std::string error;
  HttpServer server({.listen = config.listen,
                     .web_root = config.web_root,
                     .threads = config.threads,
                     .loop_threads = config.loop_threads,
                     .max_connections = config.max_connections,
                     .stream_interval_ms = config.stream_interval_ms,
                     .resume_batch_ms = config.resume_batch_ms,
                     .trim_memory_ms = config.trim_memory_s * 1000,
                     .heartbeat_ms = config.heartbeat_ms,
                     .tls_key_pem = config.tls.key_pem,
                     .tls_cert_pem = config.tls.cert_pem,
                     .rate_limit = config.rate_limit,
                     .trusted_proxies = config.trusted_proxies,
                     .process_metrics = &process_metrics},
                    &api, &reads, &play_api, &hub, &metrics);
  if (!server.Start(&error)) return fail(error);
  ms::LogInfo("listening", {{"port", std::to_string(server.port())},
                            {"tls", config.tls.enabled() ? "on" : "off"},
                            {"web_root", config.web_root.empty() ? "none" : config.web_root},
                            {"metrics", config.metrics_listen.empty() ? "off" : config.metrics_listen},
                            {"max_spectators", std::to_string(config.max_spectators)},
                            {"max_connections", std::to_string(config.max_connections)}});

  const int signal_number = signals.Wait();
  ms::LogInfo("shutting down",
              {{"signal", std::to_string(signal_number)}, {"spectators", std::to_string(hub.spectators())}});
  server.Stop();
  return 0;
}

}  // namespace metropolis::gateway
