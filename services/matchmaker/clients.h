// What the matchmaker talks to, in production: the Accounts service for the
// ladders' configuration, the ratings service for a player's μ, and the game hosts.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/auth/identity_names.h"
#include "metropolis/v1/accounts.grpc.pb.h"
#include "metropolis/v1/gamehost.grpc.pb.h"
#include "metropolis/v1/ratings.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "services/matchmaker/service.h"
#include "services/matchmaker/tournaments/entrants.h"
#include "services/matchmaker/tournaments/results.h"

namespace metropolis::matchmaker {

// Ladders from Accounts.ListLadders (called with the matchmaker's service
// token), read again after `refresh_ms`; a ladder whose options do not parse is
// left out, with a log line. While Accounts cannot answer, the last ladders read
// are kept (asked again a second later).
class GrpcLadderSource final : public LadderSource {
 public:
  GrpcLadderSource(const std::string& address, std::string token, int64_t refresh_ms = 10'000);
  std::vector<LadderConfig> Ladders(Read read = Read::kCached) override;

 private:
  std::unique_ptr<v1::Accounts::Stub> stub_;
  const std::string token_;
  const int64_t refresh_ms_;
  std::mutex mutex_;
  std::vector<LadderConfig> cached_;
  std::chrono::steady_clock::time_point until_{}, read_at_{};
};

LadderConfig ToLadderConfig(const v1::Ladder& ladder, std::string* error);

// μ from Ratings.GetPlayerRating; the ladder's μ for a newcomer, or when the
// ratings service cannot answer (matching goes on, a little less well).
class GrpcRatingSource final : public RatingSource {
 public:
  GrpcRatingSource(const std::string& address, std::string token);
  double Mu(const LadderConfig& ladder, int64_t identity_id) override;

 private:
  std::unique_ptr<v1::Ratings::Stub> stub_;
  const std::string token_;
};

// The tournaments' entrants' names from Accounts.GetIdentityNames, with the
// service token (lib/auth/identity_names.h: kept once read).
class GrpcEntrantDirectory final : public EntrantDirectory {
 public:
  GrpcEntrantDirectory(const std::string& address, std::string token);
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override;

 private:
  auth::IdentityNames names_;
};

// The tournaments' results and reveals from the Replays service (GetResults,
// RevealGames), with the service token; each call has a 5 s deadline.
class GrpcGameResults final : public GameResults {
 public:
  GrpcGameResults(const std::string& address, std::string token);
  grpc::Status Results(const std::vector<std::string>& game_ids, std::vector<StoredResult>* out) override;
  grpc::Status Reveal(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) override;

 private:
  std::unique_ptr<v1::Replays::Stub> stub_;
  const std::string token_;
};

class GrpcGameCreator final : public GameCreator {
 public:
  explicit GrpcGameCreator(std::string admin_token) : admin_token_(std::move(admin_token)) {}
  grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                      v1::CreateGameResponse* response) override;
  grpc::Status Probe(const std::string& host, const std::string& game_id) override;
  grpc::Status Lookup(const std::string& host, const std::string& game_id, v1::GameInfo* out) override;
  grpc::Status SeatsOf(const std::string& host, const v1::SeatsOfRequest& request, v1::SeatsOfResponse* out) override;

 private:
  v1::GameHost::Stub* Stub(const std::string& host);
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<v1::GameHost::Stub>> stubs_;
  const std::string admin_token_;
};

}  // namespace metropolis::matchmaker
