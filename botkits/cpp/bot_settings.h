// The flags of metropolis-bot, read into the Client's options: kept apart from
// main() so that the tests read them without a host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "botkits/cpp/client.h"
#include "botkits/cpp/compete.h"
#include "botkits/cpp/ladder.h"
#include "lib/flags/flags.h"

namespace metropolis::botkit {

struct BotSettings {
  Options client;
  // Ladder mode (--ladder): queue at the matchmaker for each of `games` games
  // instead of playing one given game.
  LadderOptions ladder;
  // Compete mode (--compete): play the tournament games the matchmaker sends;
  // `games` 0 means until stopped.
  bool compete = false;
  CompeteOptions compete_options;
  int sessions = 1;  // Compete streams held at once (--sessions)
  int games = 1;
  std::string tls_ca_pem;  // --tls-ca's certificates: SetChannelTls; empty: plaintext
  std::string bot;         // a MakeBot spec, checked
  uint64_t seed = 0;       // the bot's random stream
  bool seed_given = false;
  bool quiet = false;        // only the summary line and errors
  bool verbose = false;      // also every decision and event
  bool debug_notes = false;  // --debug-notes: each answer carries a note for the bot's author
  std::string record_path;   // --record: a JSON line per finished game (lib/protocol/seat_record.h)
};

// Exit codes of metropolis-bot.
inline constexpr int kExitOk = 0;      // the game is over
inline constexpr int kExitFailed = 1;  // the game could not be played to its end
inline constexpr int kExitUsage = 2;   // bad flags

// Looks up an environment variable; nullptr when unset (std::getenv in main).
using GetEnv = std::function<const char*(const char*)>;

cli::Flags BotFlags();
// "usage: metropolis-bot ..." with the flags and exit codes.
std::string BotUsage(const cli::Flags& flags);

// Parses the arguments (without the program name). False with *error for bad
// flags; *help is set when --help was given (nothing else is then read).
bool ParseBotSettings(const std::vector<std::string>& args, const GetEnv& env, BotSettings* out, bool* help,
                      std::string* error);

}  // namespace metropolis::botkit
