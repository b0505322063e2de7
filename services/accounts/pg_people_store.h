// People in PostgreSQL (migrations/accounts/): player_passwords, web_sessions,
// web_seats and identity_renames beside identities and api_tokens. A person is
// created with their password in one transaction.
#pragma once

#include "services/accounts/people_store.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::accounts {

class PgPeopleStore final : public PeopleStore {
 public:
  explicit PgPeopleStore(storage::PgPool* pool) : pool_(pool) {}

  grpc::Status CreatePerson(const std::string& name, const std::string& password_hash, Person* out) override;
  grpc::Status FindPasswords(const std::string& name, std::vector<PasswordCandidate>* out) override;
  grpc::Status TakeRenames(int64_t identity_id, std::vector<Rename>* out) override;
  grpc::Status FindPerson(int64_t identity_id, Person* out) override;
  grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) override;
  grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, WebSession* out) override;
  grpc::Status DeleteSession(const std::string& token_sha256) override;
  grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) override;
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) override;
  grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) override;
  grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) override;
  grpc::Status RevokePersonToken(int64_t identity_id, int64_t token_id) override;

 private:
  storage::PgPool* const pool_;
};

}  // namespace metropolis::accounts
