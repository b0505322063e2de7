// The matchmaker's rounds over an in-memory ticket store (tests/fake_ticket_store.h):
// no server needed. Tables placed on the host with room or put back in the queue,
// expiry, a created game's seats written through a store that is briefly away,
// seats resumed until delivered, stale tickets not seated, seats players hold
// given again, bots. The store's own contract (scripts, Redis's clock, racing
// replicas) is checked against Redis in ticket_store_redis_test.cc and
// one_clock_redis_test.cc; the contract's cases (tests/ticket_store_contract.h)
// run over the fake here too.
#include "services/matchmaker/matchmaker.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <set>

#include "services/matchmaker/tests/fake_creator.h"
#include "services/matchmaker/tests/fake_ticket_store.h"
#include "services/matchmaker/tests/ticket_store_contract.h"

namespace metropolis::matchmaker {
namespace {

using testing::FakeCreator;
using testing::FakeTicketStore;

// The fake's clock does not move unless a test moves it: every heartbeat is
// fresh, so the rounds run with the matchmaker's own options, heartbeat check
// and all (against Redis, tests whose rounds may come late turn it off).
class RoundTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ladder_.id = "open";
    ladder_.season = 1;
    ladder_.options = DefaultOptions(Ruleset::kCitiesAndKnights);
  }
  std::string Create(int64_t identity, double rating, int64_t now) {
    return testing::Queue(*tickets_, identity, rating, now);
  }
  std::vector<std::string> FourQueued() { return testing::FourQueued(*tickets_); }
  bool Polled(const std::string& id, int64_t now, TicketInfo* out) { return testing::Polled(*tickets_, id, now, out); }
  int64_t QueueSize() { return testing::QueueSize(*tickets_, "open"); }
  std::unique_ptr<TicketStore> UnreachableTickets() {
    auto tickets = std::make_unique<FakeTicketStore>();
    tickets->unavailable = true;
    return tickets;
  }

  std::unique_ptr<FakeTicketStore> tickets_ = std::make_unique<FakeTicketStore>();
  LadderConfig ladder_;
};

TEST_F(RoundTest, ARoundExpiresStaleTicketsAtMostEverySecond) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{.ticket_ttl_ms = 1000});
  Create(1, 25, 0);
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 500).expired, 0);
  Create(2, 40, 600);
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 1200).expired, 0);  // the last expiry was 700 ms ago
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 1500).expired, 1);
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2500).expired, 1);
  EXPECT_EQ(QueueSize(), 0);
}

TEST_F(RoundTest, ARoundPlacesTablesOnTheHostWithRoom) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  ASSERT_TRUE(tickets_->HostHeartbeat({"h1:1", 10, 9, 1000}).ok());
  ASSERT_TRUE(tickets_->HostHeartbeat({"h2:1", 10, 2, 1000}).ok());
  std::vector<std::string> ids;
  for (int i = 1; i <= 4; ++i) ids.push_back(Create(i, 25 + i * 0.1, 1000));
  const RoundStats stats = matchmaker.RunRound({ladder_}, 2000);
  EXPECT_EQ(stats.placed, 1);
  ASSERT_EQ(creator.games.size(), 1u);
  const v1::CreateGameRequest& game = creator.games[0];
  EXPECT_EQ(game.ladder(), "open");
  EXPECT_EQ(game.season(), 1u);
  ASSERT_EQ(game.seats_size(), 4);
  std::set<int64_t> identities;
  for (const auto& s : game.seats()) identities.insert(s.identity_id());
  EXPECT_EQ(identities, (std::set<int64_t>{1, 2, 3, 4}));
  for (const std::string& id : ids) {
    TicketInfo info;
    ASSERT_TRUE(Polled(id, 2001, &info));
    EXPECT_EQ(info.state, "assigned");
    EXPECT_EQ(info.host, "h2:1");  // the one with more room
    ASSERT_GE(info.seat, 0);
    EXPECT_EQ(game.seats(info.seat).identity_id(), info.identity_id);  // its own seat
    EXPECT_EQ(info.seat_token, "tok-" + game.game_id() + "-" + std::to_string(info.seat));
  }
  std::string active = "?";
  ASSERT_TRUE(tickets_->ActiveTicket(1, &active).ok());
  EXPECT_TRUE(active.empty());  // may queue again
}

// The round counts on the metrics it is given (a registry of the test's own).
TEST_F(RoundTest, ARoundCountsOnTheMetricsItWasGiven) {
  prometheus::Registry registry;
  MatchmakerMetrics metrics(&registry);
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{.metrics = &metrics});
  FourQueued();
  ASSERT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
  std::map<std::string, double> seen;  // family -> value of its one series (a histogram: its count)
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.metric.size() != 1) continue;
    const prometheus::ClientMetric& m = family.metric[0];
    seen[family.name] = family.type == prometheus::MetricType::Histogram ? double(m.histogram.sample_count)
                        : family.type == prometheus::MetricType::Gauge   ? m.gauge.value
                                                                         : m.counter.value;
  }
  EXPECT_EQ(seen["metropolis_matchmaker_tables_formed_total"], 1);
  EXPECT_EQ(seen["metropolis_matchmaker_time_to_match_seconds"], 4);  // one per player
  EXPECT_EQ(seen["metropolis_matchmaker_queue_depth"], 4);            // as the round found it
  EXPECT_EQ(seen["metropolis_matchmaker_hosts_known"], 1);
}

// Found by an outside client: a host that stopped announcing stayed listed for
// ever (to players as a failover host, to the gateway, which kept asking it).
TEST_F(RoundTest, AHostSilentForLongerThanTheForgetTimeLeavesTheRegistry) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{.host_forget_ms = 60'000});
  ASSERT_TRUE(tickets_->HostHeartbeat({"gone:1", 10, 0, 1000}).ok());
  ASSERT_TRUE(tickets_->HostHeartbeat({"here:1", 10, 0, 50'000}).ok());
  std::vector<HostInfo> hosts;
  ASSERT_TRUE(matchmaker.RunRound({ladder_}, 61'000).error.ok());
  ASSERT_TRUE(tickets_->Hosts(&hosts).ok());
  EXPECT_EQ(hosts.size(), 2u) << "gone:1 was silent for exactly the forget time";
  ASSERT_TRUE(matchmaker.RunRound({ladder_}, 62'000).error.ok());
  ASSERT_TRUE(tickets_->Hosts(&hosts).ok());
  ASSERT_EQ(hosts.size(), 1u);
  EXPECT_EQ(hosts[0].address, "here:1");
}

TEST_F(RoundTest, ATableThatCannotBePlacedWaitsInTheQueue) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  for (int i = 1; i <= 4; ++i) Create(i, 25, 1000);
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).failed, 1);  // no host
  EXPECT_EQ(QueueSize(), 4);
  ASSERT_TRUE(tickets_->HostHeartbeat({"h1:1", 10, 0, 2000}).ok());
  creator.fail = true;
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 3000).failed, 1);  // the host fails: no more games for it
  EXPECT_EQ(QueueSize(), 4);
  creator.fail = false;
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 4000).failed, 1);         // still marked down
  ASSERT_TRUE(tickets_->HostHeartbeat({"h1:1", 10, 0, 4000}).ok());  // until it says it is back
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 4001).placed, 1);
  EXPECT_EQ(QueueSize(), 0);
}

// The store briefly away between creating a game and handing out its seats (a
// Redis restart): the matchmaker retries the assignment, so the tickets go to the
// game created for them and not back to the queue and into a second game, which
// the fallback bot would play under their names. (Against Redis, with the
// connection cut: ticket_store_redis_test.cc.)
TEST_F(RoundTest, AGameCreatedIsAssignedWhenTheStoreIsBrieflyAway) {
  class AwayCreator final : public GameCreator {
   public:
    AwayCreator(FakeCreator* inner, FakeTicketStore* tickets) : inner_(inner), tickets_(tickets) {}
    grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                        v1::CreateGameResponse* response) override {
      tickets_->unavailable_calls = 2;
      return inner_->Create(host, request, response);
    }

   private:
    FakeCreator* inner_;
    FakeTicketStore* tickets_;
  };
  FakeCreator games;
  AwayCreator creator(&games, tickets_.get());
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  const std::vector<std::string> ids = FourQueued();
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
  ASSERT_EQ(games.games.size(), 1u);
  EXPECT_EQ(tickets_->unavailable_calls, 0);
  for (const std::string& id : ids) {
    TicketInfo info;
    ASSERT_TRUE(Polled(id, 2001, &info));
    EXPECT_EQ(info.state, "assigned");
    EXPECT_EQ(info.game_id, games.games[0].game_id());
  }
  // Long after the claim's timeout, nothing goes back to the queue.
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000 + 60'000).released, 0);
  EXPECT_EQ(games.games.size(), 1u);
}

// A script that failed gets the same answer again: the assignment is not
// retried, and the round stops with that answer, INTERNAL.
TEST_F(RoundTest, AFailedAssignmentScriptIsNotRetried) {
  class FailingCreator final : public GameCreator {
   public:
    FailingCreator(FakeCreator* inner, FakeTicketStore* tickets) : inner_(inner), tickets_(tickets) {}
    grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                        v1::CreateGameResponse* response) override {
      tickets_->fail_scripts = true;
      return inner_->Create(host, request, response);
    }

   private:
    FakeCreator* inner_;
    FakeTicketStore* tickets_;
  };
  FakeCreator games;
  FailingCreator creator(&games, tickets_.get());
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  FourQueued();
  const RoundStats stats = matchmaker.RunRound({ladder_}, 2000);
  EXPECT_EQ(stats.error.error_code(), grpc::StatusCode::INTERNAL) << stats.error.error_message();
  EXPECT_EQ(stats.placed, 0);
  EXPECT_EQ(games.games.size(), 1u);
}

// A store that cannot be reached stops the round with its UNAVAILABLE (the
// server logs "matching round failed"), nothing claimed; the next round, with the
// store back, places the table.
TEST_F(RoundTest, ARoundOverAnUnreachableStoreStopsWithItsStatus) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  const std::vector<std::string> ids = FourQueued();
  tickets_->unavailable = true;
  const RoundStats stats = matchmaker.RunRound({ladder_}, 2000);
  EXPECT_EQ(stats.error.error_code(), grpc::StatusCode::UNAVAILABLE) << stats.error.error_message();
  EXPECT_TRUE(creator.games.empty());
  tickets_->unavailable = false;
  EXPECT_EQ(tickets_->StateOf(ids[0]), "queued");
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2100).placed, 1);
}

// A client whose stream broke after its ticket was assigned (a Redis restart, a
// replica killed) queues again: it resumes the assigned ticket and gets its seat,
// instead of a new ticket and a second game played by the fallback bot in its name.
// Once the seat was delivered, queueing again makes a new ticket.
TEST_F(RoundTest, QueueingAgainBeforeTheSeatWasDeliveredResumesTheAssignedTicket) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  const std::vector<std::string> ids = FourQueued();
  ASSERT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
  std::string id, existing;
  bool created = true;
  ASSERT_TRUE(tickets_->Create("open", 1, "p1", 25, 3000, &id, &existing, &created).ok());
  EXPECT_FALSE(created);
  EXPECT_EQ(existing, ids[0]);
  TicketInfo info;
  ASSERT_TRUE(Polled(existing, 3000, &info));
  EXPECT_EQ(info.state, "assigned");
  EXPECT_EQ(info.game_id, creator.games[0].game_id());
  ASSERT_TRUE(tickets_->Delivered(ids[0], 1).ok());
  ASSERT_TRUE(tickets_->Create("open", 1, "p1", 25, 4000, &id, &existing, &created).ok());
  EXPECT_TRUE(created);
  EXPECT_NE(id, ids[0]);
}

// A Redis failover to a replica that missed a table's claim puts its tickets back
// in the queue, while their players already play the game. Such a ticket has no
// heartbeat (no client waits on it): the round must not seat it again, which
// would put its player at two tables at once. Heartbeats are on Redis's clock.
TEST_F(RoundTest, ATicketWithoutARecentHeartbeatIsNotSeated) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, {.claim_fresh_ms = 10'000});
  const std::vector<std::string> ids = FourQueued();
  // As the ticket a lost write resurrected: 30 s on the store's clock, and the
  // others' clients beat meanwhile while its did not.
  tickets_->clock_ms = 30'000;
  TicketInfo info;
  for (int i : {0, 1, 3}) ASSERT_TRUE(Polled(ids[size_t(i)], 1500, &info));
  RoundStats stats = matchmaker.RunRound({ladder_}, 2000);
  EXPECT_EQ(stats.placed, 0);
  EXPECT_EQ(stats.stale, 1);
  EXPECT_TRUE(creator.games.empty());
  // Its client polls again (it was only slow): it is seated.
  ASSERT_TRUE(Polled(ids[2], 2100, &info));
  EXPECT_EQ(info.state, "queued");
  stats = matchmaker.RunRound({ladder_}, 2200);
  EXPECT_EQ(stats.placed, 1);
}

// Negative control: without the check (protection "fresh_claim") the ticket
// nobody waits on is seated at once.
TEST_F(RoundTest, NegativeControlWithoutTheHeartbeatCheckAStaleTicketIsSeated) {
  FakeCreator creator;
  MatchmakerOptions options;
  options.claim_fresh_ms = 0;
  Matchmaker matchmaker(tickets_.get(), &creator, options);
  FourQueued();
  tickets_->clock_ms = 30'000;  // nobody's heartbeat for 30 s
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
}

// A Redis failover lost a player's assignment to a game that was created: the
// player queues again (a live ticket, heartbeats and all) while its seat in the
// first game waits for it. Seated at a new table, it would hold two seats, and the
// first game would be rated with its seat forfeited. The hosts know the seat: the
// player gets it again, and the rest of the table waits in the queue.
TEST_F(RoundTest, APlayerHoldingALiveSeatIsGivenItAgainNotASecondOne) {
  FakeCreator creator;
  v1::HeldSeat seat;
  seat.set_identity_id(2);
  seat.set_game_id("m-first");
  seat.set_seat(3);
  seat.set_seat_token("again");
  creator.held.push_back(seat);
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  const std::vector<std::string> ids = FourQueued();
  const RoundStats stats = matchmaker.RunRound({ladder_}, 2000);
  EXPECT_EQ(stats.placed, 0);
  EXPECT_EQ(stats.reseated, 1);
  EXPECT_TRUE(creator.games.empty());
  TicketInfo info;
  ASSERT_TRUE(Polled(ids[1], 2001, &info));
  EXPECT_EQ(info.state, "assigned");
  EXPECT_EQ(info.game_id, "m-first");
  EXPECT_EQ(info.seat, 3);
  EXPECT_EQ(info.seat_token, "again");
  EXPECT_EQ(info.host, "h1:1");
  for (int i : {0, 2, 3}) {
    ASSERT_TRUE(Polled(ids[i], 2001, &info));
    EXPECT_EQ(info.state, "queued") << "ticket " << i;
  }
}

// A player that plays a live game now and queues from elsewhere waits: no seat
// given, no table seated with it.
TEST_F(RoundTest, APlayerAtALiveTableWaitsInTheQueue) {
  FakeCreator creator;
  v1::HeldSeat seat;
  seat.set_identity_id(4);
  seat.set_game_id("m-first");
  seat.set_connected(true);
  creator.held.push_back(seat);
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  const std::vector<std::string> ids = FourQueued();
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 0);
  EXPECT_TRUE(creator.games.empty());
  for (const std::string& id : ids) {
    TicketInfo info;
    ASSERT_TRUE(Polled(id, 2001, &info));
    EXPECT_EQ(info.state, "queued");
  }
}

// Negative control: without asking the hosts (protection "held_seats") the player
// is seated at a second table.
TEST_F(RoundTest, NegativeControlWithoutAskingTheHostsAPlayerHoldsTwoSeats) {
  FakeCreator creator;
  v1::HeldSeat seat;
  seat.set_identity_id(2);
  seat.set_game_id("m-first");
  seat.set_seat_token("again");
  creator.held.push_back(seat);
  MatchmakerOptions options;
  options.check_held_seats = false;
  Matchmaker matchmaker(tickets_.get(), &creator, options);
  FourQueued();
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
  ASSERT_EQ(creator.games.size(), 1u);
  EXPECT_EQ(creator.seats_of_calls, 0);
}

// The round waits for the hosts' answers: it asks them all at once, so a round
// takes the slowest answer, not their sum.
TEST_F(RoundTest, EveryLiveHostIsAskedForHeldSeatsAtOnce) {
  FakeCreator creator;
  creator.seats_of_together = 3;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  FourQueued();  // host h1:1
  ASSERT_TRUE(tickets_->HostHeartbeat({"h2:1", 10, 0, 1000}).ok());
  ASSERT_TRUE(tickets_->HostHeartbeat({"h3:1", 10, 0, 1000}).ok());
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
  EXPECT_EQ(creator.seats_of_calls, 3);
  EXPECT_EQ(creator.max_seats_of_in_flight, 3);
}

TEST_F(RoundTest, BotsFillSeatsAfterTheLaddersWait) {
  FakeCreator creator;
  Matchmaker matchmaker(tickets_.get(), &creator, MatchmakerOptions{});
  ASSERT_TRUE(tickets_->HostHeartbeat({"h1:1", 10, 0, 0}).ok());
  ladder_.rules.bot_fill_after_ms = 5000;
  const std::string alone = Create(9, 25, 0);
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 4999).tables, 0);
  ASSERT_TRUE(tickets_->HostHeartbeat({"h1:1", 10, 0, 5000}).ok());
  EXPECT_EQ(matchmaker.RunRound({ladder_}, 5000).placed, 1);
  ASSERT_EQ(creator.games.size(), 1u);
  int bots = 0;
  for (const auto& s : creator.games[0].seats()) bots += s.built_in();
  EXPECT_EQ(bots, 3);
}

// Replicas share the ladders out (MatchmakerOptions::replica): each runs the
// rounds of its own, so none loses a claim to another and their work adds up.
class SharedLaddersTest : public RoundTest {
 protected:
  // `n` ladders, each with a table of 4 queued at `now` (identities first + 100·l + 1..4).
  std::vector<LadderConfig> Ladders(int n, int64_t now, int64_t first = 0) {
    std::vector<LadderConfig> ladders;
    EXPECT_TRUE(tickets_->HostHeartbeat({"h1:1", 1000, 0, now}).ok());
    for (int l = 0; l < n; ++l) {
      LadderConfig ladder = ladder_;
      ladder.id = "ladder-" + std::to_string(l);
      for (int i = 1; i <= 4; ++i) {
        std::string id, existing;
        bool created = false;
        EXPECT_TRUE(tickets_->Create(ladder.id, first + 100 * l + i, "p", 25, now, &id, &existing, &created).ok() &&
                    created);
      }
      ladders.push_back(std::move(ladder));
    }
    return ladders;
  }
  static std::multiset<std::string> LaddersOf(const FakeCreator& creator) {
    std::multiset<std::string> out;
    for (const auto& game : creator.games) out.insert(game.ladder());
    return out;
  }
};

TEST_F(SharedLaddersTest, EachReplicaRunsOnlyTheLaddersItOwns) {
  FakeCreator creator_a, creator_b;
  // Rounds on the test's times, not the fake's clock: no re-check mid-round (a
  // round slowed past 100 ms on a busy machine would read the replicas at the
  // fake's own time). ALongRoundLeaves... is about the re-check.
  Matchmaker a(tickets_.get(), &creator_a, {.replica = "replica-a", .recheck_owners_ms = -1});
  Matchmaker b(tickets_.get(), &creator_b, {.replica = "replica-b", .recheck_owners_ms = -1});
  // Both announce themselves before there is anything to seat.
  EXPECT_EQ(a.RunRound({}, 1000).replicas, 1);
  EXPECT_EQ(b.RunRound({}, 1000).replicas, 2);
  const std::vector<LadderConfig> ladders = Ladders(16, 1000);
  const RoundStats sa = a.RunRound(ladders, 1100), sb = b.RunRound(ladders, 1100);
  EXPECT_EQ(sa.replicas, 2);
  EXPECT_EQ(sa.ladders + sb.ladders, 16);
  EXPECT_GT(sa.ladders, 0);
  EXPECT_GT(sb.ladders, 0);
  EXPECT_EQ(sa.placed, sa.ladders);
  EXPECT_EQ(sb.placed, sb.ladders);
  EXPECT_EQ(sa.lost_races + sb.lost_races, 0);
  // Every ladder seated once, by its owner.
  for (const std::string& ladder : LaddersOf(creator_a))
    EXPECT_EQ(LadderOwner(ladder, {"replica-a", "replica-b"}), "replica-a") << ladder;
  for (const std::string& ladder : LaddersOf(creator_b))
    EXPECT_EQ(LadderOwner(ladder, {"replica-a", "replica-b"}), "replica-b") << ladder;
  std::multiset<std::string> all = LaddersOf(creator_a);
  all.merge(LaddersOf(creator_b));
  EXPECT_EQ(all.size(), 16u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 16u);
}

// A replica that stops announcing itself (it died, or lost its link to Redis)
// keeps its ladders only for the time to live; one that leaves (it stopped)
// hands them over at the others' next round.
TEST_F(SharedLaddersTest, ASilentReplicasLaddersGoToTheOthers) {
  FakeCreator creator_a, creator_b;
  // No re-check mid-round, as above.
  Matchmaker a(tickets_.get(), &creator_a, {.replica = "replica-a", .replica_ttl_ms = 3000, .recheck_owners_ms = -1});
  Matchmaker b(tickets_.get(), &creator_b, {.replica = "replica-b", .replica_ttl_ms = 3000, .recheck_owners_ms = -1});
  b.RunRound({}, 1000);
  const std::vector<LadderConfig> ladders = Ladders(16, 1000);
  const RoundStats first = a.RunRound(ladders, 2000);
  EXPECT_LT(first.placed, 16);
  EXPECT_EQ(a.RunRound(ladders, 4000).placed, 0) << "replica-b was heard 3,000 ms ago: its ladders are still its";
  const RoundStats later = a.RunRound(ladders, 4001);
  EXPECT_EQ(later.replicas, 1);
  EXPECT_EQ(later.ladders, 16);
  EXPECT_EQ(first.placed + later.placed, 16);
  EXPECT_TRUE(creator_b.games.empty());

  // replica-b is back: it owns its share again; then it leaves.
  const std::vector<LadderConfig> more = Ladders(16, 5000, 10'000);
  const RoundStats back = b.RunRound(more, 5000);
  EXPECT_EQ(back.replicas, 2);
  EXPECT_EQ(back.placed, back.ladders);
  ASSERT_TRUE(tickets_->ReplicaLeave("replica-b").ok());
  EXPECT_EQ(a.RunRound(more, 5001).placed, 16 - back.placed);
}

// A replica that joins while another is in a long round takes its share at
// once: the round asks again who is live (here before every ladder) and leaves
// the ladders that are now the newcomer's. Negative control: with the re-check
// off (recheck_owners_ms -1) the old replica seats every ladder.
TEST_F(SharedLaddersTest, ALongRoundLeavesTheLaddersOfAReplicaThatJoinedMeanwhile) {
  for (const int64_t recheck : {int64_t(0), int64_t(-1)}) {
    SCOPED_TRACE("recheck_owners_ms " + std::to_string(recheck));
    tickets_ = std::make_unique<FakeTicketStore>();
    // The first game created (the round's first table) is when replica-b joins.
    struct Joining final : GameCreator {
      FakeTicketStore* store = nullptr;
      FakeCreator inner;
      bool joined = false;
      grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                          v1::CreateGameResponse* response) override {
        if (!joined) {
          std::vector<std::string> live;
          EXPECT_TRUE(store->ReplicaHeartbeat("replica-b", 1000, 3000, &live).ok());
          joined = true;
        }
        return inner.Create(host, request, response);
      }
    } creator;
    creator.store = tickets_.get();
    Matchmaker a(tickets_.get(), &creator, {.replica = "replica-a", .recheck_owners_ms = recheck});
    const std::vector<LadderConfig> ladders = Ladders(16, 1000);
    const RoundStats round = a.RunRound(ladders, 1000);
    int b_owned_after_first = 0;  // the ladders after the first table that replica-b owns
    const std::string first = creator.inner.games.at(0).ladder();
    for (const LadderConfig& l : ladders)
      b_owned_after_first += l.id != first && LadderOwner(l.id, {"replica-a", "replica-b"}) == "replica-b";
    ASSERT_GT(b_owned_after_first, 0);
    if (recheck == 0) {
      EXPECT_EQ(round.placed, 16 - b_owned_after_first);
      for (const auto& game : creator.inner.games) {
        if (game.ladder() != first) {
          EXPECT_EQ(LadderOwner(game.ladder(), {"replica-a", "replica-b"}), "replica-a");
        }
      }
    } else {
      EXPECT_EQ(round.placed, 16);
    }
  }
}

// Rendezvous hashing: the ladders spread evenly, and a replica that joins takes
// ladders only for itself (no ladder moves between the replicas already there).
TEST(LadderOwnerTest, LaddersSpreadEvenlyAndAJoiningReplicaMovesOnlyItsShare) {
  const std::vector<std::string> three = {"mm-0:17-a1", "mm-1:17-b2", "mm-2:18-c3"};
  std::vector<std::string> four = three;
  four.push_back("mm-3:20-d4");
  std::map<std::string, int> owned;
  int moved = 0;
  for (int l = 0; l < 3000; ++l) {
    const std::string ladder = "ladder-" + std::to_string(l);
    const std::string before = LadderOwner(ladder, three), after = LadderOwner(ladder, four);
    ++owned[before];
    if (before != after) {
      EXPECT_EQ(after, four.back()) << ladder << " moved from " << before << " to " << after;
      ++moved;
    }
    // The order the replicas are listed in does not matter.
    EXPECT_EQ(LadderOwner(ladder, {four[3], four[1], four[0], four[2]}), after);
  }
  ASSERT_EQ(owned.size(), 3u);
  for (const auto& [replica, n] : owned) EXPECT_NEAR(n, 1000, 150) << replica;
  EXPECT_NEAR(moved, 750, 150);
  EXPECT_EQ(LadderOwner("ladder-0", {}), "");
}

// The contract the Redis store's scripts keep (tests/ticket_store_contract.h,
// held against Redis in ticket_store_redis_test.cc), over the fake the rounds
// above run over; and the fake's own cases the contract leaves out.
INSTANTIATE_TYPED_TEST_SUITE_P(Fake, TicketStoreContract, RoundTest);

class FakeTicketStoreTest : public RoundTest {};

TEST_F(FakeTicketStoreTest, AnAssignmentForALapsedClaimIsNotHandedOut) {
  const std::string id = Create(1, 25, 1000);
  bool claimed = false;
  int released = 0, assigned = 0;
  ASSERT_TRUE(tickets_->Claim("open", {{id}, 3}, "slow-table", 1000, 0, &claimed).ok() && claimed);
  ASSERT_TRUE(tickets_->ReleaseStuck("open", 100'000, 30'000, &released).ok());
  ASSERT_EQ(released, 1);
  ASSERT_TRUE(tickets_->Claim("open", {{id}, 3}, "next-table", 100'000, 0, &claimed).ok() && claimed);
  ASSERT_TRUE(
      tickets_->Assign("open", "slow-table", {{id, 1, {"game-slow", "h1:1", "token-slow", 0, ""}}}, &assigned).ok());
  EXPECT_EQ(assigned, 0);
  ASSERT_TRUE(tickets_->Release("open", "slow-table", {id}, &released).ok());
  EXPECT_EQ(released, 0);
  EXPECT_EQ(tickets_->StateOf(id), "matched");
  ASSERT_TRUE(
      tickets_->Assign("open", "next-table", {{id, 1, {"game-next", "h1:1", "token-next", 2, "c"}}}, &assigned).ok());
  EXPECT_EQ(assigned, 1);
  TicketInfo info;
  ASSERT_TRUE(Polled(id, 100'002, &info));
  EXPECT_EQ(info.state, "assigned");
  EXPECT_EQ(info.game_id, "game-next");
  EXPECT_EQ(info.chance_commitment, "c");
}

// Its switches answer as the Redis store does: unreachable is the retryable
// UNAVAILABLE (every call: the contract's case), a failed script INTERNAL, in the
// words RedisErrorStatus gives them.
TEST_F(FakeTicketStoreTest, ItsSwitchesAnswerAsRedisDoes) {
  std::string id, existing;
  bool created = true;
  std::vector<HostInfo> hosts;
  tickets_->unavailable = true;
  grpc::Status s = tickets_->Create("open", 1, "p1", 25, 0, &id, &existing, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  EXPECT_EQ(tickets_->Hosts(&hosts).error_code(), grpc::StatusCode::UNAVAILABLE);
  tickets_->unavailable = false;
  tickets_->fail_scripts = true;
  s = tickets_->Create("open", 1, "p1", 25, 0, &id, &existing, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INTERNAL) << s.error_message();
  EXPECT_TRUE(s.error_message().starts_with("ticket store failed: ")) << s.error_message();
  EXPECT_FALSE(created);
  ASSERT_TRUE(tickets_->Hosts(&hosts).ok());  // a read without a script
  EXPECT_TRUE(hosts.empty());
  tickets_->fail_scripts = false;
  tickets_->unavailable_calls = 1;  // a restart: the next call only
  EXPECT_EQ(tickets_->Hosts(&hosts).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_TRUE(tickets_->Hosts(&hosts).ok());
}

}  // namespace
}  // namespace metropolis::matchmaker
