#include "services/gamehost/debug_log.h"

#include <cmath>

#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/replays.pb.h"

namespace metropolis::gamehost {

std::string CheckAnswerDebug(const v1::AnswerDebug& debug) {
  if (debug.note().size() > kMaxNoteBytes)
    return "debug note of " + std::to_string(debug.note().size()) + " bytes: at most " + std::to_string(kMaxNoteBytes) +
           " per answer";
  if (debug.has_evaluation() && !std::isfinite(debug.evaluation())) return "debug evaluation is not a finite number";
  return "";
}

void SeatDebugLog::Record(uint32_t step, uint32_t think_ms, const v1::AnswerDebug* debug) {
  StepNote& s = steps_.emplace_back();
  s.step = step;
  s.think_ms = think_ms;
  if (!debug) return;
  const size_t cost = debug->note().size() + (debug->has_evaluation() ? kEvaluationBytes : 0);
  if (cost == 0) return;
  if (bytes_ + cost > kMaxDebugBytes) {
    ++dropped_;
    return;
  }
  bytes_ += cost;
  s.note = debug->note();
  if (debug->has_evaluation()) s.evaluation = debug->evaluation();
}

void SeatDebugLog::ToProto(uint32_t seat, uint32_t recorded_from_step, v1::SeatDebug* out) const {
  out->set_seat(seat);
  out->set_notes_dropped(dropped_);
  out->set_recorded_from_step(recorded_from_step);
  out->mutable_steps()->Reserve(int(steps_.size()));
  for (const StepNote& s : steps_) {
    v1::StepDebug* step = out->add_steps();
    step->set_step(s.step);
    step->set_think_ms(s.think_ms);
    step->set_note(s.note);
    if (s.evaluation) step->set_evaluation(*s.evaluation);
  }
}

}  // namespace metropolis::gamehost
