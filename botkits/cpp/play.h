// metropolis-bot's play once its flags are read (main.cc parses them): one or
// more games with a built-in bot, given or found on a ladder, or the tournament
// games the matchmaker sends; a summary line per finished game on stdout.
#pragma once

#include "botkits/cpp/bot_settings.h"

namespace metropolis::botkit {

// Plays as `settings` say; metropolis-bot's exit code (kExitOk, kExitFailed).
int PlayBot(const BotSettings& settings);

}  // namespace metropolis::botkit
