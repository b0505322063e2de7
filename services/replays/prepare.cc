#include "services/replays/prepare.h"

#include <vector>

#include "services/replays/codec/codec.h"
#include "services/replays/debug.h"
#include "services/replays/digest.h"
#include "services/replays/record.h"

namespace metropolis::replays {

grpc::Status PrepareRecord(const v1::CompletedGameRecord& record, PreparedGame* out) {
  GameConfig config;
  std::vector<Action> actions;
  if (grpc::Status s = CheckShape(record, &config, &actions); !s.ok()) return s;
  if (grpc::Status s = CheckDebug(record, config.num_seats); !s.ok()) return s;
  // Encoding is a checked replay; only when it fails does the plain replay run,
  // for its precise error, or to store a game the codec cannot compress.
  State final_state;
  out->has_compact = EncodeActions(config, actions, &out->compact, &out->compact_error, nullptr, &final_state);
  if (grpc::Status s =
          out->has_compact ? CheckResult(record, final_state) : CheckRecord(record, &config, &actions, &final_state);
      !s.ok())
    return s;
  // From the replay, not the record's claim: listings show it without replaying.
  out->turns = uint32_t(final_state.turn_number());
  if (grpc::Status s = CheckVerifiableChance(record, config, actions); !s.ok()) return s;
  out->record = &record;
  out->num_seats = config.num_seats;
  out->codes = CodesToBytes(record);
  record.config().SerializeToString(&out->config_bytes);
  // Kept beside the game by the store: ConfirmGame reads it back instead of
  // hashing the stored game again.
  out->digest = DigestOfRecord(record, config.num_seats, out->config_bytes, out->codes);
  return grpc::Status::OK;
}

}  // namespace metropolis::replays
