#include "tools/engine/common.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/notation.h"
#include "tools/engine/table.h"

namespace metropolis::cli {

int UsageError(const Flags& flags, std::string_view message) {
  std::cerr << "metropolis-engine " << flags.command() << ": " << message << "\n\n" << flags.Usage();
  return kExitUsage;
}

int Fail(const Flags& flags, std::string_view message, int code) {
  std::cerr << "metropolis-engine " << flags.command() << ": " << message << "\n";
  return code;
}

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  std::ostringstream buffer;
  if (path == "-") {
    buffer << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      *error = "cannot open '" + path + "'";
      return false;
    }
    buffer << in.rdbuf();
    if (in.bad()) {
      *error = "cannot read '" + path + "'";
      return false;
    }
  }
  *out = buffer.str();
  return true;
}

void AddOptionFlags(Flags* flags) {
  flags->Add({.name = "ruleset",
              .value_name = "cities_and_knights|base",
              .help = "the ruleset (default cities_and_knights; base is RULES.md section 22, 10 VP), before --option"});
  flags->Add({.name = "option",
              .value_name = "NAME=VALUE",
              .help = "a rules option (RULES.md section 20), e.g. victory_points=10",
              .repeatable = true});
}

bool ParseOrExit(Flags* flags, const std::vector<std::string>& args, int* exit_code) {
  std::string error;
  if (!flags->Parse(args, &error)) {
    *exit_code = UsageError(*flags, error);
    return false;
  }
  if (flags->Help()) {
    std::cout << flags->Usage();
    *exit_code = kExitOk;
    return false;
  }
  return true;
}

void AddMaxActionsFlag(Flags* flags) {
  flags->Add({.name = "max-actions",
              .value_name = "N",
              .help = "end a game without a winner after N actions (the max_actions option, default 20000)"});
}

bool ReadMaxActionsFlag(const Flags& flags, RulesOptions* options, std::string* error) {
  if (!flags.Has("max-actions")) return true;
  int64_t v = 0;
  if (!flags.GetInt("max-actions", 1, 0xFFFFFFFFll, &v, error)) return false;
  options->max_actions = uint32_t(v);
  return true;
}

bool ReadOptionFlags(const Flags& flags, RulesOptions* options, std::string* error) {
  // The ruleset first: it resets the options that default differently (the
  // base game's 10 VP), which --option may then change.
  if (flags.Has("ruleset")) {
    if (std::string e = ParseOption("ruleset=" + flags.Get("ruleset"), options); !e.empty()) {
      *error = "--ruleset " + flags.Get("ruleset") + ": " + e;
      return false;
    }
  }
  for (const std::string& o : flags.GetAll("option")) {
    std::string e = ParseOption(o, options);
    if (!e.empty()) {
      *error = "--option " + o + ": " + e;
      return false;
    }
  }
  return true;
}

void AddPositionFlags(Flags* flags) {
  flags->Add({.name = "position", .value_name = "TEXT", .help = "the position in the notation (docs/NOTATION.md)"});
  flags->Add({.name = "position-file", .value_name = "FILE", .help = "read the position from FILE ('-': stdin)"});
  flags->Add({.name = "new", .value_name = "", .help = "start from a new game instead"});
  flags->Add({.name = "seats", .value_name = "3|4", .help = "with --new: number of seats (default 4)"});
  flags->Add({.name = "board",
              .value_name = "default|random:SEED",
              .help = "with --new: the default board or a random one from SEED (default: default)"});
  AddOptionFlags(flags);
}

GameConfig PlaceholderConfig() {
  GameConfig config;
  config.board = DefaultBoard();
  return config;
}

namespace {

bool ReadNewGameConfig(const Flags& flags, GameConfig* config, std::string* error) {
  config->board = DefaultBoard();
  if (flags.Has("seats")) {
    int64_t seats;
    if (!flags.GetInt("seats", kMinSeats, kMaxSeats, &seats, error)) return false;
    config->num_seats = int(seats);
  }
  std::string board = flags.Get("board", "default");
  if (board.rfind("random:", 0) == 0) {
    uint64_t seed;
    if (!ParseUint64(std::string_view(board).substr(7), &seed)) {
      *error = "--board " + board + ": expected random:SEED with SEED an unsigned integer";
      return false;
    }
    config->board = RandomBoard(seed);
  } else if (board != "default") {
    *error = "--board " + board + ": expected 'default' or 'random:SEED'";
    return false;
  }
  return ReadOptionFlags(flags, &config->options, error);
}

// --option with a position: the options replace the position's own (its opts
// field), and the position is read again, so that the notation's checks hold
// it to them (a victory_points below a seat's VP, a bank that holds too few
// cards, ... are refused as for any position). The ruleset is the notation's
// second word and never changes under a position.
bool ApplyOptionsToPosition(const Flags& flags, State* state, std::string* error, bool* usage_error) {
  RulesOptions options = state->options();
  for (const std::string& o : flags.GetAll("option")) {
    if (o.starts_with("ruleset=")) {
      *usage_error = true;
      *error = "--option " + o + ": a position's ruleset is the second word of its notation and cannot change";
      return false;
    }
    if (std::string e = ParseOption(o, &options); !e.empty()) {
      *usage_error = true;
      *error = "--option " + o + ": " + e;
      return false;
    }
  }
  std::string text = ToNotation(*state);
  const size_t board = text.find(" board=");
  const size_t seats_end = text.find(' ', text.find(" seats=") + 1);
  std::string opts = OptionsToString(options);
  if (opts.starts_with("ruleset=")) {
    const size_t space = opts.find(' ');
    opts = space == std::string::npos ? "" : opts.substr(space + 1);
  }
  text = text.substr(0, seats_end) + (opts.empty() ? "" : " opts=[" + opts + "]") + text.substr(board);
  std::string e;
  if (!FromNotation(text, state, &e)) {
    *error = "--option: the position does not hold under these options: " + e;
    return false;
  }
  return true;
}

}  // namespace

bool LoadPosition(const Flags& flags, State* state, std::string* error, bool* usage_error) {
  *usage_error = true;
  int sources = int(flags.Has("position")) + int(flags.Has("position-file")) + int(flags.Has("new"));
  if (sources != 1) {
    *error = "give exactly one of --position, --position-file and --new";
    return false;
  }
  if (flags.Has("new")) {
    GameConfig config;
    if (!ReadNewGameConfig(flags, &config, error)) return false;
    *usage_error = false;
    if (std::string e = ValidateConfig(config); !e.empty()) {
      *error = "configuration: " + e;
      return false;
    }
    return NewGame(config, state, error);
  }
  for (const char* f : {"seats", "board", "ruleset"}) {
    if (flags.Has(f)) {
      *error = std::string("--") + f +
               " only applies with --new (a position carries its own seats, board and ruleset; --option may change "
               "its rules options)";
      return false;
    }
  }
  std::string text = flags.Get("position");
  if (flags.Has("position-file") && !ReadFile(flags.Get("position-file"), &text, error)) return false;
  *usage_error = false;
  // Files usually end with a newline that is no part of the position.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  std::string e;
  if (!FromNotation(text, state, &e)) {
    *error = "position: " + e;
    return false;
  }
  return flags.GetAll("option").empty() || ApplyOptionsToPosition(flags, state, error, usage_error);
}

std::vector<std::string> SplitBotSpecs(std::string_view list) {
  std::vector<std::string> specs;
  for (const std::string& piece : SplitCommas(list)) {
    if (!specs.empty() && piece.find('=') != std::string::npos && piece.find(':') == std::string::npos) {
      specs.back() += "," + piece;
    } else {
      specs.push_back(piece);
    }
  }
  return specs;
}

std::string DescribePlayer(int player) {
  if (player == kChancePlayer) return "chance";
  if (player == kTerminalPlayer) return "nobody (game over)";
  return "seat " + std::to_string(player);
}

std::string DescribeNext(const State& state) {
  std::string out;
  int player = state.CurrentPlayer();
  if (state.IsTerminal() || player == kTerminalPlayer) {
    out = "game over: ";
    out += state.Winner() == kNoSeat ? "no winner (length cap)" : "seat " + std::to_string(state.Winner()) + " wins";
    out += "\n";
    return out;
  }
  if (player == kChancePlayer) {
    std::vector<ChanceOutcome> outcomes = state.ChanceOutcomes();
    out = "next: chance, " + std::to_string(outcomes.size()) + " outcomes\n";
    Table table({"outcome", "probability"});
    for (const ChanceOutcome& o : outcomes) table.AddRow({ActionToString(o.action), FormatFixed(o.probability, 6)});
    return out + table.ToString();
  }
  std::vector<Action> legal = state.LegalActions();
  out = "next: seat " + std::to_string(player) + ", " + std::to_string(legal.size()) + " legal action" +
        (legal.size() == 1 ? "" : "s") + "\n";
  for (const Action& a : legal) out += "  " + ActionToString(a) + "\n";
  if (state.phase() == Phase::kAction && player == state.current_seat() && state.pending_size() == 0)
    out +=
        "(trade offers are never listed: they are checked when submitted, e.g. 'offer give 2brick want 1ore to 1,3')\n";
  return out;
}

namespace {

// The record's text: the whole input, or one line of it.
bool SelectRecordLine(const std::string& input, const Flags& flags, std::string* line, std::string* error,
                      bool* usage_error) {
  std::vector<std::string_view> lines;
  std::string_view rest = input;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view l = rest.substr(0, nl);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  }
  if (flags.Has("line")) {
    int64_t k;
    if (!flags.GetInt("line", 1, 1 << 30, &k, error)) return false;
    if (k > int64_t(lines.size())) {
      *usage_error = false;
      *error = "--line " + std::to_string(k) + ": the input has " + std::to_string(lines.size()) + " lines";
      return false;
    }
    *line = std::string(lines[size_t(k - 1)]);
    return true;
  }
  int nonempty = 0;
  for (std::string_view l : lines) {
    if (l.find_first_not_of(" \t") == std::string_view::npos) continue;
    ++nonempty;
    *line = std::string(l);
  }
  if (nonempty != 1) {
    *usage_error = nonempty > 1;
    *error = nonempty == 0 ? "the input is empty"
                           : "the input has " + std::to_string(nonempty) + " records; pick one with --line K";
    return false;
  }
  return true;
}

}  // namespace

void AddRecordFlags(Flags* flags) {
  flags->Add({.name = "file", .value_name = "FILE", .help = "the record ('-' or no --file: standard input)"});
  flags->Add({.name = "line", .value_name = "K", .help = "the K-th line (from 1) of a .jsonl file"});
}

bool ReadRecordFlags(const Flags& flags, GameRecord* record, std::string* where, int* exit_code) {
  const std::string path = flags.Get("file", "-");
  std::string input, line, error;
  if (!ReadFile(path, &input, &error)) {
    *exit_code = Fail(flags, error, kExitRefused);
    return false;
  }
  bool usage_error = true;
  if (!SelectRecordLine(input, flags, &line, &error, &usage_error)) {
    *exit_code = usage_error ? UsageError(flags, error) : Fail(flags, error, kExitRefused);
    return false;
  }
  *where = (path == "-" ? std::string("stdin") : path) + (flags.Has("line") ? ":" + flags.Get("line") : std::string());
  if (!GameRecordFromJson(line, record, &error)) {
    *exit_code = Fail(flags, *where + ": " + error, kExitRefused);
    return false;
  }
  return true;
}

}  // namespace metropolis::cli
