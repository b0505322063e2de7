// analyse: a finished game's luck account and win-probability graph
// (docs/ANALYSIS.md), as tables and a picture or as JSON; and --calibrate,
// which fits the win probability's two constants on games of the built-in bots.

#include "analysis/analyse.h"

#include <cmath>
#include <iostream>
#include <memory>

#include "bots/match.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"
#include "tools/engine/table.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("analyse", "[flags]",
              "Reads a finished game's record (as `sim --jsonl` writes them, or GET /api/v1/games/ID/record)\n"
              "and prints its luck account per seat, every seat's chance of winning over the game as each\n"
              "seat could judge it from its own view, and the decisions where the search bot would have\n"
              "played something else (docs/ANALYSIS.md). With --calibrate N it plays N seeded games of\n"
              "the heuristic bots instead and fits the win probability's temperature on them.");
  AddRecordFlags(&flags);
  flags.Add({.name = "positions", .value_name = "N", .help = "graph points before the final one (default 40)"});
  flags.Add({.name = "playouts",
             .value_name = "N",
             .help = "sampled look-aheads per estimate (default 0: the evaluation of the view itself)"});
  flags.Add({.name = "search-iterations",
             .value_name = "N",
             .help = "the search bot's budget per compared decision (default 500; 0: no comparison)"});
  flags.Add({.name = "seed", .value_name = "N", .help = "seeds the samples and the search (default 1)"});
  flags.Add({.name = "json", .value_name = "", .help = "print the analysis as one JSON object"});
  flags.Add({.name = "calibrate",
             .value_name = "N",
             .help = "play N games of heuristic bots (seeds 1..N) and fit the temperature constants"});
  return flags;
}

// Rows of the graph: 10 % bands from 100 % down; each seat's digit where its
// line is, '*' where two meet.
std::string Picture(const analysis::GameAnalysis& a) {
  const int n = a.luck.num_seats;
  const int width = int(a.graph.size());
  std::vector<std::string> rows(11, std::string(size_t(width), ' '));
  for (int x = 0; x < width; ++x) {
    for (int s = 0; s < n; ++s) {
      const int y = 10 - int(std::lround(a.graph[size_t(x)].win[size_t(s)] * 10));
      char& c = rows[size_t(y)][size_t(x)];
      c = c == ' ' ? char('0' + s) : '*';
    }
  }
  std::string out = "chance of winning, seat by seat (digits), over the game's decisions:\n";
  for (int y = 0; y <= 10; ++y) {
    char label[8];
    std::snprintf(label, sizeof label, "%4d%% |", 100 - 10 * y);
    out += label + rows[size_t(y)] + "\n";
  }
  out += "      +" + std::string(size_t(width), '-') + "\n";
  out += "       step 0" +
         std::string(size_t(std::max(0, width - 6 - int(std::to_string(a.graph.back().step).size()))), ' ') +
         std::to_string(a.graph.back().step) + "\n";
  return out;
}

std::string Signed(double v, int decimals) { return (v > 0 ? "+" : "") + FormatFixed(v, decimals); }

int PrintAnalysis(const analysis::GameAnalysis& a) {
  const analysis::LuckAccount& l = a.luck;
  std::cout << "luck: " << l.production_rolls << " production rolls, " << l.barbarian_attacks << " barbarian attacks, "
            << FormatFixed(l.cards_per_vp, 2) << " cards per point\n";
  Table luck({"seat", "dice cards", "expected", "draws", "expected", "stolen", "lost", "discarded", "pillaged",
              "defender", "luck (cards)", "VP", "adjusted VP", "place", "adjusted"});
  for (int s = 0; s < l.num_seats; ++s) {
    const analysis::SeatLuck& x = l.seats[size_t(s)];
    luck.AddRow({std::to_string(s), std::to_string(x.dice_cards), FormatFixed(x.expected_cards, 1),
                 std::to_string(x.draws), FormatFixed(x.expected_draws, 1), std::to_string(x.cards_stolen),
                 std::to_string(x.cards_lost), std::to_string(x.cards_discarded), std::to_string(x.cities_pillaged),
                 std::to_string(x.defender_points), Signed(x.luck_cards, 1), std::to_string(x.vp),
                 FormatFixed(x.adjusted_vp, 1), std::to_string(x.place), std::to_string(x.adjusted_place)});
  }
  std::cout << luck.ToString() << "\n" << Picture(a) << "\n";
  if (a.marks.empty()) {
    std::cout << "the search bot agreed with every compared decision\n";
  } else {
    Table marks({"step", "seat", "played", "the search bot would play", "value lost"});
    for (const analysis::Mark& m : a.marks)
      marks.AddRow({std::to_string(m.step), std::to_string(m.seat), m.played, m.suggested,
                    m.cost < 0 ? "not considered" : FormatFixed(m.cost, 3)});
    std::cout << marks.ToString();
  }
  std::cout << a.graph.size() << " positions of " << a.decisions << " decisions in " << FormatFixed(a.cpu_seconds, 3)
            << " CPU seconds\n";
  return kExitOk;
}

// The mean per-seat log-loss of the estimates at temperature (base, per_point).
double LogLoss(const std::vector<std::pair<int, analysis::SeenScores>>& points, double base, double per_point) {
  analysis::WinOptions options;
  options.temperature_base = base;
  options.temperature_per_point = per_point;
  double loss = 0;
  for (const auto& [winner, seen] : points) {
    const double p = analysis::WinProbabilityFromScores(seen.scores, seen.seat, options);
    loss -= std::log(std::clamp(seen.seat == winner ? p : 1 - p, 1e-6, 1.0));
  }
  return loss / double(points.size());
}

int RunCalibrate(const Flags& flags, int64_t games, int positions) {
  std::vector<std::pair<int, analysis::SeenScores>> points;
  std::string error;
  for (int64_t g = 1; g <= games; ++g) {
    GameRecord record;
    record.config.board = DefaultBoard();
    std::vector<std::unique_ptr<bots::Bot>> players;
    std::vector<bots::Seat> seats;
    for (int seat = 0; seat < 4; ++seat) {
      players.push_back(bots::MakeBot("heuristic:trade=0", &error));
      seats.push_back({players.back().get(), bots::MixSeed(uint64_t(g), uint64_t(seat) + 10)});
    }
    const bots::GameOutcome outcome = bots::PlayGame(record.config, seats, uint64_t(g), &record.actions);
    if (!outcome.error.empty()) return Fail(flags, "game " + std::to_string(g) + ": " + outcome.error, kExitEngineBug);
    if (outcome.winner < 0) continue;  // the length cap: no winner to score
    std::vector<analysis::SeenScores> seen;
    if (!analysis::CollectScores(record, positions, uint64_t(g), &seen, &error))
      return Fail(flags, "game " + std::to_string(g) + ": " + error, kExitEngineBug);
    for (const analysis::SeenScores& s : seen) points.emplace_back(outcome.winner, s);
    std::cerr << "\rcalibrate: " << g << "/" << games << " games" << std::flush;
  }
  std::cerr << "\n";
  if (points.empty()) return Fail(flags, "no game had a winner", kExitRefused);
  double best_loss = 1e9, best_base = 0, best_per_point = 0;
  Table table({"base", "per point", "log-loss"});
  for (double base = 0.25; base <= 4.001; base += 0.25) {
    for (double per_point = 0; per_point <= 1.001; per_point += 0.05) {
      const double loss = LogLoss(points, base, per_point);
      if (loss < best_loss) best_loss = loss, best_base = base, best_per_point = per_point;
    }
  }
  const double uniform = -(0.25 * std::log(0.25) + 0.75 * std::log(0.75));
  table.AddRow({"uniform guess", "", FormatFixed(uniform, 4)});
  table.AddRow({FormatFixed(analysis::kTemperatureBase, 2), FormatFixed(analysis::kTemperaturePerPoint, 2),
                FormatFixed(LogLoss(points, analysis::kTemperatureBase, analysis::kTemperaturePerPoint), 4) +
                    " (the constants in use)"});
  table.AddRow({FormatFixed(best_base, 2), FormatFixed(best_per_point, 2), FormatFixed(best_loss, 4) + " (best fit)"});
  std::cout << points.size() << " estimates from " << games << " games\n" << table.ToString();
  return kExitOk;
}

}  // namespace

int RunAnalyse(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  analysis::AnalysisOptions options;
  int64_t v = 0;
  if (flags.Has("positions")) {
    if (!flags.GetInt("positions", 1, 10000, &v, &error)) return UsageError(flags, error);
    options.positions = int(v);
  }
  if (flags.Has("playouts")) {
    if (!flags.GetInt("playouts", 0, 10000, &v, &error)) return UsageError(flags, error);
    options.win.playouts = int(v);
  }
  if (flags.Has("search-iterations")) {
    if (!flags.GetInt("search-iterations", 0, 1000000, &v, &error)) return UsageError(flags, error);
    options.search_iterations = v;
  }
  if (flags.Has("seed") && !flags.GetUint64("seed", &options.seed, &error)) return UsageError(flags, error);
  if (flags.Has("calibrate")) {
    if (flags.Has("file")) return UsageError(flags, "--calibrate plays its own games: no --file");
    if (!flags.GetInt("calibrate", 1, 100000, &v, &error)) return UsageError(flags, error);
    return RunCalibrate(flags, v, options.positions);
  }
  GameRecord record;
  std::string where;
  if (int exit_code; !ReadRecordFlags(flags, &record, &where, &exit_code)) return exit_code;
  analysis::GameAnalysis analysis;
  if (!analysis::AnalyseGame(record, options, &analysis, &error))
    return Fail(flags, where + ": " + error, kExitRefused);
  if (flags.Has("json")) {
    std::cout << analysis::AnalysisToJson(analysis) << "\n";
    return kExitOk;
  }
  return PrintAnalysis(analysis);
}

}  // namespace metropolis::cli
