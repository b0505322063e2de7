// metropolis-gamehost: runs games for seats that connect over gRPC.
#include <memory>

#include "lib/common/server_program.h"
#include "services/gamehost/server.h"

namespace mg = metropolis::gamehost;
namespace ms = metropolis::services;

int main(int argc, char** argv) {
  ms::ServerProgram program(
      {.info = {.service = "gamehost",
                .summary = "Runs Cities & Knights games: seats play over gRPC streams, spectators watch, and every "
                           "completed game is stored before anyone hears it is over."},
       .listen = {.address = "127.0.0.1:50051"},
       .max_calls = std::nullopt,  // no --max-calls: calls unbounded
       // The host decides when a game's data is too big; no message of the
       // protocol comes near 1 MB.
       .max_message_bytes = 1 << 20,
       .rate_limit = {{.defaults = {.per_second = 20, .burst = 40},
                       .per = "per seat token (Play streams, Spectate, GetGame, ListGames; the admin and spectator "
                              "tokens are not limited)"}},
       // --metrics-listen among the host's own settings, on by default.
       .metrics = false,
       .required = {"admin-token"},
       .wording = ms::MissingWording::kFirstWithEnv});
  ms::Settings& settings = program.settings();
  settings.Add("advertise", "ADDR", "", "address other parts use to reach this host (default: the bound address)");
  ms::AddMetricsSetting(&settings, "127.0.0.1:9464");
  settings.Add("admin-token", "TOKEN", "", "bearer token that may create games (required)");
  settings.Add("spectator-token", "TOKEN", "", "bearer token that may list, inspect and watch games");
  settings.Add("data-dir", "DIR", "./gamehost-data",
               "the outbox of completed games (DIR/outbox) and their JSON archive (DIR/completed)");
  mg::AddPlaySettings(&settings);
  settings.Add("replays", "ADDR", "", "replays service to hand completed games to (empty: keep them in DATA_DIR only)");
  settings.Add("replays-token", "TOKEN", "", "the replays service's store token");
  settings.Add("ratings", "ADDR", "", "ratings service that rates completed games (needs --replays; empty: unrated)");
  settings.Add("ratings-token", "TOKEN", "", "the ratings service's service token");
  settings.Add("matchmaker", "ADDR", "", "matchmaker to announce this host to (its address, room and live games)");
  settings.Add("matchmaker-token", "TOKEN", "", "the game hosts' service token at the matchmaker");
  if (!program.Parse(argc, argv)) return program.exit_code();

  mg::GameHostConfig config;
  config.options.address = settings.Get("advertise");
  config.options.admin_token = settings.Get("admin-token");
  config.options.spectator_token = settings.Get("spectator-token");
  config.listen = settings.Get("listen");
  config.data_dir = settings.Get("data-dir");
  config.metrics_listen = settings.Get("metrics-listen");
  config.replays = settings.Get("replays");
  config.replays_token = settings.Get("replays-token");
  config.ratings = settings.Get("ratings");
  config.ratings_token = settings.Get("ratings-token");
  config.matchmaker = settings.Get("matchmaker");
  config.matchmaker_token = settings.Get("matchmaker-token");
  std::string error;
  if (!mg::ReadPlaySettings(settings, &config, &error)) return program.Fail(error);
  if (!program.Check()) return program.exit_code();
  config.rate_limit = program.rate_limit();
  if (!config.ratings.empty() && config.replays.empty())
    return program.Fail("--ratings needs --replays: a game is rated once it is stored");

  if (!program.Start()) return program.exit_code();
  std::unique_ptr<mg::GameHostServer> host = mg::GameHostServer::Create(config, program.metrics(), &error);
  if (!host) return program.Fail(error);
  program.serve_options().listen_failure_exit_code = 2;
  program.serve_options().log_port = false;  // the host logs its address
  return program.Serve({host.get()});
}
