#include <absl/status/status.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <utility>

#include "lib/common/credentials.h"
#include "tools/ctl/ctl.h"

namespace metropolis::ctl {
namespace {

struct GlobalFlag {
  std::string_view name;
  bool takes_value;
};
constexpr GlobalFlag kGlobalFlags[] = {
    {"host", true}, {"token", true}, {"tls-ca", true}, {"json", false}, {"timeout-ms", true}};

const GlobalFlag* FindGlobal(std::string_view name) {
  for (const GlobalFlag& f : kGlobalFlags)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

void AddGlobalFlags(cli::Flags* flags) {
  flags->Add({.name = "host",
              .value_name = "ADDR",
              .help = "the service, HOST:PORT (env METROPOLIS_HOST; default " + std::string(kDefaultHost) + ")"});
  flags->Add({.name = "token", .value_name = "T", .help = "bearer token for the call (env METROPOLIS_TOKEN)"});
  flags->Add({.name = "tls-ca",
              .value_name = "FILE",
              .help = "PEM CA bundle: call over TLS, verifying the service against it (env METROPOLIS_TLS_CA; "
                      "default: plaintext)"});
  flags->Add({.name = "json", .value_name = "", .help = "machine output: JSON on stdout"});
  flags->Add({.name = "timeout-ms",
              .value_name = "N",
              .help = "deadline of each call (default " + std::to_string(kDefaultTimeoutMs) + "; watch: none)"});
}

bool ReadGlobalFlags(const cli::Flags& flags, const GetEnv& env, GlobalOptions* out, std::string* error) {
  GlobalOptions g;
  auto from_env = [&](const char* var) -> std::string {
    const char* v = env ? env(var) : nullptr;
    return v ? v : "";
  };
  g.host = flags.Has("host") ? flags.Get("host") : from_env("METROPOLIS_HOST");
  if (g.host.empty()) g.host = std::string(kDefaultHost);
  g.token = flags.Has("token") ? flags.Get("token") : from_env("METROPOLIS_TOKEN");
  if (const std::string ca = flags.Has("tls-ca") ? flags.Get("tls-ca") : from_env("METROPOLIS_TLS_CA"); !ca.empty()) {
    if (!services::LoadCaBundle(ca, &g.tls_ca_pem, error)) {
      *error = "--tls-ca: " + *error;
      return false;
    }
  }
  g.json = flags.Has("json");
  if (flags.Has("timeout-ms")) {
    if (!flags.GetInt("timeout-ms", 1, 24LL * 3600 * 1000, &g.timeout_ms, error)) return false;
    g.timeout_given = true;
  }
  *out = std::move(g);
  return true;
}

bool SplitCommandLine(const std::vector<std::string>& args, std::string* command, std::vector<std::string>* global,
                      std::vector<std::string>* rest, std::string* error) {
  command->clear();
  global->clear();
  rest->clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--") || arg == "--") {
      if (arg == "--") {
        *error = "a command is needed before '--'";
        return false;
      }
      *command = arg;
      rest->assign(args.begin() + long(i) + 1, args.end());
      return true;
    }
    const std::string_view body = std::string_view(arg).substr(2);
    const size_t eq = body.find('=');
    const std::string_view name = body.substr(0, eq);
    if (name == "help") {
      global->push_back(arg);
      continue;
    }
    const GlobalFlag* flag = FindGlobal(name);
    if (!flag) {
      *error = "unknown global flag '--" + std::string(name) + "' (a command's own flags come after the command)";
      return false;
    }
    global->push_back(arg);
    if (flag->takes_value && eq == std::string_view::npos) {
      if (i + 1 == args.size()) {
        *error = "flag '--" + std::string(name) + "' needs a value";
        return false;
      }
      global->push_back(args[++i]);
    }
  }
  return true;
}

std::string CommandUsage(const cli::Flags& flags) {
  std::string usage = flags.Usage();
  constexpr std::string_view kEnginePrefix = "usage: metropolis-engine ";
  if (usage.starts_with(kEnginePrefix)) usage.replace(0, kEnginePrefix.size(), "usage: metropolisctl ");
  return usage +
         "\nexit status: 0 done, 1 an RPC failed (its status code and message are printed on stderr),\n"
         "2 bad flags or arguments, 3 (health) a service answered but is not SERVING.\n";
}

int ParseInvocation(const std::vector<std::string>& args, const GetEnv& env, Invocation* inv) {
  AddGlobalFlags(&inv->flags);
  std::string error;
  if (!inv->flags.Parse(args, &error)) return UsageError(inv->flags, error);
  if (inv->flags.Help()) {
    std::cout << CommandUsage(inv->flags);
    return kExitOk;
  }
  if (!ReadGlobalFlags(inv->flags, env, &inv->global, &error)) return UsageError(inv->flags, error);
  return -1;
}

int UsageError(const cli::Flags& flags, std::string_view message) {
  std::cerr << "metropolisctl " << flags.command() << ": " << message << "\n(see metropolisctl " << flags.command()
            << " --help)\n";
  return kExitUsage;
}

bool IntFlag(const Invocation& inv, const char* name, int64_t min, int64_t max, int64_t* out, int* code) {
  std::string error;
  if (inv.flags.Has(name) && !inv.flags.GetInt(name, min, max, out, &error)) {
    *code = UsageError(inv.flags, error);
    return false;
  }
  return true;
}

int RpcError(const Invocation& inv, std::string_view what, const grpc::Status& status) {
  std::cerr << "metropolisctl " << inv.flags.command() << ": " << what
            << " failed: " << StatusCodeName(status.error_code()) << ": " << status.error_message();
  if (status.error_code() == grpc::StatusCode::UNAUTHENTICATED && inv.global.token.empty())
    std::cerr << " (no token given: --token or METROPOLIS_TOKEN)";
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE) std::cerr << " (host " << inv.global.host << ")";
  std::cerr << "\n";
  return kExitRpcFailed;
}

std::shared_ptr<grpc::Channel> MakeChannel(const GlobalOptions& g, const std::string& host) {
  return grpc::CreateChannel(host.empty() ? g.host : host, services::MakeChannelCredentials(g.tls_ca_pem));
}

void PrepareContext(const GlobalOptions& g, grpc::ClientContext* context, Deadline deadline) {
  if (!g.token.empty()) context->AddMetadata("authorization", "Bearer " + g.token);
  if (deadline == Deadline::kAlways || g.timeout_given)
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(g.timeout_ms));
}

std::string StatusCodeName(grpc::StatusCode code) {
  // gRPC's codes are abseil's, number for number.
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

std::string MessageJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string out;
  // Printing fails only for an Any whose type is not in the pool, and our
  // messages hold no Any; say so rather than print half a document.
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) return "null";
  return out;
}

std::string FormatTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], row[i].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string FormatUnixMs(int64_t unix_ms) {
  if (unix_ms <= 0) return "-";
  const std::time_t seconds = std::time_t(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string FormatDurationMs(int64_t ms, DurationStyle style) {
  if (style == DurationStyle::kExact) {
    if (ms < 0) return "never";
    if (ms != 0 && ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
  }
  static const std::pair<const char*, int64_t> kUnits[] = {
      {"d", 86'400'000}, {"h", 3'600'000}, {"m", 60'000}, {"s", 1000}};
  std::string out;
  int parts = 0;
  for (const auto& [unit, size] : kUnits) {
    if (ms >= size && parts < 2) {
      out += (out.empty() ? "" : " ") + std::to_string(ms / size) + unit;
      ms %= size;
      ++parts;
    }
  }
  return out.empty() ? std::to_string(ms) + "ms" : out;
}

}  // namespace metropolis::ctl
