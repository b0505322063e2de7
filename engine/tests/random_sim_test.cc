// Random-simulation tests in the spirit of OpenSpiel's RandomSimTest: thousands
// of seeded games of uniformly random players (with random trade offers mixed
// in), checking the API's contract at every step:
//   - legal actions non-empty, sorted and unique (state.h's contract);
//   - chance outcomes sum to 1 and SampleChance draws one of them (0.4);
//   - a copy equals the original (copy = clone);
//   - the notation round-trips exactly (docs/NOTATION.md);
//   - a seat's view is identical for a state that differs only in what that
//     seat may not see (RULES.md 18), built by SampleState;
//   - Validate() after every step (the check build validates inside Apply);
//   - replaying the record reproduces the final state exactly;
//   - every game ends, with a winner or at the length cap.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/splitmix.h"
#include "engine/state.h"
#include "engine/view.h"

namespace metropolis {
namespace {

struct SplitMix {
  uint64_t x;
  uint64_t Next() { return SplitMixNext(&x); }
  double Uniform() { return double(Next() >> 11) * (1.0 / 9007199254740992.0); }
};

struct SimOptions {
  int notation_every = 16;  // expected steps between notation round trips
  int view_every = 32;      // expected steps between view checks
};

struct SimTotals {
  int games = 0, won = 0, capped = 0, offers = 0, attacks = 0;
  int dev_bought = 0, dev_played = 0, largest_army = 0;  // the base game (BG-4..BG-6)
};

// A random trade offer of the current player, valid or not; the engine must
// refuse the invalid ones without changing anything.
Action RandomOffer(const State& s, SplitMix& rng) {
  CardCounts give, want;
  const CardCounts& hand = s.player(s.current_seat()).hand;
  for (int k = 0; k < 2; ++k) {
    const int c = int(rng.Next() % kNumCardTypes);
    if (hand[c] > give[c]) ++give[c];
  }
  want[rng.Next() % kNumCardTypes] = 1;
  const int mask = int(rng.Next() % (1u << s.num_seats())) & ~(1 << s.current_seat());
  return Action::TradeOffer(give, want, mask);
}

void CheckViewInvariance(const State& s, int viewer, uint64_t seed) {
  const View view = MakeView(s, viewer);
  // BG-9: the VP others see leave out hidden VP cards until the game ends.
  for (int p = 0; p < s.num_seats(); ++p) {
    if (p == viewer) continue;
    EXPECT_EQ(view.state.player(p).vp, s.player(p).vp - (s.IsTerminal() ? 0 : s.player(p).dev[kDevVictoryPoint]));
  }
  State other;
  std::string error;
  ASSERT_TRUE(SampleState(view, seed, &other, &error)) << error << "\n" << ToNotation(s);
  EXPECT_EQ(other.Validate(), "");
  EXPECT_TRUE(MakeView(other, viewer) == view) << "view of seat " << viewer << " changed with hidden cards\n"
                                               << ToNotation(s) << "\n"
                                               << ToNotation(other);
}

// Plays one game; returns false after the first failure so that a broken
// invariant does not flood the log.
bool PlayChecked(const GameConfig& config, uint64_t seed, const SimOptions& opt, SimTotals* totals) {
  State s;
  std::string error;
  if (!NewGame(config, &s, &error)) {
    ADD_FAILURE() << error;
    return false;
  }
  GameRecord record;
  record.config = config;
  SplitMix rng{seed};
  ActionList legal;
  while (!s.IsTerminal()) {
    const int player = s.CurrentPlayer();
    Action a;
    if (player == kChancePlayer) {
      const auto outcomes = s.ChanceOutcomes();
      double sum = 0;
      for (const auto& o : outcomes) sum += o.probability;
      EXPECT_NEAR(sum, 1.0, 1e-9);
      a = s.SampleChance(rng.Uniform());
      EXPECT_TRUE(std::any_of(outcomes.begin(), outcomes.end(), [&](const ChanceOutcome& o) { return o.action == a; }))
          << ActionToString(a);
    } else {
      s.LegalActions(&legal);
      if (legal.size == 0) {
        ADD_FAILURE() << "no legal action for seat " << player << "\n" << ToNotation(s);
        return false;
      }
      for (int i = 1; i < legal.size; ++i)
        if (!(Encode(legal.items[i - 1]) < Encode(legal.items[i]))) {
          ADD_FAILURE() << "legal actions not sorted/unique at " << ActionToString(legal.items[i]) << "\n"
                        << ToNotation(s);
          return false;
        }
      a = legal.items[rng.Next() % legal.size];
      if (s.phase() == Phase::kAction && s.pending_size() == 0 && rng.Next() % 20 == 0) {
        const Action offer = RandomOffer(s, rng);
        const State before = s;
        if (s.Apply(offer).empty()) {
          record.actions.push_back(offer);
          ++totals->offers;
          continue;
        }
        EXPECT_TRUE(s == before) << "a refused offer changed the state";
      }
    }
    const State copy = s;
    EXPECT_TRUE(copy == s);
    if (rng.Next() % opt.notation_every == 0) {
      const std::string text = ToNotation(s);
      State parsed;
      if (!FromNotation(text, &parsed, &error) || !(parsed == s)) {
        ADD_FAILURE() << "notation round trip failed: " << error << "\n" << text;
        return false;
      }
    }
    if (player >= 0 && rng.Next() % opt.view_every == 0) {
      CheckViewInvariance(s, player, rng.Next());
      CheckViewInvariance(s, int(rng.Next() % s.num_seats()), rng.Next());
      CheckViewInvariance(s, kNoSeat, rng.Next());  // spectator
    }
    const std::string err = s.Apply(a);
    if (!err.empty()) {
      ADD_FAILURE() << "legal action refused: " << ActionToString(a) << ": " << err << "\n" << ToNotation(copy);
      return false;
    }
    record.actions.push_back(a);
    totals->dev_bought += a.type == ActionType::kBuyDev;
    totals->dev_played += a.type == ActionType::kPlayDev;
    if (::testing::Test::HasFailure()) return false;
  }
  // Replaying the record reproduces the final state exactly.
  State replayed;
  EXPECT_TRUE(NewGame(record.config, &replayed, &error));
  for (const Action& a : record.actions) {
    const std::string err = replayed.Apply(a);
    if (!err.empty()) {
      ADD_FAILURE() << "replay refused " << ActionToString(a) << ": " << err;
      return false;
    }
  }
  EXPECT_TRUE(replayed == s) << "replay differs from the game";
  ++totals->games;
  totals->won += s.Winner() != kNoSeat;
  totals->capped += s.Winner() == kNoSeat;
  totals->attacks += s.barbarian_attacks();
  totals->largest_army += s.largest_army_holder() != kNoSeat;
  return !::testing::Test::HasFailure();
}

GameConfig Config(int seats, uint64_t board_seed, const RulesOptions& options = {}) {
  GameConfig c;
  c.num_seats = seats;
  c.board = RandomBoard(board_seed);
  c.options = options;
  return c;
}

void RunGames(const GameConfig& base, uint64_t first_seed, int games, SimTotals* totals) {
  for (int i = 0; i < games; ++i) {
    GameConfig c = base;
    c.board = RandomBoard(first_seed + i);
    if (!PlayChecked(c, first_seed * 1000003 + i, SimOptions{}, totals)) return;
  }
}

TEST(RandomSimTest, ThousandFourSeatGamesKeepTheContract) {
  SimTotals t;
  RunGames(Config(4, 1), 1, 1000, &t);
  EXPECT_EQ(t.games, 1000);
  EXPECT_GT(t.won, 990) << "random games should almost always finish with a winner";
  EXPECT_GT(t.offers, 100) << "trade offers were exercised";
  EXPECT_GT(t.attacks, 1000) << "barbarian attacks were exercised";
}

TEST(RandomSimTest, ThreeSeatGamesKeepTheContract) {
  SimTotals t;
  RunGames(Config(3, 1), 5000, 300, &t);
  EXPECT_EQ(t.games, 300);
}

// The base game (RULES.md 22) under the same contract: setup with two
// settlements (BG-2), two dice and the robber free from the start (BG-3),
// development cards bought and played (BG-4, BG-5), Largest Army (BG-6), a
// win at 10 VP (BG-8), and views that hide development cards and the VP
// cards among them (BG-9).
TEST(RandomSimTest, ThousandFourSeatBaseGamesKeepTheContract) {
  SimTotals t;
  RunGames(Config(4, 1, DefaultOptions(Ruleset::kBase)), 30000, 1000, &t);
  EXPECT_EQ(t.games, 1000);
  EXPECT_GT(t.won, 990) << "random base games should almost always finish with a winner";
  EXPECT_GT(t.offers, 100);
  EXPECT_GT(t.dev_bought, 5000) << "development cards were bought (BG-4)";
  EXPECT_GT(t.dev_played, 3000) << "development cards were played (BG-5)";
  EXPECT_GT(t.largest_army, 100) << "Largest Army changed hands (BG-6)";
}

TEST(RandomSimTest, ThreeSeatBaseGamesKeepTheContract) {
  SimTotals t;
  RunGames(Config(3, 1, DefaultOptions(Ruleset::kBase)), 35000, 300, &t);
  EXPECT_EQ(t.games, 300);
  EXPECT_GT(t.won, 290);
}

TEST(RandomSimTest, BaseGameOptionsKeepTheContract) {  // BG-3 start_player, BG-8 victory_points, TRD-2
  uint64_t seed = 40000;
  for (const char* setting : {"start_player=ROLL", "bank_limited=false", "victory_points=6"}) {
    RulesOptions options = DefaultOptions(Ruleset::kBase);
    ASSERT_EQ(ParseOption(setting, &options), "") << setting;
    SimTotals t;
    RunGames(Config(4, 1, options), seed, 60, &t);
    seed += 100;
    EXPECT_EQ(t.games, 60) << setting;
    if (HasFailure()) {
      ADD_FAILURE() << "under ruleset=base " << setting;
      return;
    }
  }
}

TEST(RandomSimTest, EveryRulesOptionKeepsTheContract) {
  // Each alternative of RULES.md section 20 that the core covers, 60 games each.
  std::vector<std::string> settings = {
      "robber_locked_until_first_attack=false",
      "barbarian_victims=MIN_AMONG_ALL",
      "aqueduct_trigger=NO_ADJACENT_NUMBER",
      "displace_requires_connection=false",
      "knight_path_through_opponents=true",
      "fiesepeter=true",
      "progress_hand_limit=PLAY_OR_DISCARD",
      "progress_hand_limit=STRICT_FOUR",
      "green_engineer_count=2",
      "red_die_table=1,2,3,4,5",
      "chase_robber_destination=ANY_OTHER_LAND_HEX",
      "defender_by_knight_count=true",
      "harbor3_commodity_output=RESOURCE_ONLY",
      "level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY",
      "bank_limited=false",
      "victory_points=8",
      "start_player=ROLL",
      "max_trade_offers_per_turn=0",
      "saboteur=SABOTAGE_CITY",
  };
  uint64_t seed = 20000;
  for (const std::string& setting : settings) {
    RulesOptions options;
    ASSERT_EQ(ParseOption(setting, &options), "") << setting;
    SimTotals t;
    RunGames(Config(4, 1, options), seed, 60, &t);
    seed += 100;
    EXPECT_EQ(t.games, 60) << setting;
    if (HasFailure()) {
      ADD_FAILURE() << "under " << setting;
      return;
    }
  }
}

TEST(RandomSimTest, LengthCapEndsGamesWithoutAWinner) {
  RulesOptions options;
  options.max_actions = 300;
  SimTotals t;
  RunGames(Config(4, 1, options), 90000, 20, &t);
  EXPECT_EQ(t.games, 20);
  EXPECT_EQ(t.capped, 20);
}

}  // namespace
}  // namespace metropolis
