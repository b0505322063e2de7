// replay: verify a recorded game and show chosen steps of it.

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "engine/game.h"
#include "engine/notation.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("replay", "[flags]",
              "Reads a game recorded as one JSON line (as `sim --jsonl` writes them), replays it with\n"
              "every action checked and Validate() after every step, and prints the position and the\n"
              "events at the chosen steps (the final position when no --step is given). Step 0 is the\n"
              "initial position; step k is the position after the k-th action.");
  AddRecordFlags(&flags);
  flags.Add(
      {.name = "step", .value_name = "N", .help = "print the position and events after step N", .repeatable = true});
  flags.Add({.name = "all-events", .value_name = "", .help = "print every action and its events"});
  return flags;
}

struct Snapshot {
  std::unique_ptr<State> state;
  std::string action;  // empty at step 0
  std::vector<Event> events;
};

// The step's kAction event repeats the action the caller already printed.
void PrintConsequences(const std::vector<Event>& events, const char* indent) {
  const std::vector<std::string> texts = StepEventTexts(events);
  for (size_t k = 0; k < events.size(); ++k)
    if (events[k].type != EventType::kAction) std::cout << indent << texts[k] << "\n";
}

}  // namespace

int RunReplay(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  std::map<int64_t, Snapshot> wanted;
  for (const std::string& s : flags.GetAll("step")) {
    int64_t n;
    if (!ParseInt(s, 0, int64_t(1) << 31, &n)) return UsageError(flags, "--step " + s + ": not a step number");
    wanted[n];
  }

  GameRecord record;
  std::string where;
  if (int exit_code; !ReadRecordFlags(flags, &record, &where, &exit_code)) return exit_code;
  const int64_t steps = int64_t(record.actions.size());
  for (const auto& [n, snapshot] : wanted) {
    if (n > steps)
      return Fail(flags, "--step " + std::to_string(n) + ": the game has " + std::to_string(steps) + " steps",
                  kExitUsage);
  }
  const bool show_final = wanted.empty() && !flags.Has("all-events");
  if (show_final) wanted[steps];

  std::string inconsistency;
  std::unique_ptr<State> last;
  const bool all_events = flags.Has("all-events");
  auto on_step = [&](int step, const State& state, const Action* action, const std::vector<Event>& events) {
    if (inconsistency.empty()) {
      std::string e = state.Validate();
      if (!e.empty())
        inconsistency =
            "step " + std::to_string(step) + (action ? ": " + ActionToString(*action) : std::string()) + ": " + e;
    }
    if (all_events && action) {
      std::cout << step << " " << DescribePlayer(events.empty() ? kTerminalPlayer : events.front().seat) << ": "
                << ActionToString(*action) << "\n";
      PrintConsequences(events, "    ");
    }
    if (auto it = wanted.find(step); it != wanted.end()) {
      it->second.state = std::make_unique<State>(state);
      it->second.action = action ? ActionToString(*action) : "";
      it->second.events = events;
    }
    if (step == steps) last = std::make_unique<State>(state);
  };
  if (!ReplayGame(record, on_step, &error)) return Fail(flags, where + ": " + error, kExitRefused);
  if (!inconsistency.empty())
    return Fail(flags, where + ": Validate() failed at " + inconsistency + " (an engine bug)", kExitEngineBug);

  bool printed = all_events;
  for (const auto& [n, snapshot] : wanted) {
    std::cout << (printed ? "\n" : "") << "== step " << n;
    printed = true;
    if (!snapshot.action.empty()) std::cout << ": " << snapshot.action;
    std::cout << " ==\n";
    PrintConsequences(snapshot.events, "  ");
    std::cout << BoardPicture(*snapshot.state) << "\n";
    std::cout << "position: " << ToNotation(*snapshot.state) << "\n";
  }

  // The record's own claims must match what the replay produced.
  int winner = last->IsTerminal() ? last->Winner() : kNoSeat;
  if (record.winner && *record.winner != winner)
    return Fail(flags,
                where + ": the record says the winner is " + std::to_string(*record.winner) + ", the replay gives " +
                    std::to_string(winner),
                kExitRefused);
  std::cout << (printed ? "\n" : "") << "verified: " << steps << " actions, turn " << last->turn_number() << ", ";
  if (!last->IsTerminal())
    std::cout << "game not over";
  else if (winner == kNoSeat)
    std::cout << "no winner (length cap)";
  else
    std::cout << "seat " << winner << " won";
  std::cout << "; VP";
  for (int seat = 0; seat < last->num_seats(); ++seat) std::cout << " " << int(last->player(seat).vp);
  std::cout << "\n";
  return kExitOk;
}

}  // namespace metropolis::cli
