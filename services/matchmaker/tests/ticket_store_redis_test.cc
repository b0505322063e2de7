// The ticket store against the real Redis the test command starts (label
// integration): what only its scripts show. The contract the fake keeps too (one
// active ticket per identity, heartbeats and expiry, atomic claims:
// tests/ticket_store_contract.h), a failed script, claims' freshness on Redis's
// clock, the queue's cache, a connection dropped mid-round, and — the invariant
// replicas rely on — no ticket ever lands in two games, with four matchmakers
// racing. The rounds' logic runs over the fake in matchmaker_test.cc.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "lib/storage/tests/test_redis.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tests/fake_creator.h"
#include "services/matchmaker/tests/ticket_store_contract.h"
#include "services/matchmaker/tests/ticket_store_fixture.h"
#include "services/matchmaker/waiters.h"

namespace metropolis::matchmaker {
namespace {

using testing::FakeCreator;
using testing::Unhurried;

class TicketsTest : public testing::TicketStoreTest {
 protected:
  std::string Create(int64_t identity, double rating, int64_t now) {
    return testing::Queue(*tickets_, identity, rating, now);
  }
  std::vector<std::string> FourQueued() { return testing::FourQueued(*tickets_); }
  bool Polled(const std::string& id, int64_t now, TicketInfo* out) { return testing::Polled(*tickets_, id, now, out); }
  int64_t QueueSize() { return testing::QueueSize(*tickets_, "open"); }
  // On Redis's clock, as in production: Now() asks it too.
  std::unique_ptr<TicketStore> UnreachableTickets() {
    if (!dead_redis_) dead_redis_ = std::make_unique<storage::RedisPool>("127.0.0.1:1", 1, 200);
    return std::make_unique<RedisTicketStore>(dead_redis_.get(), prefix_, TicketClock::kRedis);
  }

  std::unique_ptr<storage::RedisPool> dead_redis_;
};

// The contract the fake keeps too (tests/ticket_store_contract.h): one active
// ticket per identity, heartbeats and expiry, a claim of all of a table or
// nothing, here as Redis's scripts keep it; and UNAVAILABLE from every call to
// a Redis that cannot be reached.
INSTANTIATE_TYPED_TEST_SUITE_P(Redis, TicketStoreContract, TicketsTest);

// A script Redis could run but that failed (here: its queue is not a sorted
// set) is the store's bug, not an outage: retrying gets the same answer, so it
// must not surface as the retryable UNAVAILABLE that a lost connection gives.
TEST_F(TicketsTest, AFailedScriptIsAnInternalErrorNotAnOutage) {
  redis_->With([&](storage::RedisConnection& c) { c.Run({"SET", prefix_ + ":{mm}:queue:open", "not a queue"}); });
  std::string id, existing;
  bool created = true;
  const grpc::Status s = tickets_->Create("open", 7, "p7", 25, 1000, &id, &existing, &created);
  EXPECT_FALSE(created) << "a failed script was taken for a ticket";
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INTERNAL) << s.error_message();
  EXPECT_TRUE(s.error_message().starts_with("ticket store failed: ")) << s.error_message();
  EXPECT_NE(s.error_message().find("WRONGTYPE"), std::string::npos) << s.error_message();
  // What a lost connection gives, for contrast (every call of the contract's
  // unreachable store).
  int64_t now = 0;
  EXPECT_EQ(UnreachableTickets()->Now(&now).error_code(), grpc::StatusCode::UNAVAILABLE);
}

// PollMany is Poll for many tickets in one pipeline (three scripts here): each
// ticket's fields and place, its heartbeat written, nothing for an unknown id.
TEST_F(TicketsTest, PollManyReadsEveryTicketAndRecordsItsHeartbeat) {
  std::vector<std::string> ids;
  for (int i = 1; i <= 600; ++i) ids.push_back(Create(i, 25, 1000 + i));
  ids.insert(ids.begin() + 300, "no-such-ticket");
  std::vector<TicketInfo> read;
  ASSERT_TRUE(tickets_->PollMany(ids, 9000, &read).ok());
  ASSERT_EQ(read.size(), 601u);
  EXPECT_TRUE(read[300].id.empty());
  for (size_t i = 0; i < read.size(); ++i) {
    if (i == 300) continue;
    const int64_t n = int64_t(i < 300 ? i : i - 1);  // place in the queue
    ASSERT_EQ(read[i].id, ids[i]);
    EXPECT_EQ(read[i].state, "queued");
    EXPECT_EQ(read[i].identity_id, n + 1);
    EXPECT_EQ(read[i].position, n);
    EXPECT_EQ(read[i].queue_size, 600);
    EXPECT_EQ(read[i].enqueued_ms, 1001 + n);
    EXPECT_EQ(read[i].seen_ms, 9000) << "the read is the ticket's heartbeat";
  }
  // What Poll reads of the same ticket.
  TicketInfo one;
  ASSERT_TRUE(Polled(ids[42], 9001, &one));
  EXPECT_EQ(one.name, read[42].name);
  EXPECT_EQ(one.rating, read[42].rating);
  EXPECT_EQ(one.position, read[42].position);
}

// A seat assigned by one replica is heard at once by the streams waiting on
// another (waiters.h over Redis: the assignment's stream of notices), not at
// their next beat, which here is an hour away. Negative control: with
// WaitersOptions::wake off this test fails at its limit.
TEST_F(TicketsTest, AnotherReplicasWaitingStreamHearsItsSeatAtOnce) {
  storage::RedisPool other_pool(address_, 4);
  RedisTicketStore other(&other_pool, prefix_, TicketClock::kCaller);
  const std::vector<std::string> ids = FourQueued();
  TicketWaiters waiters(&other, {.beat_ms = 3'600'000});
  const auto watch = waiters.Add(ids[1]);
  TicketReading r;
  ASSERT_TRUE(watch->Next(std::chrono::seconds(10), &r));
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.info.state, "queued");
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, Unhurried());
  // A notice written before the waiters listen would be missed (only the beat
  // would tell): the round waits for them.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!waiters.listening() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(waiters.listening());
  ASSERT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
  bool heard = false;
  while (!heard && std::chrono::steady_clock::now() < until)
    heard = watch->Next(std::chrono::milliseconds(100), &r) && r.info.state == "assigned";
  ASSERT_TRUE(heard) << "state " << r.info.state;
  ASSERT_EQ(creator.games.size(), 1u);
  EXPECT_EQ(r.info.game_id, creator.games[0].game_id());
  // The notices, read from the start of the stream: the table's four tickets.
  std::string cursor = "0-0";
  std::vector<std::string> assigned;
  ASSERT_TRUE(other.AwaitAssigned(10, &cursor, &assigned).ok());
  EXPECT_EQ(std::set<std::string>(assigned.begin(), assigned.end()), std::set<std::string>(ids.begin(), ids.end()));
  EXPECT_NE(cursor, "0-0");
  ASSERT_TRUE(other.AwaitAssigned(10, &cursor, &assigned).ok());
  EXPECT_TRUE(assigned.empty()) << "read once";
}

// A damaged ticket fails the script that reads it with 255 others: each is then
// read alone, and only the damaged one's stream hears the error.
TEST_F(TicketsTest, ADamagedTicketEndsOnlyItsOwnWait) {
  std::vector<std::string> ids;
  for (int i = 1; i <= 300; ++i) ids.push_back(Create(i, 25, 1000 + i));
  redis_->With([&](storage::RedisConnection& c) { c.Run({"SET", prefix_ + ":{mm}:t:" + ids[7], "damaged"}); });
  TicketWaiters waiters(tickets_.get(), {.beat_ms = 3'600'000, .wake = false});
  std::vector<std::unique_ptr<TicketWaiters::Watch>> watches;
  for (const std::string& id : ids) watches.push_back(waiters.Add(id));
  for (size_t i = 0; i < ids.size(); ++i) {
    TicketReading r;
    ASSERT_TRUE(watches[i]->Next(std::chrono::seconds(10), &r)) << i;
    if (i == 7) {
      EXPECT_EQ(r.status.error_code(), grpc::StatusCode::INTERNAL) << r.status.error_message();
      continue;
    }
    ASSERT_TRUE(r.status.ok()) << i << ": " << r.status.error_message();
    ASSERT_TRUE(r.found) << i;
    EXPECT_EQ(r.info.state, "queued");
  }
}

// Queue reads a ticket's fields once; later reads follow the queue itself.
TEST_F(TicketsTest, TheQueueIsReadAgainAfterEveryChange) {
  const std::string a = Create(1, 21, 100), b = Create(2, 22, 200);
  std::vector<Ticket> queue;
  ASSERT_TRUE(tickets_->Queue("open", &queue).ok());
  ASSERT_EQ(queue.size(), 2u);
  std::string state;
  bool cancelled = false, claimed = false;
  int released = 0;
  ASSERT_TRUE(tickets_->Cancel(a, &state, &cancelled).ok() && cancelled);
  const std::string c = Create(3, 23, 300);
  ASSERT_TRUE(tickets_->Queue("open", &queue).ok());
  ASSERT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue[0].id, b);
  EXPECT_EQ(queue[0].identity_id, 2);
  EXPECT_EQ(queue[0].rating, 22);
  EXPECT_EQ(queue[0].enqueued_ms, 200);
  EXPECT_EQ(queue[0].name, "p2");
  EXPECT_EQ(queue[1].id, c);
  EXPECT_EQ(queue[1].rating, 23);
  ASSERT_TRUE(tickets_->Claim("open", {{b}, 3}, "t1", 400, 0, &claimed).ok() && claimed);
  ASSERT_TRUE(tickets_->Queue("open", &queue).ok());
  ASSERT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue[0].id, c);
  ASSERT_TRUE(tickets_->Release("open", "t1", {b}, &released).ok());
  EXPECT_EQ(released, 1);
  ASSERT_TRUE(tickets_->Queue("open", &queue).ok());
  ASSERT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue[0].id, b);  // first again: its waiting time is kept
  EXPECT_EQ(queue[0].enqueued_ms, 200);
}

// Redis lost between creating a game and handing out its seats (a restart): the
// matchmaker retries the assignment, so the tickets go to the game created for
// them and not back to the queue and into a second game, which the fallback bot
// would play under their names.
TEST_F(TicketsTest, AGameCreatedIsAssignedWhenRedisDropsTheConnection) {
  // One connection, so that the one the round uses is the one cut.
  storage::RedisPool pool(address_, 1);
  RedisTicketStore tickets(&pool, prefix_, TicketClock::kCaller);
  std::string connection_id;
  pool.With([&](storage::RedisConnection& c) { connection_id = std::to_string(c.Run({"CLIENT", "ID"}).integer); });
  class CuttingCreator final : public GameCreator {
   public:
    CuttingCreator(FakeCreator* inner, std::string address, std::string id)
        : inner_(inner), address_(std::move(address)), id_(std::move(id)) {}
    grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                        v1::CreateGameResponse* response) override {
      storage::RedisConnection(address_, 2000).Run({"CLIENT", "KILL", "ID", id_});
      return inner_->Create(host, request, response);
    }

   private:
    FakeCreator* inner_;
    std::string address_, id_;
  };
  FakeCreator games;
  CuttingCreator creator(&games, address_, connection_id);
  Matchmaker matchmaker(&tickets, &creator, Unhurried());
  const std::vector<std::string> ids = testing::FourQueued(tickets);
  const RoundStats stats = matchmaker.RunRound({ladder_}, 2000);
  EXPECT_EQ(stats.placed, 1);
  ASSERT_EQ(games.games.size(), 1u);
  for (const std::string& id : ids) {
    TicketInfo info;
    ASSERT_TRUE(testing::Polled(tickets, id, 2001, &info));
    EXPECT_EQ(info.state, "assigned");
    EXPECT_EQ(info.game_id, games.games[0].game_id());
  }
  // Long after the claim's timeout, nothing goes back to the queue.
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000 + 60'000).released, 0);
  EXPECT_EQ(games.games.size(), 1u);
}

// The freshness a claim checks is on Redis's clock (TIME inside the script): a
// ticket a lost write put back in the queue has no recent heartbeat by it, and
// is not claimed; its next heartbeat makes it claimable again. (The round's use
// of it is in matchmaker_test.cc.)
TEST_F(TicketsTest, AClaimRefusesATicketWithoutARecentHeartbeatOnRedissClock) {
  const std::vector<std::string> ids = FourQueued();
  redis_->With([&](storage::RedisConnection& c) {
    const storage::RedisReply t = c.Run({"TIME"});
    const int64_t now = std::stoll(t.elements[0].str) * 1000 + std::stoll(t.elements[1].str) / 1000;
    c.Run({"HSET", prefix_ + ":{mm}:t:" + ids[2], "beat", std::to_string(now - 30'000)});
  });
  bool claimed = true, stale = false;
  ASSERT_TRUE(tickets_->Claim("open", {ids, 0}, "t1", 2000, 10'000, &claimed, &stale).ok());
  EXPECT_FALSE(claimed);
  EXPECT_TRUE(stale);
  EXPECT_EQ(QueueSize(), 4);  // nothing moved
  // Its client polls again (it was only slow): the table is claimed.
  TicketInfo info;
  ASSERT_TRUE(Polled(ids[2], 2100, &info));
  ASSERT_TRUE(tickets_->Claim("open", {ids, 0}, "t2", 2200, 10'000, &claimed, &stale).ok());
  EXPECT_TRUE(claimed);
  EXPECT_FALSE(stale);
}

// The replicas' invariant: four matchmakers run rounds at once while players
// keep arriving; every player ends in exactly one game, none in two.
TEST_F(TicketsTest, RacingReplicasNeverSeatATicketTwice) {
  FakeCreator creator;
  constexpr int kPlayers = 400;
  std::atomic<int64_t> clock{1000};
  ASSERT_TRUE(tickets_->HostHeartbeat({"h1:1", 1'000'000, 0, 1000}).ok());
  std::atomic<bool> done{false};
  std::vector<std::thread> replicas;
  std::atomic<int> lost_races{0};
  for (int r = 0; r < 4; ++r) {
    replicas.emplace_back([&] {
      storage::RedisPool pool(address_, 2);
      RedisTicketStore store(&pool, prefix_, TicketClock::kCaller);
      Matchmaker m(&store, &creator,
                   {.ticket_ttl_ms = 3600000,
                    .host_ttl_ms = 3600000,
                    .matched_timeout_ms = 30000,
                    .bot = "heuristic",
                    .claim_fresh_ms = 0});
      LadderConfig ladder = ladder_;
      ladder.rules.window_base = 100;  // everyone matches everyone: maximal contention
      while (!done) lost_races += m.RunRound({ladder}, clock.load()).lost_races;
    });
  }
  for (int i = 0; i < kPlayers; ++i) Create(i + 1, 20 + i % 10, clock.fetch_add(1));
  // Let the replicas drain the queue.
  for (int wait = 0; wait < 500 && QueueSize() > 0; ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  done = true;
  for (auto& t : replicas) t.join();
  std::map<int64_t, int> games_of;
  for (const auto& g : creator.games)
    for (const auto& s : g.seats())
      if (!s.built_in()) ++games_of[s.identity_id()];
  EXPECT_EQ(games_of.size(), size_t(kPlayers));
  for (const auto& [identity, games] : games_of) EXPECT_EQ(games, 1) << "identity " << identity;
  EXPECT_EQ(creator.games.size(), size_t(kPlayers / 4));
  EXPECT_EQ(QueueSize(), 0);
  std::cout << "replicas lost " << lost_races.load() << " claims to each other\n";
}

}  // namespace
}  // namespace metropolis::matchmaker
