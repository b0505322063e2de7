// What the replays service's tests share over whichever stores a fixture builds
// (the fakes in replays_test.cc, PostgreSQL in replays_pg_test.cc): the logic and
// its gRPC service on a loopback port over those stores, and the calls the tests
// make through it, with tokens and statuses as a caller's.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/auth/token_authenticator.h"
#include "services/replays/replays.h"
#include "services/replays/service.h"
#include "services/replays/tests/client.h"

namespace metropolis::replays::testing {

class ReplaysServiceTest : public ::testing::Test {
 protected:
  // Serves the logic over `store` and `reveals`, which outlive the fixture's
  // TearDown. A reader's token is a service token here; account tokens are the
  // accounts' tests' business.
  void Serve(ReplayStore* store, RevealStore* reveals) {
    auth_ = std::make_unique<auth::TokenAuthenticator>(
        nullptr, std::vector<std::pair<std::string, std::string>>{{kStoreToken, "gamehost"}, {kReadToken, "reader"}});
    replays_ = std::make_unique<Replays>(store, reveals);
    service_ = std::make_unique<ReplaysService>(replays_.get(), auth_.get());
    client_ = std::make_unique<ReplaysClient>(service_.get());
    ASSERT_NE(client_->port(), 0);
  }
  // The server stops before the stores go.
  void TearDown() override { client_.reset(); }

  grpc::Status Store(const v1::CompletedGameRecord& g, v1::StoreGameResponse* out = nullptr,
                     const std::string& token = kStoreToken) {
    return client_->Store(g, out, token);
  }
  template <typename Request, typename Response, typename Method>
  grpc::Status Call(Method method, const Request& request, Response* response, const std::string& token = kReadToken) {
    return client_->Call(method, request, response, token);
  }
  grpc::Status Confirm(const std::string& token, const std::string& game_id, const std::string& digest,
                       bool* confirmed) {
    return client_->Confirm(token, game_id, digest, confirmed);
  }

  std::unique_ptr<auth::TokenAuthenticator> auth_;
  std::unique_ptr<Replays> replays_;
  std::unique_ptr<ReplaysService> service_;
  std::unique_ptr<ReplaysClient> client_;
};

}  // namespace metropolis::replays::testing
