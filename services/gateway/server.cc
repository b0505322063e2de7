#include "services/gateway/server.h"

#include <civetweb.h>
#include <dlfcn.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "lib/common/log.h"
#include "lib/common/metrics.h"
#include "services/gateway/request_guard.h"
#include "services/gateway/static_files.h"

namespace metropolis::gateway {
namespace {

using Clock = std::chrono::steady_clock;

// Larger files are not part of a web app.
constexpr uint64_t kMaxFileBytes = 64 << 20;

// The request line and headers; GET requests carry nothing else.
constexpr char kMaxRequestHead[] = "16384";

// Loads libmetropolis_civetweb_tls.so from beside the executable (civetweb_tls.cc
// says why civetweb needs it with OpenSSL 3). False with *error when it is not there.
bool LoadCivetwebTls(std::string* error) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::string path = (exe.parent_path() / "libmetropolis_civetweb_tls.so").string();
  if (ec || !::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char* why = ::dlerror();
    *error = "HTTPS: cannot load " + path + " (built and installed with the gateway): " +
             (ec ? ec.message() : std::string(why ? why : "unknown error"));
    return false;
  }
  return true;
}

// Starts an answer's head with the headers every answer carries (request_guard.h).
void StartHead(mg_connection* conn, int status) {
  mg_response_header_start(conn, status);
  for (const auto& [name, value] : SecurityHeaders()) mg_response_header_add(conn, name, value, -1);
}

// The head of a server-sent event stream (live games and play streams).
void StartEventStream(mg_connection* conn) {
  StartHead(conn, 200);
  mg_response_header_add(conn, "Content-Type", "text/event-stream", -1);
  mg_response_header_add(conn, "Cache-Control", "no-store", -1);
  mg_response_header_add(conn, "Transfer-Encoding", "chunked", -1);
  // Proxies (nginx) would otherwise hold events back to fill their buffers.
  mg_response_header_add(conn, "X-Accel-Buffering", "no", -1);
  mg_response_header_send(conn);
}

}  // namespace

HttpServer::HttpServer(ServerOptions options, Api* api, PublicReads* reads, PlayApi* play, LiveHub* hub,
                       GatewayMetrics* metrics)
    : options_(std::move(options)),
      api_(api),
      reads_(reads),
      play_(play),
      hub_(hub),
      metrics_(metrics),
      limiter_(options_.rate_limit),
      clients_(options_.trusted_proxies) {}

HttpServer::~HttpServer() { Stop(); }

bool HttpServer::Start(std::string* error) {
  const bool tls = !options_.tls_pem_file.empty();
  // Civetweb loads libssl when asked for TLS (Debian's build opens it at run time).
  if (tls && !mg_check_feature(MG_FEATURES_TLS)) {
    *error = "HTTPS: this civetweb is built without TLS";
    return false;
  }
  if (tls && !LoadCivetwebTls(error)) return false;
  if (tls && (mg_init_library(MG_FEATURES_TLS) & MG_FEATURES_TLS) == 0) {
    *error = "HTTPS: civetweb could not load OpenSSL (it opens libcrypto.so, which libssl-dev installs)";
    return false;
  }
  if (!tls) mg_init_library(0);
  // A port ending in "s" is served over TLS.
  const std::string listening = options_.listen + (tls ? "s" : "");
  const std::string threads = std::to_string(options_.threads + options_.max_spectators);
  const std::string timeout = std::to_string(options_.io_timeout_ms);
  // clang-format off
  std::vector<const char*> config = {
      "listening_ports", listening.c_str(),
      "num_threads", threads.c_str(),
      // Connections wait here while every thread is busy; a burst of
      // spectators connecting at once must not be dropped.
      "listen_backlog", "1024",
      "connection_queue", "1024",
      "request_timeout_ms", timeout.c_str(),
      "enable_keep_alive", "yes",
      // An idle keep-alive connection holds a thread too: not for long.
      "keep_alive_timeout_ms", "2000",
      // Headers and body are separate writes: with Nagle's algorithm the body
      // would wait for the client's delayed ACK, 40 ms on every kept-alive request.
      "tcp_nodelay", "1",
      // The request line and headers; GET requests carry nothing else.
      "max_request_size", kMaxRequestHead,
      "enable_directory_listing", "no",
  };
  if (tls) {
    // The chain from the same file, so that intermediate certificates are sent;
    // TLS 1.2 and later only.
    for (const char* option : {"ssl_certificate", options_.tls_pem_file.c_str(), "ssl_certificate_chain",
                               options_.tls_pem_file.c_str(), "ssl_protocol_version", "4"})
      config.push_back(option);
  }
  config.push_back(nullptr);
  // clang-format on
  mg_callbacks callbacks{};
  callbacks.log_message = &HttpServer::LogMessage;
  callbacks.http_error = &HttpServer::HttpError;
  callbacks.begin_request = &HttpServer::BeginRequest;
  context_ = mg_start(&callbacks, this, config.data());
  if (!context_) {
    *error = std::string("cannot serve ") + (tls ? "HTTPS" : "HTTP") + " on " + options_.listen +
             (tls ? " (address in use, not host:port, or a certificate civetweb refused? see the log)"
                  : " (address in use, or not host:port?)");
    return false;
  }
  mg_server_port ports[4];
  const int n = mg_get_server_ports(context_, 4, ports);
  if (n > 0) port_ = ports[0].port;
  return true;
}

void HttpServer::Stop() {
  if (!context_) return;
  stopping_ = true;
  mg_stop(context_);  // waits for the handlers; live streams notice `stopping_` within a second
  context_ = nullptr;
}

int HttpServer::LogMessage(const mg_connection*, const char* message) {
  services::LogWarning("http server", {{"message", message}});
  return 1;
}

int HttpServer::HttpError(mg_connection* conn, int status, const char* message) {
  // Civetweb answers these itself, before any handler runs: most often a request
  // line or headers beyond max_request_size, which it calls malformed.
  const std::string why = status == 400 || status == 413 || status == 414 || status == 431
                              ? std::string("the request line and headers must be well formed and at most ") +
                                    kMaxRequestHead + " bytes (" + (message ? message : "") + ")"
                              : std::string(message ? message : "");
  const char* name = status == 400 ? "INVALID_ARGUMENT" : status == 413 ? "PAYLOAD_TOO_LARGE" : "HTTP_ERROR";
  HttpResponse response = ErrorResponse(MakeError(status, name, why));
  response.headers.push_back({"Connection", "close"});
  auto* self = static_cast<HttpServer*>(mg_get_user_data(mg_get_context(conn)));
  self->Send(conn, response, Parts::kWhole);
  self->metrics_->Request("malformed", status, 0);
  return 0;  // answered
}

namespace {

PostHeaders PostHeadersOf(mg_connection* conn) {
  auto header = [conn](const char* name) -> std::string_view {
    const char* value = mg_get_header(conn, name);
    return value ? value : "";
  };
  // A body has a length over 0, or comes chunked (civetweb's -1 is "no
  // Content-Length", which without chunks means none, as in a bare POST).
  const int64_t length = mg_get_request_info(conn)->content_length;
  const bool has_body = length > 0 || (length < 0 && !header("Transfer-Encoding").empty());
  return {header("Content-Type"), header("Origin"), header("Host"), has_body};
}

}  // namespace

int HttpServer::BeginRequest(mg_connection* conn) {
  auto* self = static_cast<HttpServer*>(mg_get_user_data(mg_get_context(conn)));
  // Non-zero: answered here, civetweb does nothing more with the request.
  return self->Handle(conn) != 0 ? 1 : 0;
}

int HttpServer::Send(mg_connection* conn, const HttpResponse& r, Parts parts) {
  StartHead(conn, r.status);
  mg_response_header_add(conn, "Content-Type", r.content_type.c_str(), -1);
  mg_response_header_add(conn, "Content-Length", std::to_string(r.body.size()).c_str(), -1);
  bool cache_control = false;
  for (const auto& [name, value] : r.headers) {
    mg_response_header_add(conn, name.c_str(), value.c_str(), -1);
    cache_control |= name == "Cache-Control";
  }
  // API answers change with every game played.
  if (!cache_control) mg_response_header_add(conn, "Cache-Control", "no-store", -1);
  mg_response_header_send(conn);
  if (parts == Parts::kWhole && !r.body.empty()) mg_write(conn, r.body.data(), r.body.size());
  return r.status;
}

int HttpServer::Handle(mg_connection* conn) {
  const auto start = Clock::now();
  const mg_request_info* info = mg_get_request_info(conn);
  const std::string_view method = info->request_method ? info->request_method : "";
  const std::string_view path = info->local_uri ? info->local_uri : "/";
  const std::string_view query = info->query_string ? info->query_string : "";
  const Parts parts = PartsFor(method);
  const char* forwarded_for = clients_.empty() ? nullptr : mg_get_header(conn, "X-Forwarded-For");
  const std::string client = clients_.Of(info->remote_addr, forwarded_for ? forwarded_for : "");
  std::string route;
  HttpResponse response;
  int status = 0;
  if (play_ && PlayApi::Handles(path)) {
    const char* cookie = mg_get_header(conn, "Cookie");
    HttpRequest request{method, path, query, {}, cookie ? cookie : "", client};
    ApiError refused;
    if (PlayApi::IsPlayStream(path) && method == "GET") {
      route = "/api/v1/play/{}/events";
      status = ServePlay(conn, request);
    } else if (method != "GET" && method != "HEAD" && !CheckPost(PostHeadersOf(conn), &refused)) {
      route = "cross_site_refused";
      response = ErrorResponse(refused);
    } else {
      status = ServePlayApi(conn, request, &route);
    }
  } else if (method != "GET" && method != "HEAD") {
    route = "method_not_allowed";
    response = ErrorResponse(
        MakeError(405, "METHOD_NOT_ALLOWED", "method " + std::string(method.substr(0, 20)) + ": only GET and HEAD"));
    response.headers.push_back({"Allow", "GET, HEAD"});
  } else if (info->content_length > 0) {
    route = "body_refused";
    response = ErrorResponse(MakeError(413, "PAYLOAD_TOO_LARGE", "requests carry no body here"));
  } else if (path == "/healthz") {
    route = "/healthz";
    response = JsonResponse(200, {{"status", "ok"}});
  } else if (path == "/readyz") {
    route = "/readyz";
    bool ready = false;
    Json backends = api_->Readiness(&ready);
    response = JsonResponse(ready ? 200 : 503, {{"status", ready ? "ready" : "not ready"}, {"backends", backends}});
  } else if (const int64_t retry_ms = limiter_.Take(client); retry_ms > 0) {
    route = "rate_limited";
    if (options_.process_metrics) options_.process_metrics->RateLimited("gateway");
    response = ErrorResponse(MakeError(429, "RESOURCE_EXHAUSTED",
                                       "rate limit: " + std::to_string(int64_t(options_.rate_limit.per_second)) +
                                           " requests per second from one address; retry in " +
                                           std::to_string(retry_ms) + " ms"));
    response.headers.push_back({"Retry-After", std::to_string((retry_ms + 999) / 1000)});
  } else if (path.substr(0, 5) == "/api/") {
    if (Api::IsLiveStream(path) && parts == Parts::kWhole) {
      route = "/api/v1/live/{}/events";
      status = ServeLive(conn, path, query, &route);
    } else {
      try {
        PublicReads::Outcome outcome;
        response = reads_->Get(path, query, client, &route, &outcome);
        metrics_->PublicRead(PublicReads::OutcomeName(outcome));
        if (outcome == PublicReads::Outcome::kRefused && options_.process_metrics)
          options_.process_metrics->RateLimited("gateway_upstream");
        // A failure shared with coalesced requests is one failed call.
        if (outcome == PublicReads::Outcome::kMiss && !response.backend.empty())
          metrics_->BackendError(response.backend, response.grpc_status);
      } catch (const std::exception& e) {
        // A fault of the gateway's own: one request fails, not the process.
        services::LogError("request failed", {{"path", std::string(path.substr(0, 200))}, {"error", e.what()}});
        response = ErrorResponse(MakeError(500, "INTERNAL", "the gateway failed on this request"));
      }
    }
  } else {
    route = "static";
    status = ServeFile(conn, path, parts);
  }
  if (status == 0) status = Send(conn, response, parts);
  if (route != "/api/v1/live/{}/events" && route != "/api/v1/play/{}/events")
    metrics_->Request(route, status, std::chrono::duration<double>(Clock::now() - start).count());
  return status;
}

int HttpServer::ServeFile(mg_connection* conn, std::string_view path, Parts parts) {
  StaticFile file;
  if (options_.web_root.empty() || !ResolveStaticFile(options_.web_root, path, &file))
    return Send(conn,
                ErrorResponse(NotFound(options_.web_root.empty() ? "no web app here (--web-root is not set)"
                                                                 : "no file " + std::string(path.substr(0, 200)))),
                parts);
  if (file.size > kMaxFileBytes) return Send(conn, ErrorResponse(NotFound("file too large to serve")), parts);
  const char* if_none_match = mg_get_header(conn, "If-None-Match");
  if (if_none_match && file.etag == if_none_match) {
    StartHead(conn, 304);
    mg_response_header_add(conn, "ETag", file.etag.c_str(), -1);
    mg_response_header_add(conn, "Cache-Control", file.cache_control.c_str(), -1);
    mg_response_header_send(conn);
    return 304;
  }
  HttpResponse r;
  r.content_type = file.content_type;
  if (parts == Parts::kWhole) {
    std::ifstream in(file.path, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in) return Send(conn, ErrorResponse(NotFound("no file " + std::string(path.substr(0, 200)))), parts);
    r.body = std::move(body).str();
  }
  r.headers = {{"ETag", file.etag}, {"Cache-Control", file.cache_control}};
  if (parts == Parts::kHeadersOnly) {
    // The length of the body a GET would get.
    StartHead(conn, 200);
    mg_response_header_add(conn, "Content-Type", r.content_type.c_str(), -1);
    mg_response_header_add(conn, "Content-Length", std::to_string(file.size).c_str(), -1);
    mg_response_header_add(conn, "ETag", file.etag.c_str(), -1);
    mg_response_header_add(conn, "Cache-Control", file.cache_control.c_str(), -1);
    mg_response_header_send(conn);
    return 200;
  }
  return Send(conn, r, parts);
}

int HttpServer::ServeLive(mg_connection* conn, std::string_view path, std::string_view query, std::string* route) {
  const auto start = Clock::now();
  LiveStreamRequest request;
  ApiError error;
  std::shared_ptr<Spectator> spectator;
  if (!api_->PrepareLiveStream(path, query, &request, &error) ||
      !hub_->Subscribe(request.game_id, request.host, request.from_start, &spectator, &error)) {
    if (error.status == "RESOURCE_EXHAUSTED") metrics_->SpectatorRefused();
    if (!error.backend.empty()) metrics_->BackendError(error.backend, error.grpc_status);
    const int status = Send(conn, ErrorResponse(error), Parts::kWhole);
    metrics_->Request(*route, status, std::chrono::duration<double>(Clock::now() - start).count());
    return status;
  }
  metrics_->Spectators(hub_->spectators(), hub_->games());
  StartEventStream(conn);
  metrics_->Request(*route, 200, std::chrono::duration<double>(Clock::now() - start).count());

  PumpEvents(conn, spectator.get(), std::chrono::milliseconds(options_.stream_interval_ms));
  hub_->Unsubscribe(request.game_id, spectator);
  metrics_->Spectators(hub_->spectators(), hub_->games());
  return 200;
}

void HttpServer::PumpEvents(mg_connection* conn, Spectator* events, std::chrono::milliseconds interval) {
  // A browser's EventSource reconnects after this many milliseconds.
  std::string text = "retry: 2000\n\n";
  auto last_write = Clock::now() - std::chrono::hours(1);
  const auto heartbeat = std::chrono::milliseconds(options_.heartbeat_ms);
  while (true) {
    bool done = false;
    if (!text.empty()) {
      if (mg_send_chunk(conn, text.data(), unsigned(text.size())) < 0) break;  // the client left
      metrics_->SseBytes(text.size());
      last_write = Clock::now();
      // Writing at most every interval is what lets views that came meanwhile
      // replace each other: a fast game costs a spectator a few views a second.
      if (interval.count() > 0) std::this_thread::sleep_for(interval);
    }
    if (stopping_) break;
    // Wakes at least every second to notice a stop.
    const auto until = std::min(Clock::now() + std::chrono::seconds(1), last_write + heartbeat);
    text = events->Take(until, &done);
    if (text.empty() && Clock::now() >= last_write + heartbeat) text = ": keep-alive\n\n";
    if (done) {
      if (!text.empty() && mg_send_chunk(conn, text.data(), unsigned(text.size())) >= 0)
        metrics_->SseBytes(text.size());
      break;
    }
  }
  mg_send_chunk(conn, "", 0);  // the last chunk: the stream ends cleanly
}

int HttpServer::ServePlayApi(mg_connection* conn, HttpRequest request, std::string* route) {
  const mg_request_info* info = mg_get_request_info(conn);
  const Parts parts = PartsFor(request.method);
  HttpResponse response;
  std::string body;
  if (info->content_length > int64_t(kMaxBodyBytes)) {
    *route = "body_refused";
    response = ErrorResponse(
        MakeError(413, "PAYLOAD_TOO_LARGE", "a body is at most " + std::to_string(kMaxBodyBytes) + " bytes"));
  } else {
    // The length may be unknown (chunked): read one byte past the limit to tell.
    char buffer[4096];
    int n = 0;
    while (body.size() <= kMaxBodyBytes && (n = mg_read(conn, buffer, sizeof buffer)) > 0) body.append(buffer, n);
    if (body.size() > kMaxBodyBytes) {
      *route = "body_refused";
      response = ErrorResponse(
          MakeError(413, "PAYLOAD_TOO_LARGE", "a body is at most " + std::to_string(kMaxBodyBytes) + " bytes"));
    } else {
      request.body = body;
      try {
        response = play_->Handle(request, route);
      } catch (const std::exception& e) {
        services::LogError("request failed", {{"path", std::string(request.path.substr(0, 200))}, {"error", e.what()}});
        response = ErrorResponse(MakeError(500, "INTERNAL", "the gateway failed on this request"));
      }
    }
  }
  if (!response.backend.empty()) metrics_->BackendError(response.backend, response.grpc_status);
  // Counted once, by Handle, as every request is.
  return Send(conn, response, parts);
}

int HttpServer::ServePlay(mg_connection* conn, const HttpRequest& request) {
  const auto start = Clock::now();
  const std::string route = "/api/v1/play/{}/events";
  PlayEventsRequest prepared;
  ApiError error;
  if (!play_->PrepareEvents(request, &prepared, &error)) {
    if (!error.backend.empty()) metrics_->BackendError(error.backend, error.grpc_status);
    const int status = Send(conn, ErrorResponse(error), Parts::kWhole);
    metrics_->Request(route, status, std::chrono::duration<double>(Clock::now() - start).count());
    return status;
  }
  std::shared_ptr<PlayStream> stream = play_->OpenEvents(prepared);
  StartEventStream(conn);
  metrics_->Request(route, 200, std::chrono::duration<double>(Clock::now() - start).count());
  metrics_->PlayStreams(++play_streams_);
  PumpEvents(conn, stream->out.get(), std::chrono::milliseconds(0));
  play_->CloseEvents(stream);
  metrics_->PlayStreams(--play_streams_);
  return 200;
}

}  // namespace metropolis::gateway
