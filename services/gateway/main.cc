// metropolis-gateway: the HTTP face of Metropolis — a JSON API over the
// services, live games as server-sent events, and the web app's files.
#include <prometheus/registry.h>

#include <climits>
#include <cstdlib>

#include "lib/common/credentials.h"
#include "lib/common/log.h"
#include "lib/common/metrics.h"
#include "lib/common/process_setup.h"
#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/common/server_program.h"
#include "lib/common/settings.h"
#include "lib/flags/flags.h"
#include "services/gateway/api.h"
#include "services/gateway/backends.h"
#include "services/gateway/catalog.h"
#include "services/gateway/live.h"
#include "services/gateway/metrics.h"
#include "services/gateway/people_client.h"
#include "services/gateway/play_api.h"
#include "services/gateway/server.h"

namespace ms = metropolis::services;
namespace mgw = metropolis::gateway;

namespace {

int Fail(const std::string& message) { return ms::FailStartup("metropolis-gateway", message); }

}  // namespace

int main(int argc, char** argv) {
  ms::Settings settings = ms::MakeSettings(
      {.service = "gateway",
       .summary = "Serves Metropolis to browsers: a JSON API under /api/v1 over the accounts, replays, "
                  "ratings and matchmaker services and the game hosts, live games as server-sent events, and the web "
                  "app's files (docs/GATEWAY.md)."});
  settings.Add("listen", "HOST:PORT", "127.0.0.1:8080", "HTTP address");
  settings.Add("web-root", "DIR", "", "the web app's files (empty: the API only)");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (with People): ladders, players' names, people's accounts (required)");
  settings.Add("accounts-token", "TOKEN", "",
               "the gateway's service token at the Accounts service, its --gateway-token (required)");
  settings.Add("replays", "ADDR", "127.0.0.1:50061", "the replays service");
  settings.Add("ratings", "ADDR", "127.0.0.1:50062", "the ratings service");
  settings.Add("matchmaker", "ADDR", "", "the matchmaker, whose registry names the game hosts (empty: --hosts only)");
  settings.Add("hosts", "ADDR,...", "", "game hosts to list live games from, besides the matchmaker's");
  settings.Add("token", "TOKEN", "", "an API token for the services' reads (any valid one; required)");
  settings.Add("gamehost-token", "TOKEN", "", "the game hosts' spectator token, for live games");
  settings.Add("gamehost-admin-token", "TOKEN", "",
               "the game hosts' administrator token, to create people's practice games (empty: no practice)");
  settings.Add("session-ttl-hours", "N", "168", "a sign-in lasts this long (fixed from sign-in, not sliding)");
  settings.Add("practice-decision-ms", "N", "60000", "time per decision of a person in a practice game");
  settings.Add("practice-time-bank-ms", "N", "300000", "a person's time bank in a practice game");
  settings.Add("secure-cookies", "BOOL", "false",
               "mark the session cookie Secure (HTTPS only): for a gateway behind an HTTPS proxy");
  settings.Add("signin-failures", "N", "5",
               "failed sign-ins per name and address before it waits --signin-window-s (in memory, per gateway)");
  settings.Add("signin-window-s", "N", "300", "the window of --signin-failures");
  settings.Add("backend-timeout-ms", "N", "3000", "deadline of each call to a service");
  settings.Add("threads", "N", "32", "HTTP threads for everything but live streams");
  settings.Add("max-spectators", "N", "2000", "live streams at once (a thread each); more are refused with 503");
  settings.Add("max-live-games", "N", "256", "live games watched at once (an upstream stream each)");
  settings.Add("stream-interval-ms", "N", "100", "a live stream writes at most this often; views in between merge");
  settings.Add("heartbeat-ms", "N", "15000", "a comment line on an idle live stream, to find clients that left");
  ms::AddMetricsSetting(&settings, "127.0.0.1:9467");
  settings.Add("tls-cert", "FILE", "", "PEM certificate chain: serve HTTPS (with --tls-key; empty: plain HTTP)");
  settings.Add("tls-key", "FILE", "", "PEM private key of --tls-cert (unencrypted)");
  ms::AddChannelTlsSetting(&settings);
  ms::AddRateLimitSettings(&settings, {.per_second = 100, .burst = 200},
                           "per client address (/healthz and /readyz are not limited)");
  ms::AddLogLevelSetting(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  if (!ms::SetUpLogs(settings, "gateway", &error)) return Fail(error);

  int64_t timeout_ms, threads, max_spectators, max_games, interval_ms, heartbeat_ms;
  int64_t session_hours, practice_decision_ms, practice_bank_ms, signin_failures, signin_window_s;
  if (!settings.GetInt("backend-timeout-ms", 10, 600'000, &timeout_ms, &error) ||
      !settings.GetInt("threads", 2, 1024, &threads, &error) ||
      !settings.GetInt("max-spectators", 0, 100'000, &max_spectators, &error) ||
      !settings.GetInt("max-live-games", 1, 100'000, &max_games, &error) ||
      !settings.GetInt("stream-interval-ms", 0, 10'000, &interval_ms, &error) ||
      !settings.GetInt("heartbeat-ms", 100, 3'600'000, &heartbeat_ms, &error) ||
      !settings.GetInt("session-ttl-hours", 1, 24 * 366, &session_hours, &error) ||
      !settings.GetInt("practice-decision-ms", 1000, 86'400'000, &practice_decision_ms, &error) ||
      !settings.GetInt("practice-time-bank-ms", 0, 86'400'000, &practice_bank_ms, &error) ||
      !settings.GetInt("signin-failures", 1, 1000, &signin_failures, &error) ||
      !settings.GetInt("signin-window-s", 1, 86'400, &signin_window_s, &error))
    return Fail(error);
  ms::RateLimit rate_limit;
  ms::ServerTls tls;
  if (!ms::ReadRateLimitSettings(settings, &rate_limit, &error) ||
      !ms::LoadServerTls(settings.Get("tls-cert"), settings.Get("tls-key"), &tls, &error) ||
      !ms::ReadChannelTlsSetting(settings, &error))
    return Fail(error);
  if (std::string missing =
          ms::MissingSettings(settings, {"accounts", "accounts-token"}, ms::MissingWording::kFirstWithEnv);
      !missing.empty())
    return Fail(missing);
  const std::string secure = settings.Get("secure-cookies");
  if (secure != "true" && secure != "false")
    return Fail("--secure-cookies: '" + secure + "' is neither true nor false");
  const bool secure_cookies = secure == "true";
  if (std::string missing = ms::MissingSettings(settings, {"token"}, ms::MissingWording::kFirstWithEnv);
      !missing.empty())
    return Fail(missing);

  mgw::BackendOptions backend_options{
      .replays = settings.Get("replays"),
      .ratings = settings.Get("ratings"),
      .matchmaker = settings.Get("matchmaker"),
      .accounts = settings.Get("accounts"),
      .accounts_token = settings.Get("accounts-token"),
      .hosts = {},
      .token = settings.Get("token"),
      .gamehost_token = settings.Get("gamehost-token"),
      .gamehost_admin_token = settings.Get("gamehost-admin-token"),
      .timeout_ms = int(timeout_ms),
  };
  if (!settings.Get("hosts").empty()) {
    for (const std::string& h : metropolis::cli::SplitCommas(settings.Get("hosts"))) {
      if (h.empty()) return Fail("--hosts: an empty address in '" + settings.Get("hosts") + "'");
      backend_options.hosts.push_back(h);
    }
  }
  std::string web_root;
  if (!settings.Get("web-root").empty()) {
    char real[PATH_MAX];
    if (!::realpath(settings.Get("web-root").c_str(), real))
      return Fail("--web-root " + settings.Get("web-root") + ": no such directory");
    web_root = real;
  }

  ms::ShutdownSignals signals;
  ms::IgnoreBrokenPipes();
  // Every spectator is a socket: as many as --max-spectators.
  ms::RaiseOpenFileLimit();

  // One registry for the process, the shared parts' counts (rate limit refusals)
  // and the gateway's own, served as every service serves it (common/metrics.h).
  const std::string metrics_address = settings.Get("metrics-listen");
  ms::MetricsEndpoint metrics_endpoint;
  if (std::string error; !metrics_endpoint.Start(metrics_address, &error)) return Fail(error);
  mgw::GatewayMetrics metrics(ms::MetricsRegistry().get());

  mgw::Backends backends(backend_options);
  mgw::Catalog catalog(&backends);
  mgw::Api api(&catalog, &backends);

  // People and play: a person is a player identity of the accounts; their
  // passwords, sessions and seats are the Accounts service's (People), the
  // streams held for them the gateway's.
  const ms::SystemClock clock;
  mgw::GrpcPeopleStore people_store(&backends);
  mgw::People people(
      &people_store, &clock, mgw::NewSessionToken,
      {.session_ttl = std::chrono::hours(session_hours),
       .limiter = {.max_failures = int(signin_failures), .window = std::chrono::seconds(signin_window_s)}});
  mgw::QueueHub queue(&backends, &people_store, &clock);
  // A play stream whose host is unreachable looks for the game's new host
  // among all the hosts known, the matchmaker's registry asked afresh.
  mgw::PlayHub play(&backends, std::chrono::seconds(20), {}, [&backends, &api] {
    grpc::Status ignored;  // without the matchmaker: the configured hosts and its last answer
    return backends.HostAddresses(api.AnyLadder(), &ignored);
  });
  mgw::PlayApi play_api(&api, &backends, &people, &queue, &play,
                        {.decision_ms = int(practice_decision_ms),
                         .time_bank_ms = int(practice_bank_ms),
                         .secure_cookies = secure_cookies});
  // Declared after the backends, whose stubs its upstreams use: it goes first.
  mgw::LiveHub hub({.max_spectators = size_t(max_spectators), .max_games = size_t(max_games)},
                   backends.SpectateFactory());
  // Civetweb reads the certificate and key from one file, at start: a private
  // copy that lives only until the server has read it.
  ms::PrivateTempFile pem;
  if (tls.enabled() && !pem.Write("metropolis-gateway-tls", tls.key_pem + "\n" + tls.cert_pem, &error))
    return Fail("HTTPS: " + error);
  mgw::HttpServer server({.listen = settings.Get("listen"),
                          .web_root = web_root,
                          .threads = int(threads),
                          .max_spectators = int(max_spectators),
                          .stream_interval_ms = int(interval_ms),
                          .heartbeat_ms = int(heartbeat_ms),
                          .tls_pem_file = pem.path(),
                          .rate_limit = rate_limit},
                         &api, &play_api, &hub, &metrics);
  const bool started = server.Start(&error);
  pem.Remove();
  if (!started) return Fail(error);
  ms::LogInfo("listening", {{"port", std::to_string(server.port())},
                            {"tls", tls.enabled() ? "on" : "off"},
                            {"web_root", web_root.empty() ? "none" : web_root},
                            {"metrics", metrics_address.empty() ? "off" : metrics_address},
                            {"max_spectators", std::to_string(max_spectators)}});

  const int signal_number = signals.Wait();
  ms::LogInfo("shutting down",
              {{"signal", std::to_string(signal_number)}, {"spectators", std::to_string(hub.spectators())}});
  server.Stop();
  return 0;
}
