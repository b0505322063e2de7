// What gamehost_load reads of the host's updates, straight from the wire:
// which message an update is and, for a decision, its step and legal actions.
// A bot would parse the whole view; the load program skips it (half of its CPU
// otherwise) to leave the cores to the host it measures.
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
  std::vector<uint64_t> legal;  // decision: View.legal
  std::string error;            // rejected
};

// False when the bytes are not a PlayUpdate with one message set.
bool SummarizeUpdate(const grpc::ByteBuffer& buffer, UpdateSummary* out);

}  // namespace metropolis::load
