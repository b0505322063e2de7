// The People service's gRPC wiring (proto/metropolis/v1/people.proto): the
// gateway-only check, the requests' shapes, the password hashes and the
// statuses here; the tables in people_store.h.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "metropolis/v1/people.grpc.pb.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/passwords.h"
#include "services/accounts/people_store.h"
#include "services/accounts/store.h"

namespace metropolis::accounts {

// Password rules: 8 to 128 bytes (any bytes: a passphrase in any script).
inline constexpr size_t kMinPasswordBytes = 8, kMaxPasswordBytes = 128;

// What a person may own of bots and tokens (people.proto, "Self-service bots"):
// metropolis-accounts' --max-bots-per-person and --max-tokens-per-bot.
struct BotQuotas {
  int max_bots = 10;           // bots per person
  int max_tokens_per_bot = 5;  // unrevoked tokens per bot
};
inline constexpr int kMaxBotQuota = 10'000;  // the highest either flag takes

// Every call needs the gateway's service token (roles.h, MayServePeople).
class PeopleService final : public v1::People::Service {
 public:
  PeopleService(PeopleStore* people, AccountStore* accounts, PasswordHasher* hasher, Authenticator* auth,
                BotQuotas quotas = {})
      : people_(people), accounts_(accounts), hasher_(hasher), auth_(auth), quotas_(quotas) {}

  grpc::Status SignUp(grpc::ServerContext* context, const v1::SignUpRequest* request, v1::Person* response) override;
  grpc::Status CheckPassword(grpc::ServerContext* context, const v1::CheckPasswordRequest* request,
                             v1::Person* response) override;
  grpc::Status CreateSession(grpc::ServerContext* context, const v1::CreateSessionRequest* request,
                             v1::CreateSessionResponse* response) override;
  grpc::Status FindSession(grpc::ServerContext* context, const v1::FindSessionRequest* request,
                           v1::WebSession* response) override;
  grpc::Status DeleteSession(grpc::ServerContext* context, const v1::DeleteSessionRequest* request,
                             v1::DeleteSessionResponse* response) override;
  grpc::Status ChangePassword(grpc::ServerContext* context, const v1::ChangePasswordRequest* request,
                              v1::ChangePasswordResponse* response) override;
  grpc::Status ListSessions(grpc::ServerContext* context, const v1::ListSessionsRequest* request,
                            v1::ListSessionsResponse* response) override;
  grpc::Status EndSession(grpc::ServerContext* context, const v1::EndSessionRequest* request,
                          v1::EndSessionResponse* response) override;
  grpc::Status SaveSeat(grpc::ServerContext* context, const v1::SaveSeatRequest* request,
                        v1::SaveSeatResponse* response) override;
  grpc::Status FindSeat(grpc::ServerContext* context, const v1::FindSeatRequest* request,
                        v1::WebSeat* response) override;
  grpc::Status LatestOpenSeat(grpc::ServerContext* context, const v1::LatestOpenSeatRequest* request,
                              v1::WebSeat* response) override;
  grpc::Status FinishSeat(grpc::ServerContext* context, const v1::FinishSeatRequest* request,
                          v1::FinishSeatResponse* response) override;
  grpc::Status ReservePracticeSeat(grpc::ServerContext* context, const v1::ReservePracticeSeatRequest* request,
                                   v1::ReservePracticeSeatResponse* response) override;
  grpc::Status OpenPracticeSeats(grpc::ServerContext* context, const v1::OpenPracticeSeatsRequest* request,
                                 v1::OpenPracticeSeatsResponse* response) override;
  grpc::Status IssuePersonToken(grpc::ServerContext* context, const v1::IssuePersonTokenRequest* request,
                                v1::IssuePersonTokenResponse* response) override;
  grpc::Status RevokePersonToken(grpc::ServerContext* context, const v1::RevokePersonTokenRequest* request,
                                 v1::RevokePersonTokenResponse* response) override;
  grpc::Status CreatePersonBot(grpc::ServerContext* context, const v1::CreatePersonBotRequest* request,
                               v1::PersonBot* response) override;
  grpc::Status ListPersonBots(grpc::ServerContext* context, const v1::ListPersonBotsRequest* request,
                              v1::ListPersonBotsResponse* response) override;
  grpc::Status IssueBotToken(grpc::ServerContext* context, const v1::IssueBotTokenRequest* request,
                             v1::IssueBotTokenResponse* response) override;
  grpc::Status ListBotTokens(grpc::ServerContext* context, const v1::ListBotTokensRequest* request,
                             v1::ListBotTokensResponse* response) override;
  grpc::Status RevokeBotToken(grpc::ServerContext* context, const v1::RevokeBotTokenRequest* request,
                              v1::RevokeBotTokenResponse* response) override;

 private:
  // OK when the caller is the gateway; UNAUTHENTICATED or PERMISSION_DENIED.
  grpc::Status Authorize(const grpc::ServerContext& context);

  PeopleStore* const people_;
  AccountStore* const accounts_;
  PasswordHasher* const hasher_;
  Authenticator* const auth_;
  const BotQuotas quotas_;
  // Verified against when a name is unknown, so that an unknown name costs the
  // same time as a wrong password and timing does not tell which names exist.
  std::once_flag dummy_once_;
  std::string dummy_hash_;
};

}  // namespace metropolis::accounts
