// Helpers shared by the rule-area and progress-card tests: positions in the
// notation on the default board, actions in their text form, and the checks
// every scenario test makes — a play is listed and applies, a refusal
// names its rule and changes nothing, a position equals the expected one, the
// events and the legal actions as readable text.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/notation.h"
#include "engine/state.h"

namespace metropolis::test_util {

// The default board and harbors (docs/BOARD.md); every position starts so.
inline constexpr std::string_view kHead =
    "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

// The position `fields` (everything after the harbors) on the default board.
inline State Pos(std::string_view fields) {
  State s;
  std::string error;
  const std::string text = std::string(kHead) + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  return s;
}

inline Action A(std::string_view text) {
  std::string error;
  const std::optional<Action> a = ParseAction(text, &error);
  EXPECT_TRUE(a.has_value()) << text << ": " << error;
  return a.value_or(Action{});
}

// Listed among the legal actions, or among the chance outcomes at a chance node.
inline bool IsLegal(const State& s, const Action& a) {
  if (s.IsChanceNode()) {
    for (const ChanceOutcome& o : s.ChanceOutcomes())
      if (o.action == a) return true;
    return false;
  }
  const std::vector<Action> legal = s.LegalActions();
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// The legal actions (or chance outcomes) as text, in the engine's order.
inline std::vector<std::string> LegalTexts(const State& s) {
  std::vector<std::string> out;
  if (s.IsChanceNode()) {
    for (const ChanceOutcome& o : s.ChanceOutcomes()) out.push_back(ActionToString(o.action));
  } else {
    for (const Action& a : s.LegalActions()) out.push_back(ActionToString(a));
  }
  return out;
}

// Legal actions of one type only, e.g. "play" or "bank_trade", as text.
inline std::vector<std::string> LegalTexts(const State& s, std::string_view type) {
  std::vector<std::string> out;
  for (const std::string& t : LegalTexts(s))
    if (t == type || t.starts_with(std::string(type) + " ")) out.push_back(t);
  return out;
}

inline std::vector<std::string> EventTexts(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const Event& e : events) out.push_back(EventToString(e));
  return out;
}

// Applies an action that must be listed and accepted; returns its events as
// text. The position goes into the failure message.
inline std::vector<std::string> Play(State& s, const Action& a, std::vector<Event>* events = nullptr) {
  const std::string before = ToNotation(s);
  std::vector<Event> local;
  std::vector<Event>* ev = events ? events : &local;
  ev->clear();
  EXPECT_TRUE(IsLegal(s, a)) << before << "\n" << ActionToString(a) << " is not listed";
  const std::string error = s.Apply(a, ev);
  EXPECT_EQ(error, "") << before << "\n" << ActionToString(a);
  return EventTexts(*ev);
}
inline std::vector<std::string> Play(State& s, std::string_view action, std::vector<Event>* events = nullptr) {
  return Play(s, A(action), events);
}

// Apply refuses `a` with an error starting "<rule>:" and changes nothing; it
// is not listed either. Returns the error for further checks.
inline std::string ExpectRefused(const State& s, const Action& a, std::string_view rule) {
  State copy = s;
  const std::string error = copy.Apply(a);
  EXPECT_TRUE(error.starts_with(std::string(rule) + ":"))
      << ToNotation(s) << "\n"
      << ActionToString(a) << " -> '" << error << "', expected " << rule;
  EXPECT_TRUE(copy == s) << ActionToString(a) << " changed the state: " << ToNotation(copy);
  EXPECT_FALSE(IsLegal(s, a)) << ActionToString(a) << " is listed";
  return error;
}
inline std::string ExpectRefused(const State& s, std::string_view action, std::string_view rule) {
  return ExpectRefused(s, A(action), rule);
}

// The state equals the position `fields` (compared as text for a readable diff).
inline void ExpectPosition(const State& s, std::string_view fields) {
  const State want = Pos(fields);
  EXPECT_EQ(ToNotation(s), ToNotation(want));
  EXPECT_TRUE(s == want);
}

}  // namespace metropolis::test_util
