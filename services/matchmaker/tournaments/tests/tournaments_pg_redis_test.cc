// The tournaments' stores against the real PostgreSQL and Redis the test command
// starts (label integration): what only they show. The fence that keeps a stale
// scheduler off and the check that only a game's current attempt counts (with
// their negative controls, "tournament_fence" and "current_attempt"), the lease's
// one holder on Redis's clock, and the store's contract for creating tournaments
// and the reveals due, which the fake (tests/fake_tournament_store.h) keeps too.
// The scheduler's and the service's own tests run over the fakes in
// tournaments_test.cc.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"
#include "lib/storage/tests/test_database.h"
#include "lib/storage/tests/test_redis.h"
#include "services/matchmaker/redis_ticket_store.h"
#include "services/matchmaker/tournaments/pg_tournament_store.h"
#include "services/matchmaker/tournaments/redis_roster_store.h"
#include "services/matchmaker/tournaments/runner.h"
#include "services/matchmaker/tournaments/tests/fake_peers.h"

namespace metropolis::matchmaker {
namespace {

using testing::FakeEntrants;
using testing::FakeHost;
using testing::FakeReplays;

class TournamentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    std::string error;
    ASSERT_TRUE(storage::testing::MigrateAll(db_.conninfo(), METROPOLIS_MIGRATIONS_DIR, &error)) << error;
    redis_address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(redis_address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    pool_ = std::make_unique<storage::PgPool>(db_.conninfo(), 4);
    redis_ = std::make_unique<storage::RedisPool>(redis_address_, 4);
    store_ = std::make_unique<PgTournamentStore>(pool_.get());
    int64_t fence = 0;  // the tests' runners lead the scheduling
    ASSERT_TRUE(store_->TakeFence(&fence).ok());
    roster_ = std::make_unique<RedisRosterStore>(redis_.get(), prefix_);
    hosts_ = std::make_unique<RedisTicketStore>(redis_.get(), prefix_, TicketClock::kCaller);
    hosts_->HostHeartbeat({"hostA:1", 1000, 0, kNow});
    // Entrants are identities by number (the store does not check them).
    for (int i = 0; i < 8; ++i) {
      identities_.push_back(101 + i);
      entrants_.names[101 + i] = "bot" + std::to_string(i);
    }
  }
  void TearDown() override {
    if (!redis_address_.empty()) storage::testing::DeleteKeys(redis_address_, prefix_);
  }

  TournamentSpec Spec(const std::string& id, TournamentFormat format, int entrants, int rounds = 1) {
    TournamentSpec spec;
    spec.id = id;
    spec.format = format;
    spec.rounds = rounds;
    spec.seed = 77;
    spec.entrants.assign(identities_.begin(), identities_.begin() + entrants);
    return spec;
  }
  void CreateTournament(const TournamentSpec& spec) {
    const auto games = InitialSchedule(spec.format, int(spec.entrants.size()), spec.seats, spec.rounds, spec.seed);
    const grpc::Status s = store_->Create(spec, games);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  void Available(const std::vector<int64_t>& who, int capacity = 4) {
    for (int64_t id : who) roster_->Heartbeat(id, "c", capacity, kNow + 3'600'000);
  }
  std::vector<TournamentGameRow> Games(const std::string& id) {
    std::vector<TournamentGameRow> games;
    EXPECT_TRUE(store_->Games(id, &games).ok());
    return games;
  }

  static constexpr int64_t kNow = 1'000'000;
  storage::testing::TestDatabase db_;
  std::string redis_address_, prefix_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<storage::RedisPool> redis_;
  std::unique_ptr<PgTournamentStore> store_;
  std::unique_ptr<RedisRosterStore> roster_;
  std::unique_ptr<RedisTicketStore> hosts_;
  std::vector<int64_t> identities_;
  FakeHost host_;
  FakeReplays replays_;
  FakeEntrants entrants_;
};

// The store's contract the fake keeps too (tests/fake_tournament_store.h): a
// taken id is refused, games come back by number, pending; a tournament that is
// not duplicate is due whole at once, a duplicate set once all its games finished,
// named by its counted attempts; what was marked revealed is not due again.
TEST_F(TournamentsTest, CreatedTournamentsAndTheirDueReveals) {
  const TournamentSpec dup = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(dup);
  CreateTournament(Spec("rr", TournamentFormat::kRoundRobin, 4));
  EXPECT_EQ(store_->Create(dup, {}).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  auto games = Games("dup");
  ASSERT_EQ(games.size(), 4u);
  for (int n = 0; n < 4; ++n) {
    EXPECT_EQ(games[size_t(n)].number, n);
    EXPECT_EQ(games[size_t(n)].state, "pending");
    EXPECT_EQ(games[size_t(n)].attempts, 0);
  }
  std::vector<std::string> running;
  ASSERT_TRUE(store_->Running(&running).ok());
  EXPECT_EQ(running, (std::vector<std::string>{"dup", "rr"}));
  std::vector<TournamentRow> listed;
  ASSERT_TRUE(store_->List(&listed).ok());
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].spec.id, "rr") << "newest first";
  EXPECT_EQ(listed[1].spec.entrants, dup.entrants);

  std::vector<DueReveal> due;
  ASSERT_TRUE(store_->DueReveals(10, &due).ok());
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].tournament, "rr");
  EXPECT_TRUE(due[0].whole);
  ASSERT_TRUE(store_->MarkRevealed(due[0]).ok());
  // Every rotation played; rotation 2 lost once and played again.
  std::vector<std::string> counted;
  for (int n = 0; n < 4; ++n) {
    std::string id;
    bool ok = false;
    ASSERT_TRUE(store_->Claim("dup", n, "hostA:1", &id, &ok).ok() && ok);
    if (n == 2) {
      ASSERT_TRUE(store_->Requeue("dup", n, id).ok());
      ASSERT_TRUE(store_->Claim("dup", n, "hostA:1", &id, &ok).ok() && ok);
    }
    ASSERT_TRUE(store_->MarkPlaying("dup", n, id, &ok).ok() && ok);
    counted.push_back(id);
    if (n == 3) {
      ASSERT_TRUE(store_->DueReveals(10, &due).ok());
      EXPECT_TRUE(due.empty()) << "a set due before its last game finished";
    }
    ASSERT_TRUE(store_->Finish("dup", n, id, {1, 2, 3, 4}, &ok).ok() && ok);
  }
  EXPECT_EQ(counted[2], "t-dup-2-2");
  ASSERT_TRUE(store_->DueReveals(10, &due).ok());
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].tournament, "dup");
  EXPECT_FALSE(due[0].whole);
  EXPECT_EQ(due[0].set, 0);
  EXPECT_EQ(due[0].game_ids, counted);
  ASSERT_TRUE(store_->MarkRevealed(due[0]).ok());
  ASSERT_TRUE(store_->DueReveals(10, &due).ok());
  EXPECT_TRUE(due.empty());
}

// Item 4 of project issue #14: a game played again and its first attempt never
// both count. The first attempt, judged lost, may in fact still run and be stored
// later, and a scheduler whose snapshot predates the requeue still names it: its
// result is refused, the replay's counts. Without the check of the current attempt
// (the negative control "current_attempt") the first attempt's result is counted
// for the game, and the replay's, stored after, is lost.
TEST_F(TournamentsTest, AReplayedGameAndItsFirstAttemptNeverBothCount) {
  const TournamentSpec spec = Spec("replayed", TournamentFormat::kRoundRobin, 4);
  CreateTournament(spec);
  std::string first, second;
  bool ok = false;
  ASSERT_TRUE(store_->Claim("replayed", 0, "hostA:1", &first, &ok).ok() && ok);
  ASSERT_TRUE(store_->MarkPlaying("replayed", 0, first, &ok).ok() && ok);
  ASSERT_TRUE(store_->Requeue("replayed", 0, first).ok());  // judged lost with its host
  ASSERT_TRUE(store_->Claim("replayed", 0, "hostA:1", &second, &ok).ok() && ok);
  ASSERT_TRUE(store_->MarkPlaying("replayed", 0, second, &ok).ok() && ok);
  ASSERT_NE(first, second);

  // The first attempt ends after all, and its result is reported.
  bool finished = true;
  ASSERT_TRUE(store_->Finish("replayed", 0, first, {4, 3, 2, 1}, &finished).ok());
  EXPECT_FALSE(finished) << "the first attempt of a game played again counted";
  EXPECT_EQ(Games("replayed")[0].state, "playing");
  EXPECT_EQ(Games("replayed")[0].game_id, second);

  // The runner asks only for the current attempt: both stored, the replay counts.
  Available(spec.entrants);
  TournamentRunner runner(store_.get(), &replays_, &entrants_, roster_.get(), hosts_.get(), &host_, {});
  {
    std::lock_guard lock(replays_.mutex);
    replays_.stored[first] = {.game_id = first, .winner = 3, .vp = {7, 8, 9, 10}, .forfeited = {}};
    replays_.stored[second] = {.game_id = second, .winner = 0, .vp = {10, 9, 8, 7}, .forfeited = {}};
  }
  EXPECT_EQ(runner.Pass(kNow).finished, 1);
  const auto games = Games("replayed");
  EXPECT_EQ(games[0].state, "finished");
  EXPECT_EQ(games[0].game_id, second);
  EXPECT_EQ(games[0].places, (std::vector<int>{1, 2, 3, 4})) << "not the replay's result";
  ASSERT_TRUE(store_->Finish("replayed", 0, first, {4, 3, 2, 1}, &finished).ok());
  EXPECT_FALSE(finished);
  EXPECT_EQ(Games("replayed")[0].places, (std::vector<int>{1, 2, 3, 4}));
}

TEST_F(TournamentsTest, LeaseHasOneHolderAtATime) {
  EXPECT_TRUE(roster_->Lead("a", 300));
  EXPECT_FALSE(roster_->Lead("b", 300));
  EXPECT_TRUE(roster_->Lead("a", 300));  // renewed
  // Once a's lease lapses (the database's clock decides when), b takes it; a wait
  // on that condition, bounded, not a guess at the time it takes.
  bool b_leads = false;
  for (int i = 0; i < 300 && !b_leads; ++i) {
    b_leads = roster_->Lead("b", 300);
    if (!b_leads) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(b_leads);
  EXPECT_FALSE(roster_->Lead("a", 300));
}

// A scheduler paused past its lease wakes up still believing it leads, while a
// newer leader has taken over: its changes are refused by the fence and change
// nothing; the newer leader's go through. Without the fence (the negative control
// "tournament_fence") the stale leader requeues the game the new one is playing.
TEST_F(TournamentsTest, AStaleSchedulerIsFencedOff) {
  const TournamentSpec spec = Spec("fenced", TournamentFormat::kRoundRobin, 4);
  CreateTournament(spec);
  PgTournamentStore old_leader(pool_.get()), new_leader(pool_.get());
  int64_t old_fence = 0, new_fence = 0;
  ASSERT_TRUE(old_leader.TakeFence(&old_fence).ok());
  std::string game_id;
  bool claimed = false;
  ASSERT_TRUE(old_leader.Claim("fenced", 0, "hostA:1", &game_id, &claimed).ok());
  ASSERT_TRUE(claimed);
  // The old leader stalls; the new one takes the lease, a newer fence, and goes on.
  ASSERT_TRUE(new_leader.TakeFence(&new_fence).ok());
  EXPECT_GT(new_fence, old_fence);
  bool marked = false;
  ASSERT_TRUE(new_leader.MarkPlaying("fenced", 0, game_id, &marked).ok());
  ASSERT_TRUE(marked);

  // The old leader wakes up and finds the game "lost": its requeue is refused.
  const grpc::Status requeued = old_leader.Requeue("fenced", 0, game_id);
  EXPECT_EQ(requeued.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << requeued.error_message();
  EXPECT_EQ(Games("fenced")[0].state, "playing");
  EXPECT_EQ(Games("fenced")[0].game_id, game_id);
  EXPECT_EQ(old_leader.fence(), 0) << "a fenced-off scheduler must take a new fence before it changes anything";
  bool finished = false;
  EXPECT_FALSE(old_leader.Finish("fenced", 0, game_id, {1, 2, 3, 4}, &finished).ok());
  EXPECT_FALSE(finished);
  EXPECT_EQ(Games("fenced")[0].state, "playing");

  ASSERT_TRUE(new_leader.Finish("fenced", 0, game_id, {1, 2, 3, 4}, &finished).ok());
  EXPECT_TRUE(finished);
  EXPECT_EQ(Games("fenced")[0].state, "finished");
}

// PostgreSQL's text form of an integer array, as the store reads places.
TEST_F(TournamentsTest, IntegerArraysAreReadAsPostgreSQLWritesThem) {
  EXPECT_EQ(storage::ParseIntArray("{10,-7,NULL,5}"), (std::vector<int>{10, -7, 5}));
}

}  // namespace
}  // namespace metropolis::matchmaker
