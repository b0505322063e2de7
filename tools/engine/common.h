// Helpers shared by the subcommands: reading files, building the starting
// position from flags, describing who acts next, reporting flag errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/config.h"
#include "engine/game.h"
#include "engine/state.h"
#include "lib/flags/flags.h"

namespace metropolis::cli {

// Exit codes: 0 success, 1 the input (a record, a position, an action) was
// refused, 2 bad flags, 3 the engine contradicted itself (a bug to report).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitEngineBug = 3;

// Prints "metropolis-engine CMD: MESSAGE" and the usage to stderr; returns 2.
int UsageError(const Flags& flags, std::string_view message);
// Prints "metropolis-engine CMD: MESSAGE" to stderr and returns `code`.
int Fail(const Flags& flags, std::string_view message, int code);

// Parses a subcommand's arguments. False when the command is done already: the
// usage was printed for --help (*exit_code 0) or the arguments are wrong
// (*exit_code 2, with the error and the usage on stderr).
bool ParseOrExit(Flags* flags, const std::vector<std::string>& args, int* exit_code);

// --max-actions N: the length cap of a game (the max_actions option).
void AddMaxActionsFlag(Flags* flags);
bool ReadMaxActionsFlag(const Flags& flags, RulesOptions* options, std::string* error);

// "-" reads standard input.
bool ReadFile(const std::string& path, std::string* out, std::string* error);
// --file FILE and --line K: the game record a command reads (replay, verify).
void AddRecordFlags(Flags* flags);
// Reads and parses that record: the input's only non-empty line, or its line K.
// *where names it in messages ("game.jsonl:3"). False when it cannot be had: the
// error (and, for a flag's fault, the usage) is printed and *exit_code is what
// the command returns.
bool ReadRecordFlags(const Flags& flags, GameRecord* record, std::string* where, int* exit_code);

// --ruleset NAME, then --option name=value (repeatable), on top of the
// defaults.
void AddOptionFlags(Flags* flags);
bool ReadOptionFlags(const Flags& flags, RulesOptions* options, std::string* error);

// --position, --position-file, --new with --seats, --board and --option.
void AddPositionFlags(Flags* flags);
// Builds the position the flags name. Errors in the flags themselves set
// *usage_error; a position that does not parse or a configuration the engine
// refuses does not.
bool LoadPosition(const Flags& flags, State* state, std::string* error, bool* usage_error);

// A State to overwrite: the constructor needs some valid configuration.
GameConfig PlaceholderConfig();

// A comma-separated list of bot specs (bots/bot.h), one per seat. A spec's
// settings contain commas too ("search:ms=50,threads=2"): a piece with '='
// but no ':' continues the previous spec.
std::vector<std::string> SplitBotSpecs(std::string_view list);

// "seat 2", "chance" or "nobody (game over)".
std::string DescribePlayer(int player);
// The legal actions of whoever acts next, or the chance outcomes with their
// probabilities, or the result when the game is over; one per line.
std::string DescribeNext(const State& state);

}  // namespace metropolis::cli
