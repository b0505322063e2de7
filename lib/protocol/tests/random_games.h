// Seeded random games for the protocol tests: seats pick uniformly among their
// legal actions, with random trade offers and counter-offers mixed in (they
// are never listed, and an open trade fills the Trade message), and chance
// outcomes are drawn with SampleChance from a splitmix64 stream.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/event.h"
#include "engine/splitmix.h"
#include "engine/state.h"

namespace metropolis {

// Readable gtest failure messages instead of byte dumps (found by ADL).
inline void PrintTo(const Action& a, std::ostream* os) { *os << ActionToString(a); }
inline void PrintTo(const GameConfig& c, std::ostream* os) {
  *os << "v" << c.rules_version << " seats=" << c.num_seats << " options=\"" << OptionsToString(c.options) << "\"";
}

}  // namespace metropolis

namespace metropolis::protocol::testing {

struct SplitMix {
  uint64_t x;
  uint64_t Next() { return SplitMixNext(&x); }
  int Below(int n) { return int(Next() % uint64_t(n)); }
  double Uniform() { return double(Next() >> 11) * 0x1.0p-53; }
};

// A configuration with these "name=value" options (ParseOption's text) on
// top of the ruleset's defaults, and the default board.
inline GameConfig Config(int num_seats, const std::vector<std::string>& options) {
  GameConfig c;
  c.num_seats = num_seats;
  c.board = DefaultBoard();
  for (const std::string& o : options) {
    const std::string err = ParseOption(o, &c.options);
    EXPECT_EQ(err, "") << o;
  }
  EXPECT_EQ(ValidateConfig(c), "");
  return c;
}

// The option sets the round-trip tests play: both rulesets, 3 and 4 seats,
// and the options that change what a position holds (sabotaged cities, a
// chosen deck shown, fiesepeter commitments, a rolled start player, an
// unlimited bank, two green engineers).
inline std::vector<GameConfig> TestConfigs() {
  std::vector<GameConfig> configs = {
      Config(4, {}),
      Config(3, {"saboteur=SABOTAGE_CITY", "defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK", "fiesepeter=true",
                 "start_player=ROLL", "progress_hand_limit=STRICT_FOUR", "diplomat_scope=ALL_OPEN_ROADS"}),
      Config(4, {"bank_limited=false", "green_engineer_count=2", "deserter_placement=ANY_LEVEL_INACTIVE",
                 "crane_limit=ONE_PER_TURN", "progress_takes_resources_only=true", "red_die_table=1,2,3,4,6",
                 "victory_points=10"}),
      Config(4, {"ruleset=base"}),
      Config(3, {"ruleset=base", "start_player=ROLL"}),
  };
  configs[1].board = RandomBoard(7);
  return configs;
}

// Called with the state after each step: the action applied (nullptr for
// the initial state) and the events it emitted.
using StepFn = std::function<void(const State& s, const Action* applied, const std::vector<Event>& events)>;

// A random trade offer of the current player, or a counter-offer of the seat
// answering one; often refused by the engine, which must change nothing.
inline Action RandomTrade(const State& s, int seat, bool counter, SplitMix& rng) {
  CardCounts give, want;
  const CardCounts& hand = s.player(seat).hand;
  for (int k = 0; k < 2; ++k) {
    const int c = rng.Below(kNumCardTypes);
    if (hand[c] > give[c]) ++give[c];
  }
  want[rng.Below(kNumCardTypes)] = uint8_t(1 + rng.Below(2));
  if (counter) return Action::TradeCounter(give, want);
  const int mask = rng.Below(1 << s.num_seats()) & ~(1 << seat);
  return Action::TradeOffer(give, want, mask);
}

// Plays one game to its end (or the configuration's max_actions).
inline void PlayRandomGame(const GameConfig& config, uint64_t seed, const StepFn& on_step) {
  State s;
  std::string error;
  ASSERT_TRUE(NewGame(config, &s, &error)) << error;
  SplitMix rng{seed};
  std::vector<Event> events;
  on_step(s, nullptr, events);
  while (!s.IsTerminal()) {
    events.clear();
    Action a;
    if (s.IsChanceNode()) {
      a = s.SampleChance(rng.Uniform());
    } else {
      const int seat = s.CurrentPlayer();
      const bool answering = s.trade().open && seat != s.current_seat();
      const bool may_offer = !s.trade().open && s.phase() == Phase::kAction && s.pending_size() == 0;
      if ((may_offer && rng.Below(8) == 0) || (answering && rng.Below(3) == 0)) {
        const Action trade = RandomTrade(s, seat, answering, rng);
        if (s.Apply(trade, &events).empty()) {
          on_step(s, &trade, events);
          continue;
        }
        events.clear();
      }
      const std::vector<Action> legal = s.LegalActions();
      a = legal[size_t(rng.Below(int(legal.size())))];
    }
    s.ApplyUnchecked(a, &events);
    on_step(s, &a, events);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace metropolis::protocol::testing
