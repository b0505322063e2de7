// metropolis-admin's commands (main.cc only parses the command line and
// dispatches): identities, their API tokens, ladders and seasons on the Accounts
// service's tables. The output is metropolisctl's (tools/ctl/accounts.cc), so that a
// script reads either program's the same way.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/flags/flags.h"

namespace metropolis::admin {

inline constexpr int kExitOk = 0, kExitFailed = 1, kExitUsage = 2;
inline constexpr std::string_view kProgram = "metropolis-admin";

// The whole usage, for --help and a missing or unknown command.
extern const std::string kHelp;

struct Run;

struct Command {
  std::string_view name;
  std::vector<std::string_view> args;  // positional arguments, all required
  std::string_view summary;
  std::function<void(cli::Flags*)> add_flags;
  std::function<int(Run&)> run;
};

const std::vector<Command>& Commands();

// Splits the global flags before the command from the command and what follows.
bool SplitCommandLine(const std::vector<std::string>& args, std::string* command, std::vector<std::string>* global,
                      std::vector<std::string>* rest, std::string* error);

// Parses the command's flags (the global ones among them), opens the stores on
// --pg's database and runs it; the program's exit code.
int RunCommand(const Command& command, std::vector<std::string> args);

}  // namespace metropolis::admin
