// Checking a game's chance against its streams: every chance outcome in the
// record must be the one the streams draw at that point. With version 2
// streams (verifiable.h) over the revealed seed, this is the verification of a
// finished game that docs/CHANCE.md describes; the replays service runs it on
// every game it stores and `metropolis-engine verify` runs it on a file.
#pragma once

#include <string>
#include <vector>

#include "engine/state.h"
#include "lib/chance/chance.h"

namespace metropolis::chance {

struct ChanceCheck {
  int actions = 0;       // actions replayed
  int chance_nodes = 0;  // outcomes checked
  int rolls = 0;         // of which dice rolls
  // Set when the check fails: which action and why (an illegal move, or an
  // outcome other than the one the streams draw).
  std::string error;
};

// Replays `actions` from the start of `config` with every move checked, and
// each chance outcome compared with `streams.Sample`. False on the first
// difference, with *out saying where.
bool CheckChance(const GameConfig& config, const std::vector<Action>& actions, ChanceStreams streams, ChanceCheck* out);

}  // namespace metropolis::chance
