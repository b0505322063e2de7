#include "botkits/cpp/bot_settings.h"

#include <string_view>

#include "bots/bot.h"
#include "lib/common/credentials.h"

namespace metropolis::botkit {

cli::Flags BotFlags() {
  cli::Flags f(
      "metropolis-bot",
      "--host ADDR --game ID --token T --bot SPEC [flags]\n"
      "       metropolis-bot --ladder ID --matchmaker ADDR --api-token T --bot SPEC [--games N] [flags]\n"
      "       metropolis-bot --compete --matchmaker ADDR --api-token T --bot SPEC [--capacity N] [--sessions N] "
      "[--games N]",
      "Plays one seat of a game on a Metropolis game host with a built-in bot, reconnecting when the\n"
      "stream drops (the host's fallback bot plays the seat meanwhile), and prints one summary line\n"
      "when the game is over.");
  f.Add({.name = "host", .value_name = "ADDR", .help = "the game host, HOST:PORT (env METROPOLIS_HOST)"});
  f.Add({.name = "tls-ca",
         .value_name = "FILE",
         .help = "PEM CA bundle: reach the game hosts and the matchmaker over TLS, verified against it (env "
                 "METROPOLIS_TLS_CA; default: plaintext)"});
  f.Add({.name = "ladder",
         .value_name = "ID",
         .help = "ladder mode: queue on this ladder instead of --host/--game/--token"});
  f.Add(
      {.name = "matchmaker", .value_name = "ADDR", .help = "ladder mode: the matchmaker (env METROPOLIS_MATCHMAKER)"});
  f.Add(
      {.name = "api-token", .value_name = "T", .help = "ladder mode: the bot's API token (env METROPOLIS_API_TOKEN)"});
  f.Add({.name = "games",
         .value_name = "N",
         .help = "ladder mode: games to play one after another (default 1); compete mode: stop after N games "
                 "(default: play until stopped)"});
  f.Add({.name = "compete",
         .value_name = "",
         .help = "tournament mode: stay available to the matchmaker and play every tournament game it sends"});
  f.Add({.name = "capacity", .value_name = "N", .help = "compete mode: games at once (1..16, default 1)"});
  f.Add({.name = "sessions",
         .value_name = "N",
         .help = "compete mode: hold N Compete streams, each with --capacity; a duplicate set's rotations go to "
                 "separate streams, one each while there are enough (1..16, default 1; with N > 1 it plays "
                 "until stopped)"});
  f.Add({.name = "game", .value_name = "ID", .help = "the game id"});
  f.Add({.name = "token", .value_name = "T", .help = "the seat's token from CreateGame (env METROPOLIS_TOKEN)"});
  f.Add({.name = "bot",
         .value_name = "SPEC",
         .help = "the bot: random, greedy, heuristic or search[:ms=50,...] (bots/bot.h)"});
  f.Add({.name = "seed", .value_name = "N", .help = "seed of the bot's random stream (default: unpredictable)"});
  f.Add({.name = "take-over", .value_name = "", .help = "replace a stream that already plays the seat"});
  f.Add({.name = "quiet", .value_name = "", .help = "print only the summary line and errors"});
  f.Add({.name = "verbose", .value_name = "", .help = "also log every decision and event"});
  f.Add({.name = "debug-notes",
         .value_name = "",
         .help = "send a note with each answer (what the bot chose, of how many), which the bot's author reads "
                 "in the replay (docs/GAMEHOST.md, \"Debug notes\")"});
  f.Add({.name = "view-deltas",
         .value_name = "",
         .help = "ask the host for views as deltas against the last decision answered (about a sixth of the bytes; "
                 "docs/GAMEHOST.md)"});
  f.Add({.name = "record",
         .value_name = "FILE",
         .help = "append one JSON line per finished game to FILE: what the seat saw (game, seat, steps, a digest "
                 "of its events, the result), for the game checker"});
  f.Add({.name = "max-reconnects",
         .value_name = "N",
         .help = "consecutive reconnect attempts after a dropped stream before giving up (default 20: about 70 s, the "
                 "backoff doubling from 250 ms to 4 s)"});
  f.Add({.name = "disconnect-after",
         .value_name = "N",
         .help = "testing aid: after N answered decisions, drop the stream at the next one (once), wait "
                 "--reconnect-delay-ms, reconnect"});
  f.Add({.name = "reconnect-delay-ms",
         .value_name = "N",
         .help = "testing aid: the wait of --disconnect-after (default 500)"});
  f.Add({.name = "stall-after",
         .value_name = "N",
         .help = "testing aid: after N answered decisions, answer nothing more but keep the stream open "
                 "to the end"});
  return f;
}

std::string BotUsage(const cli::Flags& flags) {
  // Flags::Usage() names metropolis-engine, whose subcommands it was written for.
  std::string usage = flags.Usage();
  constexpr std::string_view kEnginePrefix = "usage: metropolis-engine ";
  if (usage.starts_with(kEnginePrefix)) usage.replace(0, kEnginePrefix.size(), "usage: ");
  return usage +
         "\nexit status: 0 the game is over (whoever won), 1 it could not be played to its end (the gRPC\n"
         "status code and message are printed), 2 bad flags.\n";
}

bool ParseBotSettings(const std::vector<std::string>& args, const GetEnv& env, BotSettings* out, bool* help,
                      std::string* error) {
  cli::Flags flags = BotFlags();
  *help = false;
  if (!flags.Parse(args, error)) return false;
  if (flags.Help()) {
    *help = true;
    return true;
  }
  auto flag_or_env = [&](const char* name, const char* var) {
    if (flags.Has(name)) return flags.Get(name);
    const char* value = env ? env(var) : nullptr;
    return std::string(value ? value : "");
  };
  auto fail = [&](std::string message) {
    *error = std::move(message);
    return false;
  };
  BotSettings s;
  if (const std::string ca = flag_or_env("tls-ca", "METROPOLIS_TLS_CA"); !ca.empty()) {
    if (!services::LoadCaBundle(ca, &s.tls_ca_pem, error)) return fail("--tls-ca: " + *error);
  }
  s.client.host = flag_or_env("host", "METROPOLIS_HOST");
  s.client.token = flag_or_env("token", "METROPOLIS_TOKEN");
  s.client.game_id = flags.Get("game");
  s.bot = flags.Get("bot");
  s.ladder.ladder = flags.Get("ladder");
  s.compete = flags.Has("compete");
  if (flags.Has("capacity") && !s.compete) return fail("--capacity needs --compete");
  if (flags.Has("sessions") && !s.compete) return fail("--sessions needs --compete");
  if (s.compete) {
    if (!s.ladder.ladder.empty()) return fail("--compete and --ladder exclude each other");
    s.compete_options.matchmaker = flag_or_env("matchmaker", "METROPOLIS_MATCHMAKER");
    s.compete_options.api_token = flag_or_env("api-token", "METROPOLIS_API_TOKEN");
    if (s.compete_options.matchmaker.empty())
      return fail("--matchmaker (or METROPOLIS_MATCHMAKER) is required with --compete");
    if (s.compete_options.api_token.empty())
      return fail("--api-token (or METROPOLIS_API_TOKEN) is required with --compete");
    if (flags.Has("game") || flags.Has("token") || flags.Has("host"))
      return fail("--host, --game and --token come from the matchmaker with --compete");
    int64_t games = 0, capacity = 1;
    if (flags.Has("games") && !flags.GetInt("games", 1, 1'000'000, &games, error)) return false;
    if (flags.Has("capacity") && !flags.GetInt("capacity", 1, 16, &capacity, error)) return false;
    int64_t sessions = 1;
    if (flags.Has("sessions") && !flags.GetInt("sessions", 1, 16, &sessions, error)) return false;
    // Stopping after N games would leave the other streams waiting for a seat.
    if (sessions > 1 && flags.Has("games")) return fail("--games needs one session (--sessions 1)");
    s.sessions = int(sessions);
    s.games = int(games);
    s.compete_options.capacity = int(capacity);
  } else if (!s.ladder.ladder.empty()) {
    s.ladder.matchmaker = flag_or_env("matchmaker", "METROPOLIS_MATCHMAKER");
    s.ladder.api_token = flag_or_env("api-token", "METROPOLIS_API_TOKEN");
    if (s.ladder.matchmaker.empty()) return fail("--matchmaker (or METROPOLIS_MATCHMAKER) is required with --ladder");
    if (s.ladder.api_token.empty()) return fail("--api-token (or METROPOLIS_API_TOKEN) is required with --ladder");
    if (flags.Has("game") || flags.Has("token"))
      return fail("--game and --token come from the matchmaker with --ladder");
    int64_t games = 1;
    if (flags.Has("games") && !flags.GetInt("games", 1, 1'000'000, &games, error)) return false;
    s.games = int(games);
  } else {
    if (flags.Has("games") || flags.Has("matchmaker") || flags.Has("api-token"))
      return fail("--games, --matchmaker and --api-token need --ladder or --compete");
    if (s.client.host.empty()) return fail("--host (or METROPOLIS_HOST) is required");
    if (s.client.game_id.empty()) return fail("--game is required");
    if (s.client.token.empty()) return fail("--token (or METROPOLIS_TOKEN) is required");
  }
  if (s.bot.empty()) return fail("--bot is required (random, greedy, heuristic or search:ms=50)");
  std::string bot_error;
  if (!bots::MakeBot(s.bot, &bot_error)) return fail("--bot: " + bot_error);

  if (flags.Has("seed")) {
    if (!flags.GetUint64("seed", &s.seed, error)) return false;
    s.seed_given = true;
  }
  s.client.take_over = flags.Has("take-over");
  s.quiet = flags.Has("quiet");
  s.verbose = flags.Has("verbose");
  s.debug_notes = flags.Has("debug-notes");
  s.client.view_deltas = flags.Has("view-deltas");
  s.record_path = flags.Get("record");
  if (flags.Has("record") && s.record_path.empty()) return fail("--record needs a file");
  if (s.quiet && s.verbose) return fail("--quiet and --verbose exclude each other");
  s.client.want_text = s.verbose;

  struct IntFlag {
    const char* name;
    int64_t min, max;
    int* out;
  };
  const IntFlag ints[] = {
      {"max-reconnects", 0, 1000, &s.client.max_reconnect_attempts},
      {"disconnect-after", 1, 1'000'000, &s.client.disconnect_after},
      {"reconnect-delay-ms", 0, 600'000, &s.client.reconnect_delay_ms},
      {"stall-after", 1, 1'000'000, &s.client.stall_after},
  };
  for (const IntFlag& f : ints) {
    if (!flags.Has(f.name)) continue;
    int64_t v = 0;
    if (!flags.GetInt(f.name, f.min, f.max, &v, error)) return false;
    *f.out = int(v);
  }
  if (flags.Has("reconnect-delay-ms") && !flags.Has("disconnect-after"))
    return fail("--reconnect-delay-ms only applies with --disconnect-after");
  *out = std::move(s);
  return true;
}

}  // namespace metropolis::botkit
