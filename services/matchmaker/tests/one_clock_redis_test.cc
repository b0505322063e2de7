// Matchmaker replicas whose clocks disagree (label integration, the real Redis
// the test command starts). Tickets' heartbeats, hosts' heartbeats and claims are
// written by one replica and judged by another; on Redis's clock (TIME, inside
// the scripts) a replica a minute ahead of another still agrees with it on which
// tickets and hosts are alive and which claims are stuck. The negative control
// runs the same scenario on the replicas' own clocks and shows each judgement
// go wrong. And a table whose claim lapsed is never handed out: its tickets may
// be at another table by then.
#include <gtest/gtest.h>

#include <chrono>

#include "lib/storage/tests/test_redis.h"
#include "services/matchmaker/redis_ticket_store.h"

namespace metropolis::matchmaker {
namespace {

int64_t SystemMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class OneClockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    redis_ = std::make_unique<storage::RedisPool>(address_, 4);
  }
  void TearDown() override {
    if (!address_.empty()) storage::testing::DeleteKeys(address_, prefix_);
  }

  struct Judgements {
    int expired = -1;     // live tickets the replica ahead expired
    bool picked = false;  // whether the replica ahead still sees the live host
    int released = -1;    // fresh claims the replica ahead released as stuck
  };

  // Replica A's clock is 30 s behind, B's 30 s ahead. A hears a host and a
  // ticket's heartbeat and claims a table; B judges them at once.
  Judgements Scenario(TicketClock clock) {
    RedisTicketStore a(redis_.get(), prefix_, clock), b(redis_.get(), prefix_, clock);
    const int64_t skew = 30'000;
    const auto a_now = [&] { return SystemMs() - skew; };
    const auto b_now = [&] { return SystemMs() + skew; };
    EXPECT_TRUE(a.HostHeartbeat({"h1:1", 10, 0, a_now()}).ok());
    std::string live, claimed, existing;
    bool done = false;
    EXPECT_TRUE(a.Create("open", 1, "p1", 25, a_now(), &live, &existing, &done).ok() && done);
    EXPECT_TRUE(a.Create("open", 2, "p2", 25, a_now(), &claimed, &existing, &done).ok() && done);
    TicketInfo info;
    EXPECT_TRUE(a.Poll(live, a_now(), &info, &done).ok() && done);
    EXPECT_TRUE(a.Claim("open", {{claimed}, 3}, "table-a", a_now(), 0, &done).ok() && done);

    Judgements out;
    std::string host;
    EXPECT_TRUE(b.ExpireStale("open", b_now(), 10'000, &out.expired).ok());    // the matchmaker's ticket_ttl_ms
    EXPECT_TRUE(b.PickHost(b_now(), 15'000, 1, &host, &out.picked).ok());      // host_ttl_ms
    EXPECT_TRUE(b.ReleaseStuck("open", b_now(), 30'000, &out.released).ok());  // matched_timeout_ms
    return out;
  }

  std::string address_, prefix_;
  std::unique_ptr<storage::RedisPool> redis_;
};

TEST_F(OneClockTest, ReplicasAMinuteApartAgreeOnWhatIsAliveAndWhatIsStuck) {
  const Judgements j = Scenario(TicketClock::kRedis);
  EXPECT_EQ(j.expired, 0) << "a replica ahead expired a ticket whose client is waiting";
  EXPECT_TRUE(j.picked) << "a replica ahead gave up on a host that just announced itself";
  EXPECT_EQ(j.released, 0) << "a replica ahead released a table another replica is placing";
}

// The negative control: on each replica's own clock, every judgement is wrong.
TEST_F(OneClockTest, NegativeControlOnTheReplicasOwnClocksEveryJudgementIsWrong) {
  const Judgements j = Scenario(TicketClock::kCaller);
  EXPECT_EQ(j.expired, 1);
  EXPECT_FALSE(j.picked);
  EXPECT_EQ(j.released, 1);
}

// Now() is Redis's clock, whatever this process's says: it matches TIME.
TEST_F(OneClockTest, NowIsRedisTime) {
  RedisTicketStore store(redis_.get(), prefix_, TicketClock::kRedis);
  int64_t redis_ms = 0;
  redis_->With([&](storage::RedisConnection& c) {
    const auto t = c.Run({"TIME"});
    redis_ms = std::stoll(t.elements[0].str) * 1000 + std::stoll(t.elements[1].str) / 1000;
  });
  int64_t now = 0;
  ASSERT_TRUE(store.Now(&now).ok());
  EXPECT_NEAR(double(now), double(redis_ms), 1000.0);
}

// A replica paused past matched_timeout_ms (or a claim Redis lost) comes back to
// a table whose tickets were released and claimed for another table meanwhile:
// its game was created, but handing its seats out would seat those players twice.
TEST_F(OneClockTest, AnAssignmentForALapsedClaimIsNotHandedOut) {
  RedisTicketStore tickets(redis_.get(), prefix_, TicketClock::kCaller);
  std::string id, existing;
  bool done = false;
  int count = 0;
  ASSERT_TRUE(tickets.Create("open", 1, "p1", 25, 1000, &id, &existing, &done).ok() && done);
  ASSERT_TRUE(tickets.Claim("open", {{id}, 3}, "slow-table", 1000, 0, &done).ok() && done);
  ASSERT_TRUE(tickets.ReleaseStuck("open", 100'000, 30'000, &count).ok());
  ASSERT_EQ(count, 1);  // the slow replica's claim lapsed
  ASSERT_TRUE(tickets.Claim("open", {{id}, 3}, "next-table", 100'000, 0, &done).ok() && done);

  const Seating slow{id, 1, {"game-slow", "h1:1", "token-slow", 0, "commitment-slow"}};
  ASSERT_TRUE(tickets.Assign("open", "slow-table", {slow}, &count).ok());
  EXPECT_EQ(count, 0);
  ASSERT_TRUE(tickets.Release("open", "slow-table", {id}, &count).ok());
  EXPECT_EQ(count, 0) << "the other table's claim was released";
  TicketInfo info;
  ASSERT_TRUE(tickets.Poll(id, 100'001, &info, &done).ok() && done);
  EXPECT_EQ(info.state, "matched");
  EXPECT_TRUE(info.game_id.empty()) << "the lapsed table's seat was handed out: " << info.game_id;

  const Seating next{id, 1, {"game-next", "h1:1", "token-next", 2, std::string(32, '\xc7')}};
  ASSERT_TRUE(tickets.Assign("open", "next-table", {next}, &count).ok());
  EXPECT_EQ(count, 1);
  ASSERT_TRUE(tickets.Poll(id, 100'002, &info, &done).ok() && done);
  EXPECT_EQ(info.state, "assigned");
  EXPECT_EQ(info.game_id, "game-next");
  EXPECT_EQ(info.seat, 2);
  EXPECT_EQ(info.chance_commitment, std::string(32, '\xc7')) << "the game's commitment goes out with the seat";
}

}  // namespace
}  // namespace metropolis::matchmaker
