// Tournaments in PostgreSQL (migrations/0007_tournaments.sql and
// migrations/tournaments/): every move of a game is one conditional UPDATE, and
// every scheduler change raises the database's fence in its own transaction.
// The fence and the check of the current attempt are this store's contract;
// each has a negative control ("tournament_fence", "current_attempt").
#pragma once

#include <atomic>

#include "services/matchmaker/tournaments/store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::matchmaker {

class PgTournamentStore final : public TournamentStore {
 public:
  explicit PgTournamentStore(storage::PgPool* pool);

  grpc::Status TakeFence(int64_t* fence) override;
  int64_t fence() const override { return fence_.load(); }
  void ClearFence() override { fence_.store(0); }

  grpc::Status Create(const TournamentSpec& spec, const std::vector<ScheduledGame>& games) override;
  grpc::Status Get(const std::string& id, TournamentRow* out) override;
  grpc::Status List(std::vector<TournamentRow>* out) override;
  grpc::Status Games(const std::string& id, std::vector<TournamentGameRow>* out) override;
  grpc::Status Running(std::vector<std::string>* ids) override;
  grpc::Status SetState(const std::string& id, const std::string& state, const std::string& reason) override;
  grpc::Status Join(const std::string& id, int64_t identity, bool* joined) override;
  grpc::Status Leave(const std::string& id, int64_t identity) override;
  grpc::Status VoidUnstarted(const std::string& id, int* voided) override;
  grpc::Status DueToStart(std::vector<std::string>* ids, int64_t* now_ms) override;
  grpc::Status Start(const std::string& id, int entrants, const std::vector<ScheduledGame>& games,
                     const std::string& reason, const TournamentSpec* next, bool* started) override;
  grpc::Status Finish(const std::string& id, int number, const std::string& game_id, const std::vector<int>& places,
                      bool* finished) override;
  grpc::Status Claim(const std::string& id, int number, const std::string& host, std::string* game_id,
                     bool* claimed) override;
  grpc::Status MarkPlaying(const std::string& id, int number, const std::string& game_id, bool* marked) override;
  grpc::Status Requeue(const std::string& id, int number, const std::string& game_id) override;
  grpc::Status AddRound(const std::string& id, int round, const std::vector<ScheduledGame>& games) override;
  grpc::Status DueReveals(int limit, std::vector<DueReveal>* out) override;
  grpc::Status MarkRevealed(const DueReveal& reveal) override;

 private:
  storage::PgPool* pool_;
  std::atomic<int64_t> fence_{0};
  const bool check_fence_;     // off only as the negative control "tournament_fence"
  const bool check_attempt_;   // off only as the negative control "current_attempt"
  const bool check_entrants_;  // off only as the negative control "start_entrants"
};

}  // namespace metropolis::matchmaker
