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
  steps_.push_back({step, think_ms});
  if (!debug) return;
  const size_t cost = debug->note().size() + (debug->has_evaluation() ? kEvaluationBytes : 0);
  if (cost == 0) return;
  if (bytes_ + cost > kMaxDebugBytes) {
    ++dropped_;
    return;
  }
  bytes_ += cost;
  Note& n = notes_.emplace_back();
  n.index = uint32_t(steps_.size() - 1);
  n.text = debug->note();
  if (debug->has_evaluation()) n.evaluation = debug->evaluation();
}

void SeatDebugLog::ToProto(uint32_t seat, uint32_t recorded_from_step, v1::SeatDebug* out) const {
  out->set_seat(seat);
  out->set_notes_dropped(dropped_);
  out->set_recorded_from_step(recorded_from_step);
  out->mutable_steps()->Reserve(int(steps_.size()));
  auto note = notes_.begin();
  for (size_t i = 0; i < steps_.size(); ++i) {
    v1::StepDebug* step = out->add_steps();
    step->set_step(steps_[i].step);
    step->set_think_ms(steps_[i].think_ms);
    if (note != notes_.end() && note->index == i) {
      step->set_note(note->text);
      if (note->evaluation) step->set_evaluation(*note->evaluation);
      ++note;
    }
  }
}

}  // namespace metropolis::gamehost
