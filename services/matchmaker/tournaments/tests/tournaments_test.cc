// The tournament scheduler and the Tournaments service over in-memory fakes of
// their stores and peers (tests/fake_tournament_store.h, fake_roster_store.h,
// fake_peers.h, the ticket store's fake for the hosts, and a fake token lookup):
// no server needed. The scheduler plays every game of a round robin, a duplicate
// set and a Swiss tournament through a fake game host, standings come out right,
// games wait for their entrants and their limits, a game lost with its host is
// played again, reveals wait for their sets and are sent until acknowledged, and
// the gRPC service refuses bad requests without writing anything and delivers
// a game sent to one Compete stream's connection to that stream. The stores'
// contract (tests/tournament_store_contract.h) runs here over the fakes, and in
// tournaments_pg_redis_test.cc over PostgreSQL and Redis, with what only they
// show (the fence's and the current attempt's negative controls, the lease).
#include <grpcpp/create_channel.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "lib/auth/roles.h"
#include "lib/auth/tests/fake_account_lookup.h"
#include "lib/auth/token_authenticator.h"
#include "lib/common/tests/fake_clock.h"
#include "metropolis/v1/matchmaker.pb.h"
#include "services/matchmaker/tests/fake_ticket_store.h"
#include "services/matchmaker/tournaments/runner.h"
#include "services/matchmaker/tournaments/service.h"
#include "services/matchmaker/tournaments/tests/fake_peers.h"
#include "services/matchmaker/tournaments/tests/fake_roster_store.h"
#include "services/matchmaker/tournaments/tests/fake_tournament_store.h"
#include "services/matchmaker/tournaments/tests/fixture.h"
#include "services/matchmaker/tournaments/tests/tournament_store_contract.h"

namespace metropolis::matchmaker {
namespace {

using testing::FakeEntrants;
using testing::FakeHost;
using testing::FakeReplays;
using testing::FakeRosterStore;
using testing::FakeTicketStore;
using testing::FakeTournamentDb;
using testing::FakeTournamentStore;

class SchedulerTest : public testing::TournamentsFixture<FakeTournamentStore, FakeRosterStore, FakeTicketStore> {
 protected:
  void SetUp() override {
    Use(std::make_unique<FakeTournamentStore>(&db_), std::make_unique<FakeRosterStore>(),
        std::make_unique<FakeTicketStore>());
  }
  // Another scheduler (another replica) on the same database.
  std::unique_ptr<TournamentStore> NewScheduler() { return std::make_unique<FakeTournamentStore>(&db_); }
  // A roster that cannot be reached.
  std::unique_ptr<RosterStore> UnreachableRoster() {
    auto roster = std::make_unique<FakeRosterStore>();
    roster->unavailable = true;
    return roster;
  }
  int64_t DatabaseNowMs() { return db_.clock_ms; }
  void WaitUntilDatabaseTime(int64_t ms) { db_.clock_ms = std::max<int64_t>(db_.clock_ms, ms); }
  // A runner that asks the hosts about their games every second and takes a
  // game they have not known for 5 s as lost.
  static RunnerOptions Probing() {
    RunnerOptions options;
    options.probe_every_ms = 1000;
    options.lost_after_ms = 5000;
    return options;
  }

  // The tournament `spec`, its entrants available, and the pass of a probing
  // runner that started its first game: the runner.
  std::unique_ptr<TournamentRunner> FirstGameStarted(const TournamentSpec& spec) {
    CreateTournament(spec);
    Available(spec.entrants);
    auto runner = Runner(Probing());
    runner->Pass(kNow);
    return runner;
  }
  // What the replays store would hold once the game ended: the seat holding the
  // identity listed first in `order` wins, the rest placed in that order.
  void Store(const v1::CreateGameRequest& game, const std::vector<int64_t>& order, int forfeit_seat = -1) {
    const int seats = game.seats_size();
    std::vector<int> vp(size_t(seats), 0), rank(size_t(seats), 0);
    for (int s = 0; s < seats; ++s) {
      const auto at = std::find(order.begin(), order.end(), game.seats(s).identity_id());
      rank[size_t(s)] = int(at - order.begin());
      vp[size_t(s)] = 20 - rank[size_t(s)];
    }
    const int winner = int(std::min_element(rank.begin(), rank.end()) - rank.begin());
    StoredResult r{.game_id = game.game_id(), .winner = winner, .vp = vp, .forfeited = {}};
    for (int s = 0; s < seats; ++s) r.forfeited.push_back(s == forfeit_seat);
    std::lock_guard lock(replays_.mutex);
    replays_.stored.emplace(game.game_id(), r);
  }
  std::string State(const std::string& id) {
    TournamentRow row;
    EXPECT_TRUE(store_->Get(id, &row).ok());
    return row.state;
  }
  // Assignments waiting in an identity's inbox (and its connection "c"'s).
  std::vector<v1::Assignment> Inbox(int64_t identity) {
    std::vector<v1::Assignment> out;
    std::string bytes;
    bool found = false;
    while (roster_->Receive(identity, "c", &bytes, &found).ok() && found) {
      out.emplace_back();
      EXPECT_TRUE(out.back().ParseFromString(bytes));
    }
    return out;
  }
  // Runs passes, storing every created game with `order` as its result, until
  // the tournament finishes; returns the passes taken.
  int PlayOut(TournamentRunner& runner, const std::string& id, const std::vector<int64_t>& order) {
    size_t stored = 0;
    for (int pass = 1; pass <= 500; ++pass) {
      runner.Pass(kNow);
      if (State(id) != "running") return pass;
      for (; stored < host_.created.size(); ++stored) Store(host_.created[stored], order);
    }
    ADD_FAILURE() << "tournament " << id << " did not finish";
    return -1;
  }

  FakeTournamentDb db_;
};

TEST_F(SchedulerTest, RoundRobinPlaysEveryPairingOnceAndRanksByPlace) {
  const TournamentSpec spec = Spec("rr", TournamentFormat::kRoundRobin, 5);
  CreateTournament(spec);
  Available(spec.entrants);
  auto runner = Runner();
  // One game at a time: every game of 4 among 5 entrants shares entrants with
  // every other, and each plays at most one game at once.
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 1u);
  runner->Pass(kNow);
  EXPECT_EQ(host_.created.size(), 1u) << "a second game started while its entrants were busy";
  // A restarted scheduler (a new leader) goes on from the database alone.
  runner = Runner();
  PlayOut(*runner, "rr", spec.entrants);
  EXPECT_EQ(State("rr"), "finished");

  // Every 4-subset in every rotation, exactly once, with the schedule's seeds.
  const auto schedule = RoundRobin(5, 4, spec.seed);
  ASSERT_EQ(host_.created.size(), schedule.size());
  std::set<std::vector<int64_t>> seatings;
  for (const auto& g : host_.created) {
    std::vector<int64_t> seating;
    for (const auto& s : g.seats()) seating.push_back(s.identity_id());
    seatings.insert(seating);
    EXPECT_FALSE(g.hidden());
    EXPECT_EQ(g.tournament(), "rr");
  }
  EXPECT_EQ(seatings.size(), schedule.size());
  for (const auto& g : schedule) {
    std::vector<int64_t> seating;
    for (int e : g.entrants) seating.push_back(spec.entrants[size_t(e)]);
    EXPECT_TRUE(seatings.count(seating)) << "pairing never played";
  }
  // Each entrant got its seats on its inbox: 4 tables × 4 rotations = 16 games.
  for (int64_t id : spec.entrants) {
    const auto inbox = Inbox(id);
    EXPECT_EQ(inbox.size(), 16u);
    for (const auto& a : inbox) {
      EXPECT_EQ(a.seat_token(), "tok-" + a.game_id() + "-" + std::to_string(a.seat()));
      EXPECT_EQ(a.tournament(), "rr");
    }
  }
  // Entrant k loses only to entrants before it: entrant 0 wins everything, 4
  // loses everything; the others' mean score follows from the subsets.
  v1::Tournament t;
  TournamentRow row;
  ASSERT_TRUE(store_->Get("rr", &row).ok());
  TournamentToProto(row, Games("rr"), &t);
  ASSERT_EQ(t.standings_size(), 5);
  EXPECT_EQ(t.games_finished(), 20u);
  for (int k = 0; k < 5; ++k) {
    const v1::Standing& s = t.standings(k);
    EXPECT_EQ(s.identity_id(), spec.entrants[size_t(k)]);
    EXPECT_EQ(s.rank(), uint32_t(k + 1));
    EXPECT_EQ(s.games(), 16u);
    // In a subset without entrant j (j < k) entrant k places one higher. Of the
    // 4 subsets holding k, each leaves out one other entrant.
    double total = 0;
    for (int out = 0; out < 5; ++out) {
      if (out == k) continue;
      const int ahead = k - (out < k ? 1 : 0);
      total += 4 * PlaceScore(ahead + 1, 4);
    }
    EXPECT_NEAR(s.score(), total / 16, 1e-12);
    EXPECT_LE(s.ci_low(), s.score());
    EXPECT_GE(s.ci_high(), s.score());
  }
  EXPECT_EQ(t.standings(0).wins(), 16u);
  EXPECT_EQ(t.standings(0).ci_low(), 1.0);  // no spread: the same score every game
  EXPECT_EQ(t.standings(0).sets(), 0u);     // not duplicate

  // Every pair, over the games both played: 3 tables of 4 hold both, 4
  // rotations each. The entrant listed first is always ahead, by one place
  // more for each entrant between them at the table: separated, and too few
  // games for the sequential test (15).
  auto index_of = [&](int64_t id) {
    return std::find(spec.entrants.begin(), spec.entrants.end(), id) - spec.entrants.begin();
  };
  ASSERT_EQ(t.pairs_size(), 10);
  for (const v1::PairComparison& p : t.pairs()) {
    EXPECT_LT(index_of(p.a_identity_id()), index_of(p.b_identity_id())) << "the entrant ahead is a";
    EXPECT_EQ(p.shared(), 12u);
    const auto a = index_of(p.a_identity_id()), b = index_of(p.b_identity_id());
    double total = 0;  // per table without entrant `out`: the entrants between a and b, plus one
    for (int out = 0; out < 5; ++out)
      if (out != a && out != b) total += 4 * (double(b - a - 1 - (out > a && out < b)) + 1) / 3;
    EXPECT_NEAR(p.difference(), total / 12, 1e-12);
    EXPECT_LE(p.ci_low(), p.difference());
    EXPECT_GT(p.ci_low(), 0);
    EXPECT_TRUE(p.better());
    EXPECT_EQ(p.sprt(), "continue");
  }
}

TEST_F(SchedulerTest, DuplicateSetSharesSeedsAndIsHidden) {
  const TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(spec);
  Available(spec.entrants);
  const auto runner = Runner();
  PlayOut(*runner, "dup", spec.entrants);
  ASSERT_EQ(host_.created.size(), 4u);
  std::set<int64_t> first_seat;
  for (const auto& g : host_.created) {
    EXPECT_TRUE(g.hidden());
    // One secret seed for the set (docs/CHANCE.md): the same chance identity, the
    // board drawn from it, and no known seed of either kind.
    EXPECT_EQ(g.chance_identity(), host_.created[0].chance_identity());
    EXPECT_EQ(g.chance_identity().rfind("tournament/dup/", 0), 0u) << g.chance_identity();
    EXPECT_TRUE(g.board_from_chance());
    EXPECT_EQ(g.chance_seed(), 0u);
    EXPECT_EQ(g.config().random_board_seed(), 0u);
    first_seat.insert(g.seats(0).identity_id());
  }
  EXPECT_EQ(first_seat.size(), 4u) << "every entrant sits first once";
  for (const auto& g : Games("dup")) {
    EXPECT_EQ(g.game.set, 0);
    EXPECT_EQ(g.state, "finished");
  }
  // Standings per set: one complete set, so the scores are the set's and no
  // interval yet; every pair shared it, none is separated by one set.
  v1::Tournament t;
  TournamentRow row;
  ASSERT_TRUE(store_->Get("dup", &row).ok());
  TournamentToProto(row, Games("dup"), &t);
  ASSERT_EQ(t.standings_size(), 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(t.standings(k).identity_id(), spec.entrants[size_t(k)]);
    EXPECT_EQ(t.standings(k).sets(), 1u);
    EXPECT_EQ(t.standings(k).games(), 4u);
    EXPECT_NEAR(t.standings(k).score(), PlaceScore(k + 1, 4), 1e-12);
    EXPECT_EQ(t.standings(k).ci_low(), 0.0);
    EXPECT_EQ(t.standings(k).ci_high(), 1.0);
  }
  ASSERT_EQ(t.pairs_size(), 6);
  for (const v1::PairComparison& p : t.pairs()) {
    EXPECT_EQ(p.shared(), 1u);
    EXPECT_FALSE(p.better());
    EXPECT_EQ(p.sprt(), "continue");
  }
  // The pass that saw the last rotation finish revealed the set, by its games.
  EXPECT_EQ(replays_.revealed,
            (std::set<std::string>{"dup/t-dup-0-1", "dup/t-dup-1-1", "dup/t-dup-2-1", "dup/t-dup-3-1"}));
}

// Rotations in lockstep (docs/TOURNAMENTS.md): a duplicate set's rotations start
// together on one host, each created with lockstep 4, and each entrant's four go
// to four separate connections (sessions) of it, one each.
TEST_F(SchedulerTest, DuplicateSetStartsWholeOnOneHostWithEachRotationOnItsOwnConnection) {
  const TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(spec);
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostB:1", 1000, 0, kNow}).ok());
  const std::vector<std::string> sessions = {"s0", "s1", "s2", "s3"};
  for (int64_t id : spec.entrants)
    for (const std::string& c : sessions) ASSERT_TRUE(roster_->Heartbeat(id, c, 1, kNow + 3'600'000).ok());
  const auto runner = Runner();
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 4u) << "the whole set at once";
  for (size_t i = 0; i < host_.created.size(); ++i) {
    EXPECT_EQ(host_.created[i].lockstep(), 4u);
    EXPECT_EQ(host_.hosts[i], host_.hosts[0]) << "a set's rotations on one host";
  }
  for (int64_t id : spec.entrants) {
    std::set<std::string> games;
    for (const std::string& c : sessions) {
      std::string bytes;
      bool found = false;
      ASSERT_TRUE(roster_->Receive(id, c, &bytes, &found).ok());
      ASSERT_TRUE(found) << "identity " << id << " connection " << c << " got no rotation";
      v1::Assignment a;
      ASSERT_TRUE(a.ParseFromString(bytes));
      games.insert(a.game_id());
      ASSERT_TRUE(roster_->Receive(id, c, &bytes, &found).ok());
      EXPECT_FALSE(found) << "connection " << c << " got two rotations";
    }
    EXPECT_EQ(games.size(), 4u) << "identity " << id << ": one rotation per connection";
  }
}

// A set whose third rotation the host refuses (full) stops there; the host is
// not marked down, and the next pass starts the two left on the same host, in
// the same lockstep group, while the first two play.
TEST_F(SchedulerTest, ARotationRefusedMidSetJoinsItsSetOnItsHost) {
  const TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(spec);
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostB:1", 1000, 0, kNow}).ok());
  Available(spec.entrants, /*capacity=*/4);
  host_.refuse_when_created = 2;
  const auto runner = Runner();
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 2u) << "the set stops at the refused rotation";
  int pending = 0;
  for (const auto& g : Games("dup")) pending += g.state == "pending";
  EXPECT_EQ(pending, 2);
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(host_.hosts[i], host_.hosts[0]) << "rotation " << i << " on another host";
    EXPECT_EQ(host_.created[i].lockstep(), 4u);
  }
  std::vector<HostInfo> hosts;
  ASSERT_TRUE(hosts_->Hosts(&hosts).ok());
  EXPECT_EQ(hosts.size(), 2u) << "a full host was marked down";
}

// A set is placed only on a host with room for all its rotations.
TEST_F(SchedulerTest, ASetWaitsForAHostWithRoomForAllItsRotations) {
  const TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(spec);
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostA:1", 3, 0, kNow}).ok());  // room for three
  Available(spec.entrants, /*capacity=*/4);
  const auto runner = Runner();
  runner->Pass(kNow);
  EXPECT_TRUE(host_.created.empty()) << "part of a set placed on a host without room for it";
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostA:1", 4, 0, kNow}).ok());
  runner->Pass(kNow);
  EXPECT_EQ(host_.created.size(), 4u);
}

// The set waits until every entrant can hold it whole: one entrant busy with a
// game elsewhere holds back all four rotations, not three of them.
TEST_F(SchedulerTest, DuplicateSetWaitsUntilEveryEntrantCanHoldItWhole) {
  // Its entrants also play a round robin (ids sort first, so it is scheduled
  // first in a pass), one game at a time: each has three places left meanwhile.
  CreateTournament(Spec("a-rr", TournamentFormat::kRoundRobin, 4));
  const TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(spec);
  Available(spec.entrants, /*capacity=*/4);
  const auto runner = Runner();
  size_t stored = 0, dup_games = 0;
  bool overlapped = false;
  for (int pass = 0; pass < 50 && dup_games < 4; ++pass) {
    runner->Pass(kNow);
    dup_games = 0;
    bool rr_playing = false;
    for (const auto& g : host_.created) dup_games += g.tournament() == "dup";
    for (const auto& g : Games("a-rr")) rr_playing |= g.state == "playing";
    overlapped |= rr_playing && dup_games > 0;
    EXPECT_TRUE(dup_games == 0 || dup_games == 4) << "part of a set started: " << dup_games << " of 4 rotations";
    // Only the round robin's games end.
    for (; stored < host_.created.size(); ++stored)
      if (host_.created[stored].tournament() == "a-rr") Store(host_.created[stored], spec.entrants);
  }
  EXPECT_EQ(dup_games, 4u);
  EXPECT_FALSE(overlapped) << "the set started while an entrant had a round-robin game";
  for (const auto& g : host_.created) {
    if (g.tournament() == "dup") {
      EXPECT_EQ(g.lockstep(), 4u);
    }
  }
}

// A bot that competes with fewer places than the set has rotations plays them
// one at a time, as before lockstep, rather than never.
TEST_F(SchedulerTest, DuplicateSetTooBigForAnEntrantIsPlayedOneRotationAtATime) {
  const TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  CreateTournament(spec);
  Available(spec.entrants, /*capacity=*/1);
  const auto runner = Runner();
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 1u);
  EXPECT_EQ(host_.created[0].lockstep(), 0u);
  PlayOut(*runner, "dup", spec.entrants);
  EXPECT_EQ(host_.created.size(), 4u);
}

// A duplicate set is revealed only once all its rotations have finished, by the
// ids of the games that count (never a void attempt), and the reveal is sent
// again at every pass until the replays service acknowledges it — also after
// the tournament has finished, and by a new runner (a new leader). A tournament
// of another format is revealed whole at once.
TEST_F(SchedulerTest, RevealsWaitForTheWholeSetAndAreSentUntilAcknowledged) {
  TournamentSpec spec = Spec("dup", TournamentFormat::kDuplicate, 4);
  spec.max_games_per_entrant = 4;
  CreateTournament(spec);
  CreateTournament(Spec("rr", TournamentFormat::kRoundRobin, 4));
  Available(spec.entrants, 16);
  const auto runner = Runner(Probing());
  runner->Pass(kNow);
  EXPECT_EQ(replays_.revealed, (std::set<std::string>{"rr/*"})) << "nothing of the set before it is played";
  std::vector<v1::CreateGameRequest> dup_games;
  for (const auto& g : host_.created)
    if (g.tournament() == "dup") dup_games.push_back(g);
  ASSERT_EQ(dup_games.size(), 4u);
  for (size_t i = 1; i < 4; ++i) Store(dup_games[i], spec.entrants);
  runner->Pass(kNow + 500);
  EXPECT_EQ(Games("dup")[1].state, "finished");
  EXPECT_EQ(replays_.revealed, (std::set<std::string>{"rr/*"})) << "revealed while rotation 0 plays";
  // Rotation 0 is lost with its host and played again: its first attempt is void.
  host_.probe = {grpc::StatusCode::NOT_FOUND, "no game"};
  runner->Pass(kNow + 2000);
  runner->Pass(kNow + 8000);
  host_.probe = grpc::Status::OK;
  EXPECT_EQ(Games("dup")[0].game_id, "t-dup-0-2");
  Store(dup_games[0], spec.entrants);  // the void attempt's game, arriving late
  runner->Pass(kNow + 9000);
  EXPECT_EQ(replays_.revealed, (std::set<std::string>{"rr/*"})) << "revealed while rotation 0 plays again";
  // The replays service is down when the set ends: nothing is marked sent.
  for (const auto& g : host_.created)
    if (g.game_id() == "t-dup-0-2") Store(g, spec.entrants);
  replays_.fail = true;
  runner->Pass(kNow + 10000);
  EXPECT_EQ(Games("dup")[0].state, "playing") << "results unknown while the replays service is down";
  replays_.fail = false;
  runner->Pass(kNow + 11000);
  EXPECT_EQ(Games("dup")[0].state, "finished");
  const std::set<std::string> set = {"rr/*", "dup/t-dup-0-2", "dup/t-dup-1-1", "dup/t-dup-2-1", "dup/t-dup-3-1"};
  EXPECT_EQ(replays_.revealed, set) << "the void attempt t-dup-0-1 is never named";
  // Lost acknowledgements: sent again, by this runner or a new one, until one
  // is acknowledged; then never again.
  replays_.revealed.clear();
  db_.Edit([](FakeTournamentDb::State& db) {
    for (auto& [id, t] : db.tournaments) {
      t.revealed = false;
      t.row.state = "finished";
      for (auto& g : t.games) g.revealed = false;
    }
  });
  replays_.fail = true;
  runner->Pass(kNow + 12000);
  replays_.fail = false;
  const auto next_leader = Runner(Probing());
  next_leader->Pass(kNow + 13000);
  EXPECT_EQ(replays_.revealed, set) << "a finished tournament's reveals are sent too";
  const int calls = replays_.reveal_calls;
  next_leader->Pass(kNow + 14000);
  EXPECT_EQ(replays_.reveal_calls, calls) << "acknowledged reveals are sent again";
}

// A game that looks lost while the replays service cannot say whether it is
// stored stays as it is: it may count.
TEST_F(SchedulerTest, AGameIsNotPlayedAgainWhileItsResultCannotBeAsked) {
  const auto runner = FirstGameStarted(Spec("lost", TournamentFormat::kRoundRobin, 4));
  ASSERT_EQ(host_.created.size(), 1u);
  host_.probe = {grpc::StatusCode::NOT_FOUND, "no game"};
  replays_.fail = true;
  runner->Pass(kNow + 1000);
  runner->Pass(kNow + 7000);
  EXPECT_EQ(Games("lost")[0].state, "playing");
  EXPECT_EQ(Games("lost")[0].attempts, 1);
}

// Seats carry the names the Accounts service gives; while it cannot answer no
// game starts (a stored game needs its seats' names).
TEST_F(SchedulerTest, SeatsAreNamedByTheAccountsAndWaitForThem) {
  const TournamentSpec spec = Spec("names", TournamentFormat::kRoundRobin, 4);
  CreateTournament(spec);
  Available(spec.entrants);
  const auto runner = Runner();
  entrants_.fail = true;
  runner->Pass(kNow);
  EXPECT_TRUE(host_.created.empty());
  entrants_.fail = false;
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 1u);
  for (const auto& seat : host_.created[0].seats()) {
    EXPECT_FALSE(seat.name().empty());
    EXPECT_EQ(seat.name(), entrants_.names[seat.identity_id()]);
  }
}

TEST_F(SchedulerTest, SwissAddsEachRoundWhenTheLastOneEnds) {
  const TournamentSpec spec = Spec("sw", TournamentFormat::kSwiss, 8, 3);
  CreateTournament(spec);
  ASSERT_EQ(Games("sw").size(), 2u);  // round 0 only
  Available(spec.entrants);
  const auto runner = Runner();
  runner->Pass(kNow);
  ASSERT_EQ(host_.created.size(), 2u);
  runner->Pass(kNow);
  EXPECT_EQ(Games("sw").size(), 2u) << "round 1 added before round 0 ended";
  Store(host_.created[0], spec.entrants);
  runner->Pass(kNow);
  EXPECT_EQ(Games("sw").size(), 2u) << "round 1 added before round 0 ended";
  PlayOut(*runner, "sw", spec.entrants);
  const auto games = Games("sw");
  ASSERT_EQ(games.size(), 6u);
  for (int round = 0; round < 3; ++round) {
    std::set<int> seated;
    for (const auto& g : games)
      if (g.game.round == round) seated.insert(g.game.entrants.begin(), g.game.entrants.end());
    EXPECT_EQ(seated.size(), 8u) << "round " << round;
  }
  // Round 1 pairs the round-0 winners together (entrants 0 and 4 won).
  for (const auto& g : games) {
    if (g.game.round != 1) continue;
    const std::set<int> table(g.game.entrants.begin(), g.game.entrants.end());
    EXPECT_EQ(table.count(0), table.count(4));
  }
}

TEST_F(SchedulerTest, GamesWaitForTheirEntrantsAndTheirLimits) {
  TournamentSpec spec = Spec("wait", TournamentFormat::kRoundRobin, 8);
  spec.seats = 4;
  spec.max_games_per_entrant = 2;
  CreateTournament(spec);
  const auto runner = Runner();
  // Nobody is available: nothing starts.
  runner->Pass(kNow);
  EXPECT_TRUE(host_.created.empty());
  // Entrant 0 is missing: only tables without it start, two at once per entrant
  // at most, and one game per connection's capacity.
  std::vector<int64_t> present(spec.entrants.begin() + 1, spec.entrants.end());
  Available(present, /*capacity=*/16);
  runner->Pass(kNow);
  ASSERT_FALSE(host_.created.empty());
  std::map<int64_t, int> at_once;
  for (const auto& g : host_.created)
    for (const auto& s : g.seats()) {
      EXPECT_NE(s.identity_id(), spec.entrants[0]);
      ++at_once[s.identity_id()];
    }
  for (const auto& [id, n] : at_once) EXPECT_LE(n, 2) << "identity " << id;
  // A connection's capacity bounds it across tournaments too.
  const size_t before = host_.created.size();
  ASSERT_TRUE(roster_->Leave(spec.entrants[1], "c").ok());
  ASSERT_TRUE(roster_->Heartbeat(spec.entrants[1], "c", 0, kNow + 3'600'000).ok());
  for (size_t i = 0; i < before; ++i) Store(host_.created[i], spec.entrants);
  runner->Pass(kNow);
  for (size_t i = before; i < host_.created.size(); ++i)
    for (const auto& s : host_.created[i].seats()) EXPECT_NE(s.identity_id(), spec.entrants[1]);
}

TEST_F(SchedulerTest, GameLostWithItsHostIsPlayedAgain) {
  const TournamentSpec spec = Spec("lost", TournamentFormat::kRoundRobin, 4);
  const auto runner = FirstGameStarted(spec);
  ASSERT_EQ(host_.created.size(), 1u);
  const std::string first = host_.created[0].game_id();
  EXPECT_EQ(first, "t-lost-0-1");
  host_.probe = {grpc::StatusCode::NOT_FOUND, "no game"};
  runner->Pass(kNow + 1000);  // first failure
  runner->Pass(kNow + 3000);  // still within lost_after_ms
  EXPECT_EQ(Games("lost")[0].state, "playing");
  host_.probe = grpc::Status::OK;
  runner->Pass(kNow + 7000);  // the host knows it again: the clock restarts
  host_.probe = {grpc::StatusCode::UNAVAILABLE, "gone"};
  runner->Pass(kNow + 9000);
  runner->Pass(kNow + 15000);  // failing for 6 s: lost, and started again at once
  const auto games = Games("lost");
  EXPECT_EQ(games[0].attempts, 2);
  EXPECT_EQ(games[0].game_id, "t-lost-0-2");
  ASSERT_EQ(host_.created.size(), 2u);
  EXPECT_EQ(host_.created[1].chance_identity(), host_.created[0].chance_identity()) << "the same game, played again";
  // The lost game's result, arriving late, does not count.
  Store(host_.created[0], spec.entrants);
  runner->Pass(kNow + 16000);
  EXPECT_EQ(Games("lost")[0].state, "playing");
  // A host that cannot create the game: it waits for the next pass.
  host_.probe = grpc::Status::OK;
  Store(host_.created[1], spec.entrants);
  host_.fail_creates = 1;
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostA:1", 1000, 0, kNow + 17000}).ok());
  runner->Pass(kNow + 17000);
  EXPECT_EQ(Games("lost")[1].state, "pending");
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostA:1", 1000, 0, kNow + 17000}).ok());
  EXPECT_EQ(runner->Pass(kNow + 17500).started, 1);
  EXPECT_EQ(Games("lost")[1].state, "playing");
  EXPECT_EQ(Games("lost")[1].attempts, 2);
}

// A host registry that cannot be reached (Redis down) stops the pass with its
// UNAVAILABLE when a game is to start (the server logs "tournament pass failed"
// and tries again); the next pass, with the registry back, starts it.
TEST_F(SchedulerTest, APassStopsAtAnUnreachableHostRegistry) {
  const TournamentSpec spec = Spec("away", TournamentFormat::kRoundRobin, 4);
  CreateTournament(spec);
  Available(spec.entrants);
  const auto runner = Runner();
  hosts_->unavailable = true;
  const RunnerStats stats = runner->Pass(kNow);
  EXPECT_EQ(stats.error.error_code(), grpc::StatusCode::UNAVAILABLE) << stats.error.error_message();
  EXPECT_TRUE(host_.created.empty());
  EXPECT_EQ(Games("away")[0].state, "pending");
  hosts_->unavailable = false;
  EXPECT_EQ(runner->Pass(kNow).started, 1);
}

TEST_F(SchedulerTest, ForfeitedSeatPlacesLast) {
  // (rule of the ratings service, shared: docs/RESULTS.md) a forfeit ranks last
  EXPECT_EQ(PlacesOf(0, {10, 9, 8, 7}, {false, true, false, false}), (std::vector<int>{1, 4, 2, 3}));
  EXPECT_EQ(PlacesOf(-1, {9, 9, 8, 7}, {}), (std::vector<int>{1, 1, 3, 4}));
  EXPECT_EQ(PlacesOf(2, {9, 9, 10, 7}, {}), (std::vector<int>{2, 2, 1, 4}));
}

// The stores' contract (tests/tournament_store_contract.h), held against the
// fakes the scheduler above runs over (and against PostgreSQL and Redis, with the
// fence's and the current attempt's negative controls, in
// tournaments_pg_redis_test.cc); and the fake roster's lease.
INSTANTIATE_TYPED_TEST_SUITE_P(Fake, TournamentStoreContract, SchedulerTest);

class FakeTournamentStoreTest : public SchedulerTest {};

// The lease has one holder at a time, on the roster's clock.
// A tournament with a registration window starts at its start on the
// database's clock, not the scheduler's (a replica whose clock runs hours ahead
// starts nothing early), with those entered by then; a recurring one opens its
// next occurrence with the same entrants; with fewer entrants than a table it
// is cancelled, saying why, and its next occurrence opens all the same.
TEST_F(SchedulerTest, ARegisteringTournamentStartsAtItsStartWithThoseEntered) {
  db_.clock_ms = kNow;
  TournamentSpec spec = Spec("nightly", TournamentFormat::kRoundRobin, 1);
  spec.starts_ms = kNow + 60'000;
  spec.max_entrants = 8;
  spec.repeat_every_ms = 86'400'000;
  ASSERT_TRUE(store_->Create(spec, {}).ok());
  TournamentSpec small = Spec("small", TournamentFormat::kDuplicate, 2);
  small.starts_ms = kNow + 60'000;
  small.max_entrants = 8;
  ASSERT_TRUE(store_->Create(small, {}).ok());
  bool joined = false;
  for (size_t i = 1; i < 5; ++i) ASSERT_TRUE(store_->Join("nightly", identities_[i], &joined).ok() && joined);
  auto runner = Runner();
  RunnerStats stats = runner->Pass(kNow + 10 * 3'600'000);  // this replica's clock: ten hours ahead
  EXPECT_EQ(stats.tournaments_started + stats.tournaments_cancelled, 0);
  EXPECT_EQ(State("nightly"), "registering");
  EXPECT_TRUE(host_.created.empty());
  // What that pass took as lapsed (the host's heartbeat, the entrants') is back.
  ASSERT_TRUE(hosts_->HostHeartbeat({"hostA:1", 1000, 0, kNow}).ok());
  Available(std::vector<int64_t>(identities_.begin(), identities_.begin() + 5));

  db_.clock_ms = spec.starts_ms;
  stats = runner->Pass(kNow);
  EXPECT_EQ(stats.tournaments_started, 1);
  EXPECT_EQ(stats.tournaments_cancelled, 1);
  EXPECT_EQ(State("nightly"), "running");
  EXPECT_EQ(Games("nightly").size(), 20u) << "a round robin of the five entered";
  EXPECT_FALSE(host_.created.empty()) << "its first games start in the same pass";
  TournamentRow row;
  ASSERT_TRUE(store_->Get("small", &row).ok());
  EXPECT_EQ(row.state, "cancelled");
  EXPECT_EQ(row.reason, "too few entrants: 2 entered by the start, a table needs 4");
  ASSERT_TRUE(store_->Get("nightly-2", &row).ok());
  EXPECT_EQ(row.state, "registering");
  EXPECT_EQ(row.spec.starts_ms, spec.starts_ms + spec.repeat_every_ms);
  EXPECT_EQ(row.spec.entrants, std::vector<int64_t>(identities_.begin(), identities_.begin() + 5));
  EXPECT_NE(row.spec.seed, spec.seed) << "each occurrence its own seed";
  EXPECT_EQ(PlayOut(*runner, "nightly", identities_) > 0, true);
  EXPECT_EQ(State("nightly"), "finished");

  // A scheduler that was down for three days opens the next occurrence still
  // ahead, not a backlog.
  db_.clock_ms = spec.starts_ms + 3 * spec.repeat_every_ms + 1000;
  runner->Pass(kNow);
  ASSERT_TRUE(store_->Get("nightly-5", &row).ok());
  EXPECT_EQ(row.state, "registering");
  EXPECT_EQ(row.spec.occurrence, 5);
  EXPECT_GT(row.spec.starts_ms, db_.clock_ms);
  EXPECT_EQ(State("nightly-2"), "running");
}

// Arena: entrants are paired as they become free, those who played least
// first, for the arena's time on the database's clock; then no more pairings,
// and it finishes once the games under way have. Scored by results like a
// round robin.
TEST_F(SchedulerTest, AnArenaPairsFreeEntrantsUntilItsTimeIsUp) {
  db_.clock_ms = kNow;
  TournamentSpec spec = Spec("blitz", TournamentFormat::kArena, 6);
  spec.arena_ms = 60'000;
  CreateTournament(spec);
  EXPECT_TRUE(Games("blitz").empty());
  Available(spec.entrants, 1);
  auto runner = Runner();
  size_t stored = 0;
  int before_end = 0;
  for (int pass = 1; pass <= 60 && State("blitz") == "running"; ++pass) {
    if (pass == 30) {
      before_end = int(Games("blitz").size());
      db_.clock_ms = kNow + 60'000;  // the arena's time is up
    }
    runner->Pass(kNow);
    for (; stored < host_.created.size(); ++stored) Store(host_.created[stored], identities_);
  }
  EXPECT_EQ(State("blitz"), "finished");
  const std::vector<TournamentGameRow> games = Games("blitz");
  EXPECT_GE(before_end, 6) << "pairings go on while the arena lasts";
  EXPECT_EQ(int(games.size()), before_end) << "no pairing after the end";
  std::map<int, int> played;
  std::set<uint64_t> chances;
  for (const TournamentGameRow& g : games) {
    EXPECT_EQ(g.state, "finished");
    EXPECT_EQ(g.game.round, g.number) << "one table a pairing with six entrants at tables of four";
    for (int e : g.game.entrants) ++played[e];
    chances.insert(g.game.chance_seed);
  }
  EXPECT_EQ(chances.size(), games.size()) << "every arena game has its own chance";
  ASSERT_EQ(played.size(), 6u);
  int fewest = 1 << 30, most = 0;
  for (const auto& [e, n] : played) {
    fewest = std::min(fewest, n);
    most = std::max(most, n);
  }
  EXPECT_LE(most - fewest, 1) << "those who played least are paired first";
  TournamentRow row;
  ASSERT_TRUE(store_->Get("blitz", &row).ok());
  v1::Tournament t;
  TournamentToProto(row, games, &t);
  EXPECT_EQ(t.standings(0).identity_id(), identities_[0]) << "the first in every game's order ranks first";
  EXPECT_EQ(t.arena_ms(), 60'000);

  // An entrant whose stream goes away between a pairing and its start: the
  // pairing is void and its table-mates are paired again without it (the four
  // left are fewer than the field of five: after the field's brief wait).
  spec.id = "dropout";
  spec.entrants.assign(identities_.begin(), identities_.begin() + 5);
  CreateTournament(spec);
  Available(spec.entrants, 4);
  runner->Pass(kNow);  // pairs four of the five
  std::vector<TournamentGameRow> paired = Games("dropout");
  ASSERT_EQ(paired.size(), 1u);
  const int64_t gone = spec.entrants[size_t(paired[0].game.entrants[0])];
  ASSERT_TRUE(roster_->Leave(gone, "c").ok());
  runner->Pass(kNow + 1000);
  paired = Games("dropout");
  EXPECT_EQ(paired.size(), 1u) << "four of five free: the field waits";
  EXPECT_EQ(paired[0].state, "void");
  runner->Pass(kNow + 6000);
  paired = Games("dropout");
  ASSERT_EQ(paired.size(), 2u);
  EXPECT_EQ(paired[0].state, "void");
  EXPECT_EQ(std::count(paired[1].game.entrants.begin(), paired[1].game.entrants.end(),
                       std::find(spec.entrants.begin(), spec.entrants.end(), gone) - spec.entrants.begin()),
            0)
      << "the entrant who left is not paired";
  runner->Pass(kNow + 6000);
  EXPECT_EQ(Games("dropout")[1].state, "playing");

  // An arena that takes registrations starts with no games, pairing from its
  // start on; it is not taken for one that could not start.
  spec.id = "evening";
  spec.entrants.assign(identities_.begin() + 4, identities_.begin() + 8);
  Available(spec.entrants, 4);
  spec.starts_ms = db_.clock_ms + 1000;
  spec.max_entrants = 8;
  ASSERT_TRUE(store_->Create(spec, {}).ok());
  db_.clock_ms = spec.starts_ms;
  RunnerStats stats = runner->Pass(kNow);
  EXPECT_EQ(stats.tournaments_started, 1);
  EXPECT_EQ(State("evening"), "running");
  ASSERT_TRUE(store_->Get("evening", &row).ok());
  EXPECT_EQ(row.reason, "");
  EXPECT_EQ(Games("evening").size(), 1u) << "its first pairing in the pass that started it";
}

// Stopping early: a duplicate tournament of a hundred sets whose entrants
// finish in the same order every game is decided after the sequential test's
// minimum of 15 sets; the sets not begun are void, whole, and the tournament
// finishes saying why. Without the option all hundred would be played.
TEST_F(SchedulerTest, ASequentialStopEndsTheTournamentOnceEveryPairIsDecided) {
  TournamentSpec spec = Spec("sprt", TournamentFormat::kDuplicate, 4, 100);
  spec.sequential_stop = true;
  CreateTournament(spec);
  Available(spec.entrants);
  auto runner = Runner();
  EXPECT_GT(PlayOut(*runner, "sprt", identities_), 0);
  EXPECT_EQ(State("sprt"), "finished");
  std::map<int, std::set<std::string>> states_by_set;
  int finished = 0, voided = 0;
  for (const TournamentGameRow& g : Games("sprt")) {
    states_by_set[g.game.set].insert(g.state);
    finished += g.state == "finished";
    voided += g.state == "void";
  }
  EXPECT_GE(finished, 15 * 4) << "no verdict before 15 sets";
  EXPECT_LE(finished, 17 * 4) << "stopped soon after the verdict";
  EXPECT_EQ(finished + voided, 400);
  for (const auto& [set, states] : states_by_set) EXPECT_EQ(states.size(), 1u) << "set " << set << " split";
  TournamentRow row;
  ASSERT_TRUE(store_->Get("sprt", &row).ok());
  EXPECT_NE(row.reason.find("stopped early"), std::string::npos) << row.reason;
  v1::Tournament t;
  TournamentToProto(row, Games("sprt"), &t);
  EXPECT_EQ(t.games_void(), uint32_t(voided));
  EXPECT_EQ(t.games_total(), uint32_t(finished));
  for (const v1::PairComparison& p : t.pairs()) EXPECT_EQ(p.sprt(), "H1") << p.a_name() << " " << p.b_name();
}

TEST_F(FakeTournamentStoreTest, LeaseHasOneHolderAtATime) {
  EXPECT_TRUE(Leads("a", 300));
  EXPECT_FALSE(Leads("b", 300));
  EXPECT_TRUE(Leads("a", 300));  // renewed
  roster_->clock_ms = 299;
  EXPECT_FALSE(Leads("b", 300));
  roster_->clock_ms = 300;
  EXPECT_TRUE(Leads("b", 300));
  EXPECT_FALSE(Leads("a", 300));
}

// The game hosts' service token, as the matchmaker is given it.
constexpr char kServiceToken[] = "svc-tournaments-test";

// The service, through a real gRPC server.
class TournamentsServiceTest : public SchedulerTest {
 protected:
  void SetUp() override {
    SchedulerTest::SetUp();
    if (HasFatalFailure()) return;
    admin_token_ = lookup_.Issue({.identity_id = identities_[0], .name = "bot0", .kind = "player", .admin = true});
    player_token_ = lookup_.Issue({.identity_id = identities_[1], .name = "bot1", .kind = "player"});
    auth_ = std::make_unique<auth::TokenAuthenticator>(
        &lookup_, std::vector<std::pair<std::string, std::string>>{{kServiceToken, std::string(auth::kGameHostRole)}});
    CompeteOptions options;
    options.poll_ms = 20;
    service_ =
        std::make_unique<TournamentsService>(store_.get(), &entrants_, roster_.get(), auth_.get(), &clock_, options);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    stub_ = v1::Tournaments::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    SchedulerTest::TearDown();
  }
  grpc::Status CreateRpc(const v1::CreateTournamentRequest& request, const std::string& token, v1::Tournament* out) {
    grpc::ClientContext context;
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    return stub_->CreateTournament(&context, request, out);
  }
  v1::CreateTournamentRequest Request() {
    v1::CreateTournamentRequest r;
    r.set_id("cup");
    r.set_format("round-robin");
    for (int i = 0; i < 5; ++i) r.add_entrants(identities_[size_t(i)]);
    return r;
  }
  // What the database holds: its tournaments, and their games.
  int64_t Count(const std::string& table) {
    int64_t n = 0;
    db_.Edit([&](FakeTournamentDb::State& db) {
      for (const auto& [id, t] : db.tournaments) n += table == "tournaments" ? 1 : int64_t(t.games.size());
    });
    return n;
  }

  auth::testing::FakeAccountLookup lookup_;
  std::string admin_token_, player_token_;
  std::unique_ptr<auth::TokenAuthenticator> auth_;
  std::unique_ptr<TournamentsService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Tournaments::Stub> stub_;
  services::testing::FakeClock clock_{0, kNow};  // heartbeats on the scheduler's kNow
};

TEST_F(TournamentsServiceTest, BadRequestsAreRefusedAndWriteNothing) {
  v1::Tournament out;
  struct Case {
    std::function<void(v1::CreateTournamentRequest*)> change;
    grpc::StatusCode code;
    std::string mentions;
  };
  const std::vector<Case> cases = {
      {[](auto* r) { r->set_id("no spaces"); }, grpc::StatusCode::INVALID_ARGUMENT, "id"},
      {[](auto* r) { r->set_format("knockout"); }, grpc::StatusCode::INVALID_ARGUMENT, "format"},
      {[](auto* r) { r->set_seats(5); }, grpc::StatusCode::INVALID_ARGUMENT, "seats"},
      {[](auto* r) { r->set_ruleset("chess"); }, grpc::StatusCode::INVALID_ARGUMENT, "ruleset"},
      {[](auto* r) { r->set_options("vp_to_win=banana"); }, grpc::StatusCode::INVALID_ARGUMENT, "options"},
      {[](auto* r) { r->mutable_entrants()->Truncate(3); }, grpc::StatusCode::INVALID_ARGUMENT, "entrants"},
      {[this](auto* r) { r->set_entrants(1, identities_[0]); }, grpc::StatusCode::INVALID_ARGUMENT, "twice"},
      {[](auto* r) { r->add_entrants(999999); }, grpc::StatusCode::NOT_FOUND, "999999"},
      {[](auto* r) { r->set_decision_ms(5); }, grpc::StatusCode::INVALID_ARGUMENT, "decision_ms"},
      {[](auto* r) { r->set_format("arena"); }, grpc::StatusCode::INVALID_ARGUMENT, "arena_ms"},
      {[](auto* r) { r->set_arena_ms(600'000); }, grpc::StatusCode::INVALID_ARGUMENT, "only an arena"},
      {[](auto* r) {
         r->set_format("swiss");
         r->set_sequential_stop(true);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "sequential_stop"},
      {[](auto* r) {
         r->set_format("arena");
         r->set_arena_ms(-1);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "arena_ms"},
      {[](auto* r) { r->set_max_entrants(8); }, grpc::StatusCode::INVALID_ARGUMENT, "max_entrants"},
      {[](auto* r) {
         r->set_format("arena");
         r->set_arena_ms(600'000);
         r->set_rounds(3);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "rounds"},
  };
  for (const Case& c : cases) {
    v1::CreateTournamentRequest r = Request();
    c.change(&r);
    const grpc::Status s = CreateRpc(r, admin_token_, &out);
    EXPECT_EQ(s.error_code(), c.code) << c.mentions << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.mentions), std::string::npos) << s.error_message();
  }
  EXPECT_EQ(CreateRpc(Request(), "", &out).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(CreateRpc(Request(), player_token_, &out).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // The game hosts' service token stores results; it administers nothing.
  EXPECT_EQ(CreateRpc(Request(), kServiceToken, &out).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // 30 entrants in a round robin of 4 would be 109,620 games.
  v1::CreateTournamentRequest huge = Request();
  huge.clear_entrants();
  for (int i = 0; i < 30; ++i) {
    entrants_.names[1000 + i] = "many" + std::to_string(i);
    huge.add_entrants(1000 + i);
  }
  EXPECT_EQ(CreateRpc(huge, admin_token_, &out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Count("tournaments"), 0);
  EXPECT_EQ(Count("tournament_games"), 0);

  ASSERT_TRUE(CreateRpc(Request(), admin_token_, &out).ok());
  EXPECT_EQ(out.games_total(), 20u);
  EXPECT_EQ(out.state(), "running");
  EXPECT_EQ(out.entrants(2).name(), "bot2");
  EXPECT_EQ(CreateRpc(Request(), admin_token_, &out).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(Count("tournament_games"), 20);
  // Seeds would reveal every board and dice to come: entrants do not see them
  // while it runs; administrators do.
  for (const std::string& token : {player_token_, admin_token_}) {
    const bool admin = token == admin_token_;
    grpc::ClientContext read;
    read.AddMetadata("authorization", "Bearer " + token);
    v1::GetTournamentRequest cup_request;
    cup_request.set_id("cup");
    v1::Tournament seen;
    ASSERT_TRUE(stub_->GetTournament(&read, cup_request, &seen).ok());
    EXPECT_EQ(seen.seed() != 0, admin);
    grpc::ClientContext list;
    list.AddMetadata("authorization", "Bearer " + token);
    v1::ListTournamentGamesRequest games_request;
    games_request.set_id("cup");
    v1::ListTournamentGamesResponse games;
    ASSERT_TRUE(stub_->ListTournamentGames(&list, games_request, &games).ok());
    ASSERT_EQ(games.games_size(), 20);
    EXPECT_EQ(games.games(0).chance_seed() != 0, admin);
    EXPECT_EQ(games.games(0).board_seed() != 0, admin);
  }

  grpc::ClientContext get;
  get.AddMetadata("authorization", "Bearer " + player_token_);
  v1::GetTournamentRequest unknown;
  unknown.set_id("nope");
  EXPECT_EQ(stub_->GetTournament(&get, unknown, &out).error_code(), grpc::StatusCode::NOT_FOUND);
  grpc::ClientContext cancel;
  cancel.AddMetadata("authorization", "Bearer " + player_token_);
  v1::CancelTournamentRequest cup;
  cup.set_id("cup");
  EXPECT_EQ(stub_->CancelTournament(&cancel, cup, &out).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  grpc::ClientContext by_service;
  by_service.AddMetadata("authorization", std::string("Bearer ") + kServiceToken);
  EXPECT_EQ(stub_->CancelTournament(&by_service, cup, &out).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  grpc::ClientContext cancel2;
  cancel2.AddMetadata("authorization", "Bearer " + admin_token_);
  ASSERT_TRUE(stub_->CancelTournament(&cancel2, cup, &out).ok());
  EXPECT_EQ(out.state(), "cancelled");
  grpc::ClientContext cancel3;
  cancel3.AddMetadata("authorization", "Bearer " + admin_token_);
  EXPECT_EQ(stub_->CancelTournament(&cancel3, cup, &out).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

// Registration through the service: a start in the future opens it; bots and
// players enter and withdraw themselves, only administrators others; bad
// registration settings are refused and write nothing.
TEST_F(TournamentsServiceTest, EntrantsRegisterThemselvesUntilTheStart) {
  v1::Tournament out;
  v1::CreateTournamentRequest open = Request();
  open.clear_entrants();
  open.set_starts_unix_ms(kNow + 60'000);
  open.set_max_entrants(6);
  open.set_repeat_every_ms(86'400'000);
  struct Case {
    std::function<void(v1::CreateTournamentRequest*)> change;
    std::string mentions;
  };
  const std::vector<Case> cases = {
      {[](auto* r) { r->set_starts_unix_ms(kNow - 1); }, "starts_unix_ms"},
      {[](auto* r) { r->set_starts_unix_ms(-5); }, "starts_unix_ms"},
      {[](auto* r) { r->set_starts_unix_ms(kNow + 100LL * 86'400'000); }, "90 days"},
      {[](auto* r) { r->set_max_entrants(40); }, "max_entrants"},
      {[](auto* r) { r->set_max_entrants(3); }, "max_entrants"},
      {[](auto* r) { r->set_repeat_every_ms(60'000); }, "repeat_every_ms"},
      {[](auto* r) {
         r->set_starts_unix_ms(0);
         r->set_max_entrants(0);
       },
       "repeat_every_ms"},
      {[](auto* r) { r->set_id(std::string(33, 'n')); }, "32"},
      {[](auto* r) {
         r->set_max_entrants(65);
         r->set_sequential_stop(true);
       },
       "at most 64"},
  };
  for (const Case& c : cases) {
    v1::CreateTournamentRequest r = open;
    c.change(&r);
    const grpc::Status s = CreateRpc(r, admin_token_, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.mentions << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.mentions), std::string::npos) << s.error_message();
  }
  EXPECT_EQ(Count("tournaments"), 0);
  ASSERT_TRUE(CreateRpc(open, admin_token_, &out).ok());
  EXPECT_EQ(out.state(), "registering");
  EXPECT_EQ(out.starts_unix_ms(), kNow + 60'000);
  EXPECT_EQ(out.max_entrants(), 6u);
  EXPECT_EQ(out.series(), "cup");
  EXPECT_EQ(out.games_total(), 0u);
  EXPECT_EQ(Count("tournament_games"), 0);

  auto call = [&](bool join, const std::string& token, const std::string& id, int64_t identity) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token);
    out.Clear();
    if (join) {
      v1::JoinTournamentRequest r;
      r.set_id(id);
      r.set_identity_id(identity);
      return stub_->JoinTournament(&context, r, &out);
    }
    v1::LeaveTournamentRequest r;
    r.set_id(id);
    r.set_identity_id(identity);
    return stub_->LeaveTournament(&context, r, &out);
  };
  ASSERT_TRUE(call(true, player_token_, "cup", 0).ok());
  ASSERT_EQ(out.entrants_size(), 1);
  EXPECT_EQ(out.entrants(0).name(), "bot1");
  EXPECT_EQ(out.seed(), 0u) << "the seed is the administrators' until the end";
  EXPECT_TRUE(call(true, player_token_, "cup", 0).ok()) << "entering twice changes nothing";
  EXPECT_EQ(out.entrants_size(), 1);
  EXPECT_EQ(call(true, player_token_, "cup", identities_[2]).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(call(false, player_token_, "cup", identities_[2]).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(call(true, admin_token_, "cup", 999999).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(call(true, admin_token_, "cup", -3).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(call(true, player_token_, "nope", 0).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(call(true, "", "cup", 0).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  for (size_t i = 2; i < 7; ++i) ASSERT_TRUE(call(true, admin_token_, "cup", identities_[i]).ok()) << i;
  EXPECT_EQ(out.entrants_size(), 6);
  const grpc::Status full = call(true, admin_token_, "cup", identities_[7]);
  EXPECT_EQ(full.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(full.error_message().find("full"), std::string::npos) << full.error_message();
  ASSERT_TRUE(call(false, player_token_, "cup", 0).ok());
  EXPECT_EQ(out.entrants_size(), 5);
  EXPECT_EQ(out.entrants(0).name(), "bot2") << "the later entrants move up";
  EXPECT_EQ(call(false, player_token_, "cup", 0).error_code(), grpc::StatusCode::NOT_FOUND);

  // Once the start has come on the database's clock, registration is closed.
  db_.clock_ms = kNow + 60'000;
  const grpc::Status closed = call(true, player_token_, "cup", 0);
  EXPECT_EQ(closed.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(closed.error_message().find("registration closed"), std::string::npos) << closed.error_message();
  EXPECT_EQ(call(false, admin_token_, "cup", identities_[2]).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

// The seeds, the tournament's and its games', are the administrators' while it
// registers and runs, through every RPC that shows them to anyone else: Get,
// List, ListTournamentGames, Join and Leave. Once it has finished or was
// cancelled, everyone sees them.
TEST_F(TournamentsServiceTest, SeedsAreHiddenUntilTheEndThroughEveryRpc) {
  auto with = [](const std::string& token) {
    auto context = std::make_unique<grpc::ClientContext>();
    context->AddMetadata("authorization", "Bearer " + token);
    return context;
  };
  // The tournament's seed as `token` sees it through GetTournament and through
  // ListTournaments: the two must agree.
  auto seed = [&](const std::string& token, const std::string& id) -> uint64_t {
    v1::GetTournamentRequest get;
    get.set_id(id);
    v1::Tournament one;
    EXPECT_TRUE(stub_->GetTournament(with(token).get(), get, &one).ok()) << id;
    v1::ListTournamentsResponse all;
    EXPECT_TRUE(stub_->ListTournaments(with(token).get(), v1::ListTournamentsRequest(), &all).ok());
    const auto listed = std::find_if(all.tournaments().begin(), all.tournaments().end(),
                                     [&](const v1::Tournament& t) { return t.id() == id; });
    if (listed == all.tournaments().end()) {
      ADD_FAILURE() << id << " is not listed";
    } else {
      EXPECT_EQ(listed->seed(), one.seed()) << id;
    }
    return one.seed();
  };
  // Whether `token` sees the games' seeds (every game's, or none).
  auto game_seeds = [&](const std::string& token, const std::string& id) {
    v1::ListTournamentGamesRequest request;
    request.set_id(id);
    v1::ListTournamentGamesResponse games;
    EXPECT_TRUE(stub_->ListTournamentGames(with(token).get(), request, &games).ok()) << id;
    EXPECT_GT(games.games_size(), 0) << id;
    int shown = 0;
    for (const v1::TournamentGame& g : games.games()) shown += g.chance_seed() != 0 && g.board_seed() != 0;
    EXPECT_TRUE(shown == 0 || shown == games.games_size()) << shown << " of " << games.games_size();
    return shown > 0;
  };
  // The tournament's seed in Join's or Leave's answer.
  auto registered = [&](bool join, const std::string& token, int64_t identity) -> uint64_t {
    v1::Tournament out;
    grpc::Status s;
    if (join) {
      v1::JoinTournamentRequest r;
      r.set_id("open");
      r.set_identity_id(identity);
      s = stub_->JoinTournament(with(token).get(), r, &out);
    } else {
      v1::LeaveTournamentRequest r;
      r.set_id("open");
      r.set_identity_id(identity);
      s = stub_->LeaveTournament(with(token).get(), r, &out);
    }
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out.seed();
  };

  v1::Tournament out;
  v1::CreateTournamentRequest open = Request();
  open.set_id("open");
  open.clear_entrants();
  open.set_starts_unix_ms(kNow + 60'000);
  open.set_seed(7);
  ASSERT_TRUE(CreateRpc(open, admin_token_, &out).ok());
  EXPECT_EQ(out.seed(), 7u) << "an administrator's own tournament";
  v1::CreateTournamentRequest cup = Request();
  cup.set_seed(9);
  ASSERT_TRUE(CreateRpc(cup, admin_token_, &out).ok());
  EXPECT_EQ(out.seed(), 9u);

  // Registering.
  EXPECT_EQ(seed(player_token_, "open"), 0u);
  EXPECT_EQ(seed(admin_token_, "open"), 7u);
  EXPECT_EQ(registered(true, player_token_, 0), 0u);
  EXPECT_EQ(registered(true, admin_token_, identities_[2]), 7u);
  EXPECT_EQ(registered(false, player_token_, 0), 0u);
  EXPECT_EQ(registered(false, admin_token_, identities_[2]), 7u);
  // Running.
  EXPECT_EQ(seed(player_token_, "cup"), 0u);
  EXPECT_FALSE(game_seeds(player_token_, "cup"));
  EXPECT_EQ(seed(admin_token_, "cup"), 9u);
  EXPECT_TRUE(game_seeds(admin_token_, "cup"));

  // Finished and cancelled: everyone's.
  ASSERT_TRUE(store_->SetState("cup", "finished", "").ok());
  ASSERT_TRUE(store_->SetState("open", "cancelled", "cancelled by an administrator").ok());
  for (const std::string& token : {player_token_, admin_token_}) {
    EXPECT_EQ(seed(token, "cup"), 9u);
    EXPECT_TRUE(game_seeds(token, "cup"));
    EXPECT_EQ(seed(token, "open"), 7u);
  }
}

TEST_F(TournamentsServiceTest, CompeteStreamMakesTheCallerAvailableAndDeliversItsGames) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + player_token_);
  v1::CompeteRequest request;
  request.set_capacity(3);
  auto reader = stub_->Compete(&context, request);
  v1::CompeteUpdate update;
  ASSERT_TRUE(reader->Read(&update));
  ASSERT_TRUE(update.has_status());
  EXPECT_EQ(update.status().identity_id(), identities_[1]);
  EXPECT_EQ(AvailableAt(kNow)[identities_[1]], 3);
  v1::Assignment a;
  a.set_game_id("t-x-0-1");
  a.set_seat_token("secret");
  a.set_tournament("x");
  ASSERT_TRUE(roster_->Send(identities_[1], a.SerializeAsString()).ok());
  ASSERT_TRUE(reader->Read(&update));
  ASSERT_TRUE(update.has_assignment());
  EXPECT_EQ(update.assignment().game_id(), "t-x-0-1");
  EXPECT_EQ(update.assignment().seat_token(), "secret");
  context.TryCancel();
  reader->Finish();
  // The stream left: so did the availability (at once, not at the lapse).
  for (int i = 0; i < 100 && AvailableAt(kNow).count(identities_[1]); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(AvailableAt(kNow).count(identities_[1]), 0u);

  grpc::ClientContext bad;
  bad.AddMetadata("authorization", "Bearer " + player_token_);
  request.set_capacity(17);
  auto refused = stub_->Compete(&bad, request);
  EXPECT_FALSE(refused->Read(&update));
  EXPECT_EQ(refused->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

// Each Compete stream is a connection of the roster with its own inbox: a game
// sent to one connection reaches that stream, not another of the same identity
// (which would otherwise take whatever it polls first).
TEST_F(TournamentsServiceTest, CompeteStreamsReceiveWhatIsSentToTheirOwnConnection) {
  const int64_t me = identities_[1];
  struct Stream {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::CompeteUpdate>> reader;
    std::string connection;
  };
  Stream streams[2];
  std::set<std::string> known;
  for (Stream& stream : streams) {
    stream.context.AddMetadata("authorization", "Bearer " + player_token_);
    stream.context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    stream.reader = stub_->Compete(&stream.context, v1::CompeteRequest());
    v1::CompeteUpdate update;
    ASSERT_TRUE(stream.reader->Read(&update));
    ASSERT_TRUE(update.has_status());
    // The stream's heartbeat came before its status: its connection is listed.
    std::set<std::string> listed;
    const auto connections = ConnectionsAt(kNow);
    ASSERT_TRUE(connections.count(me));
    for (const RosterConnection& c : connections.at(me)) listed.insert(c.connection);
    ASSERT_EQ(listed.size(), known.size() + 1);
    for (const std::string& c : listed)
      if (!known.count(c)) stream.connection = c;
    known = listed;
  }
  for (int i : {1, 0}) {
    v1::Assignment a;
    a.set_game_id("t-x-0-" + std::to_string(i));
    ASSERT_TRUE(roster_->SendTo(me, streams[i].connection, a.SerializeAsString()).ok());
  }
  for (int i : {0, 1}) {
    v1::CompeteUpdate update;
    do {
      ASSERT_TRUE(streams[i].reader->Read(&update)) << "stream " << i;
    } while (!update.has_assignment());
    EXPECT_EQ(update.assignment().game_id(), "t-x-0-" + std::to_string(i)) << "stream " << i;
  }
  for (Stream& stream : streams) {
    stream.context.TryCancel();
    stream.reader->Finish();
  }
}

}  // namespace
}  // namespace metropolis::matchmaker
