// metropolis-engine: the rules engine on the command line.

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"

namespace {

constexpr std::string_view kHelp =
    "usage: metropolis-engine COMMAND [flags]\n"
    "\n"
    "The Metropolis rules engine for Catan: Cities & Knights on the command line.\n"
    "\n"
    "commands:\n"
    "  sim      simulate seeded games between bots (random, greedy, ...); print a summary\n"
    "  replay   verify a recorded game (a JSON line) and print positions and events\n"
    "  apply    apply actions to a position and print the result and what may follow\n"
    "  perft    count legal action sequences from a position to a given depth\n"
    "  arena    measure a bot against opponents: seat rotation, common random numbers, Wilson intervals\n"
    "  golden   play one seeded game and print every step: position, views, legal actions, events\n"
    "  sea-map  print a Seafarers scenario's map and its numbering, or its geometry as JSON\n"
    "  verify   check a finished game's secret dice against the commitment it announced (docs/CHANCE.md)\n"
    "  analyse  a finished game's luck account and win-probability graph (docs/ANALYSIS.md)\n"
    "  reference  the protocol reference: every action, pending decision and event (docs/PROTOCOL.md)\n"
    "\n"
    "'metropolis-engine COMMAND --help' describes a command's flags.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace metropolis::cli;
  if (argc < 2) {
    std::cerr << kHelp;
    return kExitUsage;
  }
  std::string_view command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kHelp;
    return kExitOk;
  }
  if (command == "--version") {
    std::cout << "metropolis-engine, rules version " << metropolis::kRulesVersion << "\n";
    return kExitOk;
  }
  if (command == "sim") return RunSim(args);
  if (command == "replay") return RunReplay(args);
  if (command == "apply") return RunApply(args);
  if (command == "perft") return RunPerft(args);
  if (command == "arena") return RunArena(args);
  if (command == "golden") return RunGolden(args);
  if (command == "sea-map") return RunSeaMap(args);
  if (command == "verify") return RunVerify(args);
  if (command == "analyse" || command == "analyze") return RunAnalyse(args);
  if (command == "reference") return RunReference(args);
  std::cerr << "metropolis-engine: unknown command '" << command << "'\n\n" << kHelp;
  return kExitUsage;
}
