// The replays service's logic, apart from its gRPC wiring (service.h) and its
// storage (replay_store.h, reveal_store.h): what may be stored (prepare.h),
// what may be shown (visibility.h), every request's checks, and the listing's
// pages filled past hidden games. Callers are authorised before they get here.
#pragma once

#include <grpcpp/support/status.h>

#include <string>

#include "metropolis/v1/replays.pb.h"
#include "services/replays/analysis_store.h"
#include "services/replays/analysis_worker.h"
#include "services/replays/debug.h"
#include "services/replays/replay_store.h"
#include "services/replays/reveal_store.h"

namespace metropolis::replays {

class Replays {
 public:
  // Without `analyses` and `scheduler` no game is analysed: GetAnalysis and
  // RequestAnalysis answer UNIMPLEMENTED.
  Replays(ReplayStore* store, RevealStore* reveals, AnalysisStore* analyses = nullptr,
          AnalysisScheduler* scheduler = nullptr)
      : store_(store), reveals_(reveals), analyses_(analyses), scheduler_(scheduler) {}

  // Checks the record (PrepareRecord), then stores it. Storing the same game
  // again is OK with already_stored; another game under a stored id is
  // ALREADY_EXISTS.
  grpc::Status Store(const v1::CompletedGameRecord& game, v1::StoreGameResponse* out);
  // Newest first, hidden games left out, a page filled with shown games.
  grpc::Status List(const v1::ListStoredGamesRequest& request, v1::ListStoredGamesResponse* out);
  // A shown game; FAILED_PRECONDITION for a hidden one (visibility.h).
  grpc::Status Load(const std::string& game_id, v1::CompletedGameRecord* out);
  // Load, then the position at a step, or the engine's game record.
  grpc::Status Position(const v1::GetPositionRequest& request, v1::PositionResponse* out);
  grpc::Status Export(const std::string& game_id, v1::ExportGameResponse* out);
  // A ladder's or a tournament's shown games, oldest first, each as Export's
  // record with the cursor after it (replays.proto, ExportGames): a page
  // filled past hidden games, resumed strictly after the request's cursor.
  // INVALID_ARGUMENT (nothing read) for neither or both of ladder and
  // tournament, a malformed cursor or page_size above 500; NOT_FOUND when the
  // ladder or tournament has no shown game.
  grpc::Status ExportMany(const v1::ExportGamesRequest& request, v1::ExportGamesResponse* out);
  // Whether the stored game `game_id` has this digest (digest.h); NOT_FOUND
  // when no game has the id. Hidden games are confirmed too: nothing is shown.
  grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed);
  // Adds the reveals; idempotent. INVALID_ARGUMENT (and nothing written) for a
  // request without a tournament, with neither whole_tournament nor game ids,
  // with more than 500 ids or one that is not a game id.
  grpc::Status Reveal(const v1::RevealGamesRequest& request);
  // The stored games among the ids, hidden ones included. INVALID_ARGUMENT for
  // no ids, more than 500, or one that is not a game id.
  grpc::Status Results(const v1::GetResultsRequest& request, v1::GetResultsResponse* out);
  // A shown game's analysis (READY), or whether it waits (QUEUED) or not
  // (NOT_ANALYSED); Load's errors for a game that is not shown.
  grpc::Status Analysis(const std::string& game_id, v1::GameAnalysis* out);
  // Analysis, after queueing a shown game that is neither analysed nor
  // waiting; RESOURCE_EXHAUSTED (nothing queued) when the line is full.
  grpc::Status RequestAnalysis(const std::string& game_id, v1::GameAnalysis* out);
  grpc::Status LuckSummary(int64_t identity_id, v1::LuckSummary* out);
  // The debug of a shown game's seats that `reader` reads (debug.h); Load's
  // errors for a game that is not shown; PERMISSION_DENIED when no seat of
  // the game is the reader's.
  grpc::Status Debug(const std::string& game_id, const DebugReader& reader, v1::GameDebug* out);

 private:
  // Whether a game stored under `tournament` may be shown (*shown), from the
  // reveals the store holds.
  grpc::Status Shows(const std::string& game_id, const std::string& tournament, bool* shown);
  // Appends to *out up to `count` shown games matching `filter` after `after`
  // in the filter's order, reading past hidden ones; *more: whether a shown
  // game follows the last one appended (read only when `count` were found).
  grpc::Status ShownGames(const ListFilter& filter, ListCursor after, uint32_t count, Summaries* out, bool* more);

  // Analysis without loading the game again: `game_id` is shown.
  grpc::Status AnalysisOfShown(const std::string& game_id, v1::GameAnalysis* out);

  ReplayStore* store_;
  RevealStore* reveals_;
  AnalysisStore* analyses_;
  AnalysisScheduler* scheduler_;
};

}  // namespace metropolis::replays
