// What the tournaments need of the replays service, behind a small interface so
// that the scheduler is tested with a fake: the results of their stored games,
// and telling it which games it may show (Replays.RevealGames; the rule is
// services/replays/visibility.h and docs/TOURNAMENTS.md). The production one
// calls the Replays service with the service token (clients.h).
#pragma once

#include <grpcpp/support/status.h>

#include <string>
#include <vector>

namespace metropolis::matchmaker {

// A stored game's result, as the places are computed from it (PlacesOf).
struct StoredResult {
  std::string game_id;
  int winner = -1;              // -1: no winner (the length cap)
  std::vector<int> vp;          // by seat
  std::vector<bool> forfeited;  // by seat
};

class GameResults {
 public:
  virtual ~GameResults() = default;
  // The stored games among `game_ids` (at most 500), in any order; games not
  // stored are left out. A status when the store cannot answer.
  virtual grpc::Status Results(const std::vector<std::string>& game_ids, std::vector<StoredResult>* out) = 0;
  // Lets the replays service show every game of `tournament` (`whole`), or the
  // games named. Idempotent: the runner sends it again until it is OK.
  virtual grpc::Status Reveal(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) = 0;
};

}  // namespace metropolis::matchmaker
