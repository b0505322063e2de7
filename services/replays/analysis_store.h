// Where the replays service keeps games' analyses (docs/ANALYSIS.md): the table
// game_analyses in PostgreSQL (pg_analysis_store.h) or an in-memory fake
// (tests/). An analysis is derived from its stored game, written once by the
// worker (analysis_worker.h) and never changed. Every call answers UNAVAILABLE
// when the store cannot be reached.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metropolis::replays {

struct StoredAnalysis {
  std::string json;  // AnalysisToJson's object
  uint32_t method_version = 0;
  double cpu_seconds = 0;
  int64_t analysed_unix_ms = 0;  // set by the store
};

// A stored game the worker may still owe an analysis: its id and the
// identities at its table (seats without one are built-in bots or anonymous).
struct Unanalysed {
  std::string game_id;
  std::vector<int64_t> identity_ids;
  std::vector<std::string> names;  // the seats' names, in the same order
};

// A player's luck over their analysed games that readers may see.
struct LuckTotals {
  uint32_t games = 0;
  double luck_cards = 0, dice_surplus = 0, draw_surplus = 0, place = 0, adjusted_place = 0;  // means
};

class AnalysisStore {
 public:
  virtual ~AnalysisStore() = default;

  // Keeps the analysis of a stored game; a game analysed already keeps its
  // first analysis and the call is OK (two workers may race on one game).
  // NOT_FOUND when no game has the id.
  virtual grpc::Status Put(const std::string& game_id, const StoredAnalysis& analysis) = 0;
  // *found false when the game has no analysis (or there is no such game).
  virtual grpc::Status Get(const std::string& game_id, StoredAnalysis* out, bool* found) = 0;
  // Records that the worker left the game without analysis: "no_person" or
  // "dropped" (its line was full). Idempotent; NOT_FOUND for no stored game.
  virtual grpc::Status Skip(const std::string& game_id, const std::string& reason) = 0;
  // Whether some worker still owes the game an analysis: a seat has an identity
  // and was not the host's built-in bot, and the game has neither an analysis
  // nor a skip. What a read says is queued when the worker asked holds no job
  // for it (another replica does, or a restart will).
  virtual grpc::Status Owed(const std::string& game_id, bool* owed) = 0;
  // The games Owed that finished at or after `since_unix_ms`, newest first, at
  // most `limit`: what a worker that restarted looks at again.
  virtual grpc::Status Missing(int64_t since_unix_ms, int limit, std::vector<Unanalysed>* out) = 0;
  // The means of the identity's seats over its analysed games, leaving out a
  // tournament's games not revealed (visibility.h).
  virtual grpc::Status Luck(int64_t identity_id, LuckTotals* out) = 0;
};

}  // namespace metropolis::replays
