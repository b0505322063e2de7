// The settings and start-up every server program shares, so that its main.cc only
// declares its own settings and wires its service: the program's name, summary and
// environment prefix, --listen, --max-calls, security (TLS, message size), rate
// limits, --metrics-listen and --log-level declared and read, missing required
// settings named, errors said on stderr with exit code 2, the process's metrics
// (metrics.h: its registry, the infrastructure's counters, every call counted),
// the signals blocked and the metrics endpoint started before any thread, and
// Serve (server_main.h).
//
//   ServerProgram program({.info = {...}, .listen = {.address = "127.0.0.1:50061"}, ...});
//   program.settings().Add("store-token", ...);   // the service's own, listed between
//   if (!program.Parse(argc, argv) || !program.Check() || !program.Start()) return program.exit_code();
//   ReplaysServer replays(..., program.metrics());
//   return program.Serve({&replays});
//
// The pieces are also offered alone, for programs laid out otherwise (the gateway,
// metropolis-server). lib/storage/server_storage.h adds the PostgreSQL and Redis
// settings and pools.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/metrics.h"
#include "lib/common/rate_limit.h"
#include "lib/common/server_main.h"
#include "lib/common/settings.h"

namespace metropolis::services {

// What --help says a program is. Its names follow from the service's: the program
// metropolis-<service>, the environment prefix METROPOLIS_<SERVICE>_, and <service>
// in the logs' svc= and as the call quota's name.
struct ProgramInfo {
  std::string service{};  // "replays"
  std::string summary{};  // --help's description

  std::string program() const;     // "metropolis-replays": --help and the errors on stderr
  std::string env_prefix() const;  // "METROPOLIS_REPLAYS_"
};

// A program's settings under ProgramInfo's names.
Settings MakeSettings(const ProgramInfo& info);

// The exit code of a program whose settings are wrong.
inline constexpr int kExitBadSettings = 2;

// Says "<program>: <message>" on stderr; returns kExitBadSettings.
int FailStartup(std::string_view program, std::string_view message);

// --listen: where a gRPC server listens.
struct ListenSetting {
  std::string address{};  // the default
  std::string value_name = "ADDR";
  std::string help = "gRPC address (port 0 picks a free port)";
};
void AddListenSetting(Settings* settings, const ListenSetting& listen);

// --max-calls: calls served at once (ServeOptions::max_calls), 1 to 100,000.
struct MaxCallsSetting {
  // For services whose calls are short: a thread each.
  static constexpr char kThreadEach[] =
      "calls served at once (a thread each; more are refused with RESOURCE_EXHAUSTED)";
  // For services that hold streams open for as long as a player waits.
  static constexpr char kStreams[] = "calls served at once; a waiting player's stream is one";
  int calls = 256;  // the default
  std::string help = kThreadEach;
};
void AddMaxCallsSetting(Settings* settings, const MaxCallsSetting& max_calls);
bool ReadMaxCallsSetting(const Settings& settings, int* out, std::string* error);

// --rate-limit and --rate-burst (rate_limit.h): their defaults and whose calls they count.
struct RateLimitSetting {
  RateLimit defaults{};
  std::string per{};  // "per identity (service tokens are not limited)"
};

// How a program words its missing required settings: each keeps its own words,
// which scripts and tests read.
enum class MissingWording {
  kAllNamed,      // "--pg, --store-token and --accounts are required", whichever is missing
  kFirst,         // "--pg is required", the first missing
  kFirstWithEnv,  // "--pg (or METROPOLIS_SERVER_PG) is required", the first missing
};
// Empty when every one of `names` has a value; otherwise the error.
std::string MissingSettings(const Settings& settings, const std::vector<std::string>& names, MissingWording wording);

struct ServerProgramOptions {
  ProgramInfo info{};
  ListenSetting listen{};
  // The settings after the service's own, in this order:
  std::optional<MaxCallsSetting> max_calls = MaxCallsSetting{};  // none: calls unbounded
  int64_t max_message_bytes = 1 << 20;                           // --max-message-bytes's default, with the TLS settings
  std::optional<RateLimitSetting> rate_limit{};
  // --metrics-listen among the shared settings; false: the service declares it among
  // its own (the game host's, on by default). Served from Start() either way.
  bool metrics = true;
  // Checked after parsing, as `wording` says.
  std::vector<std::string> required{};
  MissingWording wording = MissingWording::kAllNamed;
};

// A gRPC server program laid out the common way: --listen first, then what a
// subclass's constructor adds (the stores' addresses), then the service's own
// settings, then the subclass's trailing ones (pool sizes) and the shared ones.
class ServerProgram {
 public:
  explicit ServerProgram(ServerProgramOptions options);
  virtual ~ServerProgram();
  ServerProgram(const ServerProgram&) = delete;
  ServerProgram& operator=(const ServerProgram&) = delete;

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }

  // Declares the settings that follow the service's own, parses the command line
  // and sets up the logs. False when the program ends here with exit_code(): 0
  // after --help, 2 after an error said on stderr.
  bool Parse(int argc, char** argv);
  // Reads and checks every shared setting, after the service has read its own; false
  // with the error said and exit_code() 2.
  bool Check();
  // Blocks SIGINT and SIGTERM (before any thread starts, so every thread inherits the
  // mask), starts the metrics endpoint, then what a subclass opens (its pools). False
  // with the error said and exit_code() 2.
  bool Start();
  int exit_code() const { return exit_code_; }

  // Says the error on stderr and returns the exit code of bad settings.
  int Fail(std::string_view message) const { return FailStartup(options_.info.program(), message); }

  // Read by Check: the server's options (its listening address, calls, TLS and
  // message size) and the rate limit; a program may still adjust them before Serve.
  ServeOptions& serve_options() { return serve_; }
  const RateLimit& rate_limit() const { return rate_limit_; }
  // The process's metrics, from construction: the services make theirs on its
  // registry, and the pools, authenticators and rate limits count in it.
  ProcessMetrics* metrics() { return &metrics_; }

  // Serves the components until SIGINT or SIGTERM (server_main.h); after Start().
  int Serve(const std::vector<Component*>& components);

 protected:
  // After the service's own settings, before --max-calls.
  virtual void AddTrailingSettings(Settings* /*settings*/) {}
  // Reads them, first in Check.
  virtual bool ReadSettings(const Settings& /*settings*/, std::string* /*error*/) { return true; }
  // Checks them once the required settings are known to be there.
  virtual bool CheckSettings(const Settings& /*settings*/, std::string* /*error*/) { return true; }
  // From Start(), after the signals and the metrics endpoint.
  virtual bool Open(std::string* /*error*/) { return true; }

 private:
  // Says the error, and sets exit_code() to kExitBadSettings; returns false.
  bool Refuse(std::string_view message);

  const ServerProgramOptions options_;
  Settings settings_;
  ServeOptions serve_;
  RateLimit rate_limit_;
  std::optional<ShutdownSignals> signals_;
  // The process's one registry, and what serves it.
  std::shared_ptr<prometheus::Registry> registry_;
  ProcessMetrics metrics_;
  MetricsEndpoint endpoint_;
  int exit_code_ = 0;
};

}  // namespace metropolis::services
