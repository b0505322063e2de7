#include "services/gateway/server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <optional>

#include "lib/common/log.h"
#include "lib/common/memory_trim.h"
#include "lib/common/metrics.h"
#include "services/gateway/request_guard.h"
#include "services/gateway/response_layer.h"
#include "services/gateway/sse_pump.h"
#include "services/gateway/static_files.h"

namespace metropolis::gateway {
namespace {

using Clock = std::chrono::steady_clock;

// Larger files are not part of a web app.
constexpr uint64_t kMaxFileBytes = 64 << 20;
// The request line and headers; GET requests carry nothing else. Heads up to
// kHeadMemory are read and refused here with a JSON error; larger ones
// libmicrohttpd refuses itself (431, its own page), for it holds a request's
// head in the connection's memory, which kHeadMemory bounds.
constexpr size_t kMaxRequestHead = 16384;
constexpr size_t kHeadMemory = 64 << 10;
// What one call of a stream's reader may write to an HTTP/1.0 client. Every
// stream's response holds a zeroed buffer this large (libmicrohttpd writes an
// HTTP/1.1 stream's chunks straight into the connection's own buffer and never
// uses it), so with ten thousand streams a small one saves 120 MB.
constexpr size_t kStreamBlock = 4 << 10;
// Requests waiting for a worker beyond which 503: a stalled service must not
// pile up connections without end.
constexpr size_t kMaxQueued = 4096;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string Header(MHD_Connection* conn, const char* name) {
  const char* value = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
  return value ? value : "";
}

std::string ClientAddressOf(MHD_Connection* conn) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  char text[INET6_ADDRSTRLEN] = "";
  if (!info || !info->client_addr) return "";
  const sockaddr* sa = info->client_addr;
  if (sa->sa_family == AF_INET)
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, text, sizeof text);
  else if (sa->sa_family == AF_INET6)
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, text, sizeof text);
  return text;
}

// host:port, [v6]:port or :port / port (every address).
bool ParseListen(const std::string& listen, sockaddr_storage* out, bool* v6, std::string* error) {
  std::string host, port;
  if (!listen.empty() && listen[0] == '[') {
    const size_t close = listen.find(']');
    if (close == std::string::npos || listen.substr(close + 1, 1) != ":")
      return *error = "--listen " + listen + ": expected [v6-address]:port", false;
    host = listen.substr(1, close - 1);
    port = listen.substr(close + 2);
  } else if (const size_t colon = listen.rfind(':'); colon != std::string::npos) {
    host = listen.substr(0, colon);
    port = listen.substr(colon + 1);
  } else {
    port = listen;
  }
  char* end = nullptr;
  const long number = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end || number < 0 || number > 65535)
    return *error = "--listen " + listen + ": expected host:port, the port 0 to 65535", false;
  std::memset(out, 0, sizeof *out);
  auto* in4 = reinterpret_cast<sockaddr_in*>(out);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(out);
  if (host.empty() || host == "0.0.0.0" || host == "*") {
    in4->sin_family = AF_INET;
    in4->sin_addr.s_addr = htonl(INADDR_ANY);
    in4->sin_port = htons(uint16_t(number));
    *v6 = false;
  } else if (::inet_pton(AF_INET, host.c_str(), &in4->sin_addr) == 1) {
    in4->sin_family = AF_INET;
    in4->sin_port = htons(uint16_t(number));
    *v6 = false;
  } else if (::inet_pton(AF_INET6, host.c_str(), &in6->sin6_addr) == 1) {
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(uint16_t(number));
    *v6 = true;
  } else {
    return *error = "--listen " + listen + ": the host must be a numeric IPv4 or IPv6 address", false;
  }
  return true;
}

MHD_Result HeadSize(void* cls, MHD_ValueKind, const char* key, const char* value) {
  *static_cast<size_t*>(cls) += std::strlen(key) + (value ? std::strlen(value) : 0) + 4;
  return MHD_YES;
}

}  // namespace

// ---- One request ---------------------------------------------------------------------

struct HttpServer::Exchange {
  std::string raw_uri;  // as sent: the path (escaped) and the query
  Clock::time_point start = Clock::now();
  enum class State { kNew, kReceiving, kWaiting, kDone } state = State::kNew;
  std::string method, path, query, client, cookie, body;
  std::string route;
  bool body_too_large = false;
  // Set by a worker, read by the loop after the connection is resumed: an
  // answer, or the stream it opened (a live game's subscription or a seat's stream).
  std::optional<HttpResponse> response;
  struct Opened {
    std::string game_id;
    std::shared_ptr<Spectator> spectator;
    std::shared_ptr<PlayStream> play;
  };
  std::optional<Opened> opened;
  std::shared_ptr<Stream> stream;  // once it is served
};

// An open event stream: its pump, what the loop has not written yet, and the
// suspend/resume handshake with whoever wakes it (the spectator, a timer, Stop).
struct HttpServer::Stream {
  Stream(MHD_Connection* conn, SsePump pump) : conn(conn), pump(std::move(pump)) {}
  MHD_Connection* const conn;
  SsePump pump;
  SseOutbox out;  // what the pump gave, not yet written

  std::mutex mutex;  // guards the rest
  bool suspended = false, wake_pending = false, finished = false;
  // Held back by the interval only: pushes need not wake it, the timer will.
  bool interval_wait = false;
  // Its one timer: set for the earliest time the pump asked for, cancelled
  // when an earlier one is wanted. When it runs and the pump has since asked
  // for a later time (it wrote meanwhile), it is set again instead of waking
  // the stream for nothing.
  std::optional<Timers::Key> timer;
  uint64_t timers_set = 0;    // names the timer set last, for its callback to know it is that one
  Clock::time_point wake_at;  // what the pump asked for when it last suspended

  // Resumes the connection if it waits, or makes the loop look again before
  // it waits. Never after the request completed: the connection is gone then.
  // `view_only`: the spectator pushed a view and nothing else, which waits out
  // the interval anyway.
  void Wake(HttpServer* server, bool view_only = false) {
    std::lock_guard lock(mutex);
    if (finished || (view_only && interval_wait)) return;
    interval_wait = false;
    if (suspended) {
      suspended = false;
      server->ResumeStream(conn);
    } else {
      wake_pending = true;
    }
  }
};

// ---- Callbacks -------------------------------------------------------------------------

struct ServerCallbacks {
  static void* UriLog(void*, const char* uri, MHD_Connection*) {
    auto* x = new HttpServer::Exchange;
    x->raw_uri = uri ? uri : "";
    return x;
  }

  static MHD_Result Access(void* cls, MHD_Connection* conn, const char*, const char* method, const char*,
                           const char* upload_data, size_t* upload_size, void** con_cls) {
    auto* self = static_cast<HttpServer*>(cls);
    auto* x = static_cast<HttpServer::Exchange*>(*con_cls);
    if (!x) return MHD_NO;  // every request has one (UriLog)
    using State = HttpServer::Exchange::State;
    switch (x->state) {
      case State::kNew:
        x->method = method ? method : "";
        return MHD_Result(self->Begin(conn, x));
      case State::kReceiving:
        if (*upload_size > 0) {
          // Read one byte past the limit to tell a body too large.
          if (x->body.size() <= kMaxBodyBytes)
            x->body.append(upload_data, std::min(*upload_size, kMaxBodyBytes + 1 - x->body.size()));
          *upload_size = 0;
          return MHD_YES;
        }
        x->body_too_large = x->body.size() > kMaxBodyBytes;
        return MHD_Result(self->Dispatch(conn, x));
      case State::kWaiting:
        // Resumed: the worker's answer, or the stream it opened.
        x->state = State::kDone;
        if (x->opened) return MHD_Result(self->StartStream(conn, x));
        return MHD_Result(self->Answer(conn, x, x->response ? *x->response : HttpResponse{}));
      case State::kDone:
        break;
    }
    return MHD_NO;
  }

  static void Completed(void* cls, MHD_Connection*, void** con_cls, MHD_RequestTerminationCode) {
    auto* x = static_cast<HttpServer::Exchange*>(*con_cls);
    *con_cls = nullptr;
    if (x) static_cast<HttpServer*>(cls)->Completed(x);
  }

  // Fills the connection's buffer from the stream; suspends it when there is
  // nothing to write, until the spectator or a timer wakes it.
  static ssize_t ReadStream(void* cls, uint64_t, char* buffer, size_t max) {
    auto* holder = static_cast<std::pair<HttpServer*, std::shared_ptr<HttpServer::Stream>>*>(cls);
    HttpServer* self = holder->first;
    HttpServer::Stream& s = *holder->second;
    while (true) {
      // The texts may span calls.
      if (const size_t n = s.out.Fill(buffer, max); n > 0) return ssize_t(n);
      {
        std::lock_guard lock(s.mutex);
        s.wake_pending = false;
      }
      SsePump::Step step = s.pump.Next(Clock::now(), self->stopping_);
      if (step.kind == SsePump::Step::kEnd) return MHD_CONTENT_READER_END_OF_STREAM;
      if (step.kind == SsePump::Step::kWrite) {
        size_t bytes = 0;
        for (const SseText& text : step.texts) bytes += text->size();
        self->metrics_->SseBytes(bytes);
        s.out.Set(std::move(step.texts));
        continue;
      }
      std::lock_guard lock(s.mutex);
      // Woken meanwhile: look again. Stopping: look again too, and the pump
      // ends the stream; Stop wakes the streams once, then waits for the
      // suspended connections to be resumed, so none may suspend after it.
      if (s.wake_pending || self->stopping_) continue;
      s.interval_wait = step.interval;
      s.wake_at = step.until;
      if (!s.timer || step.until < s.timer->first) SetTimer(self, holder->second, step.until);
      s.suspended = true;
      ++self->suspended_;
      MHD_suspend_connection(s.conn);
      return 0;
    }
  }

  // Under the stream's lock.
  static void SetTimer(HttpServer* self, const std::shared_ptr<HttpServer::Stream>& stream, Clock::time_point when) {
    if (stream->timer) self->timers_->Cancel(*stream->timer);
    std::weak_ptr<HttpServer::Stream> weak = stream;
    // The key is stored before the lock is released, and the callback takes
    // the lock first: it always finds its own timer or a newer one, and tells
    // them apart by the count (two timers may be set for the same time).
    const uint64_t serial = ++stream->timers_set;
    stream->timer = self->timers_->At(when, [weak, self, serial] {
      const auto s = weak.lock();
      if (!s) return;
      {
        std::lock_guard lock(s->mutex);
        if (!s->timer || s->timers_set != serial) return;  // cancelled as it ran
        s->timer.reset();
        if (s->finished) return;
        if (s->suspended && s->wake_at > Clock::now()) {
          SetTimer(self, s, s->wake_at);
          return;
        }
      }
      s->Wake(self);
    });
  }

  static void FreeStream(void* cls) {
    delete static_cast<std::pair<HttpServer*, std::shared_ptr<HttpServer::Stream>>*>(cls);
  }

  static void Log(void*, const char* format, va_list args) {
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    std::string message = text;
    while (!message.empty() && message.back() == '\n') message.pop_back();
    services::LogWarning("http server", {{"message", message}});
  }
};

// ---- The server ------------------------------------------------------------------------

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
  const bool tls = !options_.tls_key_pem.empty();
  if (tls && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
    return *error = "HTTPS: this libmicrohttpd is built without TLS", false;
  sockaddr_storage address;
  bool v6 = false;
  if (!ParseListen(options_.listen, &address, &v6, error)) return false;
  workers_ = std::make_unique<Workers>(options_.threads, kMaxQueued);
  timers_ = std::make_unique<Timers>();
  unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
  if (tls) flags |= MHD_USE_TLS;
  if (v6) flags |= MHD_USE_IPv6;
  std::vector<MHD_OptionItem> items = {
      // First, or the library logs its own way until it reaches this option.
      {MHD_OPTION_EXTERNAL_LOGGER, intptr_t(&ServerCallbacks::Log), this},
      {MHD_OPTION_URI_LOG_CALLBACK, intptr_t(&ServerCallbacks::UriLog), this},
      {MHD_OPTION_NOTIFY_COMPLETED, intptr_t(&ServerCallbacks::Completed), this},
      {MHD_OPTION_SOCK_ADDR, 0, &address},
      {MHD_OPTION_THREAD_POOL_SIZE, options_.loop_threads, nullptr},
      {MHD_OPTION_CONNECTION_LIMIT, options_.max_connections, nullptr},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, intptr_t(kHeadMemory), nullptr},
      // A client that neither sends nor reads for this long is dropped; a
      // stream waiting for its game's next event is suspended and does not time out.
      {MHD_OPTION_CONNECTION_TIMEOUT, std::max(1, options_.io_timeout_ms / 1000), nullptr},
      // A burst of spectators connecting at once waits here, not refused.
      {MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, nullptr},
      // The process ignores SIGPIPE (process_setup.h).
      {MHD_OPTION_SIGPIPE_HANDLED_BY_APP, 1, nullptr},
  };
  if (tls) {
    items.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, const_cast<char*>(options_.tls_key_pem.c_str())});
    items.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0, const_cast<char*>(options_.tls_cert_pem.c_str())});
    // TLS 1.2 and later only.
    items.push_back({MHD_OPTION_HTTPS_PRIORITIES, 0,
                     const_cast<char*>("NORMAL:-VERS-SSL3.0:-VERS-TLS1.0:-VERS-TLS1.1:-VERS-DTLS-ALL")});
  }
  items.push_back({MHD_OPTION_END, 0, nullptr});
  daemon_ = MHD_start_daemon(flags, 0, nullptr, nullptr, &ServerCallbacks::Access, this, MHD_OPTION_ARRAY, items.data(),
                             MHD_OPTION_END);
  if (!daemon_) {
    workers_->Stop();
    timers_->Stop();
    *error = std::string("cannot serve ") + (tls ? "HTTPS" : "HTTP") + " on " + options_.listen +
             (tls ? " (address in use, or a key or certificate the TLS library refused? see the log)"
                  : " (address in use?)");
    return false;
  }
  const MHD_DaemonInfo* info = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT);
  port_ = info ? info->port : 0;
  if (options_.trim_memory_ms > 0)
    timers_->Every(std::chrono::milliseconds(options_.trim_memory_ms), [this] {
      // On a worker: with hundreds of megabytes of heap a trim may take
      // milliseconds, which the timers' thread owes to the streams' wakes.
      workers_->Submit([] { services::TrimFreeMemory(); });
    });
  return true;
}

void HttpServer::Stop() {
  if (!daemon_) return;
  stopping_ = true;
  // Requests a worker holds are answered (their connections resumed)...
  workers_->Stop();
  // ...and every stream ends: woken, its pump says so. A stream opened after
  // this look sees stopping_ and ends without suspending (ReadStream).
  std::vector<std::shared_ptr<Stream>> open;
  {
    std::lock_guard lock(streams_mutex_);
    open.assign(streams_.begin(), streams_.end());
  }
  for (const auto& s : open) s->Wake(this);
  // These wakes resume at once (stopping_ is set: ResumeStream); a batch that
  // streams joined before is resumed now, not when its timer is due.
  ResumeBatch();
  // libmicrohttpd refuses to stop with a connection suspended. Each has been
  // resumed by now, or is being resumed by a timer's or a spectator's thread,
  // or is a request the loop refuses at once (Defer): Resumed() signals the last.
  {
    std::unique_lock lock(resumed_mutex_);
    all_resumed_.wait(lock, [this] { return suspended_ == 0; });
  }
  MHD_stop_daemon(daemon_);
  daemon_ = nullptr;
  timers_->Stop();
}

int HttpServer::Begin(MHD_Connection* conn, Exchange* x) {
  const size_t q = x->raw_uri.find('?');
  const std::string_view raw_path = std::string_view(x->raw_uri).substr(0, q);
  if (q != std::string::npos) x->query = x->raw_uri.substr(q + 1);
  if (!UrlDecode(raw_path, false, &x->path) || x->path.empty() || x->path[0] != '/') {
    x->path = "/";
    x->route = "malformed";
    return Answer(conn, x, ErrorResponse(MakeError(400, "INVALID_ARGUMENT", "the request path is not a valid path")));
  }
  const std::string forwarded_for = clients_.empty() ? "" : Header(conn, "X-Forwarded-For");
  x->client = clients_.Of(ClientAddressOf(conn), forwarded_for);
  size_t head = x->raw_uri.size() + x->method.size() + 12;
  MHD_get_connection_values(conn, MHD_HEADER_KIND, &HeadSize, &head);
  if (head > kMaxRequestHead) {
    x->route = "malformed";
    const bool long_line = x->raw_uri.size() + x->method.size() + 12 > kMaxRequestHead;
    HttpResponse r = ErrorResponse(MakeError(
        long_line ? 414 : 431, "INVALID_ARGUMENT",
        std::string("the request line and headers must be at most ") + std::to_string(kMaxRequestHead) + " bytes"));
    r.headers.push_back({"Connection", "close"});
    return Answer(conn, x, r);
  }
  const std::string length = Header(conn, "Content-Length");
  const bool has_body = (!length.empty() && length != "0") || !Header(conn, "Transfer-Encoding").empty();
  const bool read = x->method == "GET" || x->method == "HEAD";
  if (play_ && PlayApi::Takes(x->method, x->path) && !read) {
    const std::string content_type = Header(conn, "Content-Type"), origin = Header(conn, "Origin"),
                      host = Header(conn, "Host");
    ApiError refused;
    if (!CheckPost({content_type, origin, host, has_body}, &refused)) {
      x->route = "cross_site_refused";
      return Answer(conn, x, ErrorResponse(refused));
    }
    if (!length.empty() && std::strtoull(length.c_str(), nullptr, 10) > kMaxBodyBytes) {
      x->route = "body_refused";
      return Answer(conn, x,
                    ErrorResponse(MakeError(413, "PAYLOAD_TOO_LARGE",
                                            "a body is at most " + std::to_string(kMaxBodyBytes) + " bytes")));
    }
    x->state = Exchange::State::kReceiving;  // the body comes in the next calls
    return MHD_YES;
  }
  if (!read && !(play_ && PlayApi::Takes(x->method, x->path))) {
    x->route = "method_not_allowed";
    HttpResponse r = ErrorResponse(
        MakeError(405, "METHOD_NOT_ALLOWED", "method " + x->method.substr(0, 20) + ": only GET and HEAD"));
    r.headers.push_back({"Allow", "GET, HEAD"});
    return Answer(conn, x, r);
  }
  if (has_body) {
    x->route = "body_refused";
    return Answer(conn, x, ErrorResponse(MakeError(413, "PAYLOAD_TOO_LARGE", "requests carry no body here")));
  }
  return Dispatch(conn, x);
}

int HttpServer::Dispatch(MHD_Connection* conn, Exchange* x) {
  const std::string_view path = x->path;
  // Asking for a game's analysis is a person's POST, but one that makes the
  // replays service work: the address's rate limit below counts it too.
  const bool analysis_request = play_ && PlayApi::Takes(x->method, path) && !PlayApi::Handles(path);
  if (play_ && PlayApi::Handles(path)) {
    if (PlayApi::IsPlayStream(path) && x->method == "GET") {
      // HttpRequest holds views: of the exchange's strings, which outlive the job.
      x->cookie = Header(conn, "Cookie");
      const HttpRequest request{x->method, x->path, x->query, {}, x->cookie, x->client};
      x->route = "/api/v1/play/{}/events";
      return Defer(conn, x, [this, x, request] {
        PlayEventsRequest prepared;
        ApiError error;
        if (!play_->PrepareEvents(request, &prepared, &error)) {
          if (!error.backend.empty()) metrics_->BackendError(error.backend, error.grpc_status);
          x->response = ErrorResponse(error);
          return;
        }
        x->opened = Exchange::Opened{{}, nullptr, play_->OpenEvents(prepared)};
      });
    }
    return DeferPlay(conn, x);
  }
  if (path == "/healthz") {
    x->route = "/healthz";
    return Answer(conn, x, JsonResponse(200, {{"status", "ok"}}));
  }
  if (path == "/readyz") {
    x->route = "/readyz";
    return Defer(conn, x, [this, x] {
      bool ready = false;
      Json backends = api_->Readiness(&ready);
      x->response =
          JsonResponse(ready ? 200 : 503, {{"status", ready ? "ready" : "not ready"}, {"backends", backends}});
    });
  }
  // The app's own files are not counted: one page load fetches every module
  // of the app (some seventy files), so a person who opens a few pages in a
  // row would spend the address's burst on them and be refused a module, which
  // leaves the page blank. They are files read from the web root, which cost
  // no service a call; the limit is for the API.
  if (path.substr(0, 5) != "/api/" && !analysis_request) {
    x->route = "static";
    return ServeFile(conn, x);
  }
  if (const int64_t retry_ms = limiter_.Take(x->client); retry_ms > 0) {
    x->route = "rate_limited";
    if (options_.process_metrics) options_.process_metrics->RateLimited("gateway");
    HttpResponse r = ErrorResponse(MakeError(429, "RESOURCE_EXHAUSTED",
                                             "rate limit: " + std::to_string(int64_t(options_.rate_limit.per_second)) +
                                                 " requests per second from one address; retry in " +
                                                 std::to_string(retry_ms) + " ms"));
    r.headers.push_back({"Retry-After", std::to_string((retry_ms + 999) / 1000)});
    return Answer(conn, x, r);
  }
  if (analysis_request) return DeferPlay(conn, x);
  if (path.substr(0, 5) != "/api/") {
    x->route = "static";
    return ServeFile(conn, x);
  }
  if (Api::IsLiveStream(path) && x->method == "GET") {
    x->route = "/api/v1/live/{}/events";
    return Defer(conn, x, [this, x] {
      LiveStreamRequest request;
      ApiError error;
      std::shared_ptr<Spectator> spectator;
      if (!api_->PrepareLiveStream(x->path, x->query, &request, &error) ||
          !hub_->Subscribe(request.game_id, request.host, request.from_start, &spectator, &error, request.delay)) {
        if (error.status == "RESOURCE_EXHAUSTED") metrics_->SpectatorRefused();
        if (!error.backend.empty()) metrics_->BackendError(error.backend, error.grpc_status);
        x->response = ErrorResponse(error);
        return;
      }
      metrics_->Spectators(hub_->spectators(), hub_->games());
      x->opened = Exchange::Opened{request.game_id, std::move(spectator), nullptr};
    });
  }
  return Defer(conn, x, [this, x] {
    try {
      PublicReads::Outcome outcome;
      x->response = reads_->Get(x->path, x->query, x->client, &x->route, &outcome);
      metrics_->PublicRead(PublicReads::OutcomeName(outcome));
      if (outcome == PublicReads::Outcome::kRefused && options_.process_metrics)
        options_.process_metrics->RateLimited("gateway_upstream");
      // A failure shared with coalesced requests is one failed call.
      if (outcome == PublicReads::Outcome::kMiss && !x->response->backend.empty())
        metrics_->BackendError(x->response->backend, x->response->grpc_status);
    } catch (const std::exception& e) {
      // A fault of the gateway's own: one request fails, not the process.
      services::LogError("request failed", {{"path", x->path.substr(0, 200)}, {"error", e.what()}});
      x->response = ErrorResponse(MakeError(500, "INTERNAL", "the gateway failed on this request"));
    }
  });
}

int HttpServer::DeferPlay(MHD_Connection* conn, Exchange* x) {
  if (x->body_too_large) {
    x->route = "body_refused";
    return Answer(conn, x,
                  ErrorResponse(MakeError(413, "PAYLOAD_TOO_LARGE",
                                          "a body is at most " + std::to_string(kMaxBodyBytes) + " bytes")));
  }
  x->cookie = Header(conn, "Cookie");
  return Defer(conn, x, [this, x] {
    // Views of the exchange's strings, which outlive the job; the body is
    // complete, as the job runs after the last upload call.
    const HttpRequest request{x->method, x->path, x->query, x->body, x->cookie, x->client};
    try {
      x->response = play_->Handle(request, &x->route);
    } catch (const std::exception& e) {
      services::LogError("request failed", {{"path", x->path.substr(0, 200)}, {"error", e.what()}});
      x->response = ErrorResponse(MakeError(500, "INTERNAL", "the gateway failed on this request"));
    }
    if (!x->response->backend.empty()) metrics_->BackendError(x->response->backend, x->response->grpc_status);
  });
}

void HttpServer::ResumeStream(MHD_Connection* conn) {
  if (options_.resume_batch_ms <= 0 || stopping_) return ResumeAll({conn});
  bool first = false;
  {
    std::lock_guard lock(resume_mutex_);
    first = to_resume_.empty();
    to_resume_.push_back(conn);
  }
  // A batch closes resume_batch_ms after its first stream: each loop then
  // looks for resumed connections once or twice per batch, not per stream.
  if (first)
    timers_->At(Timers::Clock::now() + std::chrono::milliseconds(options_.resume_batch_ms), [this] { ResumeBatch(); });
}

void HttpServer::ResumeBatch() {
  std::vector<MHD_Connection*> batch;
  {
    std::lock_guard lock(resume_mutex_);
    batch.swap(to_resume_);
  }
  ResumeAll(batch);
}

// One after another without a pause: each wakes its loop, which may look
// before the batch is all resumed, and look again for the rest.
void HttpServer::ResumeAll(const std::vector<MHD_Connection*>& conns) {
  for (MHD_Connection* conn : conns) {
    MHD_resume_connection(conn);
    Resumed();
  }
  if (metrics_ && !conns.empty()) metrics_->StreamsResumed(conns.size());
}

void HttpServer::Resumed() {
  if (--suspended_ > 0) return;
  // Under Stop's lock: it reads the count under it before waiting, so this
  // cannot fall between its reading and its waiting.
  std::lock_guard lock(resumed_mutex_);
  all_resumed_.notify_all();
}

int HttpServer::Defer(MHD_Connection* conn, Exchange* x, std::function<void()> job) {
  x->state = Exchange::State::kWaiting;
  // Suspended before the job can resume it.
  ++suspended_;
  MHD_suspend_connection(conn);
  const bool queued = workers_->Submit([this, conn, job = std::move(job)] {
    job();
    MHD_resume_connection(conn);
    Resumed();
  });
  if (!queued) {
    x->response = ErrorResponse(MakeError(
        503, "UNAVAILABLE", stopping_ ? "the gateway is shutting down" : "the gateway is overloaded; retry shortly"));
    x->response->headers.push_back({"Retry-After", "1"});
    MHD_resume_connection(conn);
    Resumed();
  }
  return MHD_YES;
}

int HttpServer::Answer(MHD_Connection* conn, Exchange* x, const HttpResponse& r) {
  x->state = Exchange::State::kDone;
  MHD_Response* response =
      MHD_create_response_from_buffer(r.body.size(), const_cast<char*>(r.body.data()), MHD_RESPMEM_MUST_COPY);
  if (!response) return MHD_NO;
  for (const auto& [name, value] : ResponseHeaders(ResponseKind::kAnswer, x->path, r))
    MHD_add_response_header(response, name.c_str(), value.c_str());
  const MHD_Result queued = MHD_queue_response(conn, unsigned(r.status), response);
  MHD_destroy_response(response);
  metrics_->Request(x->route.empty() ? "unknown" : x->route, r.status, Since(x->start));
  return queued;
}

int HttpServer::ServeFile(MHD_Connection* conn, Exchange* x) {
  StaticFile file;
  if (options_.web_root.empty() || !ResolveStaticFile(options_.web_root, x->path, &file))
    return Answer(conn, x,
                  ErrorResponse(NotFound(options_.web_root.empty() ? "no web app here (--web-root is not set)"
                                                                   : "no file " + x->path.substr(0, 200))));
  if (file.size > kMaxFileBytes) return Answer(conn, x, ErrorResponse(NotFound("file too large to serve")));
  HttpResponse r;
  r.content_type = file.content_type;
  r.headers = {{"ETag", file.etag}, {"Cache-Control", file.cache_control}};
  MHD_Response* response = nullptr;
  ResponseKind kind = ResponseKind::kFile;
  int status = 200;
  if (Header(conn, "If-None-Match") == file.etag) {
    kind = ResponseKind::kNotModified;
    status = 304;
    response = MHD_create_response_from_buffer(0, nullptr, MHD_RESPMEM_PERSISTENT);
  } else {
    const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0) {
      if (fd >= 0) ::close(fd);
      return Answer(conn, x, ErrorResponse(NotFound("no file " + x->path.substr(0, 200))));
    }
    // The file's own descriptor: the server sends it (sendfile over plain
    // HTTP) and closes it; a HEAD gets its length and no body.
    response = MHD_create_response_from_fd64(uint64_t(st.st_size), fd);
    if (!response) ::close(fd);
  }
  if (!response) return MHD_NO;
  x->state = Exchange::State::kDone;
  for (const auto& [name, value] : ResponseHeaders(kind, x->path, r))
    MHD_add_response_header(response, name.c_str(), value.c_str());
  const MHD_Result queued = MHD_queue_response(conn, unsigned(status), response);
  MHD_destroy_response(response);
  metrics_->Request(x->route, status, Since(x->start));
  return queued;
}

int HttpServer::StartStream(MHD_Connection* conn, Exchange* x) {
  const bool live = x->opened->spectator != nullptr;
  std::shared_ptr<Spectator> events = live ? x->opened->spectator : x->opened->play->out;
  // Nothing of a seat's stream may be merged, and a person waits on each decision.
  const auto interval = std::chrono::milliseconds(live ? options_.stream_interval_ms : 0);
  auto s = std::make_shared<Stream>(conn, SsePump(events, interval, std::chrono::milliseconds(options_.heartbeat_ms)));
  x->stream = s;
  if (!live) metrics_->PlayStreams(++play_streams_);
  {
    std::lock_guard lock(streams_mutex_);
    streams_.insert(s);
  }
  std::weak_ptr<Stream> weak = s;
  events->SetWaker([weak, this](bool ordered) {
    if (const auto stream = weak.lock()) stream->Wake(this, /*view_only=*/!ordered);
  });
  auto* holder = new std::pair<HttpServer*, std::shared_ptr<Stream>>(this, s);
  MHD_Response* response = MHD_create_response_from_callback(
      MHD_SIZE_UNKNOWN, kStreamBlock, &ServerCallbacks::ReadStream, holder, &ServerCallbacks::FreeStream);
  if (!response) {
    delete holder;
    return MHD_NO;
  }
  for (const auto& [name, value] : ResponseHeaders(ResponseKind::kEventStream, x->path, {}))
    MHD_add_response_header(response, name.c_str(), value.c_str());
  const MHD_Result queued = MHD_queue_response(conn, 200, response);
  MHD_destroy_response(response);
  metrics_->Request(x->route, 200, Since(x->start));
  return queued;
}

void HttpServer::Completed(Exchange* x) {
  // A stream opened by a worker is undone here, served or not (the client may
  // have left, or the response failed to start).
  if (x->opened) {
    const Exchange::Opened& o = *x->opened;
    Spectator* events = o.spectator ? o.spectator.get() : o.play->out.get();
    // After this returns no waker runs any more; after `finished`, no timer resumes.
    events->SetWaker(nullptr);
    if (x->stream) {
      {
        std::lock_guard lock(x->stream->mutex);
        x->stream->finished = true;
        if (x->stream->timer) timers_->Cancel(*x->stream->timer);
        x->stream->timer.reset();
      }
      std::lock_guard lock(streams_mutex_);
      streams_.erase(x->stream);
    }
    if (o.spectator) {
      hub_->Unsubscribe(o.game_id, o.spectator);
      metrics_->Spectators(hub_->spectators(), hub_->games());
    } else {
      play_->CloseEvents(o.play);
      if (x->stream) metrics_->PlayStreams(--play_streams_);
    }
  }
  delete x;
}

}  // namespace metropolis::gateway
