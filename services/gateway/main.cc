// metropolis-gateway: the HTTP face of Metropolis — a JSON API over the
// services, live games as server-sent events, and the web app's files. Its
// settings and wiring: program.h.
#include "lib/common/server_main.h"
#include "lib/common/server_program.h"
#include "lib/common/settings.h"
#include "services/gateway/program.h"

namespace ms = metropolis::services;
namespace mgw = metropolis::gateway;

int main(int argc, char** argv) {
  ms::Settings settings = ms::MakeSettings(
      {.service = "gateway",
       .summary = "Serves Metropolis to browsers: a JSON API under /api/v1 over the accounts, replays, "
                  "ratings and matchmaker services and the game hosts, live games as server-sent events, and the web "
                  "app's files (docs/GATEWAY.md)."});
  mgw::AddGatewaySettings(&settings);
  int exit_code = 0;
  if (!settings.Parse(argc, argv, &exit_code)) return exit_code;
  std::string error;
  mgw::GatewayConfig config;
  if (!ms::SetUpLogs(settings, "gateway", &error) || !mgw::ReadGatewayConfig(settings, &config, &error))
    return ms::FailStartup("metropolis-gateway", error);
  return mgw::RunGateway(config);
}
