// apply: one position, a few actions, and what the engine says about them.

#include <iostream>

#include "engine/json_text.h"
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
  flags.Add({.name = "json",
             .value_name = "",
             .help = "one JSON object instead: steps, events, refusal, position, seats, next actions"});
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

struct JsonStep {
  std::string action, actor;
  std::vector<std::string> events;
};

// apply --json: {"steps": [...], "refused": null | {"index", "action", "error"}, "position", "phase", "seats": [...],
// "next": {"player", "legal": [...]} | {"player", "chance": [{"action", "probability"}]} | {"player": "game over"}}.
std::string ApplyJson(const State& state, const std::vector<JsonStep>& steps, int refused_index,
                      const std::string& refused_action, const std::string& refused_error) {
  std::string o = "{\"steps\":[";
  for (size_t i = 0; i < steps.size(); ++i) {
    o += std::string(i ? "," : "") + "{\"action\":" + JsonString(steps[i].action) +
         ",\"actor\":" + JsonString(steps[i].actor) + ",\"events\":[";
    for (size_t k = 0; k < steps[i].events.size(); ++k) o += (k ? "," : "") + JsonString(steps[i].events[k]);
    o += "]}";
  }
  o += "],\"refused\":";
  if (refused_index < 0) {
    o += "null";
  } else {
    o += "{\"index\":" + std::to_string(refused_index + 1) + ",\"action\":" + JsonString(refused_action) +
         ",\"error\":" + JsonString(refused_error) + "}";
  }
  o += ",\"position\":" + JsonString(ToNotation(state));
  o += ",\"turn\":" + std::to_string(state.turn_number()) + ",\"current_seat\":" + std::to_string(state.current_seat());
  o += ",\"longest_road_holder\":" + std::to_string(state.longest_road_holder()) + ",\"seats\":[";
  for (int p = 0; p < state.num_seats(); ++p) {
    const PlayerState& ps = state.player(p);
    o += std::string(p ? "," : "") + "{\"seat\":" + std::to_string(p) + ",\"vp\":" + std::to_string(ps.vp) +
         ",\"longest_road\":" + std::to_string(ps.road_length) + ",\"cards\":" + std::to_string(ps.hand.Total()) +
         ",\"progress_cards\":" + std::to_string(ps.num_progress) + "}";
  }
  o += "],\"next\":{\"player\":" + JsonString(state.IsTerminal() ? "game over" : DescribePlayer(state.CurrentPlayer()));
  if (state.IsChanceNode()) {
    o += ",\"chance\":[";
    bool first = true;
    for (const ChanceOutcome& c : state.ChanceOutcomes()) {
      o += std::string(first ? "" : ",") + "{\"action\":" + JsonString(ActionToString(c.action)) +
           ",\"probability\":" + std::to_string(c.probability) + "}";
      first = false;
    }
    o += "]";
  } else if (!state.IsTerminal()) {
    o += ",\"legal\":[";
    bool first = true;
    for (const Action& a : state.LegalActions()) {
      o += std::string(first ? "" : ",") + JsonString(ActionToString(a));
      first = false;
    }
    o += "]";
  }
  return o + "}}";
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

  const bool json = flags.Has("json");
  std::vector<JsonStep> steps;
  // With --json a refused action is reported in the object (exit code 1 all the same).
  auto refuse = [&](size_t i, const std::string& text, const std::string& where, const std::string& e) {
    if (!json) return Fail(flags, where + ": " + e, kExitRefused);
    std::cout << ApplyJson(state, steps, int(i), text, e) << "\n";
    return kExitRefused;
  };
  std::vector<Event> events;
  for (size_t i = 0; i < actions.size(); ++i) {
    const std::string& text = actions[i];
    std::string where = "action " + std::to_string(i + 1) + " '" + text + "'";
    std::optional<Action> action = ParseAction(text, &error);
    if (!action) return refuse(i, text, where, error);
    int actor = state.CurrentPlayer();
    events.clear();
    if (std::string e = state.Apply(*action, &events); !e.empty()) return refuse(i, text, where, e);
    if (std::string e = state.Validate(); !e.empty())
      return Fail(flags, where + ": Validate() failed after it (an engine bug): " + e, kExitEngineBug);
    if (json) {
      JsonStep step{ActionToString(*action), DescribePlayer(actor), {}};
      const std::vector<std::string> texts = StepEventTexts(events);
      for (size_t k = 0; k < events.size(); ++k)
        if (events[k].type != EventType::kAction) step.events.push_back(texts[k]);
      steps.push_back(std::move(step));
      continue;
    }
    std::cout << "action " << i + 1 << " (" << DescribePlayer(actor) << "): " << ActionToString(*action) << "\n";
    // The kAction event repeats the line above.
    const std::vector<std::string> texts = StepEventTexts(events);
    for (size_t k = 0; k < events.size(); ++k)
      if (events[k].type != EventType::kAction) std::cout << "  " << texts[k] << "\n";
  }
  if (json) {
    std::cout << ApplyJson(state, steps, -1, "", "") << "\n";
    return kExitOk;
  }
  if (!actions.empty()) std::cout << "\n";
  std::cout << BoardPicture(state) << "\n";
  std::cout << "position: " << ToNotation(state) << "\n\n";
  std::cout << DescribeNext(state);
  return kExitOk;
}

}  // namespace metropolis::cli
