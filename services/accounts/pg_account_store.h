// The accounts in PostgreSQL (migrations/accounts/): identities and api_tokens.
// Names are unique in any letter case by a unique index on lower(name), so two
// sign-ups that differ only in case cannot both commit.
#pragma once

#include "services/accounts/store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::accounts {

class PgAccountStore final : public AccountStore {
 public:
  explicit PgAccountStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status FindIdentity(const std::string& name, Identity* out) override;
  grpc::Status ListIdentities(std::vector<Identity>* out) override;
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override;
  grpc::Status RevokeToken(int64_t token_id) override;
  grpc::Status ListTokens(const std::string& identity_name, std::vector<TokenInfo>* out) override;

 protected:
  grpc::Status InsertIdentity(const std::string& kind, const std::string& name, const std::string& owner_name,
                              Identity* out) override;
  grpc::Status InsertToken(const std::string& identity_name, const std::string& sha256, const std::string& label,
                           bool admin, int64_t* token_id) override;
  grpc::Status FindToken(const std::string& sha256, StoredToken* out, bool* found) override;

 private:
  storage::PgPool* pool_;
};

}  // namespace metropolis::accounts
