// Games' analyses in PostgreSQL: the table game_analyses
// (migrations/replays/0080_game_analyses.sql), one row per analysed game.
#pragma once

#include "services/replays/analysis_store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::replays {

class PgAnalysisStore final : public AnalysisStore {
 public:
  explicit PgAnalysisStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status Put(const std::string& game_id, const StoredAnalysis& analysis) override;
  grpc::Status Get(const std::string& game_id, StoredAnalysis* out, bool* found) override;
  grpc::Status Missing(int64_t since_unix_ms, int limit, std::vector<Unanalysed>* out) override;
  grpc::Status Luck(int64_t identity_id, LuckTotals* out) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::replays
