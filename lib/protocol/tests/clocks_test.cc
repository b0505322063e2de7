// A seat's clock as time passes (lib/protocol/clocks.h): the decision limit is
// spent first, then the bank, and neither goes below zero.
#include "lib/protocol/clocks.h"

#include <gtest/gtest.h>

namespace metropolis::protocol {
namespace {

TEST(Clocks, ADecisionSpendsItsLimitFirstThenTheBank) {
  ClockLeft left = SpendDecision(30'000, 60'000, 10'000);
  EXPECT_EQ(left.decision_ms, 20'000u);
  EXPECT_EQ(left.bank_ms, 60'000u);
  left = SpendDecision(30'000, 60'000, 45'000);
  EXPECT_EQ(left.decision_ms, 0u);
  EXPECT_EQ(left.bank_ms, 45'000u);
  left = SpendDecision(30'000, 60'000, 500'000);
  EXPECT_EQ(left.decision_ms, 0u);
  EXPECT_EQ(left.bank_ms, 0u);
  left = SpendDecision(30'000, 60'000, -5);  // a clock that stepped back spends nothing
  EXPECT_EQ(left.decision_ms, 30'000u);
  EXPECT_EQ(left.bank_ms, 60'000u);
}

TEST(Clocks, OnlyTheRunningSeatsClockMoves) {
  v1::Clocks clocks;
  for (uint32_t bank : {10'000u, 20'000u, 30'000u}) clocks.add_time_bank_ms_left(bank);
  clocks.set_running(1);
  clocks.set_decision_ms_left(5'000);
  SpendRunningClock(8'000, &clocks);
  EXPECT_EQ(clocks.decision_ms_left(), 0u);
  EXPECT_EQ(clocks.time_bank_ms_left(0), 10'000u);
  EXPECT_EQ(clocks.time_bank_ms_left(1), 17'000u);
  EXPECT_EQ(clocks.time_bank_ms_left(2), 30'000u);
  clocks.set_running(-1);  // stopped: nothing moves
  const std::string before = clocks.SerializeAsString();
  SpendRunningClock(8'000, &clocks);
  EXPECT_EQ(clocks.SerializeAsString(), before);
  clocks.set_running(7);  // not a seat of these clocks
  SpendRunningClock(8'000, &clocks);
  EXPECT_EQ(clocks.time_bank_ms_left(1), 17'000u);
}

}  // namespace
}  // namespace metropolis::protocol
