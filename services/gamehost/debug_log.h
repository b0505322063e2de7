// The debug channel's host side (docs/GAMEHOST.md, "Debug notes"): what a
// seat's stream said about each decision it answered (gamehost.proto,
// AnswerDebug), with its think time, kept in the game's memory until the game is
// stored. Bounded (lib/protocol/debug_limits.h): a note of at most
// kMaxNoteBytes, and kMaxDebugBytes of notes and evaluations per seat and game; past that the notes are dropped and
// counted, never the answer. Nothing here is ever sent on a stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/protocol/debug_limits.h"

namespace metropolis::v1 {
class AnswerDebug;
class SeatDebug;
}  // namespace metropolis::v1

namespace metropolis::gamehost {

using protocol::kEvaluationBytes;
using protocol::kMaxDebugBytes;
using protocol::kMaxNoteBytes;

// Why an answer's debug part is refused ("" when it is fine): a note over
// kMaxNoteBytes, or an evaluation that is not a finite number (JSON has no
// NaN, and a chart of the game could not draw it).
std::string CheckAnswerDebug(const v1::AnswerDebug& debug);

class SeatDebugLog {
 public:
  // Records an answered step; `debug` may be null (a think time alone). A
  // note or evaluation past the seat's budget is dropped and counted; the
  // step's think time is kept all the same.
  void Record(uint32_t step, uint32_t think_ms, const v1::AnswerDebug* debug);

  bool empty() const { return steps_.empty() && dropped_ == 0; }
  size_t steps() const { return steps_.size(); }
  size_t notes() const { return notes_.size(); }
  uint32_t dropped() const { return dropped_; }
  size_t bytes() const { return bytes_; }

  // As Replays stores it (replays.proto, SeatDebug): every step with its think
  // time, and its note and evaluation if it kept them.
  void ToProto(uint32_t seat, uint32_t recorded_from_step, v1::SeatDebug* out) const;

 private:
  // Every answered step costs 8 bytes; only the steps with a note or an
  // evaluation pay for them (a host holds thousands of games' logs).
  struct Step {
    uint32_t step = 0;
    uint32_t think_ms = 0;
  };
  struct Note {
    uint32_t index = 0;  // into steps_
    std::string text;
    std::optional<double> evaluation;
  };
  std::vector<Step> steps_;
  std::vector<Note> notes_;  // in step order
  size_t bytes_ = 0;         // against kMaxDebugBytes
  uint32_t dropped_ = 0;
};

}  // namespace metropolis::gamehost
