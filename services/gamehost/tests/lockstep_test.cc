// Rotations in lockstep (lockstep.h, docs/TOURNAMENTS.md): a duplicate set's
// games created together on one host, each held at its next chance draw while it
// is more than `lead` draws ahead of the slowest other. Under the negative
// control METROPOLIS_REMOVE_PROTECTION=lockstep (a test build) the rotation of
// built-in bots runs to its end while the other has not begun, and these tests
// fail.
#include "services/gamehost/lockstep.h"

#include <gtest/gtest.h>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr char kKey[] = "a platform key of at least 32 bytes, for tests";

v1::CreateGameRequest Rotation(const std::string& id, bool built_in, uint32_t lockstep) {
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) {
    v1::SeatSpec* seat = request.add_seats();
    seat->set_name("seat" + std::to_string(i));
    seat->set_built_in(built_in);
  }
  request.set_game_id(id);
  request.set_chance_identity("tournament/t/7");
  request.set_lockstep(lockstep);
  return request;
}

bool Stored(TestHost& t, const std::string& id) {
  std::lock_guard lock(t.sink.mutex);
  for (const CompletedGame& g : t.sink.games)
    if (g.game_id == id) return true;
  return false;
}

// Moves the host's time on by `ms` in polls of 20 ms, settling after each.
void Wait(TestHost& t, services::Millis ms) {
  for (services::Millis end = t.clock.Now() + ms; t.clock.Now() < end;) {
    t.timers.AdvanceTo(t.clock.Now() + 20);
    t.Settle();
  }
}

TEST(Lockstep, GroupHoldsTheGameAheadUntilTheSlowestCatchesUp) {
  FakeClock clock;
  LockstepGroups groups({.lead = 2, .missing_wait_ms = 1000}, &clock);
  auto a = groups.Join("set", 3, "a", 0);
  auto b = groups.Join("set", 3, "b", 0);
  // "c" is not here yet: it counts as at its start.
  EXPECT_TRUE(a->MayDraw(1));
  a->Drew(1);
  EXPECT_TRUE(a->MayDraw(2));
  a->Drew(2);
  EXPECT_FALSE(a->MayDraw(3)) << "3 draws would be 3 ahead of b and of the missing c";
  auto c = groups.Join("set", 3, "c", 0);
  b->Drew(1);
  c->Drew(1);
  EXPECT_TRUE(a->MayDraw(3));
  a->Drew(3);
  EXPECT_FALSE(a->MayDraw(4));
  c->Leave();  // c is over: only b is waited for
  b->Drew(2);
  EXPECT_TRUE(a->MayDraw(4));
  b.reset();  // a game gone counts out like one that left
  EXPECT_TRUE(a->MayDraw(100));
  EXPECT_EQ(groups.max_lead(), 2u);
}

TEST(Lockstep, ARotationThatNeverComesIsWaitedForOnlySoLong) {
  FakeClock clock;
  LockstepGroups groups({.lead = 2, .missing_wait_ms = 1000}, &clock);
  auto a = groups.Join("set", 2, "a", 0);
  a->Drew(1);
  a->Drew(2);
  EXPECT_FALSE(a->MayDraw(3));
  clock.Set(1000);
  EXPECT_TRUE(a->MayDraw(3)) << "the missing rotation is no longer waited for";
  a->Drew(3);
  auto late = groups.Join("set", 2, "late", 0);
  EXPECT_TRUE(a->MayDraw(4)) << "a rotation joining after the wait is not waited for";
  // Other sets are apart.
  auto other = groups.Join("other set", 2, "x", 0);
  other->Drew(1);
  other->Drew(2);
  EXPECT_FALSE(other->MayDraw(3));
  EXPECT_EQ(groups.groups(), 2u);
}

TEST(Lockstep, AGameTakenOverWaitsForNoMissingRotationAndAnOldCopyLeavesNothing) {
  FakeClock clock;
  LockstepGroups groups({.lead = 2, .missing_wait_ms = 1000}, &clock);
  // Taken over at draw 150 on a host where none of its set plays: not held.
  auto resumed = groups.Join("set", 4, "r", 150);
  EXPECT_TRUE(resumed->MayDraw(151));
  // A game that left this host (fenced) and came back: the old copy's member,
  // destroyed later, does not count the new copy out.
  auto a = groups.Join("other", 2, "a", 0);
  auto old_b = groups.Join("other", 2, "b", 0);
  auto new_b = groups.Join("other", 2, "b", 0);
  old_b.reset();
  a->Drew(1);
  a->Drew(2);
  EXPECT_FALSE(a->MayDraw(3)) << "b's new copy is still waited for";
  new_b.reset();
  EXPECT_TRUE(a->MayDraw(3));
}

TEST(Lockstep, CreateGameChecksTheLockstepRequest) {
  TestHost t("host-a:1", nullptr, true, false, kKey);
  v1::CreateGameResponse created;
  v1::CreateGameRequest too_many = Rotation("g1", true, 9);
  grpc::Status s = t.host->CreateGame(kAdmin, too_many, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("lockstep: at most 8"), std::string::npos) << s.error_message();
  v1::CreateGameRequest no_identity = Rotation("g2", true, 2);
  no_identity.clear_chance_identity();
  s = t.host->CreateGame(kAdmin, no_identity, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::CreateGameRequest known_seed = Rotation("g3", true, 2);
  known_seed.set_chance_seed(42);
  s = t.host->CreateGame(kAdmin, known_seed, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(t.host->lockstep().groups(), 0u) << "nothing joined a group";
}

TEST(Lockstep, ARotationOfBuiltInBotsWaitsForTheRotationPlayedByItsSeats) {
  TestHost t("host-a:1", nullptr, true, false, kKey);
  v1::CreateGameResponse fast, slow;
  ASSERT_TRUE(t.host->CreateGame(kAdmin, Rotation("fast", true, 2), &fast).ok());
  ASSERT_TRUE(t.host->CreateGame(kAdmin, Rotation("slow", false, 2), &slow).ok());
  EXPECT_EQ(fast.chance_commitment(), slow.chance_commitment()) << "one set, one chance";
  // The slow rotation's players have not connected: it has drawn nothing, so
  // the bots' rotation may draw twice and no more, however long it waits.
  Wait(t, 3000);
  EXPECT_FALSE(Stored(t, "fast")) << "the rotation of bots ran ahead of its set";
  EXPECT_LE(t.host->lockstep().max_lead(), 2u);
  // One hold so far, counted once however many times it looked again.
  EXPECT_EQ(t.Metric("metropolis_gamehost_lockstep_holds_total"), 1);

  // Its players connect and answer one decision per 20 ms: both rotations end,
  // never more than two draws apart.
  Seats seats(&t, &slow);
  seats.Connect();
  for (int i = 0; i < 20000 && !(Stored(t, "fast") && Stored(t, "slow")); ++i) {
    seats.Play(1);
    t.timers.AdvanceTo(t.clock.Now() + 20);
  }
  t.Settle();
  EXPECT_TRUE(Stored(t, "fast"));
  EXPECT_TRUE(Stored(t, "slow"));
  EXPECT_LE(t.host->lockstep().max_lead(), 2u);
  EXPECT_GE(t.host->lockstep().max_lead(), 1u);
}

TEST(Lockstep, GamesWithoutLockstepAreNeverHeld) {
  TestHost t("host-a:1", nullptr, true, false, kKey);
  v1::CreateGameResponse one, two;
  ASSERT_TRUE(t.host->CreateGame(kAdmin, Rotation("one", true, 0), &one).ok());
  ASSERT_TRUE(t.host->CreateGame(kAdmin, Rotation("two", false, 0), &two).ok());
  t.Settle();
  EXPECT_TRUE(Stored(t, "one")) << "a game of bots outside any set plays to its end at once";
  EXPECT_EQ(t.Metric("metropolis_gamehost_lockstep_holds_total"), 0);
}

}  // namespace
}  // namespace metropolis::gamehost::testing
