// A game kept (stored) while the checkpoint store is down keeps its owner's lease
// until its checkpoint is dropped (Host::undropped_), so that no other host takes
// the finished game over once the store is back and stores it a second time — the
// defect behind "1 games moved" in the redis_outage fault test (docs/FAILURES.md).
// Without the fix host B takes the game over and its sink stores it again.
#include <gtest/gtest.h>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/memory_checkpoints.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr services::Millis kLease = 3000;

class UndroppedTest : public ::testing::Test {
 public:
  UndroppedTest() : directory(&store), a("host-a:1", &directory), b("host-b:1", &directory) {
    a.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
    b.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives);
  }
  MemoryCheckpointStore store;
  CheckpointDirectory directory;
  TestHost a, b;
  v1::CreateGameResponse created;
};

TEST_F(UndroppedTest, AGameStoredWhileTheStoreIsDownIsNotTakenOverOnceItIsBack) {
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
  request.set_chance_seed(23);
  ASSERT_TRUE(a.host->CreateGame(kAdmin, request, &created).ok());
  Seats seats(&a, &created);
  seats.Connect();
  a.sink.Hold(true);  // the last step is written; keeping the game takes a while
  seats.Play(100000);
  ASSERT_TRUE(a.sink.games.empty());
  ASSERT_EQ(store.games.count(created.game_id()), 1u);
  store.down = true;  // Redis goes down before the host can drop the checkpoint
  a.sink.Hold(false);
  a.Settle();
  ASSERT_EQ(a.sink.games.size(), 1u);
  a.host->KeepLeases();     // fails
  store.now += 2 * kLease;  // a gap: every lease lapsed
  store.down = false;
  b.host->KeepLeases();  // too early: the guard
  a.host->KeepLeases();  // the owner renews and drops the checkpoint
  for (int i = 0; i < 9; ++i) {
    store.Pass(kLease / 3);
    b.host->KeepLeases();
  }
  EXPECT_EQ(store.done.count(created.game_id()), 1u);
  EXPECT_EQ(b.host->live_games(), 0u);
  b.Settle();
  EXPECT_TRUE(b.sink.games.empty()) << "the finished game moved to B and was stored again";
}

}  // namespace
}  // namespace metropolis::gamehost::testing
