#include "services/accounts/people_service.h"

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/token.h"

namespace metropolis::accounts {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

// One answer for an unknown name and a wrong password: it must not tell which
// names exist.
grpc::Status WrongNameOrPassword() { return {grpc::StatusCode::UNAUTHENTICATED, "wrong name or password"}; }

grpc::Status CheckIdentityId(int64_t id) {
  if (id > 0) return grpc::Status::OK;
  return Invalid("identity_id: " + std::to_string(id) + " is not an identity id (a positive integer)");
}

grpc::Status CheckSha256(const std::string& sha256, const std::string& field = "token_sha256") {
  if (sha256.size() == 32) return grpc::Status::OK;
  return Invalid(field + ": " + std::to_string(sha256.size()) + " bytes, not the 32 of a SHA-256");
}

// SignUp's rule, for the field that sets a password.
grpc::Status CheckNewPassword(const std::string& field, const std::string& password) {
  const size_t length = password.size();
  if (length >= kMinPasswordBytes && length <= kMaxPasswordBytes) return grpc::Status::OK;
  return Invalid(field + ": must be " + std::to_string(kMinPasswordBytes) + " to " + std::to_string(kMaxPasswordBytes) +
                 " bytes, not " + std::to_string(length));
}

// A password change retries this often when another change of the same
// person's password commits between its read and its write.
constexpr int kPasswordChangeAttempts = 3;

grpc::Status CheckGameId(const std::string& game_id) {
  if (!game_id.empty() && game_id.size() <= 64) return grpc::Status::OK;
  return Invalid("game_id: required, at most 64 bytes");
}

// A bot is named as a player is; a malformed name cannot be one of the person's.
grpc::Status CheckBotName(const std::string& field, const std::string& name) {
  if (ValidIdentityName(name)) return grpc::Status::OK;
  return Invalid(field + ": " + services::Quoted(name) +
                 " is not a name (1 to 64 letters, digits, '-', '_' or '.', not dots alone)");
}

void PersonToProto(const Person& in, v1::Person* out) {
  out->set_identity_id(in.id);
  out->set_name(in.name);
}

void SeatToProto(const HeldSeat& in, v1::WebSeat* out) {
  out->set_game_id(in.game_id);
  out->set_host(in.host);
  out->set_seat_token(in.seat_token);
  out->set_seat(uint32_t(in.seat));
}

}  // namespace

grpc::Status PeopleService::Authorize(const grpc::ServerContext& context) {
  Principal p;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), &p); !s.ok()) return s;
  if (!MayServePeople(p)) {
    services::LogInfo("people call refused",
                      {{"identity", p.name}, {"token_id", std::to_string(p.token_id)}, {"why", "not the gateway"}});
    return {grpc::StatusCode::PERMISSION_DENIED, "people's accounts are served to the gateway's service token only"};
  }
  return grpc::Status::OK;
}

grpc::Status PeopleService::SignUp(grpc::ServerContext* context, const v1::SignUpRequest* request,
                                   v1::Person* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  const std::string& name = request->name();
  if (!ValidIdentityName(name))
    return Invalid("name: " + services::Quoted(name) +
                   " is not a name (1 to 64 letters, digits, '-', '_' or '.', not dots alone)");
  if (grpc::Status s = CheckNewPassword("password", request->password()); !s.ok()) return s;
  std::string hash;
  if (!hasher_->Hash(request->password(), &hash))
    return {grpc::StatusCode::UNAVAILABLE, "cannot hash the password now (out of memory); try again"};
  Person person;
  if (grpc::Status s = people_->CreatePerson(name, hash, &person); !s.ok()) return s;
  services::LogInfo("person signed up", {{"identity", person.name}, {"identity_id", std::to_string(person.id)}});
  PersonToProto(person, response);
  return grpc::Status::OK;
}

grpc::Status PeopleService::CheckPassword(grpc::ServerContext* context, const v1::CheckPasswordRequest* request,
                                          v1::Person* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  std::vector<PasswordCandidate> candidates;
  // Malformed names and passwords cannot match: no need to look them up, and
  // the answer stays the same as for a wrong password.
  const bool plausible = ValidIdentityName(request->name()) && request->password().size() <= kMaxPasswordBytes;
  if (plausible)
    if (grpc::Status s = people_->FindPasswords(request->name(), &candidates); !s.ok()) return s;
  if (candidates.empty()) {
    std::call_once(dummy_once_, [&] { hasher_->Hash("not a password of anyone's", &dummy_hash_); });
    hasher_->Verify(request->password(), dummy_hash_);
    return WrongNameOrPassword();
  }
  // A second candidate exists only for an old name a migration changed and
  // nobody was told of yet: rare, and the extra hash is the only difference.
  for (const PasswordCandidate& c : candidates) {
    if (!hasher_->Verify(request->password(), c.password_hash)) continue;
    std::vector<Rename> renames;
    if (grpc::Status s = people_->TakeRenames(c.person.id, &renames); !s.ok()) return s;
    PersonToProto(c.person, response);
    for (const Rename& r : renames) {
      v1::Rename* out = response->add_renamed();
      out->set_identity_id(r.identity_id);
      out->set_old_name(r.old_name);
      out->set_new_name(r.new_name);
      services::LogInfo("rename told",
                        {{"identity_id", std::to_string(r.identity_id)}, {"old", r.old_name}, {"new", r.new_name}});
    }
    return grpc::Status::OK;
  }
  return WrongNameOrPassword();
}

grpc::Status PeopleService::CreateSession(grpc::ServerContext* context, const v1::CreateSessionRequest* request,
                                          v1::CreateSessionResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckSha256(request->token_sha256()); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  Person person;  // a session is a person's: not a bot's, not an operator's
  if (grpc::Status s = people_->FindPerson(request->identity_id(), &person); !s.ok()) return s;
  return people_->CreateSession(request->token_sha256(), request->identity_id(), request->expires_unix_ms());
}

grpc::Status PeopleService::FindSession(grpc::ServerContext* context, const v1::FindSessionRequest* request,
                                        v1::WebSession* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckSha256(request->token_sha256()); !s.ok()) return s;
  WebSession session;
  if (grpc::Status s = people_->FindSession(request->token_sha256(), request->now_unix_ms(), &session); !s.ok())
    return s;
  PersonToProto(session.person, response->mutable_person());
  response->set_token_sha256(session.token_sha256);
  response->set_expires_unix_ms(session.expires_unix_ms);
  return grpc::Status::OK;
}

grpc::Status PeopleService::DeleteSession(grpc::ServerContext* context, const v1::DeleteSessionRequest* request,
                                          v1::DeleteSessionResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckSha256(request->token_sha256()); !s.ok()) return s;
  return people_->DeleteSession(request->token_sha256());
}

grpc::Status PeopleService::ChangePassword(grpc::ServerContext* context, const v1::ChangePasswordRequest* request,
                                           v1::ChangePasswordResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  const int64_t id = request->identity_id();
  if (grpc::Status s = CheckIdentityId(id); !s.ok()) return s;
  if (grpc::Status s = CheckNewPassword("new_password", request->new_password()); !s.ok()) return s;
  if (grpc::Status s = CheckSha256(request->keep_token_sha256(), "keep_token_sha256"); !s.ok()) return s;
  const grpc::Status wrong{grpc::StatusCode::UNAUTHENTICATED, "wrong password"};
  // A password no rule allows was never theirs: no hash to try.
  if (request->old_password().size() > kMaxPasswordBytes) return wrong;
  for (int attempt = 1;; ++attempt) {
    std::string stored;
    if (grpc::Status s = people_->FindPasswordHash(id, &stored); !s.ok()) return s;
    if (!hasher_->Verify(request->old_password(), stored)) return wrong;
    std::string hash;
    if (!hasher_->Hash(request->new_password(), &hash))
      return {grpc::StatusCode::UNAVAILABLE, "cannot hash the password now (out of memory); try again"};
    int ended = 0;
    const grpc::Status s = people_->ReplacePassword(id, stored, hash, request->keep_token_sha256(), &ended);
    // Another change of this person's password came first: the old password
    // is checked again against the hash it left.
    if (s.error_code() == grpc::StatusCode::ABORTED && attempt < kPasswordChangeAttempts) continue;
    if (!s.ok()) return s;
    services::LogInfo("person changed their password",
                      {{"identity_id", std::to_string(id)}, {"sessions_ended", std::to_string(ended)}});
    response->set_sessions_ended(uint32_t(ended));
    return grpc::Status::OK;
  }
}

grpc::Status PeopleService::ListSessions(grpc::ServerContext* context, const v1::ListSessionsRequest* request,
                                         v1::ListSessionsResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  // None is marked current when the caller names none.
  if (!request->current_token_sha256().empty())
    if (grpc::Status s = CheckSha256(request->current_token_sha256(), "current_token_sha256"); !s.ok()) return s;
  std::vector<SessionInfo> sessions;
  if (grpc::Status s = people_->ListSessions(request->identity_id(), request->now_unix_ms(),
                                             request->current_token_sha256(), &sessions);
      !s.ok())
    return s;
  for (const SessionInfo& session : sessions) {
    v1::SessionInfo* out = response->add_sessions();
    out->set_id(session.id);
    out->set_created_unix_ms(session.created_unix_ms);
    out->set_expires_unix_ms(session.expires_unix_ms);
    out->set_current(session.current);
  }
  return grpc::Status::OK;
}

grpc::Status PeopleService::EndSession(grpc::ServerContext* context, const v1::EndSessionRequest* request,
                                       v1::EndSessionResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (!people::ValidSessionId(request->id()))
    return Invalid("id: " + services::Quoted(request->id(), 40) + " is not a session id (16 lower-case hex digits)");
  if (grpc::Status s = people_->EndSession(request->identity_id(), request->id()); !s.ok()) return s;
  services::LogInfo("person ended a session",
                    {{"identity_id", std::to_string(request->identity_id())}, {"session", request->id()}});
  return grpc::Status::OK;
}

grpc::Status PeopleService::SaveSeat(grpc::ServerContext* context, const v1::SaveSeatRequest* request,
                                     v1::SaveSeatResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  const v1::WebSeat& seat = request->seat();
  if (grpc::Status s = CheckGameId(seat.game_id()); !s.ok()) return s;
  if (seat.host().empty() || seat.seat_token().empty()) return Invalid("seat: host and seat_token are required");
  if (seat.seat() > 5) return Invalid("seat: " + std::to_string(seat.seat()) + " is not a seat (0 to 5)");
  return people_->SaveSeat(request->identity_id(), {seat.game_id(), seat.host(), seat.seat_token(), int(seat.seat())});
}

grpc::Status PeopleService::FindSeat(grpc::ServerContext* context, const v1::FindSeatRequest* request,
                                     v1::WebSeat* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckGameId(request->game_id()); !s.ok()) return s;
  HeldSeat seat;
  if (grpc::Status s = people_->FindSeat(request->identity_id(), request->game_id(), &seat); !s.ok()) return s;
  SeatToProto(seat, response);
  return grpc::Status::OK;
}

grpc::Status PeopleService::LatestOpenSeat(grpc::ServerContext* context, const v1::LatestOpenSeatRequest* request,
                                           v1::WebSeat* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  HeldSeat seat;
  if (grpc::Status s = people_->LatestOpenSeat(request->identity_id(), &seat); !s.ok()) return s;
  SeatToProto(seat, response);
  return grpc::Status::OK;
}

grpc::Status PeopleService::FinishSeat(grpc::ServerContext* context, const v1::FinishSeatRequest* request,
                                       v1::FinishSeatResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckGameId(request->game_id()); !s.ok()) return s;
  return people_->MarkSeatFinished(request->identity_id(), request->game_id());
}

grpc::Status PeopleService::ReservePracticeSeat(grpc::ServerContext* context,
                                                const v1::ReservePracticeSeatRequest* request,
                                                v1::ReservePracticeSeatResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckGameId(request->game_id()); !s.ok()) return s;
  if (request->max_open() < 1 || request->max_open() > 100)
    return Invalid("max_open: " + std::to_string(request->max_open()) + " is not in 1..100");
  return people_->ReservePracticeSeat(request->identity_id(), request->game_id(), int(request->max_open()));
}

grpc::Status PeopleService::OpenPracticeSeats(grpc::ServerContext* context, const v1::OpenPracticeSeatsRequest* request,
                                              v1::OpenPracticeSeatsResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  std::vector<OpenPracticeSeat> seats;
  if (grpc::Status s = people_->OpenPracticeSeats(request->identity_id(), &seats); !s.ok()) return s;
  for (const OpenPracticeSeat& seat : seats) {
    v1::OpenPracticeSeat* out = response->add_seats();
    out->set_game_id(seat.game_id);
    out->set_host(seat.host);
    out->set_age_ms(seat.age_ms);
  }
  return grpc::Status::OK;
}

grpc::Status PeopleService::IssuePersonToken(grpc::ServerContext* context, const v1::IssuePersonTokenRequest* request,
                                             v1::IssuePersonTokenResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  Person person;
  if (grpc::Status s = people_->FindPerson(request->identity_id(), &person); !s.ok()) return s;
  IssuedToken issued;
  if (grpc::Status s = accounts_->IssueToken(person.name, request->label(), /*admin=*/false, &issued); !s.ok())
    return s;
  response->set_token_id(issued.id);
  response->set_token(std::move(issued.token));
  return grpc::Status::OK;
}

grpc::Status PeopleService::RevokePersonToken(grpc::ServerContext* context, const v1::RevokePersonTokenRequest* request,
                                              v1::RevokePersonTokenResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (request->token_id() <= 0)
    return Invalid("token_id: " + std::to_string(request->token_id()) + " is not a token id (a positive integer)");
  return people_->RevokePersonToken(request->identity_id(), request->token_id());
}

grpc::Status PeopleService::CreatePersonBot(grpc::ServerContext* context, const v1::CreatePersonBotRequest* request,
                                            v1::PersonBot* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckBotName("name", request->name()); !s.ok()) return s;
  PersonBot bot;
  if (grpc::Status s = people_->CreatePersonBot(request->identity_id(), request->name(), quotas_.max_bots, &bot);
      !s.ok())
    return s;
  services::LogInfo(
      "person created a bot",
      {{"identity_id", std::to_string(request->identity_id())}, {"bot", bot.name}, {"bot_id", std::to_string(bot.id)}});
  response->set_identity_id(bot.id);
  response->set_name(bot.name);
  response->set_created_unix_ms(bot.created_unix_ms);
  response->set_live_tokens(uint32_t(bot.live_tokens));
  return grpc::Status::OK;
}

grpc::Status PeopleService::ListPersonBots(grpc::ServerContext* context, const v1::ListPersonBotsRequest* request,
                                           v1::ListPersonBotsResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  std::vector<PersonBot> bots;
  if (grpc::Status s = people_->ListPersonBots(request->identity_id(), &bots); !s.ok()) return s;
  for (const PersonBot& bot : bots) {
    v1::PersonBot* out = response->add_bots();
    out->set_identity_id(bot.id);
    out->set_name(bot.name);
    out->set_created_unix_ms(bot.created_unix_ms);
    out->set_live_tokens(uint32_t(bot.live_tokens));
  }
  response->set_max_bots(uint32_t(quotas_.max_bots));
  response->set_max_tokens_per_bot(uint32_t(quotas_.max_tokens_per_bot));
  return grpc::Status::OK;
}

grpc::Status PeopleService::IssueBotToken(grpc::ServerContext* context, const v1::IssueBotTokenRequest* request,
                                          v1::IssueBotTokenResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckBotName("bot", request->bot()); !s.ok()) return s;
  if (grpc::Status s = CheckTokenLabel(request->label()); !s.ok()) return s;
  std::string token = NewToken();
  int64_t id = 0;
  if (grpc::Status s = people_->InsertBotToken(request->identity_id(), request->bot(), Sha256(token), request->label(),
                                               quotas_.max_tokens_per_bot, &id);
      !s.ok())
    return s;
  services::LogInfo("person issued a bot token", {{"identity_id", std::to_string(request->identity_id())},
                                                  {"bot", request->bot()},
                                                  {"token_id", std::to_string(id)}});
  response->set_token_id(id);
  response->set_token(std::move(token));
  return grpc::Status::OK;
}

grpc::Status PeopleService::ListBotTokens(grpc::ServerContext* context, const v1::ListBotTokensRequest* request,
                                          v1::ListBotTokensResponse* response) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckBotName("bot", request->bot()); !s.ok()) return s;
  std::vector<TokenInfo> tokens;
  if (grpc::Status s = people_->ListBotTokens(request->identity_id(), request->bot(), &tokens); !s.ok()) return s;
  for (const TokenInfo& t : tokens) {
    v1::BotToken* out = response->add_tokens();
    out->set_id(t.id);
    out->set_label(t.label);
    out->set_created_unix_ms(t.created_unix_ms);
    out->set_revoked_unix_ms(t.revoked_unix_ms);
  }
  return grpc::Status::OK;
}

grpc::Status PeopleService::RevokeBotToken(grpc::ServerContext* context, const v1::RevokeBotTokenRequest* request,
                                           v1::RevokeBotTokenResponse*) {
  if (grpc::Status s = Authorize(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityId(request->identity_id()); !s.ok()) return s;
  if (grpc::Status s = CheckBotName("bot", request->bot()); !s.ok()) return s;
  if (request->token_id() <= 0)
    return Invalid("token_id: " + std::to_string(request->token_id()) + " is not a token id (a positive integer)");
  if (grpc::Status s = people_->RevokeBotToken(request->identity_id(), request->bot(), request->token_id()); !s.ok())
    return s;
  services::LogInfo("person revoked a bot token", {{"identity_id", std::to_string(request->identity_id())},
                                                   {"bot", request->bot()},
                                                   {"token_id", std::to_string(request->token_id())}});
  return grpc::Status::OK;
}

}  // namespace metropolis::accounts
