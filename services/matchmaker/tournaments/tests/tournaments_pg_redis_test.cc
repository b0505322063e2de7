// The tournaments' stores against the real PostgreSQL and Redis the test command
// starts (label integration): what only they show. The store's and the roster's
// contract (tests/tournament_store_contract.h), which the fakes keep too: the
// fence that keeps a stale scheduler off and the check that only a game's current
// attempt counts (with their negative controls, "tournament_fence" and
// "current_attempt"), creating tournaments and the reveals due, and the
// roster's inboxes per connection, handed on when one leaves or lapses; the
// lease's one holder on Redis's clock, and PostgreSQL's arrays. The scheduler's and the
// service's own tests run over the fakes in tournaments_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <pqxx/pqxx>
#include <thread>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"
#include "lib/storage/tests/test_database.h"
#include "lib/storage/tests/test_redis.h"
#include "services/matchmaker/redis_ticket_store.h"
#include "services/matchmaker/tournaments/pg_tournament_store.h"
#include "services/matchmaker/tournaments/redis_roster_store.h"
#include "services/matchmaker/tournaments/tests/fixture.h"
#include "services/matchmaker/tournaments/tests/tournament_store_contract.h"

namespace metropolis::matchmaker {
namespace {

class TournamentsTest : public testing::TournamentsFixture<PgTournamentStore, RedisRosterStore, RedisTicketStore> {
 protected:
  void SetUp() override {
    pool_ = storage::testing::MigratedPool(db_, METROPOLIS_MIGRATIONS_DIR, 4);
    ASSERT_NE(pool_, nullptr);
    redis_address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(redis_address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    redis_ = std::make_unique<storage::RedisPool>(redis_address_, 4);
    // The entrants are identities by number (the store does not check them).
    Use(std::make_unique<PgTournamentStore>(pool_.get()), std::make_unique<RedisRosterStore>(redis_.get(), prefix_),
        std::make_unique<RedisTicketStore>(redis_.get(), prefix_, TicketClock::kCaller));
  }
  void TearDown() override {
    TournamentsFixture::TearDown();
    if (!redis_address_.empty()) storage::testing::DeleteKeys(redis_address_, prefix_);
  }
  // Another scheduler (another replica) on the same database.
  std::unique_ptr<TournamentStore> NewScheduler() { return std::make_unique<PgTournamentStore>(pool_.get()); }
  // A roster on a Redis nobody listens at.
  std::unique_ptr<RosterStore> UnreachableRoster() {
    if (!dead_redis_) dead_redis_ = std::make_unique<storage::RedisPool>("127.0.0.1:1", 1, 200);
    return std::make_unique<RedisRosterStore>(dead_redis_.get(), prefix_);
  }

  int64_t DatabaseNowMs() {
    int64_t now = 0;
    EXPECT_TRUE(storage::RunPg(pool_.get(), "now", [&](pqxx::connection& c) {
                  pqxx::read_transaction tx(c);
                  now = tx.exec1("SELECT floor(extract(epoch FROM now()) * 1000)::bigint")[0].as<int64_t>();
                  return grpc::Status::OK;
                }).ok());
    return now;
  }
  // Waits, bounded, for the database's clock: the start is its to decide.
  void WaitUntilDatabaseTime(int64_t ms) {
    for (int i = 0; i < 500 && DatabaseNowMs() < ms; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_GE(DatabaseNowMs(), ms);
  }

  storage::testing::TestDatabase db_;
  std::string redis_address_, prefix_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<storage::RedisPool> redis_, dead_redis_;
};

INSTANTIATE_TYPED_TEST_SUITE_P(PostgreSQL, TournamentStoreContract, TournamentsTest);

TEST_F(TournamentsTest, LeaseHasOneHolderAtATime) {
  EXPECT_TRUE(Leads("a", 300));
  EXPECT_FALSE(Leads("b", 300));
  EXPECT_TRUE(Leads("a", 300));  // renewed
  // Once a's lease lapses (the database's clock decides when), b takes it; a wait
  // on that condition, bounded, not a guess at the time it takes.
  bool b_leads = false;
  for (int i = 0; i < 300 && !b_leads; ++i) {
    b_leads = Leads("b", 300);
    if (!b_leads) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(b_leads);
  EXPECT_FALSE(Leads("a", 300));
}

// The clock DueToStart reports and the tournaments it finds agree: once it
// says the start has come, the tournament is due in the same read. (A clock
// rounded to the nearest millisecond said so half a millisecond early; the
// contract's registration test failed on it under load.) Polled without pause
// so that a read lands in the last half millisecond before each start.
TEST_F(TournamentsTest, ClockAndDueTournamentsAgreeAtTheStart) {
  for (int i = 0; i < 5; ++i) {
    TournamentSpec spec = Spec("edge" + std::to_string(i), TournamentFormat::kRoundRobin, 1);
    spec.starts_ms = DatabaseNowMs() + 200;
    ASSERT_TRUE(store_->Create(spec, {}).ok());
    std::vector<std::string> due;
    int64_t now = 0;
    for (int reads = 0; reads < 100'000 && now < spec.starts_ms; ++reads)
      ASSERT_TRUE(store_->DueToStart(&due, &now).ok());
    ASSERT_GE(now, spec.starts_ms);
    EXPECT_NE(std::find(due.begin(), due.end(), spec.id), due.end()) << spec.id << " not due at " << now;
  }
}

// PostgreSQL's text form of an integer array, as the store reads places.
TEST_F(TournamentsTest, IntegerArraysAreReadAsPostgreSQLWritesThem) {
  EXPECT_EQ(storage::ParseIntArray("{10,-7,NULL,5}"), (std::vector<int>{10, -7, 5}));
}

}  // namespace
}  // namespace metropolis::matchmaker
