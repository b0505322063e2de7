#include "lib/common/server_main.h"

#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <pthread.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "lib/common/credentials.h"
#include "lib/common/grpc_util.h"
#include "lib/common/metrics.h"
#include "lib/common/settings.h"

namespace metropolis::services {

ShutdownSignals::ShutdownSignals() {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
}

int ShutdownSignals::Wait() {
  int signal = 0;
  sigwait(&signals_, &signal);
  return signal;
}

void AddLogLevelSetting(Settings* settings) {
  settings->Add("log-level", "LEVEL", "info", "debug, info, warning or error");
}

bool SetUpLogs(const Settings& settings, std::string_view service, std::string* error) {
  LogLevel level;
  if (!ParseLogLevel(settings.Get("log-level"), &level)) {
    *error = "--log-level: '" + settings.Get("log-level") + "' is not debug, info, warning or error";
    return false;
  }
  SetLogService(service);
  SetLogLevel(level);
  return true;
}

void AddChannelTlsSetting(Settings* settings) {
  settings->Add("tls-ca", "FILE", "",
                "PEM CA bundle: dial the other services over TLS and verify them against it (empty: plaintext)");
}

bool ReadChannelTlsSetting(const Settings& settings, std::string* error) {
  const std::string file = settings.Get("tls-ca");
  std::string ca_pem;
  if (!file.empty() && !LoadCaBundle(file, &ca_pem, error)) {
    *error = "--tls-ca: " + *error;
    return false;
  }
  SetChannelTls(ca_pem);
  return true;
}

void AddSecuritySettings(Settings* settings, int64_t default_max_message_bytes) {
  settings->Add("tls-cert", "FILE", "",
                "PEM certificate chain: serve gRPC over TLS (with --tls-key; empty: plaintext)");
  settings->Add("tls-key", "FILE", "", "PEM private key of --tls-cert (unencrypted)");
  AddChannelTlsSetting(settings);
  settings->Add("max-message-bytes", "N", std::to_string(default_max_message_bytes),
                "largest request message accepted; larger ones are refused with RESOURCE_EXHAUSTED");
}

bool ReadSecuritySettings(const Settings& settings, ServeOptions* options, std::string* error) {
  int64_t max_bytes = 0;
  if (!settings.GetInt("max-message-bytes", 1024, 64 << 20, &max_bytes, error)) return false;
  options->max_receive_message_size = int(max_bytes);
  if (!LoadServerTls(settings.Get("tls-cert"), settings.Get("tls-key"), &options->tls, error)) return false;
  return ReadChannelTlsSetting(settings, error);
}

std::unique_ptr<grpc::Server> StartServer(const ServeOptions& options, const std::vector<Component*>& components,
                                          int* port, std::string* error) {
  EnableHealthAndReflection();
  grpc::ServerBuilder builder;
  // gRPC sets SO_REUSEPORT by default, so a second server on a port another one
  // already listens on would start "successfully" and take half its connections.
  // Without it the bind fails and the program says so.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  *port = 0;
  builder.AddListeningPort(options.listen, MakeServerCredentials(options.tls), port);
  std::optional<grpc::ResourceQuota> quota;
  if (options.max_calls > 0) {
    quota.emplace(options.quota_name);
    quota->SetMaxThreads(options.max_calls);
    builder.SetResourceQuota(*quota);
  }
  if (options.max_receive_message_size > 0) builder.SetMaxReceiveMessageSize(options.max_receive_message_size);
  AllowKeepalivePings(&builder);
  AcceptLargeMetadata(&builder);
  for (Component* c : components) c->Register(&builder);
  if (options.metrics) InstallRpcMetrics(&builder, options.metrics);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || *port == 0) {
    // gRPC logs the bind's own error (errno) but tells the caller only that no
    // port was bound; a taken port is by far the usual reason.
    *error = "cannot listen on " + options.listen +
             ": the port is already taken by another process, or the address cannot be bound";
    return nullptr;
  }
  return server;
}

int Serve(const ServeOptions& options, const std::vector<Component*>& components, ShutdownSignals* signals) {
  int port = 0;
  std::string error;
  std::unique_ptr<grpc::Server> server = StartServer(options, components, &port, &error);
  if (!server) {
    std::cerr << options.program << ": " << error << "\n";
    return options.listen_failure_exit_code;
  }
  LogFieldList fields;
  if (options.log_port) fields.emplace_back("port", std::to_string(port));
  fields.emplace_back("tls", options.tls.enabled() ? "on" : "off");
  for (Component* c : components) c->Listening(port, &fields);
  auto set_serving = [&](bool serving) {
    for (Component* c : components)
      for (const std::string& name : c->HealthNames()) SetServing(*server, name, serving);
  };
  set_serving(true);
  Log(LogLevel::kInfo, "listening", fields);
  for (Component* c : components) c->Start();

  const int signal = signals->Wait();
  for (auto it = components.rbegin(); it != components.rend(); ++it) (*it)->Stop(signal);
  set_serving(false);
  server->Shutdown(std::chrono::system_clock::now() + options.shutdown_grace);
  for (auto it = components.rbegin(); it != components.rend(); ++it) (*it)->Drain();
  return 0;
}

}  // namespace metropolis::services
