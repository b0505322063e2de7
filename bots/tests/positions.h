// Positions to test bots on: states where a seat is to act, taken from seeded
// games of random moves, shared by the bots' test files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "engine/state.h"

namespace metropolis::bots::testing {

// Every `stride`-th decision of games of random moves, the game numbered g set
// up by `config_of(seed + g)`, until there are `count`.
template <class ConfigOf>
std::vector<State> RandomWalkPositions(int count, int stride, uint64_t seed, ConfigOf config_of) {
  std::vector<State> out;
  uint64_t rng = seed;
  for (int game = 0; int(out.size()) < count; ++game) {
    const GameConfig config = config_of(seed + uint64_t(game));
    State s(config);
    std::string error;
    EXPECT_TRUE(NewGame(config, &s, &error)) << error;
    int decisions = 0;
    while (!s.IsTerminal() && int(out.size()) < count) {
      if (s.IsChanceNode()) {
        s.ApplyUnchecked(s.SampleChance(UniformRandom(&rng)));
        continue;
      }
      const std::vector<Action> legal = s.LegalActions();
      if (++decisions % stride == 0) out.push_back(s);
      s.ApplyUnchecked(legal[RandomBelow(&rng, uint32_t(legal.size()))]);
    }
  }
  return out;
}

// The same on the default rules, each game on a random board.
inline std::vector<State> Positions(int count, int stride, uint64_t seed) {
  return RandomWalkPositions(count, stride, seed, [](uint64_t board_seed) {
    GameConfig config;
    config.board = RandomBoard(board_seed);
    return config;
  });
}

}  // namespace metropolis::bots::testing
