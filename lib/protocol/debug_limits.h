// The debug channel's bounds (gamehost.proto, AnswerDebug), one definition for
// the game host that enforces them on answers and the replays service that
// checks a stored game's debug against them.
#pragma once

#include <cstddef>

namespace metropolis::protocol {

inline constexpr size_t kMaxNoteBytes = 256;         // one answer's note
inline constexpr size_t kMaxDebugBytes = 64 * 1024;  // a seat's notes and evaluations over one game
inline constexpr size_t kEvaluationBytes = 8;        // what an evaluation counts against kMaxDebugBytes

}  // namespace metropolis::protocol
