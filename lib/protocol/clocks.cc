#include "lib/protocol/clocks.h"

#include <algorithm>

namespace metropolis::protocol {

ClockLeft SpendDecision(int64_t decision_ms, int64_t bank_ms, int64_t spent_ms) {
  spent_ms = std::max<int64_t>(0, spent_ms);
  const int64_t over = std::max<int64_t>(0, spent_ms - decision_ms);
  return {uint32_t(std::max<int64_t>(0, decision_ms - spent_ms)), uint32_t(std::max<int64_t>(0, bank_ms - over))};
}

void SpendRunningClock(int64_t spent_ms, v1::Clocks* clocks) {
  const int running = clocks->running();
  if (running < 0 || running >= clocks->time_bank_ms_left_size()) return;
  const ClockLeft left = SpendDecision(clocks->decision_ms_left(), clocks->time_bank_ms_left(running), spent_ms);
  clocks->set_decision_ms_left(left.decision_ms);
  clocks->set_time_bank_ms_left(running, left.bank_ms);
}

}  // namespace metropolis::protocol
