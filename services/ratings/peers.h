// What the ratings service asks of the other services, behind small interfaces
// so that its logic (ratings.h) runs against fakes in tests: Replays confirms
// that a game is stored with a digest before its result is rated; Accounts
// gives ladders' rating parameters and seasons, and identities' names for the
// leaderboards. The gRPC implementations are in peer_clients.h.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "services/ratings/model/model.h"

namespace metropolis::ratings {

class StoredGames {
 public:
  virtual ~StoredGames() = default;
  // OK with *confirmed whether Replays holds `game_id` with `digest`;
  // NOT_FOUND when it holds no such game; UNAVAILABLE (or another code) when it
  // could not answer.
  virtual grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) = 0;
};

struct LadderInfo {
  RatingParams params;
  int placement_games = 0;
  int latest_season = 0;  // seasons are 1 to this; 0 before the first
};

class LadderDirectory {
 public:
  virtual ~LadderDirectory() = default;
  // NOT_FOUND for an unknown ladder.
  virtual grpc::Status Ladder(const std::string& ladder, LadderInfo* out) = 0;
  // Names of the identities in `ids` that exist; the others are left out.
  virtual grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) = 0;
};

}  // namespace metropolis::ratings
