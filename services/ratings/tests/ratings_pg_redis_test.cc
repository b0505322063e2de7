// The ratings' stores against a real PostgreSQL and Redis (label integration),
// with fakes of the service's peers (tests/fakes.h): what only the real ones can
// show — a game rated once under concurrency (row locks), one player's updates
// serialised, the leaderboard script's versions, a Redis that lost its keys or
// refuses a user's writes (ACL) or login, and the board PostgreSQL ranks exactly
// as Redis and the fakes do. The logic over the fakes: ratings_test.cc. Ranking
// rule: docs/RATINGS.md.
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

namespace metropolis::ratings {
namespace {

constexpr char kServiceToken[] = "host-secret";

class RatingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(database_.ok());
    redis_address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(redis_address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    std::string error;
    ASSERT_TRUE(storage::testing::MigrateAll(database_.conninfo(), METROPOLIS_MIGRATIONS_DIR, &error)) << error;
    pool_ = std::make_unique<storage::PgPool>(database_.conninfo(), 8);
    redis_ = std::make_unique<storage::RedisPool>(redis_address_, 8);
    store_ = std::make_unique<PgRatingStore>(pool_.get());
    cache_ = std::make_unique<RedisLeaderboardCache>(redis_.get(), prefix_);
    ratings_ = std::make_unique<Ratings>(store_.get(), cache_.get(), &replays_, &accounts_);
  }
  void TearDown() override {
    if (!redis_address_.empty()) storage::testing::DeleteKeys(redis_address_, prefix_);
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
  void AddLadder(const std::string& id, int placement_games) {
    Exec("INSERT INTO ladders (id, placement_games) VALUES ('" + id + "', " + std::to_string(placement_games) +
         "); INSERT INTO seasons (ladder_id, season) VALUES ('" + id + "', 1)");
    LadderInfo info;
    info.placement_games = placement_games;
    info.latest_season = 1;
    accounts_.AddLadder(id, info);
  }
  std::vector<int64_t> AddPlayers(int n) {
    std::vector<int64_t> ids;
    for (int i = 0; i < n; ++i) {
      const std::string name = "player" + std::to_string(next_player_++);
      ids.push_back(Int("INSERT INTO identities (kind, name) VALUES ('player', '" + name + "') RETURNING id"));
      accounts_.AddName(ids.back(), name);
    }
    return ids;
  }
  // A game Replays holds (with its digest), and its result.
  void AddGame(const std::string& id, const std::string& ladder, int season, int winner, const std::vector<int>& vp,
               const std::vector<int64_t>& identities, const std::vector<bool>& forfeited = {}) {
    requests_[id] = testing::Result(id, ladder, season, winner, vp, identities, forfeited);
    replays_.Store(id, requests_[id].digest());
  }
  v1::RateGameResponse Rate(const std::string& game_id) {
    v1::RateGameResponse response;
    const grpc::Status s = ratings_->RateGame(requests_.at(game_id), &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }
  // Nothing of any game is written.
  void ExpectNothingWritten() {
    EXPECT_EQ(Int("SELECT count(*) FROM rated_games"), 0);
    EXPECT_EQ(Int("SELECT count(*) FROM ratings"), 0);
    EXPECT_EQ(Int("SELECT count(*) FROM rating_history"), 0);
  }
  v1::Leaderboard Top(const std::string& ladder, uint32_t limit = 50) {
    v1::GetLeaderboardRequest request;
    request.set_ladder(ladder);
    request.set_limit(limit);
    v1::Leaderboard board;
    const grpc::Status s = ratings_->GetLeaderboard(request, &board);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return board;
  }

  storage::testing::TestDatabase database_;
  std::string redis_address_, prefix_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<storage::RedisPool> redis_;
  std::unique_ptr<RatingStore> store_;
  std::unique_ptr<LeaderboardCache> cache_;
  testing::FakeStoredGames replays_;
  testing::FakeLadders accounts_;
  std::unique_ptr<Ratings> ratings_;
  std::map<std::string, v1::RateGameRequest> requests_;
  int next_player_ = 0;
};

// Ratings section "exactly once"; ranking rule: winner first, others by points.
TEST_F(RatingsTest, AGameIsRatedOnceWithTheModelsNumbersAndItsHistory) {
  AddLadder("open", 0);
  const auto p = AddPlayers(4);
  AddGame("g1", "open", 1, 2, {7, 9, 10, 9}, p);
  const v1::RateGameResponse first = Rate("g1");
  ASSERT_TRUE(first.rated());
  EXPECT_FALSE(first.already_rated());
  ASSERT_EQ(first.changes_size(), 4);
  const std::vector<int> want_ranks = {4, 2, 1, 2};
  const RatingParams params;
  const auto want = RatePlackettLuce(std::vector<Rating>(4, InitialRating(params)), want_ranks, params);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(first.changes(s).identity_id(), p[s]);
    EXPECT_EQ(int(first.changes(s).rank()), want_ranks[s]);
    EXPECT_DOUBLE_EQ(first.changes(s).mu_after(), want[s].mu);
    EXPECT_DOUBLE_EQ(first.changes(s).sigma_after(), want[s].sigma);
  }
  const v1::RateGameResponse again = Rate("g1");
  EXPECT_TRUE(again.rated());
  EXPECT_TRUE(again.already_rated());
  ASSERT_EQ(again.changes_size(), 4);
  for (int s = 0; s < 4; ++s) EXPECT_DOUBLE_EQ(again.changes(s).mu_after(), first.changes(s).mu_after());
  EXPECT_EQ(Int("SELECT count(*) FROM rating_history"), 4);
  EXPECT_EQ(Int("SELECT sum(games) FROM ratings"), 4);
  EXPECT_EQ(Int("SELECT count(*) FROM rated_games WHERE rated"), 1);
}

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

// Leaderboards: by ordinal, provisional players apart, pages and ranks agree
// with PostgreSQL.
TEST_F(RatingsTest, LeaderboardsRankByOrdinalAndKeepPlacementPlayersApart) {
  AddLadder("ranked", 2);
  const auto p = AddPlayers(6);
  int n = 0;
  // p[0..3] play two games each; p[4], p[5] one game: provisional.
  AddGame("l" + std::to_string(n++), "ranked", 1, 0, {10, 8, 6, 4}, {p[0], p[1], p[2], p[3]});
  AddGame("l" + std::to_string(n++), "ranked", 1, 1, {7, 10, 6, 4}, {p[0], p[1], p[2], p[3]});
  AddGame("l" + std::to_string(n++), "ranked", 1, 0, {10, 8, 7}, {p[4], p[5], 0});
  for (int i = 0; i < n; ++i) ASSERT_TRUE(Rate("l" + std::to_string(i)).rated());

  const v1::Leaderboard board = Top("ranked");
  ASSERT_EQ(board.total(), 4u);
  ASSERT_EQ(board.entries_size(), 4);
  pqxx::connection db(database_.conninfo());
  pqxx::work tx(db);
  const pqxx::result expected =
      tx.exec("SELECT identity_id, mu - 3 * sigma FROM ratings WHERE games >= 2 ORDER BY mu - 3 * sigma DESC");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(board.entries(i).rank(), uint64_t(i + 1));
    EXPECT_EQ(board.entries(i).identity_id(), expected[i][0].as<int64_t>());
    EXPECT_DOUBLE_EQ(board.entries(i).ordinal(), expected[i][1].as<double>());
    EXPECT_FALSE(board.entries(i).name().empty());
    EXPECT_EQ(board.entries(i).games(), 2u);
  }

  v1::GetPlayerRatingRequest who;
  who.set_ladder("ranked");
  who.set_identity_id(board.entries(2).identity_id());
  v1::PlayerRating rating;
  ASSERT_TRUE(ratings_->GetPlayerRating(who, &rating).ok());
  EXPECT_EQ(rating.rank(), 3u);
  EXPECT_EQ(rating.total(), 4u);
  EXPECT_FALSE(rating.provisional());
  who.set_identity_id(p[4]);
  ASSERT_TRUE(ratings_->GetPlayerRating(who, &rating).ok());
  EXPECT_TRUE(rating.provisional());
  EXPECT_EQ(rating.rank(), 0u);
  EXPECT_EQ(rating.games(), 1u);

  v1::GetLeaderboardRequest around;
  around.set_ladder("ranked");
  around.set_limit(2);
  around.set_around_identity_id(board.entries(3).identity_id());
  v1::Leaderboard page;
  ASSERT_TRUE(ratings_->GetLeaderboard(around, &page).ok());
  ASSERT_EQ(page.entries_size(), 2);
  EXPECT_EQ(page.entries(0).rank(), 3u);
  EXPECT_EQ(page.entries(1).identity_id(), board.entries(3).identity_id());

  v1::GetRatingHistoryRequest history;
  history.set_ladder("ranked");
  history.set_identity_id(p[0]);
  history.set_limit(1);
  v1::RatingHistory h;
  ASSERT_TRUE(ratings_->GetRatingHistory(history, &h).ok());
  ASSERT_EQ(h.entries_size(), 1);
  EXPECT_EQ(h.entries(0).game_id(), "l1");
  // The history carries the leaderboard's key, so that no reader computes it again.
  EXPECT_DOUBLE_EQ(h.entries(0).ordinal_after(), h.entries(0).mu_after() - 3 * h.entries(0).sigma_after());
  EXPECT_NE(h.entries(0).ordinal_after(), 0);
  ASSERT_FALSE(h.next_page_token().empty());
  history.set_page_token(h.next_page_token());
  v1::RatingHistory older;
  ASSERT_TRUE(ratings_->GetRatingHistory(history, &older).ok());
  ASSERT_EQ(older.entries_size(), 1);
  EXPECT_EQ(older.entries(0).game_id(), "l0");
  EXPECT_DOUBLE_EQ(older.entries(0).mu_after(), h.entries(0).mu_before());
  EXPECT_TRUE(older.next_page_token().empty());
}

TEST_F(RatingsTest, ALeaderboardRedisLostIsRebuiltFromPostgres) {
  AddLadder("open", 0);
  const auto p = AddPlayers(8);
  for (int g = 0; g < 10; ++g)
    AddGame("r" + std::to_string(g), "open", 1, g % 4, {10, 5 + g % 3, 4, 3},
            {p[g % 8], p[(g + 1) % 8], p[(g + 2) % 8], p[(g + 5) % 8]});
  for (int g = 0; g < 10; ++g) ASSERT_TRUE(Rate("r" + std::to_string(g)).rated());
  const v1::Leaderboard before = Top("open");
  ASSERT_EQ(before.total(), 8u);
  const uint64_t rebuilds = ratings_->rebuilds();

  storage::testing::DeleteKeys(redis_address_, prefix_);  // Redis lost everything
  const v1::Leaderboard after = Top("open");
  EXPECT_EQ(ratings_->rebuilds(), rebuilds + 1);
  ASSERT_EQ(after.entries_size(), before.entries_size());
  for (int i = 0; i < after.entries_size(); ++i) {
    EXPECT_EQ(after.entries(i).identity_id(), before.entries(i).identity_id());
    EXPECT_DOUBLE_EQ(after.entries(i).ordinal(), before.entries(i).ordinal());
  }
}

// Redis unreachable while a game is rated: the rating is committed anyway, reads
// say UNAVAILABLE, and the service rebuilds the board once Redis is back (here
// a restarted service, the way a replica that crashed meanwhile repairs it).
TEST_F(RatingsTest, AWriteRedisMissedIsRepairedByTheRebuild) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("a", "open", 1, 0, {10, 5, 4}, p);
  AddGame("b", "open", 1, 1, {5, 10, 4}, p);
  ASSERT_TRUE(Rate("a").rated());
  ASSERT_EQ(Top("open").total(), 3u);

  storage::RedisPool dead("127.0.0.1:1", 1, 200);
  RedisLeaderboardCache dead_cache(&dead, prefix_);
  Ratings cut_off(store_.get(), &dead_cache, &replays_, &accounts_);
  v1::RateGameResponse r;
  ASSERT_TRUE(cut_off.RateGame(requests_.at("b"), &r).ok());
  EXPECT_TRUE(r.rated());
  v1::GetLeaderboardRequest request;
  request.set_ladder("open");
  v1::Leaderboard unused;
  EXPECT_EQ(cut_off.GetLeaderboard(request, &unused).error_code(), grpc::StatusCode::UNAVAILABLE);

  Ratings restarted(store_.get(), cache_.get(), &replays_, &accounts_);
  uint64_t players = 0;
  ASSERT_TRUE(restarted.RebuildAll(&players).ok());
  EXPECT_EQ(players, 3u);
  v1::Leaderboard board;
  ASSERT_TRUE(restarted.GetLeaderboard(request, &board).ok());
  for (const auto& e : board.entries()) EXPECT_EQ(e.games(), 2u) << e.identity_id();
}

// A second, different result for a decided game (other places under the same
// digest, or another digest) is ALREADY_EXISTS, counted, and changes nothing,
// also while Replays is down; the same result again is answered as the first
// time, also with Replays and Accounts down (rated_games is read then). With
// the negative control "one_result" (METROPOLIS_REMOVE_PROTECTION=one_result
// in a check build) the different results are answered as the first: this
// test fails, as it must.
TEST_F(RatingsTest, ADifferentSecondResultIsRefusedAndTheSameOneIsIdempotent) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  AddGame("capped", "open", 1, -1, {8, 7, 6}, p);
  const v1::RateGameResponse first = Rate("g");
  ASSERT_TRUE(first.rated());
  ASSERT_FALSE(Rate("capped").rated());
  const uint64_t conflicts = RatingsMetrics::Get().conflicting_results();

  v1::RateGameRequest other_places = requests_.at("g");
  other_places.mutable_outcome()->mutable_result()->set_winner(1);
  other_places.mutable_outcome()->mutable_result()->set_vp(1, 10);
  other_places.mutable_outcome()->mutable_result()->set_vp(0, 7);
  v1::RateGameRequest other_digest = requests_.at("g");
  other_digest.set_digest(testing::DigestOf("g", '2'));
  replays_.Store("g", other_digest.digest());  // even one Replays would confirm now
  v1::RateGameRequest other_seats = requests_.at("capped");
  other_seats.mutable_outcome()->mutable_seats(2)->set_identity_id(p[0] + 1000);
  for (const v1::RateGameRequest& r : {other_places, other_digest, other_seats}) {
    v1::RateGameResponse response;
    const grpc::Status s = ratings_->RateGame(r, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << r.game_id();
    EXPECT_EQ(s.error_message(), "game " + r.game_id() +
                                     " was rated from a different result (another digest or other places); "
                                     "nothing changed");
  }
  EXPECT_EQ(RatingsMetrics::Get().conflicting_results(), conflicts + 3);
  EXPECT_EQ(Int("SELECT sum(games) FROM ratings"), 3);
  EXPECT_EQ(Int("SELECT count(*) FROM rating_history"), 3);

  auto answered_as_first = [&](const v1::RateGameResponse& again) {
    EXPECT_TRUE(again.already_rated());
    EXPECT_TRUE(again.rated());
    ASSERT_EQ(again.changes_size(), 3);
    for (int s = 0; s < 3; ++s) {
      EXPECT_EQ(again.changes(s).seat(), uint32_t(s));
      EXPECT_EQ(again.changes(s).rank(), first.changes(s).rank());
      EXPECT_DOUBLE_EQ(again.changes(s).mu_after(), first.changes(s).mu_after());
    }
  };
  answered_as_first(Rate("g"));  // Replays now holds another digest for g
  replays_.Store("g", requests_.at("g").digest());
  answered_as_first(Rate("g"));  // confirmed: the rating transaction's claim answers
  replays_.unavailable = true;
  accounts_.unavailable = true;
  answered_as_first(Rate("g"));
  v1::RateGameResponse response;
  EXPECT_EQ(ratings_->RateGame(other_places, &response).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(RatingsMetrics::Get().conflicting_results(), conflicts + 4);
  EXPECT_EQ(Int("SELECT sum(games) FROM ratings"), 3);
  EXPECT_EQ(Int("SELECT count(*) FROM rating_history"), 3);
}

// Leaderboard versions (project issue #14): every read compares the version the
// board in Redis reflects with PostgreSQL's and rebuilds the board on any
// difference. Each scenario runs once with the comparison and once without it
// (the negative control, protection "board_versions"), which must then serve
// a board PostgreSQL does not hold.
class BoardVersionsTest : public RatingsTest {
 protected:
  // identity -> games, as a read through `replica` shows the board.
  std::map<int64_t, int> Shown(Ratings& replica, const std::string& ladder) {
    v1::GetLeaderboardRequest request;
    request.set_ladder(ladder);
    v1::Leaderboard board;
    const grpc::Status s = replica.GetLeaderboard(request, &board);
    EXPECT_TRUE(s.ok()) << s.error_message();
    std::map<int64_t, int> out;
    for (const auto& e : board.entries()) out[e.identity_id()] = int(e.games());
    return out;
  }
  // identity -> games of the ranked players, as PostgreSQL holds them.
  std::map<int64_t, int> InPostgres(const std::string& ladder) {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    std::map<int64_t, int> out;
    for (const pqxx::row& row : tx.exec_params("SELECT identity_id, games FROM ratings WHERE ladder_id = $1", ladder))
      out[row[0].as<int64_t>()] = row[1].as<int>();
    return out;
  }
  storage::RedisReply RedisRun(const storage::RedisCommand& command) {
    storage::RedisReply reply;
    redis_->With([&](storage::RedisConnection& c) { reply = c.Run(command); });
    return reply;
  }
  std::string Key(const std::string& board, const std::string& part) { return prefix_ + ":lb:{" + board + "}:" + part; }

  // Three players play game a (read: the board is built), then game b through a
  // replica whose Redis is unreachable: its write is lost. What a reader shows.
  std::map<int64_t, int> AfterAWriteAnotherReplicaLost(bool compare) {
    AddLadder("open", 0);
    const auto p = AddPlayers(3);
    AddGame("a", "open", 1, 0, {10, 5, 4}, p);
    AddGame("b", "open", 1, 1, {5, 10, 4}, p);
    Ratings reader(store_.get(), cache_.get(), &replays_, &accounts_, {.compare_versions = compare});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_EQ(Shown(reader, "open").size(), 3u);
    storage::RedisPool dead("127.0.0.1:1", 1, 200);
    RedisLeaderboardCache dead_cache(&dead, prefix_);
    Ratings writer(store_.get(), &dead_cache, &replays_, &accounts_);
    v1::RateGameResponse r;
    EXPECT_TRUE(writer.RateGame(requests_.at("b"), &r).ok());
    EXPECT_TRUE(r.rated());
    return Shown(reader, "open");
  }

  // Games a and b are rated and read; then Redis loses its last write (an
  // append-only file synced every second): its version goes back one and one
  // player's entry is gone. What the next read shows.
  std::map<int64_t, int> AfterRedisLostItsLastWrite(bool compare) {
    AddLadder("open", 0);
    const auto p = AddPlayers(3);
    AddGame("a", "open", 1, 0, {10, 5, 4}, p);
    AddGame("b", "open", 1, 1, {5, 10, 4}, p);
    Ratings reader(store_.get(), cache_.get(), &replays_, &accounts_, {.compare_versions = compare});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_EQ(Shown(reader, "open").size(), 3u);
    EXPECT_TRUE(Rate("b").rated());
    EXPECT_EQ(Shown(reader, "open"), InPostgres("open"));
    EXPECT_EQ(RedisRun({"DECR", Key("open/1", "version")}).integer, 1);
    RedisRun({"ZREM", Key("open/1", "ranked"), std::to_string(p[1])});
    RedisRun({"HDEL", Key("open/1", "info"), std::to_string(p[1])});
    return Shown(reader, "open");
  }

  // Games a and b are rated and read; then PostgreSQL is restored from a backup
  // taken after game a: Redis holds a board ahead of it. What the next read shows.
  std::map<int64_t, int> AfterPostgresWentBack(bool compare) {
    AddLadder("open", 0);
    const auto p = AddPlayers(3);
    AddGame("a", "open", 1, 0, {10, 5, 4}, p);
    AddGame("b", "open", 1, 1, {5, 10, 4}, p);
    Ratings reader(store_.get(), cache_.get(), &replays_, &accounts_, {.compare_versions = compare});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_TRUE(Rate("b").rated());
    EXPECT_EQ(Shown(reader, "open"), InPostgres("open"));
    // The backup: as before game b.
    Exec(
        "UPDATE ratings r SET mu = h.mu_before, sigma = h.sigma_before, games = r.games - 1 FROM rating_history h "
        "WHERE h.game_id = 'b' AND h.identity_id = r.identity_id AND r.ladder_id = 'open';"
        "DELETE FROM rating_history WHERE game_id = 'b'; DELETE FROM rated_games WHERE game_id = 'b';"
        "UPDATE board_versions SET version = version - 1 WHERE ladder_id = 'open'");
    return Shown(reader, "open");
  }
};

TEST_F(BoardVersionsTest, AWriteOneReplicaLostIsReadFreshThroughAnother) {
  const auto shown = AfterAWriteAnotherReplicaLost(true);
  EXPECT_EQ(shown, InPostgres("open"));
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

TEST_F(BoardVersionsTest, NegativeControlWithoutVersionsTheOtherReplicaServesTheBoardWithoutTheWrite) {
  const auto shown = AfterAWriteAnotherReplicaLost(false);
  EXPECT_NE(shown, InPostgres("open"));
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
}

TEST_F(BoardVersionsTest, ALastWriteRedisLostIsRebuiltOnTheNextRead) {
  const uint64_t rebuilds = ratings_->rebuilds();
  const auto shown = AfterRedisLostItsLastWrite(true);
  EXPECT_EQ(shown, InPostgres("open"));
  EXPECT_EQ(shown.size(), 3u);
  EXPECT_EQ(ratings_->rebuilds(), rebuilds);  // the reader rebuilt, not this one
}

TEST_F(BoardVersionsTest, NegativeControlWithoutVersionsTheLostWriteIsServed) {
  const auto shown = AfterRedisLostItsLastWrite(false);
  EXPECT_NE(shown, InPostgres("open"));
  EXPECT_EQ(shown.size(), 2u);
}

TEST_F(BoardVersionsTest, ABoardAheadOfARestoredPostgresIsRebuiltFromIt) {
  const auto shown = AfterPostgresWentBack(true);
  EXPECT_EQ(shown, InPostgres("open"));
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
  EXPECT_EQ(RedisRun({"GET", Key("open/1", "version")}).str, "1");
}

TEST_F(BoardVersionsTest, NegativeControlWithoutVersionsTheBoardAheadIsServed) {
  const auto shown = AfterPostgresWentBack(false);
  EXPECT_NE(shown, InPostgres("open"));
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

// Writes that arrive out of order (two replicas rating games of one board at
// once) move the version only once every earlier one arrived; a write that
// never arrives holds it back.
TEST_F(BoardVersionsTest, TheVersionInRedisMovesOnlyOverConsecutiveWrites) {
  const Board board{"open", 1, 0, {}};
  const std::vector<StoredRating> one = {{7, 25.0, 8.0, 1}};
  cache_->MarkBuilt(board, 4);
  EXPECT_EQ(cache_->Version(board), 4);
  cache_->Apply(board, one, 6);
  cache_->Apply(board, one, 7);
  EXPECT_EQ(cache_->Version(board), 4);  // 5 is missing
  cache_->Apply(board, one, 5);
  EXPECT_EQ(cache_->Version(board), 7);
  cache_->Apply(board, one, 3);  // old: changes nothing
  EXPECT_EQ(cache_->Version(board), 7);
  cache_->Apply(board, one, 9);
  EXPECT_EQ(cache_->Version(board), 7);  // 8 never arrives: a read rebuilds
  cache_->MarkBuilt(board, 8);           // a rebuild that read version 8
  EXPECT_EQ(cache_->Version(board), 9);  // and 9 had arrived already
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
  Ratings reader(store_.get(), &read_only_cache, &replays_, &accounts_);
  ASSERT_TRUE(Rate("a").rated());
  EXPECT_EQ(Shown(*ratings_, "open"), InPostgres("open"));

  const uint64_t refused = RatingsMetrics::Get().leaderboard_writes_refused();
  const uint64_t from_pg = RatingsMetrics::Get().leaderboard_reads_from_postgres();
  v1::RateGameResponse r;
  ASSERT_TRUE(reader.RateGame(requests_.at("b"), &r).ok());
  EXPECT_TRUE(r.rated());
  EXPECT_EQ(RatingsMetrics::Get().leaderboard_writes_refused(), refused + 1);
  EXPECT_EQ(Shown(reader, "open"), InPostgres("open"));  // its rebuild is refused too
  EXPECT_GE(RatingsMetrics::Get().leaderboard_reads_from_postgres(), from_pg + 1);
  v1::GetPlayerRatingRequest who;
  who.set_ladder("open");
  who.set_identity_id(p[3]);
  v1::PlayerRating rating;
  ASSERT_TRUE(reader.GetPlayerRating(who, &rating).ok());
  EXPECT_EQ(rating.games(), 1u);
  EXPECT_GT(rating.rank(), 0u);
  EXPECT_EQ(Shown(*ratings_, "open"), InPostgres("open"));  // the writer rebuilds it
  const uint64_t served = RatingsMetrics::Get().leaderboard_reads_from_postgres();
  EXPECT_EQ(Shown(reader, "open"), InPostgres("open"));
  EXPECT_EQ(RatingsMetrics::Get().leaderboard_reads_from_postgres(), served);  // from Redis again
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
    ASSERT_TRUE(cache_->Page(board, offset, 3, &redis, &redis_total, &version));
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
    ASSERT_TRUE(cache_->Around(board, id, 4, &redis, &redis_total, &redis_found, &version));
    ASSERT_TRUE(store_->Around(board, id, 4, &pg, &pg_total, &pg_found).ok());
    EXPECT_EQ(pg_found, redis_found);
    ASSERT_EQ(pg.size(), redis.size());
    for (size_t i = 0; i < pg.size(); ++i) EXPECT_EQ(pg[i].identity_id, redis[i].identity_id);
    RankedEntry in_redis, in_pg;
    ASSERT_TRUE(cache_->Lookup(board, id, &in_redis, &redis_total, &redis_found, &version));
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
  Ratings replica(store_.get(), &cache, &replays_, &accounts_);
  v1::GetLeaderboardRequest request;
  request.set_ladder("open");
  v1::Leaderboard board;
  const grpc::Status s = replica.GetLeaderboard(request, &board);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(s.error_message().find("AUTH as 'nobody-" + prefix_ + "' refused"), std::string::npos) << s.error_message();
}

}  // namespace
}  // namespace metropolis::ratings
