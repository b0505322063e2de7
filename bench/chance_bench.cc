// chance_bench: what verifiable chance costs (docs/CHANCE.md, docs/PERFORMANCE.md).
// A version 2 number is an HMAC-SHA-256; a version 1 number is two splitmix steps.
// The replays service checks every chance outcome of every version 2 game it
// stores (CheckChance); the game host draws one number per chance node.
#include <benchmark/benchmark.h>

#include "bots/bot.h"
#include "lib/chance/verifiable.h"
#include "lib/chance/verify.h"

namespace metropolis::chance {
namespace {

const Seed kSeed = DeriveSeed("a benchmark's platform key of 32+ bytes", "bench/1");

void BM_NumberVersion1(benchmark::State& state) {
  ChanceStreams streams(uint64_t(12345));
  for (auto _ : state) benchmark::DoNotOptimize(streams.Next(ChanceKind::kDice));
}
BENCHMARK(BM_NumberVersion1);

void BM_NumberVersion2(benchmark::State& state) {
  ChanceStreams streams = VerifiableStreams(kSeed);
  for (auto _ : state) benchmark::DoNotOptimize(streams.Next(ChanceKind::kDice));
}
BENCHMARK(BM_NumberVersion2);

void BM_Commitment(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(CommitTo(kSeed));
}
BENCHMARK(BM_Commitment);

// A whole game of heuristic bots, then its check: what StoreGame adds per game.
struct PlayedGame {
  GameConfig config;
  std::vector<Action> actions;
  PlayedGame() {
    config.board = RandomBoard(5);
    std::string error;
    std::unique_ptr<bots::Bot> bot = bots::MakeBot("heuristic", &error);
    State s(config);
    NewGame(config, &s, &error);
    ChanceStreams chance = VerifiableStreams(kSeed);
    uint64_t rng = 9;
    while (!s.IsTerminal()) {
      const Action a = s.IsChanceNode() ? chance.Sample(s) : bot->Choose(MakeView(s, s.CurrentPlayer()), &rng);
      s.ApplyUnchecked(a);
      actions.push_back(a);
    }
  }
};

void BM_CheckChanceOfAGame(benchmark::State& state) {
  static const PlayedGame game;
  ChanceCheck check;
  for (auto _ : state) {
    benchmark::DoNotOptimize(CheckChance(game.config, game.actions, VerifiableStreams(kSeed), &check));
  }
  state.counters["actions"] = double(game.actions.size());
  state.counters["chance_nodes"] = check.chance_nodes;
}
BENCHMARK(BM_CheckChanceOfAGame)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace metropolis::chance

BENCHMARK_MAIN();
