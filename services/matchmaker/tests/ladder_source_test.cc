// The ladders as the matchmaker reads them from the Accounts service: a fake
// Accounts on a real gRPC server (loopback, a free port), so that the token sent,
// the conversion, the refresh and what happens while Accounts fails are seen.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "services/matchmaker/clients.h"

namespace metropolis::matchmaker {
namespace {

constexpr char kServiceToken[] = "svc-ladder-reader";

// ListLadders only, for the service token only; `fail` makes it UNAVAILABLE.
class FakeAccounts final : public v1::Accounts::Service {
 public:
  grpc::Status ListLadders(grpc::ServerContext* context, const v1::ListLaddersRequest*,
                           v1::ListLaddersResponse* response) override {
    ++calls;
    const auto auth = context->client_metadata().find("authorization");
    if (auth == context->client_metadata().end() ||
        std::string(auth->second.data(), auth->second.size()) != std::string("Bearer ") + kServiceToken)
      return {grpc::StatusCode::PERMISSION_DENIED, "not the service token"};
    if (fail) return {grpc::StatusCode::UNAVAILABLE, "database down"};
    std::lock_guard lock(mutex);
    *response = ladders;
    return grpc::Status::OK;
  }

  std::mutex mutex;
  v1::ListLaddersResponse ladders;
  std::atomic<bool> fail{false};
  std::atomic<int> calls{0};
};

v1::Ladder Open() {
  v1::Ladder l;
  l.set_id("open");
  l.set_ruleset("cities_and_knights");
  l.set_seats(4);
  l.set_mu(30);
  l.set_sigma(10);
  l.set_allow_three_after_ms(60'000);
  l.set_bot_fill_after_ms(120'000);
  l.set_decision_ms(5'000);
  l.set_time_bank_ms(30'000);
  l.set_season(3);
  return l;
}

class LadderSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    *accounts_.ladders.add_ladders() = Open();
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&accounts_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    address_ = "127.0.0.1:" + std::to_string(port);
  }
  void TearDown() override { server_->Shutdown(); }

  FakeAccounts accounts_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
};

TEST_F(LadderSourceTest, ReadsTheLaddersWithTheServiceToken) {
  GrpcLadderSource source(address_, kServiceToken);
  const std::vector<LadderConfig> ladders = source.Ladders();
  ASSERT_EQ(ladders.size(), 1u);
  const LadderConfig& l = ladders[0];
  EXPECT_EQ(l.id, "open");
  EXPECT_EQ(l.season, 3);
  EXPECT_EQ(l.mu, 30);
  EXPECT_EQ(l.decision_ms, 5'000u);
  EXPECT_EQ(l.time_bank_ms, 30'000u);
  EXPECT_EQ(l.rules.seats, 4);
  EXPECT_EQ(l.rules.allow_three_after_ms, 60'000);
  EXPECT_EQ(l.rules.bot_fill_after_ms, 120'000);
  EXPECT_DOUBLE_EQ(l.rules.window_max, 30);  // 3 σ

  GrpcLadderSource stranger(address_, "another-token");
  EXPECT_TRUE(stranger.Ladders().empty()) << "Accounts refused the token: nothing to read";
}

TEST_F(LadderSourceTest, KeepsWhatItReadUntilTheRefreshAndWhileAccountsFails) {
  GrpcLadderSource source(address_, kServiceToken, /*refresh_ms=*/60'000);
  ASSERT_EQ(source.Ladders().size(), 1u);
  {
    std::lock_guard lock(accounts_.mutex);
    v1::Ladder duel = Open();
    duel.set_id("duel");
    *accounts_.ladders.add_ladders() = duel;
  }
  EXPECT_EQ(source.Ladders().size(), 1u) << "cached until the refresh";
  EXPECT_EQ(accounts_.calls.load(), 1);
  ASSERT_EQ(source.Ladders(LadderSource::Read::kFresh).size(), 2u) << "a fresh read asks again";

  accounts_.fail = true;
  const std::vector<LadderConfig> kept = source.Ladders(LadderSource::Read::kFresh);
  ASSERT_EQ(kept.size(), 2u) << "Accounts failing: the ladders read last are kept";
  EXPECT_EQ(kept[1].id, "duel");
}

TEST_F(LadderSourceTest, ALadderWhoseOptionsDoNotParseIsLeftOut) {
  {
    std::lock_guard lock(accounts_.mutex);
    v1::Ladder bad = Open();
    bad.set_id("bad");
    bad.set_options("no-such-option=1");
    *accounts_.ladders.add_ladders() = bad;
  }
  GrpcLadderSource source(address_, kServiceToken);
  const std::vector<LadderConfig> ladders = source.Ladders();
  ASSERT_EQ(ladders.size(), 1u);
  EXPECT_EQ(ladders[0].id, "open");
  std::string error;
  v1::Ladder bad = Open();
  bad.set_id("bad");
  bad.set_options("no-such-option=1");
  ToLadderConfig(bad, &error);
  EXPECT_NE(error.find("ladder bad: "), std::string::npos) << error;
}

}  // namespace
}  // namespace metropolis::matchmaker
