// What the fuzz targets beyond the engine share with the program that writes
// their seeds (make_fuzz_seeds.cc): a configuration from one byte, and a game
// played from it to a position chosen by a seed, so that a target can check a
// message against a real position without spending input bytes on the game.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/splitmix.h"
#include "engine/state.h"

namespace metropolis::fuzz {

// 3 or 4 seats, the default or a random board, either ruleset, 5..10 victory
// points (short games reach their end).
inline GameConfig ConfigFromByte(uint8_t b) {
  GameConfig c;
  c.num_seats = 3 + (b & 1);
  c.board = (b & 2) ? RandomBoard(b >> 2) : DefaultBoard();
  if (b & 4) c.options.ruleset = Ruleset::kBase;
  c.options.victory_points = uint8_t(5 + (b >> 3) % 6);
  return c;
}

// Plays up to `steps` legal actions and chance outcomes drawn from `seed` on
// `s`, stopping at the end; the actions go to `log` when given.
inline void PlaySteps(State* s, uint64_t seed, int steps, std::vector<Action>* log = nullptr) {
  ActionList legal;
  for (int i = 0; i < steps && !s->IsTerminal(); ++i) {
    Action a;
    if (s->IsChanceNode()) {
      const auto outcomes = s->ChanceOutcomes();
      a = outcomes[SplitMixNext(&seed) % outcomes.size()].action;
    } else {
      s->LegalActions(&legal);
      a = legal.items[SplitMixNext(&seed) % legal.size];
    }
    s->ApplyUnchecked(a);
    if (log) log->push_back(a);
  }
}

}  // namespace metropolis::fuzz
