// The entrants' names, which the Accounts service owns: a small interface so
// that the tournaments read no identities table of their own and are tested with
// a fake. The production one asks Accounts.GetIdentityNames (GrpcEntrantDirectory, clients.h).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "services/matchmaker/tournaments/store.h"

namespace metropolis::matchmaker {

class EntrantDirectory {
 public:
  virtual ~EntrantDirectory() = default;
  // The names of those `ids` that are identities (others are left out); a
  // status when the directory cannot answer.
  virtual grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) = 0;
};

// Each row's names by entrant, from one call. An entrant the directory does not
// know gets its id as its name.
grpc::Status FillNames(EntrantDirectory* directory, const std::vector<TournamentRow*>& rows);

// OK when every entrant of `spec` is an identity; NOT_FOUND naming the first
// that is not.
grpc::Status CheckEntrants(EntrantDirectory* directory, const TournamentSpec& spec);

}  // namespace metropolis::matchmaker
