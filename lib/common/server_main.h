// What every server program does around its services, in one place: SIGINT and
// SIGTERM taken for an orderly shutdown, --log-level, a gRPC server with health,
// reflection and a bound on the calls served at once, the health status turned
// on once listening and off before stopping, and the shutdown itself.
//
// A service is a Component: its gRPC services and the threads beside them. A
// program runs one (metropolis-replays, ...) or several on one port
// (metropolis-server):
//
//   ShutdownSignals signals;   // first: every thread started later inherits the mask
//   ReplaysServer replays(&pool, config);
//   return Serve({.program = "metropolis-replays", .listen = ..., .max_calls = 256}, {&replays}, &signals);
#pragma once

#include <signal.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/credentials.h"
#include "lib/common/log.h"

namespace grpc {
class Server;
class ServerBuilder;
}  // namespace grpc

namespace metropolis::services {

class ProcessMetrics;
class Settings;

// Blocks SIGINT and SIGTERM in the calling thread, so in every thread it starts
// afterwards; Wait() takes the first that arrives. Construct it before any thread.
class ShutdownSignals {
 public:
  ShutdownSignals();
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;
  // Blocks until SIGINT or SIGTERM; returns its number.
  int Wait();

 private:
  sigset_t signals_;
};

// Declares --log-level (default info).
void AddLogLevelSetting(Settings* settings);
// Reads --log-level and sets the process's log level and service name ("svc=").
// False with *error when the level is not one of the four.
bool SetUpLogs(const Settings& settings, std::string_view service, std::string* error);

// A part of a server program: gRPC services, and possibly threads beside them
// (matching rounds, heartbeats). Its objects are built before the server and
// live until after it has shut down.
class Component {
 public:
  virtual ~Component() = default;
  // What probes ask the health service about, e.g. "metropolis.v1.Replays".
  virtual std::vector<std::string> HealthNames() const = 0;
  virtual void Register(grpc::ServerBuilder* builder) = 0;
  // The server listens on `port` (known only now with port 0); fields to add to
  // the "listening" line.
  virtual void Listening(int /*port*/, LogFieldList* /*fields*/) {}
  // Starts the threads beside the services; the health status says serving.
  virtual void Start() {}
  // On SIGINT or SIGTERM (`signal`), before the health status turns off and the
  // server stops: stops those threads.
  virtual void Stop(int /*signal*/) {}
  // After the server has shut down: waits for work still in flight.
  virtual void Drain() {}
};

struct ServeOptions {
  std::string program;  // "metropolis-replays", for errors on stderr
  std::string listen;   // host:port; port 0 picks a free one
  // Calls served at once: the sync services spend a thread on each call in
  // progress, and calls beyond this are refused with RESOURCE_EXHAUSTED. 0: unbounded.
  int max_calls = 0;
  std::string quota_name = "server";
  int max_receive_message_size = 0;  // bytes; 0: gRPC's default (4 MB)
  ServerTls tls{};                   // not enabled: plaintext
  std::chrono::milliseconds shutdown_grace{5000};
  int listen_failure_exit_code = 1;  // what the program returns when it cannot listen
  bool log_port = true;              // "listening" starts with port=N (the game host logs its address instead)
  // Where every call is counted, by method and code (InstallRpcMetrics); null: not counted.
  ProcessMetrics* metrics = nullptr;
};

// Declares what every server program offers for its security (docs/SECURITY.md):
// --tls-cert and --tls-key (serve TLS), --tls-ca (dial the other services over
// TLS, verified against this CA bundle) and --max-message-bytes (the largest
// request message accepted; larger ones are refused with RESOURCE_EXHAUSTED).
void AddSecuritySettings(Settings* settings, int64_t default_max_message_bytes);
// Reads them into options->tls and options->max_receive_message_size, and makes
// every channel this process dials use --tls-ca (SetChannelTls). False with
// *error naming the flag and the file.
bool ReadSecuritySettings(const Settings& settings, ServeOptions* options, std::string* error);
// --tls-ca alone, for programs that only dial (the gateway reads its own
// certificate for HTTPS): declared, then read and applied (SetChannelTls).
void AddChannelTlsSetting(Settings* settings);
bool ReadChannelTlsSetting(const Settings& settings, std::string* error);

// Builds and starts the gRPC server Serve runs: every component's services
// registered, health and reflection on, listening on options.listen (*port: the
// port bound). Null with *error naming the address when it cannot listen there,
// also when another server already listens on that port (SO_REUSEPORT is off).
std::unique_ptr<grpc::Server> StartServer(const ServeOptions& options, const std::vector<Component*>& components,
                                          int* port, std::string* error);

// Builds and starts one gRPC server with every component's services (health and
// reflection on), says "listening", starts the components, waits for a signal,
// and shuts down in order: components stopped, health off, server shut down
// (calls in progress get `shutdown_grace`), components drained. Returns the
// program's exit code. The components are started in their order and stopped
// in the reverse order.
int Serve(const ServeOptions& options, const std::vector<Component*>& components, ShutdownSignals* signals);

}  // namespace metropolis::services
