// perft: counts of legal action sequences, with timing (engine/perft.h).

#include <chrono>
#include <iostream>

#include "engine/perft.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"
#include "tools/engine/table.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("perft", "(--position TEXT | --position-file FILE | --new) [flags]",
              "Counts the legal action sequences of each length 1..N from a position (engine/perft.h\n"
              "gives the exact definition). With --chance expand every chance outcome is a branch and a\n"
              "ply; with --chance fixed each chance node takes one outcome drawn from --seed and is not\n"
              "a ply.");
  AddPositionFlags(&flags);
  flags.Add({.name = "depth", .value_name = "N", .help = "deepest count (default 2)"});
  flags.Add({.name = "chance", .value_name = "expand|fixed", .help = "how chance nodes count (default expand)"});
  flags.Add({.name = "seed", .value_name = "S", .help = "with --chance fixed: the seed of the outcomes (default 0)"});
  flags.Add({.name = "divide", .value_name = "", .help = "also print the depth-N count below each first action"});
  return flags;
}

}  // namespace

int RunPerft(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  int64_t depth = 2;
  if (flags.Has("depth") && !flags.GetInt("depth", 0, 64, &depth, &error)) return UsageError(flags, error);
  PerftOptions options;
  std::string chance = flags.Get("chance", "expand");
  if (chance == "fixed") {
    options.chance = PerftOptions::Chance::kFixed;
  } else if (chance != "expand") {
    return UsageError(flags, "--chance " + chance + ": expected 'expand' or 'fixed'");
  }
  if (flags.Has("seed") && !flags.GetUint64("seed", &options.seed, &error)) return UsageError(flags, error);

  State state(PlaceholderConfig());
  bool usage_error = false;
  if (!LoadPosition(flags, &state, &error, &usage_error))
    return usage_error ? UsageError(flags, error) : Fail(flags, error, kExitRefused);

  std::cout << "perft from " << DescribePlayer(state.CurrentPlayer()) << " to move, chance " << chance;
  if (options.chance == PerftOptions::Chance::kFixed) std::cout << " (seed " << options.seed << ")";
  std::cout << "\n\n";

  Table table({"depth", "count", "seconds", "nodes/s"});
  for (int d = 1; d <= depth; ++d) {
    auto start = std::chrono::steady_clock::now();
    uint64_t count = Perft(state, d, options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Every counted sequence ends at a leaf; the leaves are what was visited.
    table.AddRow({std::to_string(d), std::to_string(count), FormatFixed(seconds, 3),
                  seconds > 0 ? FormatRate(double(count) / seconds) : "-"});
  }
  std::cout << table.ToString();

  if (flags.Has("divide") && depth > 0) {
    std::cout << "\ndivide at depth " << depth << ":\n";
    Table divide({"action", "count"});
    uint64_t total = 0;
    for (const auto& [action, count] : PerftDivide(state, int(depth), options)) {
      divide.AddRow({ActionToString(action), std::to_string(count)});
      total += count;
    }
    divide.AddRow({"total", std::to_string(total)});
    std::cout << divide.ToString();
  }
  return kExitOk;
}

}  // namespace metropolis::cli
