// apply: one position, a few actions, and what the engine says about them.

#include <iostream>

#include "engine/notation.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("apply", "(--position TEXT | --position-file FILE | --new) [flags] [ACTION...]",
              "Applies actions (in their text form, e.g. 'build_road e17') to a position one by one,\n"
              "each checked by the rules, and prints the events of each step, the resulting position,\n"
              "and the legal actions of whoever acts next (or the chance outcomes). An illegal action\n"
              "stops with exit code 1 and the rule it breaks.");
  AddPositionFlags(&flags);
  flags.Add({.name = "actions-file",
             .value_name = "FILE",
             .help = "read actions from FILE, one per line ('#' starts a comment), before the positional ones"});
  flags.AllowPositionals();
  return flags;
}

bool ReadActionsFile(const std::string& path, std::vector<std::string>* out, std::string* error) {
  std::string text;
  if (!ReadFile(path, &text, error)) return false;
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    line = line.substr(0, line.find('#'));
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) continue;
    size_t e = line.find_last_not_of(" \t\r");
    out->emplace_back(line.substr(b, e - b + 1));
  }
  return true;
}

}  // namespace

int RunApply(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  std::vector<std::string> actions;
  if (flags.Has("actions-file") && !ReadActionsFile(flags.Get("actions-file"), &actions, &error))
    return Fail(flags, error, kExitRefused);
  actions.insert(actions.end(), flags.positionals().begin(), flags.positionals().end());

  State state(PlaceholderConfig());
  bool usage_error = false;
  if (!LoadPosition(flags, &state, &error, &usage_error))
    return usage_error ? UsageError(flags, error) : Fail(flags, error, kExitRefused);
  if (std::string e = state.Validate(); !e.empty())
    return Fail(flags, "the position is inconsistent: " + e, kExitRefused);

  std::vector<Event> events;
  for (size_t i = 0; i < actions.size(); ++i) {
    const std::string& text = actions[i];
    std::string where = "action " + std::to_string(i + 1) + " '" + text + "'";
    std::optional<Action> action = ParseAction(text, &error);
    if (!action) return Fail(flags, where + ": " + error, kExitRefused);
    int actor = state.CurrentPlayer();
    events.clear();
    if (std::string e = state.Apply(*action, &events); !e.empty()) return Fail(flags, where + ": " + e, kExitRefused);
    if (std::string e = state.Validate(); !e.empty())
      return Fail(flags, where + ": Validate() failed after it (an engine bug): " + e, kExitEngineBug);
    std::cout << "action " << i + 1 << " (" << DescribePlayer(actor) << "): " << ActionToString(*action) << "\n";
    // The kAction event repeats the line above.
    const std::vector<std::string> texts = StepEventTexts(events);
    for (size_t k = 0; k < events.size(); ++k)
      if (events[k].type != EventType::kAction) std::cout << "  " << texts[k] << "\n";
  }
  if (!actions.empty()) std::cout << "\n";
  std::cout << BoardPicture(state) << "\n";
  std::cout << "position: " << ToNotation(state) << "\n\n";
  std::cout << DescribeNext(state);
  return kExitOk;
}

}  // namespace metropolis::cli
