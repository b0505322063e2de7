#include "services/accounts/service.h"

#include <grpcpp/server_builder.h>

#include <map>

#include "lib/auth/roles.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "services/accounts/convert.h"

namespace metropolis::accounts {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

// A search answers a search box: a page of names, not the directory.
constexpr uint32_t kMaxSearchLimit = 100;

// An identity named in a request. A name that cannot exist is a malformed
// request, not an unknown identity.
grpc::Status CheckIdentityName(const char* field, const std::string& name) {
  if (name.empty()) return Invalid(std::string(field) + ": required (an identity's name)");
  if (!ValidIdentityName(name))
    return Invalid(std::string(field) + ": " + services::Quoted(name) +
                   " is not a name (1 to 64 letters, digits, '-', '_' or '.', not dots alone)");
  return grpc::Status::OK;
}

grpc::Status CheckLadderId(const char* field, const std::string& id) {
  if (id.empty()) return Invalid(std::string(field) + ": required (a ladder's id)");
  if (!ValidLadderId(id)) return Invalid(std::string(field) + ": '" + id + "' is not a ladder id");
  return grpc::Status::OK;
}

}  // namespace

grpc::Status AccountsService::Authorize(const grpc::ServerContext& context, Principal* out) {
  return AuthorizeFor(context, auth::MayAdministerAccounts,
                      "managing accounts and ladders needs an administrator's API token", out);
}

grpc::Status AccountsService::AuthorizeFor(const grpc::ServerContext& context, bool (*may)(const Principal&),
                                           const char* refusal, Principal* out) {
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), out); !s.ok()) return s;
  if (!may(*out)) {
    services::LogInfo("accounts call refused",
                      {{"identity", out->name}, {"token_id", std::to_string(out->token_id)}, {"why", refusal}});
    return {grpc::StatusCode::PERMISSION_DENIED, refusal};
  }
  return grpc::Status::OK;
}

grpc::Status AccountsService::CreatePlayer(grpc::ServerContext* context, const v1::CreatePlayerRequest* request,
                                           v1::Identity* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  Identity created;
  if (grpc::Status s = accounts_->CreateIdentity("player", request->name(), "", &created); !s.ok()) return s;
  services::LogInfo("player created", {{"identity", created.name},
                                       {"identity_id", std::to_string(created.id)},
                                       {"by", by.name},
                                       {"by_token_id", std::to_string(by.token_id)}});
  IdentityToProto(created, response);
  return grpc::Status::OK;
}

grpc::Status AccountsService::CreateBot(grpc::ServerContext* context, const v1::CreateBotRequest* request,
                                        v1::Identity* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  Identity created;
  if (grpc::Status s = accounts_->CreateIdentity("bot", request->name(), request->owner(), &created); !s.ok()) return s;
  services::LogInfo("bot created", {{"identity", created.name},
                                    {"identity_id", std::to_string(created.id)},
                                    {"owner", created.owner_name},
                                    {"by", by.name},
                                    {"by_token_id", std::to_string(by.token_id)}});
  IdentityToProto(created, response);
  return grpc::Status::OK;
}

grpc::Status AccountsService::ListIdentities(grpc::ServerContext* context, const v1::ListIdentitiesRequest*,
                                             v1::ListIdentitiesResponse* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  std::vector<Identity> identities;
  if (grpc::Status s = accounts_->ListIdentities(&identities); !s.ok()) return s;
  for (const Identity& i : identities) IdentityToProto(i, response->add_identities());
  return grpc::Status::OK;
}

grpc::Status AccountsService::IssueToken(grpc::ServerContext* context, const v1::IssueTokenRequest* request,
                                         v1::IssueTokenResponse* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityName("identity", request->identity()); !s.ok()) return s;
  IssuedToken issued;
  if (grpc::Status s = accounts_->IssueToken(request->identity(), request->label(), request->admin(), &issued); !s.ok())
    return s;
  // The token's id, never the token.
  services::LogInfo("token issued", {{"identity", request->identity()},
                                     {"token_id", std::to_string(issued.id)},
                                     {"admin", request->admin() ? "true" : "false"},
                                     {"by", by.name},
                                     {"by_token_id", std::to_string(by.token_id)}});
  response->set_token_id(issued.id);
  response->set_token(std::move(issued.token));
  return grpc::Status::OK;
}

grpc::Status AccountsService::ListTokens(grpc::ServerContext* context, const v1::ListTokensRequest* request,
                                         v1::ListTokensResponse* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityName("identity", request->identity()); !s.ok()) return s;
  std::vector<TokenInfo> tokens;
  if (grpc::Status s = accounts_->ListTokens(request->identity(), &tokens); !s.ok()) return s;
  for (const TokenInfo& t : tokens) ApiTokenToProto(t, response->add_tokens());
  return grpc::Status::OK;
}

grpc::Status AccountsService::RevokeToken(grpc::ServerContext* context, const v1::RevokeTokenRequest* request,
                                          v1::RevokeTokenResponse*) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  if (request->token_id() <= 0)
    return Invalid("token_id: " + std::to_string(request->token_id()) + " is not a token id (a positive integer)");
  if (grpc::Status s = accounts_->RevokeToken(request->token_id()); !s.ok()) return s;
  services::LogInfo("token revoked", {{"token_id", std::to_string(request->token_id())},
                                      {"by", by.name},
                                      {"by_token_id", std::to_string(by.token_id)}});
  return grpc::Status::OK;
}

grpc::Status AccountsService::CreateLadder(grpc::ServerContext* context, const v1::CreateLadderRequest* request,
                                           v1::Ladder* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  if (grpc::Status s = CheckLadderId("id", request->id()); !s.ok()) return s;
  LadderSpec spec;
  spec.id = request->id();
  LadderUpdateFromProto(request->settings()).ApplyTo(&spec);
  LadderInfo created;
  if (grpc::Status s = ladders_->CreateLadder(spec, &created); !s.ok()) return s;
  services::LogInfo("ladder created",
                    {{"ladder", spec.id}, {"by", by.name}, {"by_token_id", std::to_string(by.token_id)}});
  LadderToProto(created, response);
  return grpc::Status::OK;
}

grpc::Status AccountsService::UpdateLadder(grpc::ServerContext* context, const v1::UpdateLadderRequest* request,
                                           v1::Ladder* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  if (grpc::Status s = CheckLadderId("id", request->id()); !s.ok()) return s;
  LadderInfo updated;
  if (grpc::Status s = ladders_->UpdateLadder(request->id(), LadderUpdateFromProto(request->settings()), &updated);
      !s.ok())
    return s;
  services::LogInfo("ladder updated",
                    {{"ladder", request->id()}, {"by", by.name}, {"by_token_id", std::to_string(by.token_id)}});
  LadderToProto(updated, response);
  return grpc::Status::OK;
}

grpc::Status AccountsService::ListLadders(grpc::ServerContext* context, const v1::ListLaddersRequest*,
                                          v1::ListLaddersResponse* response) {
  Principal by;
  if (grpc::Status s = AuthorizeFor(*context, auth::MayReadLadders,
                                    "reading ladders needs an administrator's or a service token", &by);
      !s.ok())
    return s;
  std::vector<LadderInfo> ladders;
  if (grpc::Status s = ladders_->ListLadders(&ladders); !s.ok()) return s;
  for (const LadderInfo& l : ladders) LadderToProto(l, response->add_ladders());
  return grpc::Status::OK;
}

grpc::Status AccountsService::CreateSeason(grpc::ServerContext* context, const v1::CreateSeasonRequest* request,
                                           v1::CreateSeasonResponse* response) {
  Principal by;
  if (grpc::Status s = Authorize(*context, &by); !s.ok()) return s;
  if (grpc::Status s = CheckLadderId("ladder", request->ladder()); !s.ok()) return s;
  int season = 0;
  if (grpc::Status s = ladders_->CreateSeason(request->ladder(), &season); !s.ok()) return s;
  services::LogInfo("season opened", {{"ladder", request->ladder()},
                                      {"season", std::to_string(season)},
                                      {"by", by.name},
                                      {"by_token_id", std::to_string(by.token_id)}});
  response->set_ladder(request->ladder());
  response->set_season(uint32_t(season));
  return grpc::Status::OK;
}

// ---- The public reads --------------------------------------------------------------

grpc::Status AccountsService::AuthorizeRead(const grpc::ServerContext& context) {
  if (!catalog_) return {grpc::StatusCode::UNIMPLEMENTED, "the public reads are not served here"};
  Principal by;
  return auth_->Authenticate(services::BearerToken(context), &by);
}

grpc::Status AccountsService::GetIdentity(grpc::ServerContext* context, const v1::GetIdentityRequest* request,
                                          v1::Identity* response) {
  if (grpc::Status s = AuthorizeRead(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityName("name", request->name()); !s.ok()) return s;
  Identity found;
  if (grpc::Status s = catalog_->FindIdentity(request->name(), &found); !s.ok()) return s;
  IdentityToProto(found, response);
  return grpc::Status::OK;
}

grpc::Status AccountsService::SearchIdentities(grpc::ServerContext* context, const v1::SearchIdentitiesRequest* request,
                                               v1::ListIdentitiesResponse* response) {
  if (grpc::Status s = AuthorizeRead(*context); !s.ok()) return s;
  if (grpc::Status s = CheckIdentityName("prefix", request->prefix()); !s.ok()) return s;
  if (request->limit() < 1 || request->limit() > kMaxSearchLimit)
    return Invalid("limit: " + std::to_string(request->limit()) + " is not 1 to " + std::to_string(kMaxSearchLimit));
  std::vector<Identity> found;
  if (grpc::Status s = catalog_->SearchIdentities(request->prefix(), int(request->limit()), &found); !s.ok()) return s;
  for (const Identity& i : found) IdentityToProto(i, response->add_identities());
  return grpc::Status::OK;
}

grpc::Status AccountsService::ReadLadders(grpc::ServerContext* context, const v1::ReadLaddersRequest* request,
                                          v1::ListLaddersResponse* response) {
  if (grpc::Status s = AuthorizeRead(*context); !s.ok()) return s;
  std::vector<LadderInfo> ladders;
  if (!request->ladder().empty()) {
    if (grpc::Status s = CheckLadderId("ladder", request->ladder()); !s.ok()) return s;
    LadderInfo one;
    const grpc::Status s = ladders_->GetLadder(request->ladder(), &one);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND)
      return {grpc::StatusCode::NOT_FOUND, "ladder '" + request->ladder() + "' does not exist"};
    if (!s.ok()) return s;
    ladders.push_back(std::move(one));
  } else if (grpc::Status s = ladders_->ListLadders(&ladders); !s.ok()) {
    return s;
  }
  std::map<std::string, std::vector<SeasonInfo>> seasons;
  if (grpc::Status s = catalog_->Seasons(request->ladder(), &seasons); !s.ok()) return s;
  for (const LadderInfo& l : ladders) {
    v1::Ladder* out = response->add_ladders();
    LadderToProto(l, out);
    for (const SeasonInfo& season : seasons[l.spec.id]) {
      v1::Season* s = out->add_seasons();
      s->set_season(uint32_t(season.season));
      s->set_starts_unix_ms(season.starts_unix_ms);
      s->set_ends_unix_ms(season.ends_unix_ms);
    }
  }
  return grpc::Status::OK;
}

grpc::Status AccountsService::LookupToken(grpc::ServerContext* context, const v1::LookupTokenRequest* request,
                                          v1::LookupTokenResponse* response) {
  Principal by;
  if (grpc::Status s = AuthorizeFor(*context, auth::MayLookUpTokens, "looking up tokens needs a service token", &by);
      !s.ok())
    return s;
  if (request->sha256().size() != 32) return Invalid("sha256: 32 bytes required (a token's SHA-256)");
  Principal owner;
  const grpc::Status s = accounts_->LookupToken(request->sha256(), &owner);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return grpc::Status::OK;  // found = false
  if (!s.ok()) return s;
  response->set_found(true);
  response->set_identity_id(owner.identity_id);
  response->set_name(owner.name);
  response->set_kind(owner.kind);
  response->set_admin(owner.admin);
  response->set_token_id(owner.token_id);
  return grpc::Status::OK;
}

std::unique_ptr<AccountsService> RegisterAccountsService(grpc::ServerBuilder& builder, AccountStore* accounts,
                                                         LadderStore* ladders, Authenticator* auth,
                                                         CatalogStore* catalog) {
  auto service = std::make_unique<AccountsService>(accounts, ladders, auth, catalog);
  builder.RegisterService(service.get());
  return service;
}

// The reads for other services: service tokens and administrators.
grpc::Status AccountsService::AuthorizeServiceRead(const grpc::ServerContext& context) {
  Principal by;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(context), &by); !s.ok()) return s;
  if (!by.service && !by.admin)
    return {grpc::StatusCode::PERMISSION_DENIED, "this read is for the services: it needs a service token"};
  return grpc::Status::OK;
}

grpc::Status AccountsService::GetLadder(grpc::ServerContext* context, const v1::GetLadderRequest* request,
                                        v1::Ladder* response) {
  if (grpc::Status s = AuthorizeServiceRead(*context); !s.ok()) return s;
  if (grpc::Status s = CheckLadderId("id", request->id()); !s.ok()) return s;
  LadderInfo info;
  if (grpc::Status s = ladders_->GetLadder(request->id(), &info); !s.ok()) return s;
  LadderToProto(info, response);
  return grpc::Status::OK;
}

grpc::Status AccountsService::GetIdentityNames(grpc::ServerContext* context, const v1::GetIdentityNamesRequest* request,
                                               v1::GetIdentityNamesResponse* response) {
  constexpr int kMaxIds = 1000;
  if (grpc::Status s = AuthorizeServiceRead(*context); !s.ok()) return s;
  if (request->ids_size() > kMaxIds) return Invalid("ids: at most 1000");
  std::vector<int64_t> ids(request->ids().begin(), request->ids().end());
  std::unordered_map<int64_t, std::string> names;
  if (grpc::Status s = accounts_->Names(ids, &names); !s.ok()) return s;
  for (auto& [id, name] : names) (*response->mutable_names())[id] = std::move(name);
  return grpc::Status::OK;
}

}  // namespace metropolis::accounts
