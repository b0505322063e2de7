// A stored game's debug notes for the signed-in person (docs/GATEWAY.md, "Your
// bots' notes"): GET /api/v1/me/games/{id}/debug. The notes, think times and
// evaluations a bot sent with its answers are its author's alone, so the
// gateway asks the Replays service's GetDebug with its service token naming
// exactly the person whose session it checked and the bots that person owns
// (BotStore::ListBots); Replays answers with those identities' seats only, and
// PERMISSION_DENIED when the game has none of them. This is the logic only: the
// notes come in through an interface, so the endpoint is unit-tested with a fake
// (tests/debug_notes_test.cc).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "metropolis/v1/replays.pb.h"
#include "services/gateway/api.h"
#include "services/gateway/bots.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

inline constexpr std::string_view kDebugRoute = "/api/v1/me/games/{}/debug";
// The most identities one GetDebug call may name (replays.proto).
inline constexpr size_t kMaxDebugIdentities = 100;

// Replays.GetDebug for the seats of `identities` (at most kMaxDebugIdentities):
// PERMISSION_DENIED when no seat of the game is theirs, FAILED_PRECONDITION for
// a hidden game, NOT_FOUND for an unknown one.
class DebugSource {
 public:
  virtual ~DebugSource() = default;
  virtual grpc::Status GetDebug(const std::vector<int64_t>& identities, const std::string& game_id,
                                v1::GameDebug* out) = 0;
};

// DebugSource over the Replays service, with the gateway's service token.
class GrpcDebugSource final : public DebugSource {
 public:
  explicit GrpcDebugSource(Backends* backends) : backends_(backends) {}
  grpc::Status GetDebug(const std::vector<int64_t>& identities, const std::string& game_id,
                        v1::GameDebug* out) override;

 private:
  Backends* const backends_;
};

// Whether `path` is /api/v1/me/games/{id}/debug (any method).
bool IsDebugPath(std::string_view path);

// Answers GET /api/v1/me/games/{game_id}/debug for the signed-in `session`:
// 200 {"game_id", "seats": [{"seat", "identity_id", "bot", "recorded_from_step",
// "notes_dropped", "steps": [{"step", "think_ms", "note", "evaluation"}]}]}, the
// seats played by the person or their bots ("bot": the bot's name, null for the
// person's own seat). With `download` the same JSON as an attachment,
// "<game_id>-debug.json". Errors: 400 a malformed game id, 403 no seat of the
// game is the person's or their bots', 404 an unknown game, 409 a hidden
// tournament game (FAILED_PRECONDITION, as every read of it), 503 the accounts
// or the replays unreachable. The method and the session are checked by the
// caller.
HttpResponse HandleDebug(BotStore* bots, DebugSource* source, const Session& session, const std::string& game_id,
                         bool download);

}  // namespace metropolis::gateway
