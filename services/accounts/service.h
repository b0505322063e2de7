// The Accounts service's gRPC wiring (sync API): the administrator check, the
// requests' shapes and the statuses here; the rules of names, tokens and
// ladders in store.h and ladder_store.h, which this only calls.
#pragma once

#include <memory>

#include "metropolis/v1/accounts.grpc.pb.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/ladder_store.h"
#include "services/accounts/store.h"

namespace grpc {
class ServerBuilder;
}

namespace metropolis::accounts {

// Every call but the reads for other services (GetLadder, GetIdentityNames)
// needs an administrator's API token (roles.h). Every change is
// logged with who made it: the administrator's name and token id, never a token.
class AccountsService final : public v1::Accounts::Service {
 public:
  AccountsService(AccountStore* accounts, LadderStore* ladders, Authenticator* auth)
      : accounts_(accounts), ladders_(ladders), auth_(auth) {}

  grpc::Status CreatePlayer(grpc::ServerContext* context, const v1::CreatePlayerRequest* request,
                            v1::Identity* response) override;
  grpc::Status CreateBot(grpc::ServerContext* context, const v1::CreateBotRequest* request,
                         v1::Identity* response) override;
  grpc::Status ListIdentities(grpc::ServerContext* context, const v1::ListIdentitiesRequest* request,
                              v1::ListIdentitiesResponse* response) override;
  grpc::Status IssueToken(grpc::ServerContext* context, const v1::IssueTokenRequest* request,
                          v1::IssueTokenResponse* response) override;
  grpc::Status ListTokens(grpc::ServerContext* context, const v1::ListTokensRequest* request,
                          v1::ListTokensResponse* response) override;
  grpc::Status RevokeToken(grpc::ServerContext* context, const v1::RevokeTokenRequest* request,
                           v1::RevokeTokenResponse* response) override;
  grpc::Status CreateLadder(grpc::ServerContext* context, const v1::CreateLadderRequest* request,
                            v1::Ladder* response) override;
  grpc::Status UpdateLadder(grpc::ServerContext* context, const v1::UpdateLadderRequest* request,
                            v1::Ladder* response) override;
  grpc::Status ListLadders(grpc::ServerContext* context, const v1::ListLaddersRequest* request,
                           v1::ListLaddersResponse* response) override;
  grpc::Status CreateSeason(grpc::ServerContext* context, const v1::CreateSeasonRequest* request,
                            v1::CreateSeasonResponse* response) override;
  // Reads for the other services: service tokens (and administrators).
  grpc::Status GetLadder(grpc::ServerContext* context, const v1::GetLadderRequest* request,
                         v1::Ladder* response) override;
  grpc::Status GetIdentityNames(grpc::ServerContext* context, const v1::GetIdentityNamesRequest* request,
                                v1::GetIdentityNamesResponse* response) override;

 private:
  // OK with *out the caller when it may administer; UNAUTHENTICATED or
  // PERMISSION_DENIED otherwise.
  grpc::Status Authorize(const grpc::ServerContext& context, Principal* out);
  // OK for a service token or an administrator's.
  grpc::Status AuthorizeRead(const grpc::ServerContext& context);

  AccountStore* accounts_;
  LadderStore* ladders_;
  Authenticator* auth_;
};

// Hosts the Accounts service on a server being built, over the stores and the
// authenticator a main already has: one line before BuildAndStart(). The
// returned service must outlive the server.
std::unique_ptr<AccountsService> RegisterAccountsService(grpc::ServerBuilder& builder, AccountStore* accounts,
                                                         LadderStore* ladders, Authenticator* auth);

}  // namespace metropolis::accounts
