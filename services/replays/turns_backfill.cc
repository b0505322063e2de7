#include "services/replays/turns_backfill.h"

#include <string>
#include <vector>

#include "lib/common/log.h"
#include "services/replays/prepare.h"

namespace metropolis::replays {

grpc::Status BackfillTurns(ReplayStore* store, const std::atomic<bool>& stop, TurnsBackfilled* out, int batch) {
  // In id order, after the last id looked at: a game that fails stays without
  // turns and must not be met again.
  std::string after;
  for (;;) {
    std::vector<std::string> ids;
    if (grpc::Status s = store->GamesWithoutTurns(after, batch, &ids); !s.ok()) return s;
    if (ids.empty()) return grpc::Status::OK;
    for (const std::string& id : ids) {
      if (stop.load()) return grpc::Status::OK;
      after = id;
      v1::CompletedGameRecord record;
      PreparedGame prepared;
      grpc::Status s = store->Load(id, &record);
      if (s.ok()) s = PrepareRecord(record, &prepared);
      if (!s.ok()) {
        if (s.error_code() == grpc::StatusCode::UNAVAILABLE) return s;
        ++out->failed;
        services::LogWarning("turns: a stored game does not replay; its turns stay unknown",
                             {{"game", id}, {"error", s.error_message()}});
        continue;
      }
      if (s = store->SetTurns(id, prepared.turns); !s.ok()) return s;
      ++out->filled;
    }
  }
}

}  // namespace metropolis::replays
