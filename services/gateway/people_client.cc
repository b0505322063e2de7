#include "services/gateway/people_client.h"

#include "services/gateway/backends.h"
#include "services/gateway/people_call.h"

namespace metropolis::gateway {
namespace {

Person PersonFrom(const v1::Person& p) {
  Person out{p.identity_id(), p.name(), {}};
  for (const v1::Rename& r : p.renamed()) out.renamed.push_back({r.identity_id(), r.old_name(), r.new_name()});
  return out;
}

HeldSeat SeatFrom(const v1::WebSeat& s) { return {s.game_id(), s.host(), s.seat_token(), int(s.seat())}; }

}  // namespace

grpc::Status GrpcPeopleStore::CreatePerson(const std::string& name, const std::string& password, Person* out) {
  v1::SignUpRequest request;
  request.set_name(name);
  request.set_password(password);
  v1::Person response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::SignUp, request, &response); !s.ok()) return s;
  *out = PersonFrom(response);
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::CheckPassword(const std::string& name, const std::string& password, Person* out) {
  v1::CheckPasswordRequest request;
  request.set_name(name);
  request.set_password(password);
  v1::Person response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::CheckPassword, request, &response); !s.ok()) return s;
  *out = PersonFrom(response);
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::CreateSession(const std::string& token_sha256, int64_t identity_id,
                                            int64_t expires_unix_ms) {
  v1::CreateSessionRequest request;
  request.set_token_sha256(token_sha256);
  request.set_identity_id(identity_id);
  request.set_expires_unix_ms(expires_unix_ms);
  v1::CreateSessionResponse response;
  return CallPeople(backends_, &v1::People::Stub::CreateSession, request, &response);
}

grpc::Status GrpcPeopleStore::FindSession(const std::string& token_sha256, int64_t now_unix_ms, Session* out) {
  v1::FindSessionRequest request;
  request.set_token_sha256(token_sha256);
  request.set_now_unix_ms(now_unix_ms);
  v1::WebSession response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::FindSession, request, &response); !s.ok()) return s;
  *out = {PersonFrom(response.person()), response.token_sha256(), response.expires_unix_ms()};
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::DeleteSession(const std::string& token_sha256) {
  v1::DeleteSessionRequest request;
  request.set_token_sha256(token_sha256);
  v1::DeleteSessionResponse response;
  return CallPeople(backends_, &v1::People::Stub::DeleteSession, request, &response);
}

grpc::Status GrpcPeopleStore::ChangePassword(int64_t identity_id, const std::string& old_password,
                                             const std::string& new_password, const std::string& keep_token_sha256,
                                             int* ended) {
  v1::ChangePasswordRequest request;
  request.set_identity_id(identity_id);
  request.set_old_password(old_password);
  request.set_new_password(new_password);
  request.set_keep_token_sha256(keep_token_sha256);
  v1::ChangePasswordResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::ChangePassword, request, &response); !s.ok()) return s;
  *ended = int(response.sessions_ended());
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::ListSessions(int64_t identity_id, int64_t now_unix_ms,
                                           const std::string& current_token_sha256, std::vector<SessionInfo>* out) {
  v1::ListSessionsRequest request;
  request.set_identity_id(identity_id);
  request.set_now_unix_ms(now_unix_ms);
  request.set_current_token_sha256(current_token_sha256);
  v1::ListSessionsResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::ListSessions, request, &response); !s.ok()) return s;
  out->clear();
  for (const v1::SessionInfo& session : response.sessions())
    out->push_back({session.id(), session.created_unix_ms(), session.expires_unix_ms(), session.current()});
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::EndSession(int64_t identity_id, const std::string& id) {
  v1::EndSessionRequest request;
  request.set_identity_id(identity_id);
  request.set_id(id);
  v1::EndSessionResponse response;
  return CallPeople(backends_, &v1::People::Stub::EndSession, request, &response);
}

grpc::Status GrpcPeopleStore::SaveSeat(int64_t identity_id, const HeldSeat& seat) {
  v1::SaveSeatRequest request;
  request.set_identity_id(identity_id);
  v1::WebSeat* s = request.mutable_seat();
  s->set_game_id(seat.game_id);
  s->set_host(seat.host);
  s->set_seat_token(seat.seat_token);
  s->set_seat(uint32_t(seat.seat));
  v1::SaveSeatResponse response;
  return CallPeople(backends_, &v1::People::Stub::SaveSeat, request, &response);
}

grpc::Status GrpcPeopleStore::FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) {
  v1::FindSeatRequest request;
  request.set_identity_id(identity_id);
  request.set_game_id(game_id);
  v1::WebSeat response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::FindSeat, request, &response); !s.ok()) return s;
  *out = SeatFrom(response);
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::LatestOpenSeat(int64_t identity_id, HeldSeat* out) {
  v1::LatestOpenSeatRequest request;
  request.set_identity_id(identity_id);
  v1::WebSeat response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::LatestOpenSeat, request, &response); !s.ok()) return s;
  *out = SeatFrom(response);
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::MarkSeatFinished(int64_t identity_id, const std::string& game_id) {
  v1::FinishSeatRequest request;
  request.set_identity_id(identity_id);
  request.set_game_id(game_id);
  v1::FinishSeatResponse response;
  return CallPeople(backends_, &v1::People::Stub::FinishSeat, request, &response);
}

grpc::Status GrpcPeopleStore::ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) {
  v1::ReservePracticeSeatRequest request;
  request.set_identity_id(identity_id);
  request.set_game_id(game_id);
  request.set_max_open(uint32_t(max_open));
  v1::ReservePracticeSeatResponse response;
  return CallPeople(backends_, &v1::People::Stub::ReservePracticeSeat, request, &response);
}

grpc::Status GrpcPeopleStore::OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) {
  v1::OpenPracticeSeatsRequest request;
  request.set_identity_id(identity_id);
  v1::OpenPracticeSeatsResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::OpenPracticeSeats, request, &response); !s.ok())
    return s;
  out->clear();
  for (const v1::OpenPracticeSeat& seat : response.seats())
    out->push_back({seat.game_id(), seat.host(), seat.age_ms()});
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::IssueToken(int64_t identity_id, const std::string& label, int64_t* token_id,
                                         std::string* token) {
  v1::IssuePersonTokenRequest request;
  request.set_identity_id(identity_id);
  request.set_label(label);
  v1::IssuePersonTokenResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::IssuePersonToken, request, &response); !s.ok())
    return s;
  *token_id = response.token_id();
  *token = response.token();
  return grpc::Status::OK;
}

grpc::Status GrpcPeopleStore::RevokeToken(int64_t identity_id, int64_t token_id) {
  v1::RevokePersonTokenRequest request;
  request.set_identity_id(identity_id);
  request.set_token_id(token_id);
  v1::RevokePersonTokenResponse response;
  return CallPeople(backends_, &v1::People::Stub::RevokePersonToken, request, &response);
}

}  // namespace metropolis::gateway
