// The debug channel on the replays side (replays.proto, SeatDebug and GetDebug):
// what a stored game's debug must look like, and whose seats a caller reads.
// The host writes the debug with the game (StoreGame); it is kept apart from the
// game's tables and digest, and read back only through GetDebug, by the bots'
// authors: never by GetReplay, the exports or the analysis.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <vector>

#include "metropolis/v1/replays.pb.h"

namespace metropolis::auth {
struct Principal;
}

namespace metropolis::replays {

// INVALID_ARGUMENT with the first problem: a seat out of range or twice, steps
// not increasing or outside [recorded_from_step, the number of actions), a note
// over protocol::kMaxNoteBytes, an evaluation that is not finite, a seat's notes
// past protocol::kMaxDebugBytes, or an identity set (GetDebug's field).
grpc::Status CheckDebug(const v1::CompletedGameRecord& record, int num_seats);

// Whose seats a GetDebug call reads: every seat, or those of these identities.
struct DebugReader {
  bool every_seat = false;
  std::vector<int64_t> identities;
};

// The rule of replays.proto's GetDebug: a bot's or player's token reads its own
// seats; the gateway's service token the identities it names (the person signed
// in and the bots they own); an administrator the identities named, or every
// seat. PERMISSION_DENIED for other services and for identities naming another's;
// INVALID_ARGUMENT for more than 100 identities or one below 1.
grpc::Status DebugReaderOf(const auth::Principal& caller, const v1::GetDebugRequest& request, DebugReader* out);

// The seats of `game` (its seat records with identities) that `reader` reads, from
// the stored debug `stored` (by seat), each with its identity set. *any_seat: a
// seat of the game is the reader's, whether or not it has debug.
void ReadableDebug(const v1::CompletedGameRecord& game, const std::vector<v1::SeatDebug>& stored,
                   const DebugReader& reader, v1::GameDebug* out, bool* any_seat);

}  // namespace metropolis::replays
