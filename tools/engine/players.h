// Players for simulations: small policies behind one interface. They read the
// full state, which is all a simulation of the rules needs; the bots that see
// only their seat's view (bots/bot.h) are the arena's and the services'.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/state.h"
#include "tools/engine/rng.h"

namespace metropolis::cli {

class Player {
 public:
  virtual ~Player() = default;
  virtual std::string_view name() const = 0;
  // Called only when state.CurrentPlayer() is a seat; returns one of its
  // legal actions. Randomness comes from `rng` only, so a seeded stream
  // replays the same choices.
  virtual Action Choose(const State& state, Rng& rng) = 0;
};

// "random" or "greedy"; nullptr for an unknown name.
std::unique_ptr<Player> MakePlayer(std::string_view name);
const std::vector<std::string>& PlayerNames();

// The greedy player's evaluation of a state for `seat`, exposed for tests and
// for tuning: higher is better.
double GreedyScore(const State& state, int seat);

}  // namespace metropolis::cli
