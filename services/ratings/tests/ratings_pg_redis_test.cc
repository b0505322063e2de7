// The ratings' stores against a real PostgreSQL and Redis (label integration),
// with fakes of the service's peers (tests/fakes.h): what only the real ones can
// show — a game rated once under concurrency (row locks), one player's updates
// serialised, the leaderboard script's versions, a Redis that lost its keys or
// refuses a user's writes (ACL) or login, and the board PostgreSQL ranks exactly
// as Redis and the fakes do — and the cases the fakes are held to as well
// (tests/ratings_contract.h): boards ranked, rebuilt and repaired, the history's
// pages, a different second result refused. The logic over the fakes:
// ratings_test.cc. Ranking rule: docs/RATINGS.md.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <map>
#include <pqxx/pqxx>
#include <thread>

#include "lib/auth/token_authenticator.h"
#include "lib/storage/migrations.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/redis.h"
#include "lib/storage/tests/test_database.h"
#include "lib/storage/tests/test_redis.h"
#include "services/ratings/metrics.h"
#include "services/ratings/pg_rating_store.h"
#include "services/ratings/redis_leaderboard_cache.h"
#include "services/ratings/service.h"
#include "services/ratings/tests/fake_stores.h"
#include "services/ratings/tests/fakes.h"
#include "services/ratings/tests/fixture.h"
#include "services/ratings/tests/ratings_contract.h"

namespace metropolis::ratings {
namespace {

constexpr char kServiceToken[] = "host-secret";

class RatingsTest : public testing::RatingsFixture {
 protected:
  void SetUp() override {
    pool_ = storage::testing::MigratedPool(database_, METROPOLIS_MIGRATIONS_DIR, 8);
    ASSERT_NE(pool_, nullptr);
    redis_address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(redis_address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    redis_ = std::make_unique<storage::RedisPool>(redis_address_, 8);
    store_ = std::make_unique<PgRatingStore>(pool_.get());
    cache_ = std::make_unique<RedisLeaderboardCache>(redis_.get(), prefix_);
    ratings_ = std::make_unique<Ratings>(store_.get(), cache_.get(), &replays_, &accounts_,
                                         RatingsOptions{.metrics = &metrics_});
  }
  void TearDown() override {
    if (!redis_address_.empty()) storage::testing::DeleteKeys(redis_address_, prefix_);
  }

  Ratings& ratings() override { return *ratings_; }
  RatingStore& store() override { return *store_; }
  LeaderboardCache& cache() override { return *cache_; }
  // A cache on a Redis nobody listens at.
  LeaderboardCache* UnreachableCache() override {
    if (!dead_cache_) {
      dead_redis_ = std::make_unique<storage::RedisPool>("127.0.0.1:1", 1, 200);
      dead_cache_ = std::make_unique<RedisLeaderboardCache>(dead_redis_.get(), prefix_);
    }
    return dead_cache_.get();
  }
  void LoseTheCache() override { storage::testing::DeleteKeys(redis_address_, prefix_); }
  int64_t RatedGames() override { return Int("SELECT count(*) FROM rated_games"); }
  int64_t HistoryRows() override { return Int("SELECT count(*) FROM rating_history"); }
  int GamesOf(int64_t identity, const std::string& ladder = "open") override {
    return int(Int("SELECT coalesce(sum(games), 0) FROM ratings WHERE season = 1 AND ladder_id = '" + ladder +
                   "' AND identity_id = " + std::to_string(identity)));
  }
  // identity -> games of the ranked players, as PostgreSQL holds them.
  std::map<int64_t, int> InStore(const std::string& ladder = "open") override {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    std::map<int64_t, int> out;
    for (const pqxx::row& row : tx.exec_params("SELECT identity_id, games FROM ratings WHERE ladder_id = $1", ladder))
      out[row[0].as<int64_t>()] = row[1].as<int>();
    return out;
  }
  // As PostgreSQL orders them.
  std::vector<std::pair<double, int64_t>> Ordinals(const std::string& ladder, int games) override {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    std::vector<std::pair<double, int64_t>> out;
    for (const pqxx::row& row :
         tx.exec_params("SELECT mu - 3 * sigma, identity_id FROM ratings WHERE ladder_id = $1 AND games >= $2 "
                        "ORDER BY mu - 3 * sigma DESC",
                        ladder, games))
      out.push_back({row[0].as<double>(), row[1].as<int64_t>()});
    return out;
  }

  void Exec(const std::string& sql) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec(sql);
    tx.commit();
  }
  int64_t Int(const std::string& sql) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    const int64_t value = tx.exec1(sql)[0].as<int64_t>();
    tx.commit();  // some callers insert
    return value;
  }

  storage::testing::TestDatabase database_;
  std::string redis_address_, prefix_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<storage::RedisPool> redis_, dead_redis_;
  std::unique_ptr<RatingStore> store_;
  std::unique_ptr<LeaderboardCache> cache_, dead_cache_;
  std::unique_ptr<Ratings> ratings_;

 private:
  void StoreLadder(const std::string& id, int placement_games) override {
    Exec("INSERT INTO ladders (id, placement_games) VALUES ('" + id + "', " + std::to_string(placement_games) +
         "); INSERT INTO seasons (ladder_id, season) VALUES ('" + id + "', 1)");
  }
  int64_t NewIdentity(const std::string& name) override {
    return Int("INSERT INTO identities (kind, name) VALUES ('player', '" + name + "') RETURNING id");
  }
};

// The cases the fakes are held to as well (tests/ratings_contract.h; in
// ratings_test.cc over the fakes), here against PostgreSQL and Redis.
INSTANTIATE_TYPED_TEST_SUITE_P(PostgresAndRedis, RatingsContract, RatingsTest);

// Exactly once under concurrency: every game sent twice from 8 threads at once,
// and all of them share one player, whose updates must form one chain.
TEST_F(RatingsTest, ConcurrentRatingsOfOnePlayerAreSerialisedAndCountedOnce) {
  AddLadder("open", 0);
  const auto p = AddPlayers(9);
  constexpr int kGames = 24;
  for (int g = 0; g < kGames; ++g) {
    AddGame("c" + std::to_string(g), "open", 1, g % 3, {10, 6 + g % 3, 5}, {p[0], p[1 + g % 8], p[1 + (g + 3) % 8]});
  }
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int g = t; g < 2 * kGames; g += 8) {
        v1::RateGameResponse r;
        if (!ratings_->RateGame(requests_.at("c" + std::to_string(g % kGames)), &r).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Int("SELECT games FROM ratings WHERE identity_id = " + std::to_string(p[0])), kGames);
  EXPECT_EQ(Int("SELECT count(*) FROM rating_history WHERE identity_id = " + std::to_string(p[0])), kGames);
  // Each of the player's updates starts from the one before it.
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT mu_before, lag(mu_after) OVER (ORDER BY id) AS prev "
                "FROM rating_history WHERE identity_id = " +
                std::to_string(p[0]) + ") x WHERE prev IS NOT NULL AND prev <> mu_before"),
            0);
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT r.mu FROM ratings r JOIN LATERAL (SELECT mu_after FROM rating_history h "
                "WHERE h.identity_id = r.identity_id ORDER BY id DESC LIMIT 1) last ON true "
                "WHERE r.mu <> last.mu_after) x"),
            0);
}

// Leaderboard versions (project issue #14): every read compares the version the
// board in Redis reflects with PostgreSQL's and rebuilds the board on any
// difference. Each scenario runs once with the comparison and once without it
// (the negative control, protection "board_versions"), which must then serve
// a board PostgreSQL does not hold.
class BoardVersionsTest : public RatingsTest {
 protected:
  storage::RedisReply RedisRun(const storage::RedisCommand& command) {
    storage::RedisReply reply;
    redis_->With([&](storage::RedisConnection& c) { reply = c.Run(command); });
    return reply;
  }
  std::string Key(const std::string& board, const std::string& part) { return prefix_ + ":lb:{" + board + "}:" + part; }

  // Games a and b are rated and read; then Redis loses its last write (an
  // append-only file synced every second): its version goes back one and one
  // player's entry is gone. What the next read shows.
  std::map<int64_t, int> AfterRedisLostItsLastWrite(bool compare) {
    const auto p = Play();
    Ratings reader(store_.get(), cache_.get(), &replays_, &accounts_,
                   {.compare_versions = compare, .metrics = &metrics_});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_EQ(Shown(reader).size(), 3u);
    EXPECT_TRUE(Rate("b").rated());
    EXPECT_EQ(Shown(reader), InStore());
    EXPECT_EQ(RedisRun({"DECR", Key("open/1", "version")}).integer, 1);
    RedisRun({"ZREM", Key("open/1", "ranked"), std::to_string(p[1])});
    RedisRun({"HDEL", Key("open/1", "info"), std::to_string(p[1])});
    return Shown(reader);
  }

  // Games a and b are rated and read; then PostgreSQL is restored from a backup
  // taken after game a: Redis holds a board ahead of it. What the next read shows.
  std::map<int64_t, int> AfterPostgresWentBack(bool compare) {
    Play();
    Ratings reader(store_.get(), cache_.get(), &replays_, &accounts_,
                   {.compare_versions = compare, .metrics = &metrics_});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_TRUE(Rate("b").rated());
    EXPECT_EQ(Shown(reader), InStore());
    // The backup: as before game b.
    Exec(
        "UPDATE ratings r SET mu = h.mu_before, sigma = h.sigma_before, games = r.games - 1 FROM rating_history h "
        "WHERE h.game_id = 'b' AND h.identity_id = r.identity_id AND r.ladder_id = 'open';"
        "DELETE FROM rating_history WHERE game_id = 'b'; DELETE FROM rated_games WHERE game_id = 'b';"
        "UPDATE board_versions SET version = version - 1 WHERE ladder_id = 'open'");
    return Shown(reader);
  }

 private:
  // Three players, and their games a and b on ladder "open", not rated yet.
  std::vector<int64_t> Play() {
    AddLadder("open", 0);
    const auto p = AddPlayers(3);
    AddGame("a", "open", 1, 0, {10, 5, 4}, p);
    AddGame("b", "open", 1, 1, {5, 10, 4}, p);
    return p;
  }
};

TEST_F(BoardVersionsTest, ALastWriteRedisLostIsRebuiltOnTheNextRead) {
  const uint64_t rebuilds = ratings_->rebuilds();
  const auto shown = AfterRedisLostItsLastWrite(true);
  EXPECT_EQ(shown, InStore());
  EXPECT_EQ(shown.size(), 3u);
  EXPECT_EQ(ratings_->rebuilds(), rebuilds);  // the reader rebuilt, not this one
}

TEST_F(BoardVersionsTest, NegativeControlWithoutVersionsTheLostWriteIsServed) {
  const auto shown = AfterRedisLostItsLastWrite(false);
  EXPECT_NE(shown, InStore());
  EXPECT_EQ(shown.size(), 2u);
}

TEST_F(BoardVersionsTest, ABoardAheadOfARestoredPostgresIsRebuiltFromIt) {
  const auto shown = AfterPostgresWentBack(true);
  EXPECT_EQ(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
  EXPECT_EQ(RedisRun({"GET", Key("open/1", "version")}).str, "1");
}

TEST_F(BoardVersionsTest, NegativeControlWithoutVersionsTheBoardAheadIsServed) {
  const auto shown = AfterPostgresWentBack(false);
  EXPECT_NE(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

// A replica whose Redis user may read but not write the leaderboard keys: its
// ratings are committed (the refusals logged and counted), its reads of a stale
// board come from PostgreSQL, and a read through the other replica rebuilds it.
TEST_F(BoardVersionsTest, AReplicaRedisRefusesWritesToRatesAndReadsFromPostgres) {
  AddLadder("open", 0);
  const auto p = AddPlayers(4);
  AddGame("a", "open", 1, 0, {10, 5, 4}, {p[0], p[1], p[2]});
  AddGame("b", "open", 1, 1, {5, 10, 4}, {p[0], p[1], p[3]});
  const std::string user = prefix_ + "-reader";
  ASSERT_EQ(RedisRun({"ACL", "SETUSER", user, "on", ">pw", "resetkeys", "%R~" + prefix_ + ":lb:*", "+@all"}).str, "OK");
  storage::RedisPool read_only(redis_address_, 2, 2000, {user, "pw"});
  RedisLeaderboardCache read_only_cache(&read_only, prefix_);
  Ratings reader(store_.get(), &read_only_cache, &replays_, &accounts_, {.metrics = &metrics_});
  ASSERT_TRUE(Rate("a").rated());
  EXPECT_EQ(Shown(*ratings_), InStore());

  const uint64_t refused = metrics_.leaderboard_writes_refused();
  const uint64_t from_pg = metrics_.leaderboard_reads_from_postgres();
  v1::RateGameResponse r;
  ASSERT_TRUE(reader.RateGame(requests_.at("b"), &r).ok());
  EXPECT_TRUE(r.rated());
  EXPECT_EQ(metrics_.leaderboard_writes_refused(), refused + 1);
  EXPECT_EQ(Shown(reader), InStore());  // its rebuild is refused too
  EXPECT_GE(metrics_.leaderboard_reads_from_postgres(), from_pg + 1);
  v1::GetPlayerRatingRequest who;
  who.set_ladder("open");
  who.set_identity_id(p[3]);
  v1::PlayerRating rating;
  ASSERT_TRUE(reader.GetPlayerRating(who, &rating).ok());
  EXPECT_EQ(rating.games(), 1u);
  EXPECT_GT(rating.rank(), 0u);
  EXPECT_EQ(Shown(*ratings_), InStore());  // the writer rebuilds it
  const uint64_t served = metrics_.leaderboard_reads_from_postgres();
  EXPECT_EQ(Shown(reader), InStore());
  EXPECT_EQ(metrics_.leaderboard_reads_from_postgres(), served);  // from Redis again
  RedisRun({"ACL", "DELUSER", user});
}

// The board read from PostgreSQL ranks exactly as Redis does: pages, the page
// around a player, and one player.
TEST_F(BoardVersionsTest, PostgresRanksTheBoardAsRedisDoes) {
  AddLadder("ranked", 1);
  const auto p = AddPlayers(7);
  for (int g = 0; g < 6; ++g)
    AddGame("o" + std::to_string(g), "ranked", 1, g % 3, {10, 6 + g % 2, 4},
            {p[g % 6], p[(g + 1) % 6], p[(g + 3) % 6]});
  AddGame("o6", "ranked", 1, 0, {10, 5}, {p[6], 0});
  for (int g = 0; g < 7; ++g) ASSERT_TRUE(Rate("o" + std::to_string(g)).rated());
  Board board;
  board.ladder = "ranked";
  board.season = 1;
  board.placement_games = 1;
  Top("ranked");  // builds the board in Redis
  for (uint64_t offset : {0, 2, 6, 9}) {
    std::vector<RankedEntry> redis, pg;
    uint64_t redis_total = 0, pg_total = 0;
    int64_t version = 0;
    ASSERT_TRUE(cache_->Page(board, offset, 3, &redis, &redis_total, &version).ok());
    ASSERT_GE(version, 0);
    ASSERT_TRUE(store_->Page(board, offset, 3, &pg, &pg_total).ok());
    EXPECT_EQ(pg_total, redis_total);
    ASSERT_EQ(pg.size(), redis.size()) << offset;
    for (size_t i = 0; i < pg.size(); ++i) {
      EXPECT_EQ(pg[i].identity_id, redis[i].identity_id);
      EXPECT_EQ(pg[i].rank, redis[i].rank);
      EXPECT_DOUBLE_EQ(pg[i].ordinal, redis[i].ordinal);
      EXPECT_EQ(pg[i].games, redis[i].games);
    }
  }
  for (int64_t id : p) {
    std::vector<RankedEntry> redis, pg;
    uint64_t redis_total = 0, pg_total = 0;
    bool redis_found = false, pg_found = false;
    int64_t version = 0;
    ASSERT_TRUE(cache_->Around(board, id, 4, &redis, &redis_total, &redis_found, &version).ok());
    ASSERT_GE(version, 0);
    ASSERT_TRUE(store_->Around(board, id, 4, &pg, &pg_total, &pg_found).ok());
    EXPECT_EQ(pg_found, redis_found);
    ASSERT_EQ(pg.size(), redis.size());
    for (size_t i = 0; i < pg.size(); ++i) EXPECT_EQ(pg[i].identity_id, redis[i].identity_id);
    RankedEntry in_redis, in_pg;
    ASSERT_TRUE(cache_->Lookup(board, id, &in_redis, &redis_total, &redis_found, &version).ok());
    ASSERT_GE(version, 0);
    ASSERT_TRUE(store_->Lookup(board, id, &in_pg, &pg_total, &pg_found).ok());
    EXPECT_EQ(pg_found, redis_found);
    EXPECT_EQ(in_pg.rank, in_redis.rank);
    EXPECT_EQ(pg_total, redis_total);
  }
  // And the fakes' ranking (tests/fake_stores.h) is PostgreSQL's, so that the
  // hermetic tests rank as production does.
  std::vector<StoredRating> all;
  int64_t version = 0;
  ASSERT_TRUE(store_
                  ->ScanAll(board, 2, &version,
                            [&](const std::vector<StoredRating>& batch) {
                              all.insert(all.end(), batch.begin(), batch.end());
                              return true;
                            })
                  .ok());
  const std::vector<RankedEntry> faked = testing::RankAsRedisDoes(all, board.placement_games);
  std::vector<RankedEntry> pg;
  uint64_t pg_total = 0;
  ASSERT_TRUE(store_->Page(board, 0, 100, &pg, &pg_total).ok());
  ASSERT_EQ(faked.size(), pg.size());
  for (size_t i = 0; i < pg.size(); ++i) {
    EXPECT_EQ(faked[i].identity_id, pg[i].identity_id);
    EXPECT_EQ(faked[i].rank, pg[i].rank);
  }
}

// A Redis user whose password is wrong: reads say so, naming the user.
TEST_F(BoardVersionsTest, ARefusedLoginIsUnavailableNamingTheUser) {
  AddLadder("open", 0);
  storage::RedisPool wrong(redis_address_, 1, 2000, {"nobody-" + prefix_, "wrong"});
  RedisLeaderboardCache cache(&wrong, prefix_);
  Ratings replica(store_.get(), &cache, &replays_, &accounts_, {.metrics = &metrics_});
  v1::GetLeaderboardRequest request;
  request.set_ladder("open");
  v1::Leaderboard board;
  const grpc::Status s = replica.GetLeaderboard(request, &board);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(s.error_message().find("AUTH as 'nobody-" + prefix_ + "' refused"), std::string::npos) << s.error_message();
}

}  // namespace
}  // namespace metropolis::ratings
