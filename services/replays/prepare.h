// A completed game made ready to store: checked (record.h), its actions
// encoded by the codec, its codes, configuration bytes and digest computed.
// Pure: no database, so whatever the stores are, a game reaches them only
// once it is known to replay to the end it claims.
#pragma once

#include <grpcpp/support/status.h>

#include <string>

#include "metropolis/v1/replays.pb.h"

namespace metropolis::replays {

struct PreparedGame {
  // The caller's record, which must outlive the PreparedGame (copying every
  // action of a long game again is a good part of storing it).
  const v1::CompletedGameRecord* record = nullptr;
  int num_seats = 0;
  std::string config_bytes;  // the serialised GameConfig, as stored
  std::string codes;         // CodesToBytes(record)
  // The codec's compact form; has_compact false when the codec could not
  // encode the game (compact_error says why): the codes alone still replay.
  bool has_compact = false;
  std::string compact, compact_error;
  std::string digest;  // DigestOfRecord: the digest of the game as it will be stored
  // The turns the replayed game took (GameResult.turns). Derived from the
  // actions, so it is stored beside the game but left out of its digest.
  uint32_t turns = 0;
};

// Checks `record` (shape, every action, the result it claims, its chance) and
// fills `out`; INVALID_ARGUMENT with the first problem otherwise.
grpc::Status PrepareRecord(const v1::CompletedGameRecord& record, PreparedGame* out);

}  // namespace metropolis::replays
