// Completed games flow from a game host into the replays and ratings services
// through the host's durable outbox, against a real PostgreSQL and Redis (label
// integration): with a service down the games wait on disk, a host that dies
// leaves them for the next run, a delivery repeated after a crash stores and rates
// nothing twice, and PostgreSQL restarted in the middle of a run loses nothing.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "lib/storage/migrations.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/redis.h"
#include "lib/storage/tests/test_database.h"
#include "lib/storage/tests/test_redis.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/pg_account_store.h"
#include "services/accounts/pg_ladder_store.h"
#include "services/accounts/service.h"
#include "services/gamehost/metrics.h"
#include "services/gamehost/outbox.h"
#include "services/gamehost/results.h"
#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"
#include "services/ratings/peer_clients.h"
#include "services/ratings/pg_rating_store.h"
#include "services/ratings/redis_leaderboard_cache.h"
#include "services/ratings/service.h"
#include "services/replays/pg_replay_store.h"
#include "services/replays/pg_reveal_store.h"
#include "services/replays/replays.h"
#include "services/replays/service.h"

namespace metropolis {
namespace {

constexpr char kStoreToken[] = "store-secret";

// A replays service on a loopback port over a fresh, migrated database.
struct ReplaysServer {
  explicit ReplaysServer(const std::string& conninfo, int port = 0)
      : pool(conninfo, 2),
        store(&pool),
        reveals(&pool),
        logic(&store, &reveals),
        authenticator(nullptr, {{kStoreToken, "gamehost"}}),
        service(&logic, &authenticator) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:" + std::to_string(port), grpc::InsecureServerCredentials(), &bound);
    builder.RegisterService(&service);
    server = builder.BuildAndStart();
  }
  ~ReplaysServer() { server->Shutdown(); }
  storage::PgPool pool;
  replays::PgReplayStore store;
  replays::PgRevealStore reveals;
  replays::Replays logic;
  auth::TokenAuthenticator authenticator;
  replays::ReplaysService service;
  std::unique_ptr<grpc::Server> server;
  int bound = 0;
};

// The ratings service's peers over gRPC at the port the services got, known
// once their server started.
struct PeersAtPort final : ratings::StoredGames, ratings::LadderDirectory {
  void Dial(int port) {
    const std::string address = "127.0.0.1:" + std::to_string(port);
    replays = std::make_unique<ratings::GrpcStoredGames>(address, kStoreToken);
    accounts = std::make_unique<ratings::GrpcLadderDirectory>(address, kStoreToken);
  }
  grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) override {
    return replays->Confirm(game_id, digest, confirmed);
  }
  grpc::Status Ladder(const std::string& ladder, ratings::LadderInfo* out) override {
    return accounts->Ladder(ladder, out);
  }
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override {
    return accounts->Names(ids, out);
  }
  std::unique_ptr<ratings::GrpcStoredGames> replays;
  std::unique_ptr<ratings::GrpcLadderDirectory> accounts;
};

// Replays, ratings and Accounts on one loopback port, as the single-process
// mode runs them: ratings confirms digests with Replays and reads ladders from
// Accounts over gRPC.
struct ResultServices {
  ResultServices(const std::string& conninfo, const std::string& redis_address, const std::string& prefix)
      : pool(conninfo, 4),
        redis(redis_address, 4),
        replay_store(&pool),
        reveal_store(&pool),
        replays_logic(&replay_store, &reveal_store),
        rating_store(&pool),
        account_store(&pool),
        ladder_store(&pool),
        cache(&redis, prefix),
        ratings(&rating_store, &cache, &peers, &peers),
        authenticator(nullptr, {{kStoreToken, "gamehost"}}),
        replays_service(&replays_logic, &authenticator),
        ratings_service(&ratings, &authenticator),
        accounts_service(&account_store, &ladder_store, &authenticator) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &bound);
    builder.RegisterService(&replays_service);
    builder.RegisterService(&ratings_service);
    builder.RegisterService(&accounts_service);
    server = builder.BuildAndStart();
    peers.Dial(bound);
  }
  ~ResultServices() { server->Shutdown(); }
  storage::PgPool pool;
  storage::RedisPool redis;
  replays::PgReplayStore replay_store;
  replays::PgRevealStore reveal_store;
  replays::Replays replays_logic;
  ratings::PgRatingStore rating_store;
  accounts::PgAccountStore account_store;
  accounts::PgLadderStore ladder_store;
  PeersAtPort peers;
  ratings::RedisLeaderboardCache cache;
  ratings::Ratings ratings;
  auth::TokenAuthenticator authenticator;
  replays::ReplaysService replays_service;
  ratings::RatingsService ratings_service;
  accounts::AccountsService accounts_service;
  std::unique_ptr<grpc::Server> server;
  int bound = 0;
};

int Count(const std::string& conninfo, const std::string& sql) {
  pqxx::connection db(conninfo);
  pqxx::work tx(db);
  return tx.exec1(sql)[0].as<int>();
}

// Plays `n` games of built-in bots on a test host whose sink is `sink`; with
// `identities`, seat s is held by identities[s] on ladder "open", season 1.
void PlayGames(gamehost::CompletedGameSink* sink, int n, const std::vector<int64_t>& identities = {},
               int first_seed = 100) {
  gamehost::testing::TestHost test;
  test.host.reset();
  gamehost::HostOptions options;
  options.admin_token = gamehost::testing::kAdmin;
  options.default_fallback_bot = "random";
  test.host = std::make_unique<gamehost::Host>(options, &test.clock, &test.timers, &test.bots, sink, test.directory,
                                               &test.metrics);
  for (int i = 0; i < n; ++i) {
    v1::CreateGameRequest request;
    for (int s = 0; s < 3; ++s) {
      auto* seat = request.add_seats();
      seat->set_built_in(true);
      seat->set_name("bot" + std::to_string(s));
      if (!identities.empty()) seat->set_identity_id(identities[size_t(s)]);
    }
    if (!identities.empty()) {
      request.set_ladder("open");
      request.set_season(1);
    }
    request.set_chance_seed(uint64_t(first_seed + i));
    v1::CreateGameResponse response;
    ASSERT_TRUE(test.host->CreateGame(gamehost::testing::kAdmin, request, &response).ok());
  }
  test.Settle();
}

// The host's completed-game pipeline as the server wires it: the outbox over
// `dir`, delivering to replays (and ratings, with `rate`) on `port`.
struct Delivery {
  Delivery(const std::string& dir, int port, bool rate = false, gamehost::HostMetrics* metrics = nullptr)
      : results({.replays_address = "127.0.0.1:" + std::to_string(port),
                 .replays_token = kStoreToken,
                 .ratings_address = rate ? "127.0.0.1:" + std::to_string(port) : "",
                 .ratings_token = kStoreToken,
                 .call_timeout_ms = 2000}),
        outbox({.dir = dir,
                .results = &results,
                .archive_dir = "",
                .archive_keep = 0,
                .retry_ms = 20,
                .max_retry_ms = 200,
                .metrics = metrics,
                .on_delivered = {}}) {
    std::string error;
    EXPECT_TRUE(outbox.Start(&error)) << error;
  }
  gamehost::GrpcResultsClient results;
  gamehost::Outbox outbox;
};

class HandoffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(database_.ok());
    std::string error;
    ASSERT_TRUE(storage::testing::MigrateAll(database_.conninfo(), METROPOLIS_MIGRATIONS_DIR, &error)) << error;
    outbox_ = ::testing::TempDir() + "/outbox-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(outbox_);
  }
  void TearDown() override {
    std::filesystem::remove_all(outbox_);
    if (!redis_prefix_.empty()) storage::testing::DeleteKeys(storage::testing::RedisAddress(), redis_prefix_);
  }
  // Three players on ladder "open", season 1: what the rated tests play.
  std::vector<int64_t> AddLadderAndPlayers() {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec("INSERT INTO ladders (id, seats, placement_games) VALUES ('open', 3, 0)");
    tx.exec("INSERT INTO seasons (ladder_id, season) VALUES ('open', 1)");
    std::vector<int64_t> ids;
    for (int i = 0; i < 3; ++i) {
      ids.push_back(
          tx.exec1("INSERT INTO identities (kind, name) VALUES ('bot', 'b" + std::to_string(i) + "') RETURNING id")[0]
              .as<int64_t>());
    }
    tx.commit();
    return ids;
  }
  std::unique_ptr<ResultServices> StartResultServices() {
    redis_prefix_ = storage::testing::UniquePrefix();
    return std::make_unique<ResultServices>(database_.conninfo(), storage::testing::RedisAddress(), redis_prefix_);
  }

  storage::testing::TestDatabase database_;
  std::string outbox_, redis_prefix_;
};

TEST_F(HandoffTest, FinishedGamesReachTheReplaysService) {
  ReplaysServer replays(database_.conninfo());
  Delivery delivery(outbox_, replays.bound);
  PlayGames(&delivery.outbox, 5);
  ASSERT_TRUE(delivery.outbox.WaitDelivered(30'000));
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 5);
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM replays WHERE compact IS NOT NULL"), 5);
}

// A game refused for good is set aside for an operator, counted for the alert
// (MetropolisDeliveriesRefused), and never holds up the games behind it.
TEST_F(HandoffTest, AGameRefusedForGoodIsSetAsideCountedAndBlocksNothing) {
  std::filesystem::create_directories(outbox_);
  {
    std::ofstream broken(outbox_ + "/0-broken.pb", std::ios::binary);  // sorted first
    broken << "this is not a StoreGameRequest";
  }
  prometheus::Registry registry;
  gamehost::HostMetrics metrics(&registry);
  ReplaysServer replays(database_.conninfo());
  Delivery delivery(outbox_, replays.bound, false, &metrics);
  PlayGames(&delivery.outbox, 3);
  ASSERT_TRUE(delivery.outbox.WaitDelivered(30'000));
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 3);
  EXPECT_TRUE(std::filesystem::exists(outbox_ + "/refused/0-broken.pb"));
  double refused = -1;
  for (const prometheus::MetricFamily& f : registry.Collect())
    if (f.name == "metropolis_gamehost_outbox_refused") refused = f.metric.at(0).gauge.value;
  EXPECT_EQ(refused, 1);
}

TEST_F(HandoffTest, GamesWaitOnDiskWhileTheServiceIsDownAndSurviveTheHost) {
  // Reserve a port, then close it: the service is "down" there.
  int port = 0;
  {
    ReplaysServer probe(database_.conninfo());
    port = probe.bound;
  }
  {
    Delivery delivery(outbox_, port);
    PlayGames(&delivery.outbox, 3);
    EXPECT_FALSE(delivery.outbox.WaitDelivered(300));
    EXPECT_EQ(delivery.outbox.pending(), 3u);
  }  // the host goes away with its outbox full
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 0);

  // A new run over the same outbox, with the service back.
  ReplaysServer replays(database_.conninfo(), port);
  ASSERT_EQ(replays.bound, port);
  Delivery delivery(outbox_, port);
  ASSERT_TRUE(delivery.outbox.WaitDelivered(30'000));
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 3);
}

TEST_F(HandoffTest, ADeliveryRepeatedAfterACrashStoresNothingTwice) {
  ReplaysServer replays(database_.conninfo());
  gamehost::testing::MemorySink capture;
  PlayGames(&capture, 2);
  ASSERT_EQ(capture.games.size(), 2u);
  Delivery delivery(outbox_, replays.bound);
  // The same games handed over twice, as after a crash between delivery and delete.
  for (int round = 0; round < 2; ++round) {
    for (const auto& g : capture.games) delivery.outbox.Put(g, {});
    ASSERT_TRUE(delivery.outbox.WaitDelivered(30'000));
  }
  EXPECT_EQ(Count(database_.conninfo(), "SELECT count(*) FROM games"), 2);
  EXPECT_EQ(delivery.outbox.delivered(), 4u);
}

// The whole hand-off: every finished game stored and rated exactly once, also
// when each game is handed over twice (a crash between delivery and delete).
TEST_F(HandoffTest, FinishedGamesAreStoredAndRatedExactlyOnce) {
  const auto players = AddLadderAndPlayers();
  auto services = StartResultServices();
  Delivery delivery(outbox_, services->bound, /*rate=*/true);
  gamehost::testing::MemorySink capture;
  PlayGames(&capture, 4, players);
  for (int round = 0; round < 2; ++round) {
    for (const auto& g : capture.games) delivery.outbox.Put(g, {});
    ASSERT_TRUE(delivery.outbox.WaitDelivered(60'000));
  }
  const std::string db = database_.conninfo();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games"), 4);
  const int with_winner = Count(db, "SELECT count(*) FROM games WHERE winner IS NOT NULL");
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rated_games"), 4);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rated_games WHERE rated"), with_winner);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rating_history"), 3 * with_winner);
  EXPECT_EQ(Count(db, "SELECT coalesce(sum(games), 0) FROM ratings"), 3 * with_winner);
  // Every result came with the digest Replays returned, and was confirmed.
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rated_games WHERE length(digest) = 64"), 4);

  // Over the wire: another result for a rated game is refused for good (the
  // outbox sets such a game aside), a game Replays never stored is not rated.
  auto stub = v1::Ratings::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(services->bound), grpc::InsecureChannelCredentials()));
  v1::CompletedGameRecord record;
  gamehost::CompletedGameToProto(capture.games[0], &record);
  v1::RateGameRequest forged;
  forged.set_game_id(record.game_id());
  forged.set_digest(std::string(64, 'a'));
  gamehost::OutcomeOf(record, forged.mutable_outcome());
  v1::RateGameResponse response;
  grpc::Status s;
  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", std::string("Bearer ") + kStoreToken);
    s = stub->RateGame(&context, forged, &response);
  }
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << s.error_message();
  EXPECT_TRUE(gamehost::RefusedForGood(s));
  forged.set_game_id("never-stored");
  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", std::string("Bearer ") + kStoreToken);
    s = stub->RateGame(&context, forged, &response);
  }
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rated_games"), 4);
}

// A seat resigns (PlayAnswer.resign): the game is stored as it stood, as
// resigned, with that seat forfeited, and rated with the resigning seat last and
// the others by their points (docs/RESULTS.md).
TEST_F(HandoffTest, AResignedGameIsStoredAndRatedWithTheResignerLast) {
  const auto players = AddLadderAndPlayers();
  auto services = StartResultServices();
  Delivery delivery(outbox_, services->bound, /*rate=*/true);
  gamehost::testing::TestHost table;
  v1::CreateGameRequest request;
  for (int s = 0; s < 3; ++s) {
    auto* seat = request.add_seats();
    seat->set_name("b" + std::to_string(s));
    seat->set_identity_id(players[size_t(s)]);
  }
  request.set_ladder("open");
  request.set_season(1);
  request.set_chance_seed(77);
  v1::CreateGameResponse created;
  ASSERT_TRUE(table.host->CreateGame(gamehost::testing::kAdmin, request, &created).ok());
  gamehost::testing::Seats seats(&table, &created);
  seats.Connect();
  ASSERT_EQ(seats.Play(120), 120);
  v1::PlayAnswer resign;
  resign.set_resign(true);
  seats.game->Answer(1, seats.streams[1].get(), resign, table.clock.Now());
  table.Settle();
  ASSERT_EQ(table.sink.games.size(), 1u);
  delivery.outbox.Put(table.sink.games[0], {});
  ASSERT_TRUE(delivery.outbox.WaitDelivered(60'000));

  const std::string db = database_.conninfo();
  const std::string id = "'" + created.game_id() + "'";
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games WHERE id = " + id +
                          " AND reason = 4 AND resigned_seat = 1 AND "
                          "winner IS NULL AND actions < 1000"),
            1);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM game_seats WHERE game_id = " + id + " AND forfeited"), 1);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM game_seats WHERE game_id = " + id + " AND seat = 1 AND forfeited"), 1);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rated_games WHERE game_id = " + id + " AND rated"), 1);
  EXPECT_EQ(Count(db, "SELECT rank FROM rating_history WHERE game_id = " + id +
                          " AND identity_id = " + std::to_string(players[1])),
            3);
  EXPECT_EQ(Count(db, "SELECT max(rank) FROM rating_history WHERE game_id = " + id + " AND identity_id <> " +
                          std::to_string(players[1])),
            Count(db, "SELECT CASE WHEN vp[1] = vp[3] THEN 1 ELSE 2 END FROM games WHERE id = " + id));
}

// PostgreSQL stopped and started again in the middle of a run of games: the
// deliveries that fail meanwhile wait in the outbox and go through once it is
// back; none is lost, none stored or rated twice.
TEST_F(HandoffTest, PostgresRestartedInTheMiddleOfARunLosesNothing) {
  const char* ctl = std::getenv("METROPOLIS_PG_CTL");
  ASSERT_TRUE(ctl != nullptr && *ctl != '\0')
      << "METROPOLIS_PG_CTL is not set: run the integration tests through scripts/test.sh";
  const auto players = AddLadderAndPlayers();
  auto services = StartResultServices();
  Delivery delivery(outbox_, services->bound, /*rate=*/true);
  gamehost::Outbox& outbox = delivery.outbox;
  constexpr int kBatch = 6;
  PlayGames(&outbox, kBatch, players, 100);
  ASSERT_EQ(std::system((std::string(ctl) + " stop").c_str()), 0) << "stopping PostgreSQL failed";
  PlayGames(&outbox, kBatch, players, 200);  // finished while the database is down
  EXPECT_FALSE(outbox.WaitDelivered(1'000));
  EXPECT_GT(outbox.pending(), 0u);
  ASSERT_EQ(std::system((std::string(ctl) + " start").c_str()), 0) << "starting PostgreSQL failed";
  PlayGames(&outbox, kBatch, players, 300);
  ASSERT_TRUE(outbox.WaitDelivered(120'000)) << outbox.pending() << " games still in the outbox";
  const std::string db = database_.conninfo();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games"), 3 * kBatch);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rated_games"), 3 * kBatch);
  const int with_winner = Count(db, "SELECT count(*) FROM games WHERE winner IS NOT NULL");
  EXPECT_EQ(Count(db, "SELECT count(*) FROM rating_history"), 3 * with_winner);
  EXPECT_EQ(Count(db, "SELECT coalesce(sum(games), 0) FROM ratings"), 3 * with_winner);
  EXPECT_EQ(outbox.delivered(), uint64_t(3 * kBatch));
}

}  // namespace
}  // namespace metropolis
