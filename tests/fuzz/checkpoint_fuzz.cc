// What a game host reads back from a checkpoint in Redis when it takes a game
// over (services/gamehost/checkpoint.h, redis_checkpoints.cc): the serialised
// setup, the phase, the seats' progress and the log. The input is a checkpoint:
// two bytes (little-endian) give the setup's length, then the setup's bytes,
// then lines of text: the phase, the progress, and one log entry per line.
//
//   SetupFromCheckpoint refuses with a message, or gives a setup with one seat
//   per seat of a valid configuration that starts a game, and that writes and
//   reads back the same (CheckpointSetupBytes)
//   DecodePhase, DecodeProgress and DecodeLogEntry never crash; what they
//   accept writes and reads back the same
//   the log, as far as its entries decode, replays on the setup's game through
//   the checked Apply (as Game::Resume checks every step) without a crash,
//   stopping at the first step the rules refuse
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/fuzz/fuzz_check.h"
#include "services/gamehost/checkpoint.h"
#include "services/gamehost/game.h"

namespace metropolis::gamehost {
namespace {

bool SameSetup(const GameSetup& x, const GameSetup& y) {
  if (x.seats.size() != y.seats.size()) return false;
  for (size_t i = 0; i < x.seats.size(); ++i) {
    const SeatSetup &a = x.seats[i], &b = y.seats[i];
    if (a.name != b.name || a.token_hash != b.token_hash || a.fallback_bot != b.fallback_bot ||
        a.built_in != b.built_in || a.identity_id != b.identity_id)
      return false;
  }
  return x.id == y.id && x.ladder == y.ladder && x.season == y.season && x.tournament == y.tournament &&
         x.hidden == y.hidden && x.config == y.config && x.decision_ms == y.decision_ms &&
         x.time_bank_ms == y.time_bank_ms && x.chance_seed == y.chance_seed &&
         x.start_timeout_ms == y.start_timeout_ms && x.forfeit_after == y.forfeit_after && x.request_id == y.request_id;
}

// The setup's game, or none when the setup is refused.
bool FuzzSetup(const std::string& bytes, GameSetup* setup) {
  int64_t created = 0;
  std::string error;
  if (!SetupFromCheckpoint(bytes, setup, &created, &error)) {
    FUZZ_CHECK(!error.empty(), "a setup refused without a message");
    return false;
  }
  FUZZ_CHECK(int(setup->seats.size()) == setup->config.num_seats, "accepted " + std::to_string(setup->seats.size()) +
                                                                      " seats for a game of " +
                                                                      std::to_string(setup->config.num_seats));
  const std::string invalid = ValidateConfig(setup->config);
  FUZZ_CHECK(invalid.empty(), "accepted a setup whose configuration is invalid: " + invalid);
  GameSetup back;
  int64_t created_back = 0;
  FUZZ_CHECK(SetupFromCheckpoint(CheckpointSetupBytes(*setup, created), &back, &created_back, &error),
             "a written setup does not read: " + error);
  FUZZ_CHECK(SameSetup(back, *setup) && created_back == created, "a setup does not round-trip");
  return true;
}

void FuzzPhase(std::string_view text) {
  Checkpoint c;
  if (!DecodePhase(text, &c)) return;
  FUZZ_CHECK(c.finished_unix_ms >= 0, "a negative finish time");
  FUZZ_CHECK(c.finished_unix_ms == 0 || c.started, "finished but not started");
  FUZZ_CHECK(c.resigned_seat == -1 || (c.resigned_seat >= 0 && c.finished_unix_ms > 0), "resigned but not finished");
  Checkpoint back;
  FUZZ_CHECK(DecodePhase(EncodePhase(GamePhase(c.started, c.finished_unix_ms, c.resigned_seat)), &back),
             "a written phase");
  FUZZ_CHECK(
      back.started == c.started && back.finished_unix_ms == c.finished_unix_ms && back.resigned_seat == c.resigned_seat,
      "a phase does not round-trip: '" + std::string(text) + "'");
}

void FuzzProgress(std::string_view text) {
  std::vector<SeatProgress> seats;
  if (!DecodeProgress(text, &seats)) return;
  std::vector<SeatProgress> back;
  FUZZ_CHECK(DecodeProgress(EncodeProgress(seats), &back), "written progress does not read");
  FUZZ_CHECK(back == seats, "progress does not round-trip: '" + std::string(text) + "'");
}

void FuzzLog(const std::vector<std::string_view>& entries, const GameSetup* setup) {
  State s(setup ? setup->config : GameConfig{});
  bool replaying = setup != nullptr;
  for (std::string_view entry : entries) {
    Action a;
    if (!DecodeLogEntry(entry, &a)) return;  // TakeOver refuses the checkpoint here
    Action back;
    FUZZ_CHECK(DecodeLogEntry(EncodeLogEntry(a), &back) && back == a, "a log entry does not round-trip");
    if (!replaying || s.IsTerminal()) continue;
    const State before = s;
    if (const std::string error = s.Apply(a); !error.empty()) {
      FUZZ_CHECK(s == before, "a refused step changed the game: " + error);
      replaying = false;  // Resume answers DATA_LOSS here
    }
  }
}

}  // namespace
}  // namespace metropolis::gamehost

// Bytes that are not a message make protobuf log a line each: thousands a second.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis::gamehost;
  if (size < 2) return 0;
  const size_t setup_size = std::min<size_t>(data[0] | size_t(data[1]) << 8, size - 2);
  const std::string setup_bytes(reinterpret_cast<const char*>(data + 2), setup_size);
  std::string_view rest(reinterpret_cast<const char*>(data + 2 + setup_size), size - 2 - setup_size);
  std::vector<std::string_view> lines;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    lines.push_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  GameSetup setup;
  const bool have_setup = FuzzSetup(setup_bytes, &setup);
  if (lines.size() > 0) FuzzPhase(lines[0]);
  if (lines.size() > 1) FuzzProgress(lines[1]);
  if (lines.size() > 2) FuzzLog({lines.begin() + 2, lines.end()}, have_setup ? &setup : nullptr);
  return 0;
}
