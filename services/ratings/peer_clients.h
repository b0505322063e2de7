// The ratings service's peers over gRPC (peers.h): Replays.ConfirmGame, and
// Accounts.GetLadder and GetIdentityNames, called with the service token.
// Names are cached (an identity's name does not change); ladders are cached by
// the ratings logic for a few seconds.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "lib/auth/identity_names.h"
#include "metropolis/v1/accounts.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "services/ratings/peers.h"

namespace metropolis::ratings {

class GrpcStoredGames final : public StoredGames {
 public:
  GrpcStoredGames(const std::string& address, std::string token, int64_t timeout_ms = 5'000);
  grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) override;

 private:
  std::unique_ptr<v1::Replays::Stub> stub_;
  const std::string token_;
  const int64_t timeout_ms_;
};

class GrpcLadderDirectory final : public LadderDirectory {
 public:
  GrpcLadderDirectory(const std::string& address, std::string token, int64_t timeout_ms = 5'000);
  grpc::Status Ladder(const std::string& ladder, LadderInfo* out) override;
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override;

 private:
  std::unique_ptr<v1::Accounts::Stub> stub_;
  const std::string token_;
  const int64_t timeout_ms_;
  auth::IdentityNames names_;  // kept once read
};

}  // namespace metropolis::ratings
