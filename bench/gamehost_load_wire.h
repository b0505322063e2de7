// What the load programs read of the host's updates, straight from the wire:
// which message an update is and, for a decision, its step and legal actions
// (gamehost_load); for a spectator, which message and its step
// (gateway_streams). A bot would parse the whole view; the load programs skip
// it (half of their CPU otherwise) to leave the cores to what they measure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace grpc {
class ByteBuffer;
}  // namespace grpc

namespace metropolis::load {

struct UpdateSummary {
  int kind = 0;       // the PlayUpdate field set (v1::PlayUpdate::MsgCase): 3 decision, 4 rejected, 5 game over, ...
  uint32_t step = 0;  // decision and rejected
  std::vector<uint64_t> legal;  // decision: View.legal (of the delta's `changed`, if listed there)
  bool view_delta = false;      // decision: the view came as a delta (CAPABILITY_VIEW_DELTAS) ...
  bool legal_in_delta = false;  // ... that lists View.legal; if not, the base's legal actions stand
  std::string error;            // rejected
};

// False when the bytes are not a PlayUpdate with one message set.
bool SummarizeUpdate(const grpc::ByteBuffer& buffer, UpdateSummary* out);

struct SpectateSummary {
  int kind = 0;       // the SpectateUpdate field set (v1::SpectateUpdate::MsgCase): 1 welcome, 2 view, 3 events, ...
  uint32_t step = 0;  // welcome: actions applied so far; events: the game's step after them
};

// False when the bytes are not a SpectateUpdate with one message set.
bool SummarizeSpectate(const grpc::ByteBuffer& buffer, SpectateSummary* out);

}  // namespace metropolis::load
