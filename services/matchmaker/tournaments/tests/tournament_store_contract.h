// The tournament store's and the roster's contract (store.h, roster_store.h),
// written once and held against both implementations: over the fakes in
// tournaments_test.cc (matchmaker_unit_tests) and over PostgreSQL and Redis in
// tournaments_pg_redis_test.cc (tournament_tests), where the fence's and the
// current attempt's negative controls ("tournament_fence", "current_attempt")
// make its cases fail. Each instantiates TournamentStoreContract with a fixture
// derived from testing::TournamentsFixture (tests/fixture.h) that also has
// NewScheduler(): another scheduler's store on the same database,
// UnreachableRoster(): a roster that cannot be reached, DatabaseNowMs(): the
// database's clock, and WaitUntilDatabaseTime(ms): until that clock reads at
// least `ms` (the fake's is set; PostgreSQL's is waited for).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "services/matchmaker/tournaments/roster_store.h"
#include "services/matchmaker/tournaments/runner.h"
#include "services/matchmaker/tournaments/spec.h"
#include "services/matchmaker/tournaments/store.h"

namespace metropolis::matchmaker {

template <typename Fixture>
class TournamentStoreContract : public Fixture {};

inline void PrintTo(const RosterConnection& c, std::ostream* os) { *os << c.connection << "=" << c.capacity; }

// What `connection` of `identity` receives until its inboxes are empty (at most
// 100 messages).
inline std::vector<std::string> ReceiveAll(RosterStore& roster, int64_t identity, const std::string& connection) {
  std::vector<std::string> out;
  std::string message;
  bool found = false;
  while (out.size() < 100) {
    const grpc::Status s = roster.Receive(identity, connection, &message, &found);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok() || !found) break;
    out.push_back(message);
  }
  return out;
}
using Messages = std::vector<std::string>;

TYPED_TEST_SUITE_P(TournamentStoreContract);

// A taken id is refused, games come back by number, pending; a tournament that
// is not duplicate is due whole at once, a duplicate set once all its games
// finished, named by its counted attempts; what was marked revealed is not due
// again.
TYPED_TEST_P(TournamentStoreContract, CreatedTournamentsAndTheirDueReveals) {
  const TournamentSpec dup = this->Spec("dup", TournamentFormat::kDuplicate, 4);
  this->CreateTournament(dup);
  this->CreateTournament(this->Spec("rr", TournamentFormat::kRoundRobin, 4));
  EXPECT_EQ(this->store_->Create(dup, {}).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  auto games = this->Games("dup");
  ASSERT_EQ(games.size(), 4u);
  for (int n = 0; n < 4; ++n) {
    EXPECT_EQ(games[size_t(n)].number, n);
    EXPECT_EQ(games[size_t(n)].state, "pending");
    EXPECT_EQ(games[size_t(n)].attempts, 0);
  }
  std::vector<std::string> running;
  ASSERT_TRUE(this->store_->Running(&running).ok());
  EXPECT_EQ(running, (std::vector<std::string>{"dup", "rr"}));
  std::vector<TournamentRow> listed;
  ASSERT_TRUE(this->store_->List(&listed).ok());
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].spec.id, "rr") << "newest first";
  EXPECT_EQ(listed[1].spec.entrants, dup.entrants);

  std::vector<DueReveal> due;
  ASSERT_TRUE(this->store_->DueReveals(10, &due).ok());
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].tournament, "rr");
  EXPECT_TRUE(due[0].whole);
  ASSERT_TRUE(this->store_->MarkRevealed(due[0]).ok());
  // Every rotation played; rotation 2 lost once and played again.
  std::vector<std::string> counted;
  for (int n = 0; n < 4; ++n) {
    std::string id;
    bool ok = false;
    ASSERT_TRUE(this->store_->Claim("dup", n, "hostA:1", &id, &ok).ok() && ok);
    if (n == 2) {
      ASSERT_TRUE(this->store_->Requeue("dup", n, id).ok());
      ASSERT_TRUE(this->store_->Claim("dup", n, "hostA:1", &id, &ok).ok() && ok);
    }
    ASSERT_TRUE(this->store_->MarkPlaying("dup", n, id, &ok).ok() && ok);
    counted.push_back(id);
    if (n == 3) {
      ASSERT_TRUE(this->store_->DueReveals(10, &due).ok());
      EXPECT_TRUE(due.empty()) << "a set due before its last game finished";
    }
    ASSERT_TRUE(this->store_->Finish("dup", n, id, {1, 2, 3, 4}, &ok).ok() && ok);
  }
  EXPECT_EQ(counted[2], "t-dup-2-2");
  ASSERT_TRUE(this->store_->DueReveals(10, &due).ok());
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].tournament, "dup");
  EXPECT_FALSE(due[0].whole);
  EXPECT_EQ(due[0].set, 0);
  EXPECT_EQ(due[0].game_ids, counted);
  ASSERT_TRUE(this->store_->MarkRevealed(due[0]).ok());
  ASSERT_TRUE(this->store_->DueReveals(10, &due).ok());
  EXPECT_TRUE(due.empty());
}

// Item 4 of project issue #14: a game played again and its first attempt never
// both count. The first attempt, judged lost, may in fact still run and be stored
// later, and a scheduler whose snapshot predates the requeue still names it: its
// result is refused, the replay's counts. Without the check of the current attempt
// (the negative control "current_attempt") the first attempt's result is counted
// for the game, and the replay's, stored after, is lost.
TYPED_TEST_P(TournamentStoreContract, AReplayedGameAndItsFirstAttemptNeverBothCount) {
  const TournamentSpec spec = this->Spec("replayed", TournamentFormat::kRoundRobin, 4);
  this->CreateTournament(spec);
  std::string first, second;
  bool ok = false;
  ASSERT_TRUE(this->store_->Claim("replayed", 0, "hostA:1", &first, &ok).ok() && ok);
  ASSERT_TRUE(this->store_->MarkPlaying("replayed", 0, first, &ok).ok() && ok);
  ASSERT_TRUE(this->store_->Requeue("replayed", 0, first).ok());  // judged lost with its host
  ASSERT_TRUE(this->store_->Claim("replayed", 0, "hostA:1", &second, &ok).ok() && ok);
  ASSERT_TRUE(this->store_->MarkPlaying("replayed", 0, second, &ok).ok() && ok);
  ASSERT_NE(first, second);

  // The first attempt ends after all, and its result is reported.
  bool finished = true;
  ASSERT_TRUE(this->store_->Finish("replayed", 0, first, {4, 3, 2, 1}, &finished).ok());
  EXPECT_FALSE(finished) << "the first attempt of a game played again counted";
  EXPECT_EQ(this->Games("replayed")[0].state, "playing");
  EXPECT_EQ(this->Games("replayed")[0].game_id, second);

  // The runner asks only for the current attempt: both stored, the replay counts.
  this->Available(spec.entrants);
  const auto runner = this->Runner();
  {
    std::lock_guard lock(this->replays_.mutex);
    this->replays_.stored[first] = {.game_id = first, .winner = 3, .vp = {7, 8, 9, 10}, .forfeited = {}};
    this->replays_.stored[second] = {.game_id = second, .winner = 0, .vp = {10, 9, 8, 7}, .forfeited = {}};
  }
  EXPECT_EQ(runner->Pass(TypeParam::kNow).finished, 1);
  const auto games = this->Games("replayed");
  EXPECT_EQ(games[0].state, "finished");
  EXPECT_EQ(games[0].game_id, second);
  EXPECT_EQ(games[0].places, (std::vector<int>{1, 2, 3, 4})) << "not the replay's result";
  ASSERT_TRUE(this->store_->Finish("replayed", 0, first, {4, 3, 2, 1}, &finished).ok());
  EXPECT_FALSE(finished);
  EXPECT_EQ(this->Games("replayed")[0].places, (std::vector<int>{1, 2, 3, 4}));
}

// A scheduler paused past its lease wakes up still believing it leads, while a
// newer leader has taken over: its changes are refused by the fence and change
// nothing; the newer leader's go through. Without the fence (the negative control
// "tournament_fence") the stale leader requeues the game the new one is playing.
TYPED_TEST_P(TournamentStoreContract, AStaleSchedulerIsFencedOff) {
  const TournamentSpec spec = this->Spec("fenced", TournamentFormat::kRoundRobin, 4);
  this->CreateTournament(spec);
  const auto old_leader = this->NewScheduler();
  const auto new_leader = this->NewScheduler();
  int64_t old_fence = 0, new_fence = 0;
  ASSERT_TRUE(old_leader->TakeFence(&old_fence).ok());
  std::string game_id;
  bool claimed = false;
  ASSERT_TRUE(old_leader->Claim("fenced", 0, "hostA:1", &game_id, &claimed).ok());
  ASSERT_TRUE(claimed);
  // The old leader stalls; the new one takes the lease, a newer fence, and goes on.
  ASSERT_TRUE(new_leader->TakeFence(&new_fence).ok());
  EXPECT_GT(new_fence, old_fence);
  bool marked = false;
  ASSERT_TRUE(new_leader->MarkPlaying("fenced", 0, game_id, &marked).ok());
  ASSERT_TRUE(marked);

  // The old leader wakes up and finds the game "lost": its requeue is refused.
  const grpc::Status requeued = old_leader->Requeue("fenced", 0, game_id);
  EXPECT_EQ(requeued.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << requeued.error_message();
  EXPECT_EQ(this->Games("fenced")[0].state, "playing");
  EXPECT_EQ(this->Games("fenced")[0].game_id, game_id);
  EXPECT_EQ(old_leader->fence(), 0) << "a fenced-off scheduler must take a new fence before it changes anything";
  bool finished = false;
  EXPECT_FALSE(old_leader->Finish("fenced", 0, game_id, {1, 2, 3, 4}, &finished).ok());
  EXPECT_FALSE(finished);
  EXPECT_EQ(this->Games("fenced")[0].state, "playing");

  ASSERT_TRUE(new_leader->Finish("fenced", 0, game_id, {1, 2, 3, 4}, &finished).ok());
  EXPECT_TRUE(finished);
  EXPECT_EQ(this->Games("fenced")[0].state, "finished");
}

// A roster that cannot be reached answers every call with UNAVAILABLE, in the
// words a Compete stream ends with ("roster unavailable: ..."): not OK, no
// exception, and nothing read from it.
TYPED_TEST_P(TournamentStoreContract, EveryCallToAnUnreachableRosterAnswersUnavailable) {
  std::unique_ptr<RosterStore> roster = this->UnreachableRoster();
  std::unordered_map<int64_t, int> available;
  std::unordered_map<int64_t, std::vector<RosterConnection>> connections;
  std::string assignment;
  bool found = true, leading = true;
  const std::vector<std::pair<std::string, grpc::Status>> answers = {
      {"Heartbeat", roster->Heartbeat(101, "c", 1, this->kNow + 1000)},
      {"Leave", roster->Leave(101, "c")},
      {"Connections", roster->Connections(this->kNow, &connections)},
      {"Available", roster->Available(this->kNow, &available)},
      {"Send", roster->Send(101, "game")},
      {"SendTo", roster->SendTo(101, "c", "game")},
      {"Receive", roster->Receive(101, "c", &assignment, &found)},
      {"Lead", roster->Lead("a", 300, &leading)}};
  for (const auto& [call, s] : answers) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << call << ": " << s.error_message();
    EXPECT_TRUE(s.error_message().starts_with("roster unavailable: ")) << call << ": " << s.error_message();
  }
  EXPECT_FALSE(found);
  EXPECT_FALSE(leading);
}

// A game sent to one connection reaches that connection only: neither another
// connection of the same identity nor another identity's connection of the
// same name takes it (a duplicate set's rotations go to different sessions).
TYPED_TEST_P(TournamentStoreContract, SendToReachesOnlyThatConnection) {
  RosterStore& roster = *this->roster_;
  const int64_t until = this->kNow + 60'000;
  ASSERT_TRUE(roster.Heartbeat(101, "a", 1, until).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "b", 1, until).ok());
  ASSERT_TRUE(roster.Heartbeat(102, "a", 1, until).ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "for-a").ok());
  ASSERT_TRUE(roster.SendTo(101, "b", "for-b").ok());
  EXPECT_EQ(ReceiveAll(roster, 102, "a"), Messages{}) << "another identity's connection took it";
  EXPECT_EQ(ReceiveAll(roster, 101, "b"), Messages{"for-b"});
  EXPECT_EQ(ReceiveAll(roster, 101, "a"), Messages{"for-a"});
}

// A connection takes from its own inbox first, oldest first, then from its
// identity's, which any connection of the identity takes from.
TYPED_TEST_P(TournamentStoreContract, ReceiveTakesTheOwnInboxFirstThenTheIdentitys) {
  RosterStore& roster = *this->roster_;
  const int64_t until = this->kNow + 60'000;
  ASSERT_TRUE(roster.Heartbeat(101, "a", 1, until).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "b", 1, until).ok());
  ASSERT_TRUE(roster.Send(101, "shared-1").ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "own-1").ok());
  ASSERT_TRUE(roster.Send(101, "shared-2").ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "own-2").ok());
  std::string message;
  bool found = false;
  ASSERT_TRUE(roster.Receive(101, "b", &message, &found).ok());
  EXPECT_TRUE(found);
  EXPECT_EQ(message, "shared-1");
  EXPECT_EQ(ReceiveAll(roster, 101, "a"), (Messages{"own-1", "own-2", "shared-2"}));
  ASSERT_TRUE(roster.Receive(101, "b", &message, &found).ok());
  EXPECT_FALSE(found);
}

// A game sent to a connection that left (or was never there) goes to the
// identity's inbox, where its other connections find it.
TYPED_TEST_P(TournamentStoreContract, SendToAConnectionThatLeftLandsInTheIdentitysInbox) {
  RosterStore& roster = *this->roster_;
  const int64_t until = this->kNow + 60'000;
  ASSERT_TRUE(roster.Heartbeat(101, "a", 1, until).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "b", 1, until).ok());
  ASSERT_TRUE(roster.Leave(101, "a").ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "after-leave").ok());
  ASSERT_TRUE(roster.SendTo(101, "never", "unknown").ok());
  EXPECT_EQ(ReceiveAll(roster, 101, "b"), (Messages{"after-leave", "unknown"}));
  EXPECT_EQ(this->ConnectionsAt(this->kNow),
            (std::unordered_map<int64_t, std::vector<RosterConnection>>{{101, {{"b", 1}}}}));
}

// What a connection had not read when it leaves goes to its identity's inbox,
// in order and ahead of what was already there.
TYPED_TEST_P(TournamentStoreContract, LeaveReturnsUnreadAssignmentsToTheIdentitysInbox) {
  RosterStore& roster = *this->roster_;
  const int64_t until = this->kNow + 60'000;
  ASSERT_TRUE(roster.Heartbeat(101, "a", 1, until).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "b", 1, until).ok());
  ASSERT_TRUE(roster.Send(101, "shared").ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "own-1").ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "own-2").ok());
  ASSERT_TRUE(roster.Leave(101, "a").ok());
  EXPECT_EQ(ReceiveAll(roster, 101, "b"), (Messages{"own-1", "own-2", "shared"}));
  EXPECT_EQ(ReceiveAll(roster, 101, "a"), Messages{}) << "read twice";
}

// A connection whose heartbeat lapsed is removed by Connections and by
// Available alike, and what it had not read goes to its identity's inbox; a
// game sent to it afterwards too.
TYPED_TEST_P(TournamentStoreContract, ALapsedConnectionsUnreadAssignmentsAreReturned) {
  RosterStore& roster = *this->roster_;
  const int64_t now = this->kNow;
  ASSERT_TRUE(roster.Heartbeat(101, "a", 1, now + 1000).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "c", 2, now + 3000).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "b", 4, now + 60'000).ok());
  ASSERT_TRUE(roster.SendTo(101, "a", "for-a").ok());
  ASSERT_TRUE(roster.SendTo(101, "c", "for-c").ok());
  ASSERT_TRUE(roster.Send(101, "shared").ok());
  EXPECT_EQ(this->ConnectionsAt(now + 2000),
            (std::unordered_map<int64_t, std::vector<RosterConnection>>{{101, {{"b", 4}, {"c", 2}}}}));
  EXPECT_EQ(ReceiveAll(roster, 101, "b"), (Messages{"for-a", "shared"}));
  EXPECT_EQ(this->AvailableAt(now + 4000), (std::unordered_map<int64_t, int>{{101, 4}}));
  EXPECT_EQ(ReceiveAll(roster, 101, "b"), Messages{"for-c"});
  ASSERT_TRUE(roster.SendTo(101, "a", "late").ok());
  EXPECT_EQ(ReceiveAll(roster, 101, "b"), Messages{"late"});
}

// Each identity's live connections with their capacities (the latest
// heartbeat's), in order of connection; Available sums them.
TYPED_TEST_P(TournamentStoreContract, ConnectionsListsCapacitiesPerConnection) {
  RosterStore& roster = *this->roster_;
  const int64_t now = this->kNow;
  ASSERT_TRUE(roster.Heartbeat(101, "b", 2, now + 5000).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "a", 3, now + 9000).ok());
  ASSERT_TRUE(roster.Heartbeat(101, "c", 1, now + 1000).ok());
  ASSERT_TRUE(roster.Heartbeat(102, "z", 5, now + 9000).ok());
  ASSERT_TRUE(roster.Heartbeat(103, "x", 1, now + 1000).ok());
  using Listed = std::unordered_map<int64_t, std::vector<RosterConnection>>;
  EXPECT_EQ(this->ConnectionsAt(now),
            (Listed{{101, {{"a", 3}, {"b", 2}, {"c", 1}}}, {102, {{"z", 5}}}, {103, {{"x", 1}}}}));
  EXPECT_EQ(this->ConnectionsAt(now + 2000), (Listed{{101, {{"a", 3}, {"b", 2}}}, {102, {{"z", 5}}}}));
  ASSERT_TRUE(roster.Heartbeat(101, "b", 7, now + 9000).ok());
  EXPECT_EQ(this->ConnectionsAt(now + 2000), (Listed{{101, {{"a", 3}, {"b", 7}}}, {102, {{"z", 5}}}}));
  EXPECT_EQ(this->AvailableAt(now + 2000), (std::unordered_map<int64_t, int>{{101, 10}, {102, 5}}));
}

// Registration and the start (docs/TOURNAMENTS.md, "Registration and recurring
// tournaments"): entries up to the maximum, each once, in order of entry, a
// withdrawal moving the later ones up; nothing enters or leaves once the start
// has come on the database's clock; the start happens once, only with the
// entrants the scheduler read, and opens the next occurrence with them in the
// same transaction; too few entrants cancel it with the reason; a stale
// scheduler cannot start it.
TYPED_TEST_P(TournamentStoreContract, RegistrationClosesAtTheStartAndTheStartHappensOnce) {
  TournamentSpec spec = this->Spec("open", TournamentFormat::kRoundRobin, 1);
  spec.starts_ms = this->DatabaseNowMs() + 1500;  // room for the entries below on a loaded machine
  spec.max_entrants = 5;
  spec.repeat_every_ms = 3'600'000;
  ASSERT_TRUE(this->store_->Create(spec, {}).ok());
  TournamentSpec thin = this->Spec("thin", TournamentFormat::kSwiss, 2);
  thin.starts_ms = spec.starts_ms;
  thin.max_entrants = 8;
  ASSERT_TRUE(this->store_->Create(thin, {}).ok());
  auto row = [&](const std::string& id) {
    TournamentRow r;
    EXPECT_TRUE(this->store_->Get(id, &r).ok()) << id;
    return r;
  };
  EXPECT_EQ(row("open").state, "registering");
  EXPECT_LE(std::abs(row("open").spec.starts_ms - spec.starts_ms), 1);  // PostgreSQL keeps microseconds
  EXPECT_TRUE(this->Games("open").empty());
  std::vector<std::string> due;
  int64_t now = 0;
  ASSERT_TRUE(this->store_->DueToStart(&due, &now).ok());
  EXPECT_TRUE(due.empty());

  bool joined = false;
  for (int64_t id : {102, 103, 104, 105}) {
    ASSERT_TRUE(this->store_->Join("open", id, &joined).ok()) << id;
    EXPECT_TRUE(joined) << id;
  }
  ASSERT_TRUE(this->store_->Join("open", 103, &joined).ok());
  EXPECT_FALSE(joined) << "entered twice";
  const grpc::Status full = this->store_->Join("open", 106, &joined);
  EXPECT_EQ(full.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(full.error_message().find("full"), std::string::npos) << full.error_message();
  ASSERT_TRUE(this->store_->Leave("open", 103).ok());
  EXPECT_EQ(this->store_->Leave("open", 103).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(this->store_->Join("open", 106, &joined).ok());
  EXPECT_EQ(row("open").spec.entrants, (std::vector<int64_t>{101, 102, 104, 105, 106}));
  EXPECT_EQ(this->store_->Join("none", 106, &joined).error_code(), grpc::StatusCode::NOT_FOUND);
  bool started = true;
  const auto games = InitialSchedule(spec.format, 5, spec.seats, spec.rounds, spec.seed);
  ASSERT_TRUE(this->store_->Start("open", 5, games, "", nullptr, &started).ok());
  EXPECT_FALSE(started) << "started before its start";

  this->WaitUntilDatabaseTime(spec.starts_ms);
  ASSERT_TRUE(this->store_->DueToStart(&due, &now).ok());
  EXPECT_EQ(due, (std::vector<std::string>{"open", "thin"}));
  EXPECT_GE(now, spec.starts_ms);
  EXPECT_EQ(this->store_->Join("open", 107, &joined).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(this->store_->Leave("open", 101).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  // A scheduler that read four entrants starts nothing; a stale one neither.
  const TournamentSpec next = NextOccurrence(row("open").spec, now, 99);
  ASSERT_TRUE(this->store_->Start("open", 4, games, "", &next, &started).ok());
  EXPECT_FALSE(started);
  const auto stale = this->NewScheduler();
  int64_t fence = 0;
  ASSERT_TRUE(stale->TakeFence(&fence).ok());
  ASSERT_TRUE(this->store_->TakeFence(&fence).ok());
  EXPECT_EQ(stale->Start("open", 5, games, "", &next, &started).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(row("open").state, "registering");
  TournamentRow absent;
  EXPECT_EQ(this->store_->Get(next.id, &absent).error_code(), grpc::StatusCode::NOT_FOUND);

  ASSERT_TRUE(this->store_->Start("open", 5, games, "", &next, &started).ok());
  EXPECT_TRUE(started);
  EXPECT_EQ(row("open").state, "running");
  EXPECT_EQ(this->Games("open").size(), games.size());
  ASSERT_TRUE(this->store_->Start("open", 5, games, "", &next, &started).ok());
  EXPECT_FALSE(started) << "started twice";
  EXPECT_EQ(this->Games("open").size(), games.size());
  const TournamentRow second = row("open-2");
  EXPECT_EQ(second.state, "registering");
  EXPECT_EQ(second.spec.series, "open");
  EXPECT_EQ(second.spec.occurrence, 2);
  EXPECT_EQ(second.spec.seed, 99u);
  EXPECT_LE(std::abs(second.spec.starts_ms - (spec.starts_ms + spec.repeat_every_ms)), 1);
  EXPECT_EQ(second.spec.entrants, (std::vector<int64_t>{101, 102, 104, 105, 106}));
  ASSERT_TRUE(this->store_->Leave("open-2", 101).ok()) << "the next occurrence takes registrations";

  ASSERT_TRUE(this->store_->Start("thin", 2, {}, "too few entrants", nullptr, &started).ok());
  EXPECT_TRUE(started);
  EXPECT_EQ(row("thin").state, "cancelled");
  EXPECT_EQ(row("thin").reason, "too few entrants");
  ASSERT_TRUE(this->store_->DueToStart(&due, &now).ok());
  EXPECT_TRUE(due.empty());
  // An administrator cancels a registering tournament.
  ASSERT_TRUE(this->store_->SetState("open-2", "cancelled", "not tonight").ok());
  EXPECT_EQ(row("open-2").reason, "not tonight");
  EXPECT_EQ(this->store_->SetState("open-2", "finished", "").error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

// An arena is kept with its duration, starts when it is created (on the
// database's clock), and grows a pairing at a time.
TYPED_TEST_P(TournamentStoreContract, AnArenaKeepsItsDurationAndGrowsByPairings) {
  TournamentSpec spec = this->Spec("blitz", TournamentFormat::kArena, 6);
  spec.arena_ms = 600'000;
  const int64_t before = this->DatabaseNowMs();
  this->CreateTournament(spec);
  TournamentRow row;
  ASSERT_TRUE(this->store_->Get("blitz", &row).ok());
  EXPECT_EQ(row.spec.format, TournamentFormat::kArena);
  EXPECT_EQ(row.spec.arena_ms, 600'000);
  EXPECT_EQ(row.state, "running");
  EXPECT_GE(row.spec.starts_ms, before - 1);
  EXPECT_LE(row.spec.starts_ms, this->DatabaseNowMs() + 1);
  EXPECT_TRUE(this->Games("blitz").empty());
  const std::vector<ArenaEntrant> free = {{0, 0.5, 0, {}}, {1, 0.5, 0, {}}, {2, 0.5, 0, {}}, {3, 0.5, 0, {}}};
  ASSERT_TRUE(this->store_->AddRound("blitz", 0, ArenaPairing(free, 4, 0, 0, spec.seed)).ok());
  ASSERT_TRUE(this->store_->AddRound("blitz", 1, ArenaPairing(free, 4, 1, 1, spec.seed)).ok());
  ASSERT_TRUE(this->store_->AddRound("blitz", 1, ArenaPairing(free, 4, 1, 1, spec.seed)).ok());
  const auto games = this->Games("blitz");
  ASSERT_EQ(games.size(), 2u) << "a pairing is added once";
  EXPECT_EQ(games[1].number, 1);
  EXPECT_EQ(games[1].game.entrants, (std::vector<int>{1, 2, 3, 0}));
}

// Stopping early voids what has not begun: whole duplicate sets none of
// whose rotations has begun, and nothing of a set under way.
TYPED_TEST_P(TournamentStoreContract, VoidingLeavesEverySetWholeOrUntouched) {
  this->CreateTournament(this->Spec("stop", TournamentFormat::kDuplicate, 4, 3));  // three sets of four
  std::string id;
  bool ok = false;
  ASSERT_TRUE(this->store_->Claim("stop", 5, "hostA:1", &id, &ok).ok() && ok);  // set 1 under way
  int voided = 0;
  ASSERT_TRUE(this->store_->VoidUnstarted("stop", &voided).ok());
  EXPECT_EQ(voided, 8) << "sets 0 and 2";
  for (const TournamentGameRow& g : this->Games("stop")) {
    if (g.game.set == 1)
      EXPECT_NE(g.state, "void") << g.number;
    else
      EXPECT_EQ(g.state, "void") << g.number;
  }
  ASSERT_TRUE(this->store_->VoidUnstarted("stop", &voided).ok());
  EXPECT_EQ(voided, 0);
  ASSERT_TRUE(this->store_->Claim("stop", 0, "hostA:1", &id, &ok).ok());
  EXPECT_FALSE(ok) << "a void game is not started";
}

REGISTER_TYPED_TEST_SUITE_P(TournamentStoreContract, CreatedTournamentsAndTheirDueReveals,
                            AReplayedGameAndItsFirstAttemptNeverBothCount, AStaleSchedulerIsFencedOff,
                            EveryCallToAnUnreachableRosterAnswersUnavailable, SendToReachesOnlyThatConnection,
                            ReceiveTakesTheOwnInboxFirstThenTheIdentitys,
                            SendToAConnectionThatLeftLandsInTheIdentitysInbox,
                            LeaveReturnsUnreadAssignmentsToTheIdentitysInbox,
                            ALapsedConnectionsUnreadAssignmentsAreReturned, ConnectionsListsCapacitiesPerConnection,
                            RegistrationClosesAtTheStartAndTheStartHappensOnce,
                            AnArenaKeepsItsDurationAndGrowsByPairings, VoidingLeavesEverySetWholeOrUntouched);

}  // namespace metropolis::matchmaker
