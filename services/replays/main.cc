// metropolis-replays: stores completed games in PostgreSQL and serves them.
#include "lib/storage/server_storage.h"
#include "services/replays/server.h"

namespace ms = metropolis::services;

int main(int argc, char** argv) {
  metropolis::storage::StorageServerProgram program(
      {.server = {.info = {.service = "replays",
                           .summary = "Stores completed games (idempotent on the game id) and serves them: lists, "
                                      "whole replays, any step's position and views, exports."},
                  .listen = {.address = "127.0.0.1:50061"},
                  // A stored game is its configuration and action list: well under 1 MB.
                  .max_message_bytes = 4 << 20,
                  .rate_limit = {{.defaults = {.per_second = 50, .burst = 100},
                                  .per = "per identity (service tokens are not limited)"}},
                  .required = {"pg", "store-token", "accounts"}}});
  ms::Settings& settings = program.settings();
  settings.Add("store-token", "TOKEN", "", "service token that may store games (the game hosts'; required)");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (metropolis-accounts), asked with --store-token who holds a caller's API "
               "token (required)");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token (the Accounts service's --gateway-token): its reads are not limited "
               "per identity here, since it limits each of its clients itself (empty: none)");
  settings.Add("analysis-threads", "N", "1",
               "threads analysing finished games (docs/ANALYSIS.md): games with a person at the table as they are "
               "stored, others on request; 0: no analysis");
  settings.Add("analysis-queue", "N", "1000",
               "analysis jobs that may wait in each line (stored games, requests); more are dropped and counted");
  settings.Add("analysis-positions", "N", "40", "graph points of an analysis");
  settings.Add("analysis-search-iterations", "N", "500", "the search bot's budget per compared decision (0: no marks)");
  if (!program.Parse(argc, argv)) return program.exit_code();
  metropolis::replays::AnalysisWorkerOptions analysis;
  int64_t threads = 0, queue = 0, positions = 0, iterations = 0;
  std::string error;
  if (!settings.GetInt("analysis-threads", 0, 64, &threads, &error) ||
      !settings.GetInt("analysis-queue", 1, 1'000'000, &queue, &error) ||
      !settings.GetInt("analysis-positions", 1, 1000, &positions, &error) ||
      !settings.GetInt("analysis-search-iterations", 0, 100'000, &iterations, &error))
    return program.Fail(error);
  analysis.threads = int(threads);
  analysis.queue = size_t(queue);
  analysis.analysis.positions = int(positions);
  analysis.analysis.search_iterations = iterations;
  if (!program.Check() || !program.Start()) return program.exit_code();
  metropolis::replays::ReplaysServer replays(program.pg(),
                                             {.store_token = settings.Get("store-token"),
                                              .accounts = settings.Get("accounts"),
                                              .gateway_token = settings.Get("gateway-token"),
                                              .rate_limit = program.rate_limit(),
                                              .analysis = analysis},
                                             program.metrics());
  // The sync server spends a thread per call in progress; the pool bounds the
  // database connections, which calls beyond them wait for.
  return program.Serve({&replays});
}
