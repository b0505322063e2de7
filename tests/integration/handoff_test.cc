// Completed games flow from a game host into the replays service through the
// host's durable outbox, against a real PostgreSQL (label integration): with the
// service down the games wait on disk, a host that dies leaves them for the next
// run, and a delivery repeated after a crash stores nothing twice.
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "services/gamehost/forwarder.h"
#include "services/gamehost/tests/fakes.h"
#include "services/replays/service.h"
#include "services/storage/migrations.h"
#include "services/storage/tests/test_database.h"

namespace metropolis {
namespace {

constexpr char kStoreToken[] = "store-secret";

// A replays service on a loopback port over a fresh, migrated database.
struct ReplaysServer {
  explicit ReplaysServer(const std::string& conninfo, int port = 0)
      : pool(conninfo, 2), store(&pool), service(&store, {kStoreToken, ""}) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:" + std::to_string(port), grpc::InsecureServerCredentials(), &bound);
    builder.RegisterService(&service);
    server = builder.BuildAndStart();
  }
  ~ReplaysServer() { server->Shutdown(); }
  storage::PgPool pool;
  replays::ReplayStore store;
  replays::ReplaysService service;
  std::unique_ptr<grpc::Server> server;
  int bound = 0;
};

int Count(const std::string& conninfo, const std::string& sql) {
  pqxx::connection db(conninfo);
  pqxx::work tx(db);
  return tx.exec1(sql)[0].as<int>();
}

// Plays `n` games of built-in bots on a test host whose sink is `sink`.
void PlayGames(gamehost::CompletedGameSink* sink, int n) {
  gamehost::testing::TestHost test;
  test.host.reset();
  gamehost::HostOptions options;
  options.admin_token = gamehost::testing::kAdmin;
  options.default_fallback_bot = "random";
  options.sink_retry_ms = 1;
  test.host = std::make_unique<gamehost::Host>(options, &test.clock, &test.timers, &test.bots, sink, test.directory,
                                               &test.metrics);
  for (int i = 0; i < n; ++i) {
    v1::CreateGameRequest request;
    for (int s = 0; s < 3; ++s) {
      auto* seat = request.add_seats();
      seat->set_built_in(true);
      seat->set_name("bot" + std::to_string(s));
    }
    request.set_chance_seed(uint64_t(100 + i));
    v1::CreateGameResponse response;
    ASSERT_TRUE(test.host->CreateGame(gamehost::testing::kAdmin, request, &response).ok());
  }
  test.Settle();
}

class HandoffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(database_.ok());
    pqxx::connection db(database_.conninfo());
    std::vector<storage::Migration> migrations;
    std::vector<int> applied;
    std::string error;
    ASSERT_TRUE(storage::LoadMigrations(METROPOLIS_MIGRATIONS_DIR, &migrations, &error)) << error;
    ASSERT_TRUE(storage::Migrate(db, migrations, &applied, &error)) << error;
    outbox_ = ::testing::TempDir() + "/outbox-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(outbox_);
  }
  void TearDown() override { std::filesystem::remove_all(outbox_); }
  gamehost::ForwarderOptions Options(int port) {
    return {.dir = outbox_,
            .replays_address = "127.0.0.1:" + std::to_string(port),
            .token = kStoreToken,
            .retry_ms = 20,
            .max_retry_ms = 200,
            .call_timeout_ms = 2000};
  }

  storage::testing::TestDatabase database_;
  std::string outbox_;
};

TEST_F(HandoffTest, FinishedGamesReachTheReplaysService) {
  ReplaysServer replays(database_.conninfo());
  gamehost::ReplayForwarder forwarder(Options(replays.bound));
  std::string error;
  ASSERT_TRUE(forwarder.Start(&error)) << error;
  PlayGames(&forwarder, 5);
  ASSERT_TRUE(forwarder.WaitDelivered(30'000));
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 5);
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM replays WHERE compact IS NOT NULL"), 5);
}

TEST_F(HandoffTest, GamesWaitOnDiskWhileTheServiceIsDownAndSurviveTheHost) {
  // Reserve a port, then close it: the service is "down" there.
  int port = 0;
  {
    ReplaysServer probe(database_.conninfo());
    port = probe.bound;
  }
  {
    gamehost::ReplayForwarder forwarder(Options(port));
    std::string error;
    ASSERT_TRUE(forwarder.Start(&error)) << error;
    PlayGames(&forwarder, 3);
    EXPECT_FALSE(forwarder.WaitDelivered(300));
    EXPECT_EQ(forwarder.pending(), 3u);
  }  // the host goes away with its outbox full
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 0);

  // A new run over the same outbox, with the service back.
  ReplaysServer replays(database_.conninfo(), port);
  ASSERT_EQ(replays.bound, port);
  gamehost::ReplayForwarder forwarder(Options(port));
  std::string error;
  ASSERT_TRUE(forwarder.Start(&error)) << error;
  ASSERT_TRUE(forwarder.WaitDelivered(30'000));
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 3);
}

TEST_F(HandoffTest, ADeliveryRepeatedAfterACrashStoresNothingTwice) {
  ReplaysServer replays(database_.conninfo());
  std::vector<gamehost::CompletedGame> games;
  struct Capture final : gamehost::CompletedGameSink {
    std::vector<gamehost::CompletedGame>* out;
    bool Store(const gamehost::CompletedGame& g, std::string*) override {
      out->push_back(g);
      return true;
    }
  } capture;
  capture.out = &games;
  PlayGames(&capture, 2);
  ASSERT_EQ(games.size(), 2u);
  gamehost::ReplayForwarder forwarder(Options(replays.bound));
  std::string error;
  ASSERT_TRUE(forwarder.Start(&error)) << error;
  // The same games handed over twice, as after a crash between delivery and delete.
  for (int round = 0; round < 2; ++round) {
    for (const auto& g : games) ASSERT_TRUE(forwarder.Store(g, &error)) << error;
    ASSERT_TRUE(forwarder.WaitDelivered(30'000));
  }
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 2);
  EXPECT_EQ(forwarder.delivered(), 4u);
}

}  // namespace
}  // namespace metropolis
