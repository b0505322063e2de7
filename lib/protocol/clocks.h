// A seat's clock as time passes, as the game host counts it (docs/GAMEHOST.md,
// "Clocks"): a decision spends its decision limit first, then the seat's time
// bank. The host counts its seats' clocks so, and the gateway moves clocks it
// read earlier on by the same rule for a spectator who joins later.
#pragma once

#include <cstdint>

#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::protocol {

struct ClockLeft {
  uint32_t decision_ms = 0;  // of the decision limit
  uint32_t bank_ms = 0;      // of the seat's time bank
};

// What is left of a decision limit `decision_ms` and a bank `bank_ms` once
// `spent_ms` of the decision have passed (negative: none).
ClockLeft SpendDecision(int64_t decision_ms, int64_t bank_ms, int64_t spent_ms);

// The clocks `spent_ms` after they were read: the running seat's decision and
// bank spent so; clocks with no seat running are unchanged.
void SpendRunningClock(int64_t spent_ms, v1::Clocks* clocks);

}  // namespace metropolis::protocol
