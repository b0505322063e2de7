// The Accounts service's gRPC wiring (sync API): the administrator check, the
// requests' shapes and the statuses here; the rules of names, tokens and
// ladders in store.h and ladder_store.h, which this only calls.
#pragma once

#include <memory>

#include "metropolis/v1/accounts.grpc.pb.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/catalog_store.h"
#include "services/accounts/ladder_store.h"
#include "services/accounts/store.h"

namespace grpc {
class ServerBuilder;
}

namespace metropolis::accounts {

// Every call needs an administrator's API token (lib/auth/roles.h), but for
// ListLadders, which the services may also call, LookupToken, which only they
// may, GetLadder and GetIdentityNames, for the services and administrators, and
// the public reads, which take any valid token (without `catalog` they are
// UNIMPLEMENTED). Every change is logged with who made it: the administrator's
// name and token id, never a token.
class AccountsService final : public v1::Accounts::Service {
 public:
  AccountsService(AccountStore* accounts, LadderStore* ladders, Authenticator* auth, CatalogStore* catalog = nullptr)
      : accounts_(accounts), ladders_(ladders), auth_(auth), catalog_(catalog) {}

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
  grpc::Status GetIdentity(grpc::ServerContext* context, const v1::GetIdentityRequest* request,
                           v1::Identity* response) override;
  grpc::Status SearchIdentities(grpc::ServerContext* context, const v1::SearchIdentitiesRequest* request,
                                v1::ListIdentitiesResponse* response) override;
  grpc::Status ReadLadders(grpc::ServerContext* context, const v1::ReadLaddersRequest* request,
                           v1::ListLaddersResponse* response) override;
  // Service tokens only (lib/auth/roles.h): found = false for an unknown or
  // revoked token, INVALID_ARGUMENT for a hash that is not 32 bytes.
  grpc::Status LookupToken(grpc::ServerContext* context, const v1::LookupTokenRequest* request,
                           v1::LookupTokenResponse* response) override;
  // Reads for the other services: service tokens (and administrators).
  grpc::Status GetLadder(grpc::ServerContext* context, const v1::GetLadderRequest* request,
                         v1::Ladder* response) override;
  grpc::Status GetIdentityNames(grpc::ServerContext* context, const v1::GetIdentityNamesRequest* request,
                                v1::GetIdentityNamesResponse* response) override;

 private:
  // OK with *out the caller when it may administer; UNAUTHENTICATED or
  // PERMISSION_DENIED otherwise.
  grpc::Status Authorize(const grpc::ServerContext& context, Principal* out);
  // OK when the caller holds any valid token and the public reads are served.
  grpc::Status AuthorizeRead(const grpc::ServerContext& context);
  // The same with another rule, and `refusal` as the PERMISSION_DENIED message.
  grpc::Status AuthorizeFor(const grpc::ServerContext& context, bool (*may)(const Principal&), const char* refusal,
                            Principal* out);
  // OK for a service token or an administrator's.
  grpc::Status AuthorizeServiceRead(const grpc::ServerContext& context);

  AccountStore* accounts_;
  LadderStore* ladders_;
  Authenticator* auth_;
  CatalogStore* catalog_;
};

// Hosts the Accounts service on a server being built, over the stores and the
// authenticator a main already has: one line before BuildAndStart(). The
// returned service must outlive the server.
std::unique_ptr<AccountsService> RegisterAccountsService(grpc::ServerBuilder& builder, AccountStore* accounts,
                                                         LadderStore* ladders, Authenticator* auth,
                                                         CatalogStore* catalog = nullptr);

}  // namespace metropolis::accounts
