// The entrants' names from the accounts' identities table: the one table of
// another owner the tournaments still read, in this one place. It gives way to
// the Accounts service's GetIdentityNames once the matchmaker reaches Accounts
// over gRPC (a GrpcEntrantDirectory behind the same interface).
#pragma once

#include "services/matchmaker/tournaments/entrants.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::matchmaker {

class PgEntrantDirectory final : public EntrantDirectory {
 public:
  explicit PgEntrantDirectory(storage::PgPool* pool) : pool_(pool) {}
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::matchmaker
