// metropolis-admin: identities, their API tokens, ladders and seasons straight
// on the database. It makes the first administrator's token, which nothing
// else can; after that, metropolisctl does the same through the Accounts
// service, with the same commands and output.

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "lib/common/log.h"
#include "tools/admin/commands.h"

namespace ad = metropolis::admin;

int main(int argc, char** argv) {
  metropolis::services::SetLogService(ad::kProgram);
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string name, error;
  std::vector<std::string> global, rest;
  if (!ad::SplitCommandLine(args, &name, &global, &rest, &error)) {
    std::cerr << ad::kProgram << ": " << error << "\n(see " << ad::kProgram << " --help)\n";
    return ad::kExitUsage;
  }
  if (name.empty() || name == "help") {
    bool asked = name == "help";
    for (const std::string& g : global) asked |= g == "--help";
    (asked ? std::cout : std::cerr) << ad::kHelp;
    return asked ? ad::kExitOk : ad::kExitUsage;
  }
  for (const ad::Command& command : ad::Commands()) {
    if (command.name != name) continue;
    // The command sees the global flags given before it as if given after it.
    global.insert(global.end(), rest.begin(), rest.end());
    return ad::RunCommand(command, std::move(global));
  }
  std::cerr << ad::kProgram << ": unknown command '" << name << "'\n\n" << ad::kHelp;
  return ad::kExitUsage;
}
