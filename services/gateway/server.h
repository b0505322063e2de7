// The HTTP server: an event loop (libmicrohttpd on epoll) moving requests to the
// API, the live streams and the web app's files. No connection holds a thread:
// an event stream waits suspended until its spectator has something (or its
// heartbeat is due), and a request whose answer needs a service waits suspended
// while a worker thread makes the gRPC call. So the number of open streams is
// bounded by memory and --max-connections, not by threads (docs/GATEWAY.md,
// "The HTTP server").
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "lib/common/rate_limit.h"
#include "services/gateway/api.h"
#include "services/gateway/client_address.h"
#include "services/gateway/live.h"
#include "services/gateway/metrics.h"
#include "services/gateway/play_api.h"
#include "services/gateway/public_reads.h"
#include "services/gateway/workers.h"

struct MHD_Daemon;
struct MHD_Connection;

namespace metropolis::gateway {

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // host:port ([v6]:port)
  std::string web_root;                   // canonical; empty: no files
  int threads = 32;                       // workers for requests that call a service
  int loop_threads = 2;                   // event loops (connections are spread over them)
  int max_connections = 12000;            // open connections, streams included
  int stream_interval_ms = 100;           // a live stream writes at most this often
  // Waiting streams are resumed in batches, at most this long after the first
  // of a batch was woken (0: each at once). libmicrohttpd walks every waiting
  // connection of a loop each time it looks for resumed ones; with thousands
  // waiting, a look or two per batch instead of one per stream saves a third
  // of the gateway's CPU (docs/PERFORMANCE.md).
  int resume_batch_ms = 5;
  // Every this long the allocator's free pages go back to the system
  // (services::TrimFreeMemory, on a worker): streams come and go in waves, and
  // without it the RSS stays at each wave's high-water mark. 0: never.
  int trim_memory_ms = 10000;
  int heartbeat_ms = 15000;   // a comment line on an idle stream
  int io_timeout_ms = 10000;  // a client that neither sends nor reads for this long is dropped
  // HTTPS: the private key and the certificate chain, PEM; empty: plain HTTP.
  std::string tls_key_pem, tls_cert_pem;
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
  // Ends the event streams, answers what the workers hold, then stops.
  void Stop();

  // Internals of server.cc, named here for its callbacks.
  struct Exchange;
  struct Stream;

 private:
  friend struct ServerCallbacks;

  // The first call for a request, its headers read.
  int Begin(MHD_Connection* conn, Exchange* x);
  // The request (and its body, if any) is complete: answers it, or hands it to a worker.
  int Dispatch(MHD_Connection* conn, Exchange* x);
  // Runs `job` on a worker with the connection suspended; 503 when they are all busy.
  int Defer(MHD_Connection* conn, Exchange* x, std::function<void()> job);
  // Hands a request of the people's endpoints (PlayApi::Takes) to a worker.
  int DeferPlay(MHD_Connection* conn, Exchange* x);
  int Answer(MHD_Connection* conn, Exchange* x, const HttpResponse& response);
  int ServeFile(MHD_Connection* conn, Exchange* x);
  int StartStream(MHD_Connection* conn, Exchange* x);
  // The request is over (answered, or the connection closed): undoes what it opened.
  void Completed(Exchange* x);
  // After MHD_resume_connection: one fewer suspended connection.
  void Resumed();

  const ServerOptions options_;
  Api* const api_;
  PublicReads* const reads_;
  PlayApi* const play_;
  LiveHub* const hub_;
  GatewayMetrics* const metrics_;
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  services::RateLimiter limiter_;
  const ClientAddresses clients_;
  std::atomic<size_t> play_streams_{0};
  std::unique_ptr<Workers> workers_;
  std::unique_ptr<Timers> timers_;
  std::mutex streams_mutex_;
  std::set<std::shared_ptr<Stream>> streams_;  // open event streams, for Stop
  std::atomic<int> suspended_{0};              // connections waiting on a worker or a stream
  std::mutex resumed_mutex_;                   // for Stop's wait until suspended_ is 0
  std::condition_variable all_resumed_;
  // Resumes a waiting stream's connection, at once or with the next batch
  // (ServerOptions::resume_batch_ms): the batch's first stream sets a timer
  // that resumes the batch.
  void ResumeStream(MHD_Connection* conn);
  void ResumeBatch();
  void ResumeAll(const std::vector<MHD_Connection*>& conns);
  std::mutex resume_mutex_;
  std::vector<MHD_Connection*> to_resume_;
};

}  // namespace metropolis::gateway
