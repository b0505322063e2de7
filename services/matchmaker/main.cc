// metropolis-matchmaker: queues per ladder, tables by rating, games on the hosts.
#include <chrono>

#include "bots/bot.h"
#include "lib/storage/server_storage.h"
#include "services/matchmaker/server.h"

namespace ms = metropolis::services;
namespace st = metropolis::storage;

int main(int argc, char** argv) {
  st::StorageServerProgram program(
      {.server = {.info = {.service = "matchmaker",
                           .summary = "Queues players and bots per ladder, forms tables by rating, and creates their "
                                      "games on the game hosts. Replicas share their state in Redis and may run side "
                                      "by side."},
                  .listen = {.address = "127.0.0.1:50063"},
                  .max_calls = ms::MaxCallsSetting{.calls = 4096, .help = ms::MaxCallsSetting::kStreams},
                  .rate_limit = {{.defaults = {.per_second = 50, .burst = 100},
                                  .per = "per identity (service tokens are not limited)"}},
                  .required = {"pg", "redis", "service-token", "host-admin-token", "replays", "accounts"},
                  .wording = ms::MissingWording::kFirst},
       .pg_help = "PostgreSQL: tournaments (required)",
       .redis = st::RedisSettings{.address = "Redis: tickets and hosts (required); HOST:PORT or "
                                             "sentinel:NAME@HOST:PORT,..."},
       .connections = {.help = st::ConnectionsSetting::kPostgresAndRedis}});
  ms::Settings& settings = program.settings();
  settings.Add("service-token", "TOKEN", "",
               "the game hosts' service token: RegisterHost, and reading ratings (required)");
  settings.Add("host-admin-token", "TOKEN", "", "the game hosts' --admin-token, to create games (required)");
  settings.Add("gateway-token", "TOKEN", "",
               "the gateway's service token (the Accounts service's --gateway-token): its reads are not limited "
               "per identity here, since it limits each of its clients itself (empty: none)");
  settings.Add("accounts", "ADDR", "",
               "the Accounts service (metropolis-accounts): callers' tokens and the ladders, asked with "
               "--service-token (required)");
  settings.Add("ratings", "ADDR", "", "ratings service, for players' ratings (empty: everyone matched as a newcomer)");
  settings.Add("replays", "ADDR", "",
               "replays service: tournament results, and what of a tournament it may show (required; called with "
               "--service-token, which must be its --store-token)");
  settings.Add("round-ms", "N", "100", "time between matching rounds");
  settings.Add("tournament-pass-ms", "N", "500", "time between passes of the tournament scheduler");
  settings.Add("lease-ms", "N", "5000",
               "the tournament scheduler's lease: another replica takes over this long after the leader stops");
  settings.Add("ticket-ttl-ms", "N", "10000", "a queued ticket without a heartbeat for this long expires");
  settings.Add("host-forget-ms", "N", "60000",
               "a game host without a heartbeat for this long is forgotten: no longer listed to players or the "
               "gateway (it gets no games after 15 s already)");
  settings.Add("share-ladders", "0|1", "1",
               "1: the live replicas share the ladders out, each ladder's rounds on one of them; 0: this replica "
               "runs every ladder's rounds, racing the others for tables (safe, but lost work)");
  settings.Add("bot", "SPEC", "heuristic", "the built-in bot that fills seats and plays for absent players");
  settings.Add("table-ladders", "IDS", "",
               "comma-separated ladders that friends' tables may be rated on (casual ladders: a table chooses its "
               "own bots and clocks, so never a ranked one); empty: tables are not rated");
  if (!program.Parse(argc, argv)) return program.exit_code();
  metropolis::matchmaker::MatchmakerConfig config{.service_token = settings.Get("service-token"),
                                                  .host_admin_token = settings.Get("host-admin-token"),
                                                  .ratings = settings.Get("ratings"),
                                                  .replays = settings.Get("replays"),
                                                  .accounts = settings.Get("accounts"),
                                                  .gateway_token = settings.Get("gateway-token"),
                                                  .bot = settings.Get("bot")};
  std::string error;
  int64_t share_ladders = 1;
  if (!settings.GetInt("round-ms", 1, 60'000, &config.round_ms, &error) ||
      !settings.GetInt("tournament-pass-ms", 10, 60'000, &config.pass_ms, &error) ||
      !settings.GetInt("lease-ms", 100, 600'000, &config.lease_ms, &error) ||
      !settings.GetInt("ticket-ttl-ms", 100, 3'600'000, &config.ticket_ttl_ms, &error) ||
      !settings.GetInt("host-forget-ms", 15'000, 86'400'000, &config.host_forget_ms, &error) ||
      !settings.GetInt("share-ladders", 0, 1, &share_ladders, &error))
    return program.Fail(error);
  config.share_ladders = share_ladders == 1;
  for (std::string rest = settings.Get("table-ladders"); !rest.empty();) {
    const size_t comma = rest.find(',');
    if (const std::string id = rest.substr(0, comma); !id.empty()) config.table_ladders.push_back(id);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  // Every game it creates would carry a bad --bot to a host that refuses it: refused here, at start.
  if (!metropolis::bots::MakeBot(config.bot, &error)) return program.Fail("--bot: " + error);
  if (!program.Check()) return program.exit_code();
  config.redis_prefix = program.redis_prefix();
  config.rate_limit = program.rate_limit();
  program.serve_options().shutdown_grace = std::chrono::seconds(2);
  if (!program.Start()) return program.exit_code();
  metropolis::matchmaker::MatchmakerServer matchmaker(program.pg(), program.redis(), config, program.metrics());
  return program.Serve({&matchmaker});
}
