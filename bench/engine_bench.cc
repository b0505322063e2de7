// Speed of the rules engine (docs/PERFORMANCE.md has the figures and the
// command). Targets from the engine's issues: at most 150 ns per applied action
// in whole random games, legal-action generation included, and at most 50 ns
// to copy a State; for the base game (RULES.md 22), at most 100 ns per applied
// action.
//
// Every benchmark runs on positions of seeded random games (the bench
// signature's players, engine/signature.h), so the numbers are comparable
// from run to run and commit to commit.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/signature.h"
#include "engine/state.h"

namespace metropolis {
namespace {

State NewRandomGame(uint64_t seed, Ruleset ruleset = Ruleset::kCitiesAndKnights) {
  GameConfig config;
  config.board = RandomBoard(seed);
  config.options = DefaultOptions(ruleset);
  State s;
  std::string error;
  if (!NewGame(config, &s, &error)) std::abort();
  return s;
}

struct RecordedGame {
  State initial;
  std::vector<Action> actions;
};

RecordedGame PlayRecorded(uint64_t seed) {
  RecordedGame g{NewRandomGame(seed), {}};
  State s = g.initial;
  BenchRng chance{seed}, players{seed ^ 0x5DEECE66Dull};
  PlayRandomGame(&s, &chance, &players, [&](const State&, const Action& a) { g.actions.push_back(a); });
  return g;
}

// A few seeded games, recorded once per process.
const std::vector<RecordedGame>& Games() {
  static const std::vector<RecordedGame> games = [] {
    std::vector<RecordedGame> v;
    for (uint64_t seed = 1; seed <= 16; ++seed) v.push_back(PlayRecorded(seed));
    return v;
  }();
  return games;
}

// Mid-game positions where a seat is free to act (TRN-6 action phase, nothing
// pending): the states a search bot expands most.
const std::vector<State>& ActionPhaseStates() {
  static const std::vector<State> states = [] {
    std::vector<State> v;
    for (const RecordedGame& g : Games()) {
      State s = g.initial;
      for (size_t i = 0; i < g.actions.size(); ++i) {
        if (i % 23 == 0 && s.phase() == Phase::kAction && s.pending_size() == 0 && !s.IsChanceNode()) v.push_back(s);
        s.ApplyUnchecked(g.actions[i]);
      }
    }
    return v;
  }();
  return states;
}

// Whole games of four uniformly random players: legal actions, the random
// choice, chance sampling and apply, i.e. what a playout of a search costs.
void RandomGames(benchmark::State& state, Ruleset ruleset) {
  uint64_t seed = 1, actions = 0, games = 0;
  ActionList legal;
  for (auto _ : state) {
    state.PauseTiming();
    State s = NewRandomGame(seed, ruleset);
    BenchRng chance{seed}, players{seed ^ 0x5DEECE66Dull};
    ++seed;
    state.ResumeTiming();
    while (!s.IsTerminal()) {
      Action a;
      if (s.IsChanceNode()) {
        a = s.SampleChance(chance.Uniform());
      } else {
        s.LegalActions(&legal);
        a = legal.items[players.Next() % uint64_t(legal.size)];
      }
      s.ApplyUnchecked(a);
      ++actions;
    }
    benchmark::DoNotOptimize(s);
    ++games;
  }
  state.SetItemsProcessed(int64_t(actions));
  state.counters["actions_per_game"] = double(actions) / double(games);
  // Seconds per action, printed with an SI prefix ("142n" is 142 ns).
  state.counters["time_per_action"] =
      benchmark::Counter(double(actions), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["games_per_s"] = benchmark::Counter(double(games), benchmark::Counter::kIsRate);
}

void BM_RandomGame(benchmark::State& state) { RandomGames(state, Ruleset::kCitiesAndKnights); }
BENCHMARK(BM_RandomGame)->Unit(benchmark::kMillisecond);

// The same for the base game (ruleset base, RULES.md 22) with its default
// options: 10 VP, development cards.
void BM_RandomGameBase(benchmark::State& state) { RandomGames(state, Ruleset::kBase); }
BENCHMARK(BM_RandomGameBase)->Unit(benchmark::kMillisecond);

// The first games of the two benchmarks above exactly once each (30 C&K games,
// 46,168 actions; 100 base games, 147,592 actions): a fixed amount of work for
// instruction counts under valgrind --tool=callgrind (docs/PERFORMANCE.md),
// which BM_RandomGame's timed iteration count would not give.
void BM_FixedGames(benchmark::State& state) { RandomGames(state, Ruleset::kCitiesAndKnights); }
BENCHMARK(BM_FixedGames)->Iterations(30)->Unit(benchmark::kMillisecond);
void BM_FixedGamesBase(benchmark::State& state) { RandomGames(state, Ruleset::kBase); }
BENCHMARK(BM_FixedGamesBase)->Iterations(100)->Unit(benchmark::kMillisecond);

void BM_StateCopy(benchmark::State& state) {
  const std::vector<State>& states = ActionPhaseStates();
  size_t i = 0;
  for (auto _ : state) {
    State copy = states[i];
    benchmark::DoNotOptimize(copy);
    benchmark::ClobberMemory();
    if (++i == states.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["bytes"] = double(sizeof(State));
}
BENCHMARK(BM_StateCopy);

void BM_LegalActions(benchmark::State& state) {
  const std::vector<State>& states = ActionPhaseStates();
  ActionList legal;
  size_t i = 0;
  int64_t listed = 0;
  for (auto _ : state) {
    states[i].LegalActions(&legal);
    benchmark::DoNotOptimize(legal.items.data());
    benchmark::ClobberMemory();
    listed += legal.size;
    if (++i == states.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["actions_listed"] = double(listed) / double(state.iterations());
  state.counters["positions"] = double(states.size());
}
BENCHMARK(BM_LegalActions);

// Replays recorded games: apply alone, with no legal-action generation and no
// choice, so BM_RandomGame minus this is roughly what LegalActions costs.
void BM_ApplyUnchecked(benchmark::State& state) {
  const std::vector<RecordedGame>& games = Games();
  size_t g = 0;
  int64_t actions = 0;
  for (auto _ : state) {
    State s = games[g].initial;
    for (const Action& a : games[g].actions) s.ApplyUnchecked(a);
    benchmark::DoNotOptimize(s);
    actions += int64_t(games[g].actions.size());
    if (++g == games.size()) g = 0;
  }
  state.SetItemsProcessed(actions);
  // Seconds per action, printed with an SI prefix ("142n" is 142 ns).
  state.counters["time_per_action"] =
      benchmark::Counter(double(actions), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ApplyUnchecked)->Unit(benchmark::kMicrosecond);

void BM_Validate(benchmark::State& state) {
  const std::vector<State>& states = ActionPhaseStates();
  size_t i = 0;
  for (auto _ : state) {
    std::string error = states[i].Validate();
    benchmark::DoNotOptimize(error);
    if (++i == states.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Validate);

void BM_NotationRoundTrip(benchmark::State& state) {
  const std::vector<State>& states = ActionPhaseStates();
  size_t i = 0;
  int64_t bytes = 0;
  State parsed;
  std::string error;
  for (auto _ : state) {
    const std::string text = ToNotation(states[i]);
    if (!FromNotation(text, &parsed, &error)) state.SkipWithError(error.c_str());
    benchmark::DoNotOptimize(parsed);
    bytes += int64_t(text.size());
    if (++i == states.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_NotationRoundTrip);

}  // namespace
}  // namespace metropolis

BENCHMARK_MAIN();
