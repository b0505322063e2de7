// Games of the built-in bots recorded for the analysis tests (bots/match.h:
// each seat sees only its view, chance comes from seeded streams).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "bots/match.h"
#include "engine/game.h"

namespace metropolis::analysis::testing {

inline GameRecord PlayRecorded(const std::string& spec, uint64_t seed, int num_seats = 4) {
  GameRecord record;
  record.config.num_seats = num_seats;
  record.config.board = DefaultBoard();
  record.seed = seed;
  std::vector<std::unique_ptr<bots::Bot>> players;
  std::vector<bots::Seat> seats;
  std::string error;
  for (int seat = 0; seat < num_seats; ++seat) {
    players.push_back(bots::MakeBot(spec, &error));
    EXPECT_NE(players.back(), nullptr) << error;
    seats.push_back({players.back().get(), bots::MixSeed(seed, uint64_t(seat) + 10)});
  }
  const bots::GameOutcome outcome = bots::PlayGame(record.config, seats, seed, &record.actions);
  EXPECT_EQ(outcome.error, "");
  record.winner = outcome.winner;
  return record;
}

}  // namespace metropolis::analysis::testing
