// The HTTP server: civetweb moving requests to the API, the live streams and the
// web app's files. Civetweb serves each connection on a thread of its own, so a
// live stream holds a thread as long as it is open: the server runs
// --max-spectators threads for streams beside --threads for everything else,
// and refuses a stream beyond that limit before it takes a thread from the rest
// (docs/GATEWAY.md, "Why civetweb").
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "lib/common/rate_limit.h"
#include "services/gateway/api.h"
#include "services/gateway/client_address.h"
#include "services/gateway/live.h"
#include "services/gateway/metrics.h"
#include "services/gateway/play_api.h"
#include "services/gateway/public_reads.h"

struct mg_context;
struct mg_connection;

namespace metropolis::gateway {

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // host:port
  std::string web_root;                   // canonical; empty: no files
  int threads = 32;                       // for requests other than live streams
  int max_spectators = 2000;              // threads for live streams
  int stream_interval_ms = 100;           // a live stream writes at most this often
  int heartbeat_ms = 15000;               // a comment line on an idle stream
  int io_timeout_ms = 10000;              // a client that does not read for this long is dropped
  // HTTPS: a PEM file holding the certificate chain and its private key (what
  // civetweb reads at start); empty: plain HTTP.
  std::string tls_pem_file;
  // Requests per client address (ClientAddresses: the TCP peer, or behind a
  // trusted proxy the address it names), beyond which 429 with Retry-After;
  // /healthz and /readyz are not limited.
  services::RateLimit rate_limit;
  std::vector<std::string> trusted_proxies;
  // Where the 429s are counted (metropolis_rate_limited_total); null: not counted.
  services::ProcessMetrics* process_metrics = nullptr;
};

class HttpServer {
 public:
  // `reads` answers the API's GETs (through its cache and upstream quota).
  // `play` may be null: the gateway then serves no people's endpoints.
  HttpServer(ServerOptions options, Api* api, PublicReads* reads, PlayApi* play, LiveHub* hub, GatewayMetrics* metrics);
  ~HttpServer();

  bool Start(std::string* error);
  int port() const { return port_; }
  // Ends the live streams, then stops accepting and waits for every handler.
  void Stop();

 private:
  // Every request, from civetweb's begin_request callback: part of mg_start's
  // configuration, so it serves the first request the port accepts (a handler
  // set with mg_set_request_handler after mg_start left a window in which
  // civetweb answered 404 itself, seen by a test that called at once).
  static int BeginRequest(mg_connection* conn);
  static int LogMessage(const mg_connection* conn, const char* message);
  // Civetweb's own error answers (a malformed or oversized request) as JSON errors.
  static int HttpError(mg_connection* conn, int status, const char* message);
  int Handle(mg_connection* conn);
  int ServeLive(mg_connection* conn, std::string_view path, std::string_view query, std::string* route);
  int ServePlay(mg_connection* conn, const HttpRequest& request);
  int ServePlayApi(mg_connection* conn, HttpRequest request, std::string* route);
  // Writes a stream's events until it ends, the client leaves or the server
  // stops, at most every `interval` (0 for a seat's stream: nothing in it may
  // be merged, and a person waits on each decision).
  void PumpEvents(mg_connection* conn, Spectator* events, std::chrono::milliseconds interval);
  // What a response carries: kHeadersOnly answers a HEAD request (the headers
  // a GET would get, Content-Length included, and no body).
  enum class Parts { kWhole, kHeadersOnly };
  static Parts PartsFor(std::string_view method) { return method == "HEAD" ? Parts::kHeadersOnly : Parts::kWhole; }
  int ServeFile(mg_connection* conn, std::string_view path, Parts parts);
  int Send(mg_connection* conn, const HttpResponse& response, Parts parts);

  const ServerOptions options_;
  Api* const api_;
  PublicReads* const reads_;
  PlayApi* const play_;
  LiveHub* const hub_;
  GatewayMetrics* const metrics_;
  mg_context* context_ = nullptr;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  services::RateLimiter limiter_;
  const ClientAddresses clients_;
  std::atomic<size_t> play_streams_{0};
};

}  // namespace metropolis::gateway
