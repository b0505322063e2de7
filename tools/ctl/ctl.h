// metropolisctl: the operator's command line. This header holds what the
// subcommands share: global flags, exit codes, the channel and call context,
// error reports and output helpers. Each subcommand lives in its own file and
// keeps its request building and output formatting in plain functions
// (commands.h) so that the tests check them without a server.
#pragma once

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/support/status.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/json_text.h"  // JsonString, for the commands' --json output
#include "lib/flags/flags.h"

namespace google::protobuf {
class Message;
}

namespace metropolis::ctl {

// Exit codes, the same for every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRpcFailed = 1;   // an RPC failed: its status code and message are printed
inline constexpr int kExitUsage = 2;       // bad flags or arguments
inline constexpr int kExitNotServing = 3;  // health: a service answered but is not SERVING

inline constexpr std::string_view kDefaultHost = "127.0.0.1:50051";
inline constexpr int64_t kDefaultTimeoutMs = 10000;

// Looks up an environment variable; nullptr when unset.
using GetEnv = std::function<const char*(const char*)>;

struct GlobalOptions {
  std::string host{kDefaultHost};
  std::string token;
  std::string tls_ca_pem;  // --tls-ca's certificates; empty: plaintext
  bool json = false;
  int64_t timeout_ms = kDefaultTimeoutMs;
  bool timeout_given = false;  // watch has no deadline unless asked for one
};

// The global flags are accepted before the subcommand and after it, so each
// subcommand's Flags declares them too.
void AddGlobalFlags(cli::Flags* flags);
bool ReadGlobalFlags(const cli::Flags& flags, const GetEnv& env, GlobalOptions* out, std::string* error);

// Splits "[global flags] COMMAND [rest]": the global flags before the command
// go to *global (with their values), the rest to *rest. An empty *command
// means none was given (only flags like --help).
bool SplitCommandLine(const std::vector<std::string>& args, std::string* command, std::vector<std::string>* global,
                      std::vector<std::string>* rest, std::string* error);

// Everything a subcommand needs to run: its parsed flags and the globals.
struct Invocation {
  cli::Flags flags;
  GlobalOptions global;
};

// Parses a subcommand's arguments (global ones included) into *inv. Returns
// -1 to go on, or the exit code to return now (after --help or an error,
// both already printed).
int ParseInvocation(const std::vector<std::string>& args, const GetEnv& env, Invocation* inv);

// "usage: metropolisctl COMMAND ...": cli::Flags prints metropolis-engine's name.
std::string CommandUsage(const cli::Flags& flags);

// Prints "metropolisctl COMMAND: message" to stderr and returns kExitUsage.
int UsageError(const cli::Flags& flags, std::string_view message);
// Reads an optional integer flag into *out; false (after printing, *code the
// exit code) on error.
bool IntFlag(const Invocation& inv, const char* name, int64_t min, int64_t max, int64_t* out, int* code);
// Prints "metropolisctl COMMAND: CODE: message" (with a hint for a missing
// token) to stderr and returns kExitRpcFailed.
int RpcError(const Invocation& inv, std::string_view what, const grpc::Status& status);

std::shared_ptr<grpc::Channel> MakeChannel(const GlobalOptions& g, const std::string& host = "");
// Bearer token (when given) and the --timeout-ms deadline: always, or for
// commands that wait as long as the user likes (watch, enqueue) only when
// --timeout-ms was given.
enum class Deadline { kAlways, kOnlyIfGiven };
void PrepareContext(const GlobalOptions& g, grpc::ClientContext* context, Deadline deadline = Deadline::kAlways);

// "UNAVAILABLE", "NOT_FOUND", ...
std::string StatusCodeName(grpc::StatusCode code);

// JSON of a message: field names as in the .proto, enums as names, and every
// scalar printed even at its default (so a seat with 0 fallback decisions
// still shows the field).
std::string MessageJson(const google::protobuf::Message& message);

// Aligned columns separated by two spaces; the first row is the header.
std::string FormatTable(const std::vector<std::vector<std::string>>& rows);
// "2024-05-01 12:00:00 UTC" for Unix milliseconds; "-" for 0.
std::string FormatUnixMs(int64_t unix_ms);
// Milliseconds for people, in one of two styles. kExact drops nothing: whole
// seconds when they are whole, else milliseconds ("10s", "1500ms", "0ms"), and
// a negative value, a limit that never applies, is "never" (the ladder
// commands, as metropolis-admin prints them). kRounded gives the two largest
// units and drops the rest ("1d", "2h 30m", "1h 1s"), under a second in
// milliseconds ("500ms").
enum class DurationStyle { kExact, kRounded };
std::string FormatDurationMs(int64_t ms, DurationStyle style);

}  // namespace metropolis::ctl
