// metropolis-check: the game checker over a finished run (check.h says what it
// requires). Reads the database, the bots' record files and the hosts' logs,
// prints a summary table and every violation; exits 0 when there is none, 1 when
// there are violations, 2 on bad flags or unreadable inputs.
#include <iomanip>
#include <iostream>

#include "lib/flags/flags.h"
#include "tests/checker/check.h"
#include "tests/checker/load.h"

namespace {

using namespace metropolis;

int Usage(const cli::Flags& flags, const std::string& error) {
  std::cerr << "metropolis-check: " << error << "\n\n" << flags.Usage();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  cli::Flags flags("", "[flags]",
                   "Checks that every game played was stored once, exactly as its players saw it, and rated once "
                   "(docs/FAILURES.md, \"The checker\").");
  flags.set_program("metropolis-check");
  flags.Add({.name = "pg", .value_name = "CONNINFO", .help = "the PostgreSQL the services store into"});
  flags.Add({.name = "completed",
             .value_name = "DIR",
             .help = "instead of --pg: a lone game host's completed games (DATA_DIR/completed); repeatable; "
                     "nothing about ratings is checked then",
             .repeatable = true});
  flags.Add({.name = "ladder", .value_name = "ID", .help = "check only this ladder's games and ratings"});
  flags.Add({.name = "records",
             .value_name = "FILE",
             .help = "a bot's record file (--record), one JSON line per finished game; repeatable",
             .repeatable = true});
  flags.Add({.name = "host-log",
             .value_name = "FILE",
             .help = "a game host's log, for the games it created and voided; repeatable",
             .repeatable = true});
  flags.Add({.name = "every-game-recorded",
             .value_name = "",
             .help = "every stored game must have been finished by a recorded seat"});
  flags.Add({.name = "concurrent-games",
             .value_name = "",
             .help = "an identity may play several games at once (tournament bots with --capacity)"});
  flags.Add({.name = "games-per-bot", .value_name = "N", .help = "each record file must hold N games"});
  flags.Add({.name = "min-games", .value_name = "N", .help = "at least N games must be stored"});
  std::string error;
  if (!flags.Parse(std::vector<std::string>(argv + 1, argv + argc), &error)) return Usage(flags, error);
  if (flags.Help()) {
    std::cout << flags.Usage();
    return 0;
  }
  const bool from_host = !flags.GetAll("completed").empty();
  if (flags.Get("pg").empty() == !from_host) return Usage(flags, "give either --pg or --completed");

  checker::Inputs inputs;
  checker::Expectations expect;
  expect.every_stored_game_recorded = flags.Has("every-game-recorded");
  expect.ratings = !from_host;
  expect.one_table_at_a_time = !flags.Has("concurrent-games");
  int64_t n = 0;
  if (flags.Has("games-per-bot")) {
    if (!flags.GetInt("games-per-bot", 1, 1'000'000, &n, &error)) return Usage(flags, error);
    expect.games_per_record_file = int(n);
  }
  if (flags.Has("min-games")) {
    if (!flags.GetInt("min-games", 1, 1'000'000'000, &n, &error)) return Usage(flags, error);
    expect.min_games = int(n);
  }
  if (!(from_host ? checker::LoadCompletedGames(flags.GetAll("completed"), &inputs, &error)
                  : checker::LoadDatabase(flags.Get("pg"), flags.Get("ladder"), &inputs, &error)) ||
      !checker::LoadRecords(flags.GetAll("records"), &inputs, &inputs.records_per_file, &error) ||
      !checker::LoadHostLogs(flags.GetAll("host-log"), &inputs, &error)) {
    std::cerr << "metropolis-check: " << error << "\n";
    return 2;
  }

  const checker::Report report = checker::Check(inputs, expect);
  std::cout << "metropolis-check\n";
  auto row = [](const std::string& what, const std::string& value) {
    std::cout << "  " << std::left << std::setw(28) << what << value << "\n";
  };
  row("stored games replayed", std::to_string(report.games_checked));
  row("seat records checked", std::to_string(report.records_checked));
  row("games rated", expect.ratings ? std::to_string(report.rated_games) : "not checked");
  row("games created (host logs)", std::to_string(report.created_games));
  for (const auto& [reason, count] : report.voids_by_reason) row("void: " + reason, std::to_string(count));
  row("violations", std::to_string(report.violations.size()));
  for (const std::string& note : report.notes) std::cout << "  note: " << note << "\n";
  for (const checker::Violation& v : report.violations) {
    std::cout << "VIOLATION " << v.kind << (v.game.empty() ? "" : " game=" + v.game)
              << (v.detail.empty() ? "" : ": " + v.detail) << "\n";
  }
  return report.violations.empty() ? 0 : 1;
}
