// metropolisctl health and reflect: the standard services every Metropolis
// server runs (grpc.health.v1 and server reflection v1alpha), so probes and
// people need no grpcurl (Debian has none).

#include <algorithm>
#include <iostream>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

namespace health = grpc::health::v1;
namespace reflection = grpc::reflection::v1alpha;

struct Check {
  std::string service;
  grpc::Status status;
  health::HealthCheckResponse::ServingStatus serving = health::HealthCheckResponse::UNKNOWN;
};

std::string ServingName(health::HealthCheckResponse::ServingStatus s) {
  return health::HealthCheckResponse::ServingStatus_Name(s);
}

// The services the server lists through reflection; an exit status other than
// kExitOk, the error said, when it cannot.
int ListServices(const Invocation& inv, std::vector<std::string>* services) {
  auto stub = reflection::ServerReflection::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  auto stream = stub->ServerReflectionInfo(&context);
  reflection::ServerReflectionRequest request;
  request.set_list_services("*");
  std::string refused;
  if (stream->Write(request)) {
    stream->WritesDone();
    reflection::ServerReflectionResponse response;
    while (stream->Read(&response)) {
      if (response.has_error_response()) refused = response.error_response().error_message();
      for (const auto& s : response.list_services_response().service()) services->push_back(s.name());
    }
  }
  const grpc::Status status = stream->Finish();
  if (!status.ok()) return RpcError(inv, "ServerReflectionInfo", status);
  if (!refused.empty()) {
    return RpcError(inv, "ServerReflectionInfo(list_services)", grpc::Status(grpc::StatusCode::UNKNOWN, refused));
  }
  return kExitOk;
}

}  // namespace

int RunHealth(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("health", "[flags]",
                   "Asks the server's health service (grpc.health.v1 Health/Check) about the server as a whole (\"\")\n"
                   "and about each Metropolis service it lists through reflection (metropolis.v1.*).\n"
                   "Exit status 0 only when every one is SERVING.");
  flags.Add({.name = "service",
             .value_name = "NAME",
             .help = "check this service instead of the two above",
             .repeatable = true});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  std::vector<std::string> services = inv.flags.GetAll("service");
  if (services.empty()) {
    // Each server runs a different set (a host, ratings, or all of them in one
    // process): the server says which, rather than a fixed list naming one.
    std::vector<std::string> listed;
    if (int code = ListServices(inv, &listed); code != kExitOk) return code;
    std::sort(listed.begin(), listed.end());
    services = {""};
    for (const std::string& s : listed)
      if (s.starts_with("metropolis.v1.")) services.push_back(s);
  }

  auto stub = health::Health::NewStub(MakeChannel(inv.global));
  std::vector<Check> checks;
  for (const std::string& service : services) {
    grpc::ClientContext context;
    PrepareContext(inv.global, &context);
    health::HealthCheckRequest request;
    request.set_service(service);
    health::HealthCheckResponse response;
    Check c{service, stub->Check(&context, request, &response), health::HealthCheckResponse::UNKNOWN};
    if (c.status.ok()) c.serving = response.status();
    checks.push_back(std::move(c));
  }

  bool rpc_failed = false, all_serving = true;
  for (const Check& c : checks) {
    rpc_failed |= !c.status.ok();
    all_serving &= c.status.ok() && c.serving == health::HealthCheckResponse::SERVING;
  }
  if (inv.global.json) {
    std::string out = "{\"serving\":" + std::string(all_serving ? "true" : "false") + ",\"services\":[";
    for (size_t i = 0; i < checks.size(); ++i) {
      const Check& c = checks[i];
      out += (i ? "," : "") + std::string("{\"service\":") + JsonString(c.service) + ",";
      out += c.status.ok()
                 ? "\"status\":" + JsonString(ServingName(c.serving))
                 : "\"error\":" + JsonString(StatusCodeName(c.status.error_code()) + ": " + c.status.error_message());
      out += "}";
    }
    std::cout << out << "]}\n";
  } else {
    std::vector<std::vector<std::string>> rows = {{"service", "status"}};
    for (const Check& c : checks) {
      // A failed call's message goes to stderr below, once.
      rows.push_back({c.service.empty() ? "(server)" : c.service,
                      c.status.ok() ? ServingName(c.serving) : "(" + StatusCodeName(c.status.error_code()) + ")"});
    }
    std::cout << FormatTable(rows);
  }
  if (rpc_failed) {
    for (const Check& c : checks)
      if (!c.status.ok()) RpcError(inv, "Health/Check(\"" + c.service + "\")", c.status);
    return kExitRpcFailed;
  }
  return all_serving ? kExitOk : kExitNotServing;
}

int RunReflect(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("reflect", "[flags]",
                   "Lists the services the host serves, through server reflection (grpc.reflection.v1alpha).");
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;

  std::vector<std::string> services;
  if (int code = ListServices(inv, &services); code != kExitOk) return code;
  std::sort(services.begin(), services.end());
  if (inv.global.json) {
    std::string out = "{\"services\":[";
    for (size_t i = 0; i < services.size(); ++i) out += (i ? "," : "") + JsonString(services[i]);
    std::cout << out << "]}\n";
  } else {
    for (const std::string& s : services) std::cout << s << "\n";
  }
  return kExitOk;
}

}  // namespace metropolis::ctl
