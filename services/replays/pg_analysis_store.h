// Games' analyses in PostgreSQL: the tables game_analyses, one row per analysed
// game, and game_analysis_skips, one per game left without one
// (migrations/replays/0080_game_analyses.sql).
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
  grpc::Status Skip(const std::string& game_id, const std::string& reason) override;
  grpc::Status Owed(const std::string& game_id, bool* owed) override;
  grpc::Status Missing(int64_t since_unix_ms, int limit, std::vector<Unanalysed>* out) override;
  grpc::Status Luck(int64_t identity_id, LuckTotals* out) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::replays
