// PeopleStore on PostgreSQL (migrations/0009_people.sql), the authoritative
// store of people's passwords, sessions and held seats: any gateway serves any
// person, and a gateway restart signs nobody out.
#pragma once

#include "services/gateway/people.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::gateway {

class PgPeopleStore : public PeopleStore {
 public:
  explicit PgPeopleStore(storage::PgPool* pool) : pool_(pool) {}
  grpc::Status CreatePerson(const std::string& name, const std::string& password_hash, Person* out) override;
  grpc::Status FindPassword(const std::string& name, Person* out, std::string* password_hash) override;
  grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) override;
  grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, Session* out) override;
  grpc::Status DeleteSession(const std::string& token_sha256) override;
  grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) override;
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) override;
  grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) override;
  grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) override;

 private:
  storage::PgPool* const pool_;
};

}  // namespace metropolis::gateway
