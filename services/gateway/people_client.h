// PeopleStore over the Accounts service's People (proto/metropolis/v1/people.proto),
// called with the gateway's service token: people's passwords, sessions and
// held seats are the accounts' to keep, so any gateway serves any person and a
// gateway restart signs nobody out.
#pragma once

#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

class GrpcPeopleStore : public PeopleStore {
 public:
  explicit GrpcPeopleStore(Backends* backends) : backends_(backends) {}
  grpc::Status CreatePerson(const std::string& name, const std::string& password, Person* out) override;
  grpc::Status CheckPassword(const std::string& name, const std::string& password, Person* out) override;
  grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) override;
  grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, Session* out) override;
  grpc::Status DeleteSession(const std::string& token_sha256) override;
  grpc::Status ChangePassword(int64_t identity_id, const std::string& old_password, const std::string& new_password,
                              const std::string& keep_token_sha256, int* ended) override;
  grpc::Status ListSessions(int64_t identity_id, int64_t now_unix_ms, const std::string& current_token_sha256,
                            std::vector<SessionInfo>* out) override;
  grpc::Status EndSession(int64_t identity_id, const std::string& id) override;
  grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) override;
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) override;
  grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) override;
  grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) override;
  grpc::Status ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) override;
  grpc::Status OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) override;
  grpc::Status IssueToken(int64_t identity_id, const std::string& label, int64_t* token_id,
                          std::string* token) override;
  grpc::Status RevokeToken(int64_t identity_id, int64_t token_id) override;

 private:
  Backends* const backends_;
};

}  // namespace metropolis::gateway
