// The replay codec's decoder, which reads blobs from the database (and, through
// them, whatever a StoreGame caller's actions became). The first byte chooses
// the configuration and the mode:
//
//   bit 7 clear   the rest is a blob: DecodeActions never crashes; a refusal
//                 has a message and leaves the output alone; a blob it accepts
//                 is a legal game, which encodes again and decodes to the same
//                 actions
//   bit 7 set     the rest drives a game (each byte picks a legal action or
//                 chance outcome by index, as in engine/fuzz/actions_fuzz.cc);
//                 its encoding decodes to exactly its actions, and its
//                 truncations refuse to decode; then one byte of the blob,
//                 chosen and changed by the last input byte, is decoded
//                 without a crash (and, if accepted, is a legal game)
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/fuzz/fuzz_check.h"
#include "engine/state.h"
#include "services/replays/codec/codec.h"

namespace metropolis {
namespace {

GameConfig ConfigFrom(uint8_t b) {
  GameConfig c;
  c.num_seats = 3 + (b & 1);
  c.board = (b & 2) ? RandomBoard(b >> 2) : DefaultBoard();
  if (b & 4) c.options.ruleset = Ruleset::kBase;
  c.options.victory_points = uint8_t(5 + (b >> 3) % 6);  // short games reach their end
  return c;
}

std::string Names(const std::vector<Action>& actions) {
  std::string out;
  for (size_t i = 0; i < actions.size() && i < 40; ++i) out += ActionToString(actions[i]) + " ";
  return out;
}

// A blob the codec accepted must be a legal game that codes the same way again.
void CheckAccepted(const GameConfig& config, const std::vector<Action>& actions) {
  std::string again, error;
  FUZZ_CHECK(replays::EncodeActions(config, actions, &again, &error), "decoded a game that does not encode: " + error);
  std::vector<Action> back;
  FUZZ_CHECK(replays::DecodeActions(config, again, &back, &error), "re-encoded game does not decode: " + error);
  FUZZ_CHECK(back == actions, "re-encoded game decodes differently: " + Names(actions) + "| " + Names(back));
}

void DecodeBlob(const GameConfig& config, std::string_view blob) {
  std::vector<Action> out = {Action{}};
  const std::vector<Action> untouched = out;
  std::string error;
  if (!replays::DecodeActions(config, blob, &out, &error)) {
    FUZZ_CHECK(!error.empty(), "refused without a message");
    FUZZ_CHECK(out == untouched, "refused (" + error + ") but changed the output");
    return;
  }
  CheckAccepted(config, out);
}

// Long enough for a game's every phase; short enough for hundreds of runs a second.
constexpr size_t kMaxSteps = 300;

void RoundTrip(const GameConfig& config, const uint8_t* data, size_t size) {
  State s;
  std::string error;
  if (!NewGame(config, &s, &error)) return;
  std::vector<Action> actions;
  ActionList legal;
  for (size_t i = 0; i + 1 < size && i < kMaxSteps && !s.IsTerminal(); ++i) {
    Action a;
    if (s.IsChanceNode()) {
      const auto outcomes = s.ChanceOutcomes();
      a = outcomes[data[i] % outcomes.size()].action;
    } else {
      s.LegalActions(&legal);
      FUZZ_CHECK(legal.size > 0, "no legal action");
      a = legal.items[data[i] % legal.size];
    }
    error = s.Apply(a);
    FUZZ_CHECK(error.empty(), ActionToString(a) + ": " + error);
    actions.push_back(a);
  }
  std::string blob;
  FUZZ_CHECK(replays::EncodeActions(config, actions, &blob, &error), "a legal game does not encode: " + error);
  std::vector<Action> back;
  FUZZ_CHECK(replays::DecodeActions(config, blob, &back, &error), "an encoded game does not decode: " + error);
  FUZZ_CHECK(back == actions, "decodes differently: " + Names(actions) + "| " + Names(back));
  for (size_t cut : {size_t(0), blob.size() / 2, blob.size() - 1}) {
    if (cut >= blob.size()) continue;
    std::vector<Action> partial;
    FUZZ_CHECK(!replays::DecodeActions(config, std::string_view(blob).substr(0, cut), &partial, &error),
               "a truncation to " + std::to_string(cut) + " of " + std::to_string(blob.size()) + " bytes decoded");
  }
  if (blob.empty() || size == 0) return;
  const uint8_t last = data[size - 1];
  std::string changed = blob;
  changed[last % changed.size()] ^= char(1 + (last >> 4));
  DecodeBlob(config, changed);
}

}  // namespace
}  // namespace metropolis

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis;
  if (size == 0) return 0;
  const GameConfig config = ConfigFrom(data[0]);
  if (data[0] & 0x80) {
    RoundTrip(config, data + 1, size - 1);
  } else {
    DecodeBlob(config, std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  }
  return 0;
}
