// Where the replays service keeps the tournaments' reveals (visibility.h), in
// PostgreSQL's game_reveals (pg_reveal_store.h) or an in-memory fake (tests/).
// Reveals are only ever added. Every call answers UNAVAILABLE when the store
// cannot be reached.
#pragma once

#include <grpcpp/support/status.h>

#include <set>
#include <string>
#include <vector>

#include "services/replays/visibility.h"

namespace metropolis::replays {

class RevealStore {
 public:
  virtual ~RevealStore() = default;

  // Adds the reveals, idempotently: the whole tournament when `whole`, and
  // each of `game_ids` under `tournament`. All or nothing.
  virtual grpc::Status Add(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) = 0;
  // Appends the reveals of these tournaments (an empty name has none).
  virtual grpc::Status Reveals(const std::set<std::string>& tournaments, std::vector<Reveal>* out) = 0;
};

}  // namespace metropolis::replays
