// Playing one game between seats and summarising many: what the arena runs.
//
// A seat is played by a Bot, which is shown only its seat's View (built with
// the seat's KnowledgeTracker, fed with the seat's masked events). Chance
// comes from ChanceStreams.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "engine/config.h"
#include "engine/state.h"
#include "lib/chance/chance.h"

namespace metropolis::bots {

struct Seat {
  Bot* bot = nullptr;  // sees the view only
  uint64_t seed = 0;   // the seat's decision stream
};

struct GameOutcome {
  int winner = kNoSeat;  // kNoSeat at the length cap
  uint64_t actions = 0;
  int turns = 0;
  std::array<int, kMaxSeats> vp{};
  // Player trades (TRD-3) per seat: offers made, counters made, and trades
  // executed with the seat on either side.
  std::array<int, kMaxSeats> offers{}, counters{}, trades{};
  std::string error;  // a seat returned an illegal action, or the engine refused
};

// Plays a game from `config` to the end (or the length cap). Every action is
// checked; an illegal one stops the game with *error set.
// With `actions`, every applied action is appended there: the game's record.
GameOutcome PlayGame(const GameConfig& config, const std::vector<Seat>& seats, uint64_t chance_seed,
                     std::vector<Action>* actions = nullptr);

// Wilson score interval for `successes` out of `trials` at the normal quantile
// z (1.96 for 95%).
struct Interval {
  double low = 0, high = 0;
};
Interval WilsonInterval(int64_t successes, int64_t trials, double z = 1.96);
// The z statistic of a share p observed over n trials against a fair share p0.
double ZScore(double p, int64_t n, double p0);

}  // namespace metropolis::bots
