// The Accounts service on a real gRPC server (127.0.0.1, a free port) with one
// administrator made as metropolis-admin makes the first: the fixture of the
// service's tests and of metropolisctl's accounts commands. Its stores are the
// in-memory fakes (tests/fake_stores.h), or, in a test built with
// METROPOLIS_ACCOUNTS_ON_POSTGRES, the PostgreSQL ones over a fresh database on
// the test command's PostgreSQL (label integration): the same cases run on both.
#pragma once

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "services/accounts/service.h"
#include "services/accounts/tests/fake_stores.h"

#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/tests/test_database.h"
#include "services/accounts/pg_account_store.h"
#include "services/accounts/pg_ladder_store.h"
#endif

namespace metropolis::accounts::testing {

inline constexpr char kGameHostToken[] = "gamehost-service-secret";

class AccountsServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
    pool_ = storage::testing::MigratedPool(database_, METROPOLIS_MIGRATIONS_DIR, 4);
    ASSERT_NE(pool_, nullptr);
    accounts_ = std::make_unique<PgAccountStore>(pool_.get());
    ladders_ = std::make_unique<PgLadderStore>(pool_.get());
#else
    accounts_ = std::make_unique<FakeAccountStore>(&db_);
    ladders_ = std::make_unique<FakeLadderStore>(&db_);
#endif
    // No cache: a revocation shows at the next call.
    auth_ = std::make_unique<TokenAuthenticator>(
        accounts_.get(), std::vector<std::pair<std::string, std::string>>{{kGameHostToken, "gamehost"}},
        auth::TokenAuthenticatorOptions{.ttl_ms = 0});

    // The first administrator comes from the database, as metropolis-admin makes it.
    Identity root;
    ASSERT_TRUE(accounts_->CreateIdentity("player", "root", "", &root).ok());
    IssuedToken issued;
    ASSERT_TRUE(accounts_->IssueToken("root", "ops", true, &issued).ok());
    admin_token_ = issued.token;
    admin_token_id_ = issued.id;

    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    service_ = RegisterAccountsService(builder, accounts_.get(), ladders_.get(), auth_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    address_ = "127.0.0.1:" + std::to_string(port);
    stub_ = v1::Accounts::NewStub(grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  // One call with `token` (none when empty).
  template <typename Request, typename Response>
  grpc::Status Call(grpc::Status (v1::Accounts::Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                    const Request& request, Response* response, const std::string& token) {
    grpc::ClientContext context;
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return ((*stub_).*method)(&context, request, response);
  }
  // One call, its response dropped.
  template <typename Request, typename Response>
  grpc::Status CallAny(grpc::Status (v1::Accounts::Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                       const Request& request, const std::string& token) {
    Response response;
    return Call(method, request, &response, token);
  }
  // The same as the administrator.
  template <typename Request, typename Response>
  grpc::Status Admin(grpc::Status (v1::Accounts::Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                     const Request& request, Response* response) {
    return Call(method, request, response, admin_token_);
  }

  v1::Identity Player(const std::string& name) {
    v1::CreatePlayerRequest request;
    request.set_name(name);
    v1::Identity out;
    const grpc::Status s = Admin(&v1::Accounts::Stub::CreatePlayer, request, &out);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
    return out;
  }
  v1::Identity Bot(const std::string& name, const std::string& owner) {
    v1::CreateBotRequest request;
    request.set_name(name);
    request.set_owner(owner);
    v1::Identity out;
    const grpc::Status s = Admin(&v1::Accounts::Stub::CreateBot, request, &out);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
    return out;
  }
  v1::IssueTokenResponse Issue(const std::string& identity, bool admin = false, const std::string& label = "") {
    v1::IssueTokenRequest request;
    request.set_identity(identity);
    request.set_admin(admin);
    request.set_label(label);
    v1::IssueTokenResponse out;
    const grpc::Status s = Admin(&v1::Accounts::Stub::IssueToken, request, &out);
    EXPECT_TRUE(s.ok()) << identity << ": " << s.error_message();
    return out;
  }
  v1::Ladder MakeLadder(const std::string& id, const v1::LadderSettings& settings = {}) {
    v1::CreateLadderRequest request;
    request.set_id(id);
    *request.mutable_settings() = settings;
    v1::Ladder out;
    const grpc::Status s = Admin(&v1::Accounts::Stub::CreateLadder, request, &out);
    EXPECT_TRUE(s.ok()) << id << ": " << s.error_message();
    return out;
  }
  std::vector<v1::Ladder> Ladders() {
    v1::ListLaddersResponse out;
    const grpc::Status s = Admin(&v1::Accounts::Stub::ListLadders, v1::ListLaddersRequest(), &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return {out.ladders().begin(), out.ladders().end()};
  }

  // Every row of every table the service writes, every column: two equal
  // snapshots mean nothing changed.
  std::string Snapshot() {
#ifndef METROPOLIS_ACCOUNTS_ON_POSTGRES
    return db_.Snapshot();
#else
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    std::string out;
    for (const char* table : {"identities", "api_tokens", "ladders", "seasons"}) {
      out += std::string(table) + ":\n";
      for (const auto& row :
           tx.exec(std::string("SELECT row_to_json(t)::text FROM ") + table + " t ORDER BY row_to_json(t)::text"))
        out += row[0].as<std::string>() + "\n";
    }
    return out;
#endif
  }

#ifdef METROPOLIS_ACCOUNTS_ON_POSTGRES
  storage::testing::TestDatabase database_;
  std::unique_ptr<storage::PgPool> pool_;
#else
  FakeAccountsDb db_;
#endif
  std::unique_ptr<AccountStore> accounts_;
  std::unique_ptr<LadderStore> ladders_;
  std::unique_ptr<TokenAuthenticator> auth_;
  std::unique_ptr<AccountsService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Accounts::Stub> stub_;
  std::string address_;  // host:port of the server
  std::string admin_token_;
  int64_t admin_token_id_ = 0;
};

}  // namespace metropolis::accounts::testing
