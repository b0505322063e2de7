// metropolis-bot: plays one seat of a game on a game host with a built-in bot.
// This reads the flags (bot_settings.h); play.cc plays, the smallest complete
// user of the C++ bot kit (client.h).

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "botkits/cpp/bot_settings.h"
#include "botkits/cpp/play.h"

namespace botkit = metropolis::botkit;

int main(int argc, char** argv) {
  botkit::BotSettings settings;
  bool help = false;
  std::string error;
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!botkit::ParseBotSettings(args, std::getenv, &settings, &help, &error)) {
    std::cerr << "metropolis-bot: " << error << "\n(see metropolis-bot --help)\n";
    return botkit::kExitUsage;
  }
  if (help) {
    std::cout << botkit::BotUsage(botkit::BotFlags());
    return botkit::kExitOk;
  }
  return botkit::PlayBot(settings);
}
