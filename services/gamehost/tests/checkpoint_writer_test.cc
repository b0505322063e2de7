// The checkpoint writer (checkpoint_writer.h): the appends waiting at once go in
// one round trip, each answered on its own, and a game whose append is out
// releases nothing of its steps until the store holds them (game.h).
//
// The negative control "write_before_release" (lib/common/negative_control.h)
// is shown failing by AStepIsReleasedOnlyOnceItsAppendIsBack: with
// METROPOLIS_REMOVE_PROTECTION=write_before_release the seats hear of a step
// the store does not hold yet.
#include "services/gamehost/checkpoint_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/memory_checkpoints.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

// A memory store whose AppendMany waits while the test holds the gate closed,
// and records how many appends each call carried. Never cut: every other call
// goes straight through.
class GatedStore final : public CuttableStore {
 public:
  explicit GatedStore(MemoryCheckpointStore* inner) : CuttableStore(inner) {}

  void Close() {
    std::lock_guard lock(mutex_);
    open_ = false;
  }
  void Open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    cv_.notify_all();
  }
  // Waits (bounded) until `n` AppendMany calls have begun.
  bool WaitEntered(int n) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [&] { return entered_ >= n; });
  }
  std::vector<size_t> batches() const {
    std::lock_guard lock(mutex_);
    return batches_;
  }
  int entered() const {
    std::lock_guard lock(mutex_);
    return entered_;
  }

  std::vector<grpc::Status> AppendMany(const std::vector<AppendRequest>& requests) override {
    {
      std::unique_lock lock(mutex_);
      ++entered_;
      batches_.push_back(requests.size());
      cv_.notify_all();
      cv_.wait(lock, [this] { return open_; });
    }
    return CuttableStore::AppendMany(requests);
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = true;
  int entered_ = 0;
  std::vector<size_t> batches_;
};

// Done callbacks run on the writer's thread: the test waits for them here.
struct Answers {
  CheckpointWriter::Done For(size_t i) {
    return [this, i](grpc::Status s) {
      std::lock_guard lock(mutex);
      statuses[i] = std::move(s);
      ++done;
      cv.notify_all();
    };
  }
  bool WaitAll(int n) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(10), [&] { return done >= n; });
  }
  std::mutex mutex;
  std::condition_variable cv;
  std::map<size_t, grpc::Status> statuses;
  int done = 0;
};

AppendRequest Request(const std::string& id, uint64_t fence, const std::vector<Action>& tail) {
  return AppendRequest{.game_id = id,
                       .fence = fence,
                       .host = "host-a:1",
                       .lease_ms = 3000,
                       .from = 0,
                       .tail = tail,
                       .seats = {{1000, 1, 0, 0, false}},
                       .phase = true};
}

std::vector<Action> FirstActions(size_t n) {
  State state{GameConfig{}};
  std::vector<Action> out;
  for (const Action& a : state.LegalActions()) {
    if (out.size() == n) break;
    out.push_back(a);
  }
  return out;
}

TEST(CheckpointWriterTest, AppendsWaitingTogetherGoInOneRoundTripEachAnsweredOnItsOwn) {
  MemoryCheckpointStore memory;
  GatedStore store(&memory);
  std::vector<uint64_t> fences(6);
  for (size_t i = 0; i < fences.size(); ++i)
    ASSERT_TRUE(memory.Create("g" + std::to_string(i), "setup", "host-a:1", 3000, &fences[i]).ok());
  CheckpointWriter writer(&store, nullptr);
  Answers answers;
  const std::vector<Action> tail = FirstActions(3);

  store.Close();
  writer.Submit(Request("g0", fences[0], tail), answers.For(0));
  ASSERT_TRUE(store.WaitEntered(1));  // out, and held there
  // Five more while the first round trip is out: one stale token among them.
  for (size_t i = 1; i < fences.size(); ++i)
    writer.Submit(Request("g" + std::to_string(i), i == 3 ? fences[i] + 100 : fences[i], tail), answers.For(i));
  EXPECT_EQ(writer.pending(), 6u);
  store.Open();
  ASSERT_TRUE(answers.WaitAll(6));

  EXPECT_EQ(store.batches(), (std::vector<size_t>{1, 5}));
  for (size_t i = 0; i < fences.size(); ++i) {
    const grpc::StatusCode want = i == 3 ? grpc::StatusCode::ABORTED : grpc::StatusCode::OK;
    EXPECT_EQ(answers.statuses[i].error_code(), want) << "g" << i << ": " << answers.statuses[i].error_message();
    std::lock_guard lock(memory.mutex);
    EXPECT_EQ(memory.games["g" + std::to_string(i)].log.size(), i == 3 ? 0u : tail.size()) << "g" << i;
  }
  // pending() counts an append until its Done returned: wait for the last one.
  for (int i = 0; i < 1000 && writer.pending() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(writer.pending(), 0u);
}

TEST(CheckpointWriterTest, ARoundTripCarriesAtMostTheBatchLimit) {
  MemoryCheckpointStore memory;
  GatedStore store(&memory);
  uint64_t fence = 0;
  ASSERT_TRUE(memory.Create("g", "setup", "host-a:1", 3000, &fence).ok());
  CheckpointWriter writer(&store, nullptr, 2);
  Answers answers;
  store.Close();
  writer.Submit(Request("g", fence, {}), answers.For(0));
  ASSERT_TRUE(store.WaitEntered(1));
  for (size_t i = 1; i < 6; ++i) writer.Submit(Request("g", fence, {}), answers.For(i));
  store.Open();
  ASSERT_TRUE(answers.WaitAll(6));
  EXPECT_EQ(store.batches(), (std::vector<size_t>{1, 2, 2, 1}));
}

TEST(CheckpointWriterTest, StopWritesWhatIsQueuedAndRefusesWhatComesAfter) {
  MemoryCheckpointStore memory;
  uint64_t fence = 0;
  ASSERT_TRUE(memory.Create("g", "setup", "host-a:1", 3000, &fence).ok());
  CheckpointWriter writer(&memory, nullptr);
  Answers answers;
  writer.Submit(Request("g", fence, FirstActions(2)), answers.For(0));
  writer.Stop();
  ASSERT_TRUE(answers.WaitAll(1));
  EXPECT_TRUE(answers.statuses[0].ok()) << answers.statuses[0].error_message();
  writer.Submit(Request("g", fence, FirstActions(3)), answers.For(1));
  ASSERT_TRUE(answers.WaitAll(2));  // answered at once, on the caller's thread
  EXPECT_EQ(answers.statuses[1].error_code(), grpc::StatusCode::UNAVAILABLE);
  std::lock_guard lock(memory.mutex);
  EXPECT_EQ(memory.games["g"].log.size(), 2u);
}

// A game host whose games run on strands (drained by the test) and write
// through a writer over the gated store.
class WriterGameTest : public ::testing::Test {
 protected:
  WriterGameTest()
      : store(&memory),
        directory(&memory),
        host("host-a:1", &directory, true, /*strands=*/true),
        writer(&store, &host.metrics) {
    host.host->SetCheckpoints(&store, Host::LeaseKeeping::kCallerDrives, &writer);
  }
  void SetUp() override {
    v1::CreateGameRequest request;
    for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
    request.set_chance_seed(5);
    ASSERT_TRUE(host.host->CreateGame(kAdmin, request, &created).ok());
    seats = std::make_unique<Seats>(&host, &created);
    seats->Connect();
    Settle();
  }
  // A failed assertion with the gate closed must not leave the writer waiting.
  void TearDown() override { store.Open(); }
  // Runs the games' work until nothing moves and no append is out.
  void Settle() {
    for (int i = 0; i < 100000; ++i) {
      host.Settle();
      if (writer.pending() == 0 && host.work.size() == 0) return;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    FAIL() << "the games' work never settled";
  }
  void Answer() {
    const int actor = seats->Actor();
    ASSERT_GE(actor, 0);
    const v1::Decision& d = *seats->streams[actor]->PendingDecision();
    v1::PlayAnswer answer;
    answer.set_step(d.step());
    answer.mutable_action()->set_code(d.view().legal(0));
    seats->game->Answer(actor, seats->streams[actor].get(), answer, host.clock.Now());
  }
  size_t Logged() {
    std::lock_guard lock(memory.mutex);
    return memory.games.count(created.game_id()) ? memory.games[created.game_id()].log.size() : 0;
  }
  uint32_t LastSeen() {
    uint32_t last = 0;
    for (const auto& s : seats->streams) {
      std::lock_guard lock(s->mutex);
      last = std::max(last, LastStepSeen(*s));
    }
    return last;
  }

  MemoryCheckpointStore memory;
  GatedStore store;
  CheckpointDirectory directory;
  TestHost host;
  CheckpointWriter writer;
  v1::CreateGameResponse created;
  std::unique_ptr<Seats> seats;
};

TEST_F(WriterGameTest, AStepIsReleasedOnlyOnceItsAppendIsBack) {
  for (int i = 0; i < 30; ++i) {
    Answer();
    Settle();
  }
  const uint32_t seen = LastSeen();
  ASSERT_GE(seen, 30u);
  EXPECT_EQ(Logged(), seen);

  store.Close();
  const int entered = store.entered();
  Answer();
  host.work.RunAll();  // the answer is applied and its append handed to the writer
  ASSERT_TRUE(store.WaitEntered(entered + 1));
  // Out, not back: the store holds none of the new steps, and nobody heard of them.
  EXPECT_EQ(Logged(), seen);
  EXPECT_EQ(LastSeen(), seen) << "a seat heard of a step its store does not hold";
  // The strand is parked: an answer that arrives now waits behind the append.
  const size_t updates_before = seats->streams[0]->updates.size();
  v1::PlayAnswer stale;
  stale.set_step(0);
  seats->game->Answer(0, seats->streams[0].get(), stale, host.clock.Now());
  host.work.RunAll();
  EXPECT_EQ(seats->streams[0]->updates.size(), updates_before) << "the strand ran on while its append was out";

  store.Open();
  Settle();
  EXPECT_GT(LastSeen(), seen);
  EXPECT_EQ(Logged(), LastSeen());
  EXPECT_EQ(seats->streams[0]->Count(v1::PlayUpdate::kRejected), 1);  // the stale answer, after the append
}

TEST_F(WriterGameTest, AGameWhoseAppendFailsPausesAndGoesOnOnceItIsWritten) {
  for (int i = 0; i < 10; ++i) {
    Answer();
    Settle();
  }
  const uint32_t seen = LastSeen();
  const size_t batches = store.batches().size();
  {
    std::lock_guard lock(memory.mutex);
    memory.down = true;
  }
  Answer();
  Settle();
  EXPECT_TRUE(seats->game->paused());
  EXPECT_EQ(LastSeen(), seen);
  EXPECT_EQ(seats->Actor(), -1);  // the pause took the decision back
  {
    std::lock_guard lock(memory.mutex);
    memory.down = false;
  }
  host.clock.Advance(3000);  // the pause's retry (at most a lease away)
  host.timers.AdvanceTo(host.clock.Now());
  Settle();
  EXPECT_FALSE(seats->game->paused());
  EXPECT_GE(store.batches().size(), batches + 2);  // the failed append and its retry went through the writer
  EXPECT_GT(LastSeen(), seen);
  EXPECT_EQ(Logged(), LastSeen());
  EXPECT_GE(seats->Actor(), 0);
}

TEST_F(WriterGameTest, AGameFencedOffByAnotherHostStopsAtItsLastWrittenStep) {
  Answer();
  Settle();
  const uint32_t seen = LastSeen();
  {
    std::lock_guard lock(memory.mutex);
    ++memory.games[created.game_id()].fence;  // another host took it over
  }
  const size_t batches = store.batches().size();
  Answer();
  Settle();
  EXPECT_EQ(store.batches().size(), batches + 1);  // refused in the writer's round trip
  EXPECT_TRUE(seats->game->abandoned());
  EXPECT_EQ(LastSeen(), seen);
  for (const auto& s : seats->streams) EXPECT_TRUE(s->finished);
}

// What reads the game from outside its strand (GetGame, a spectator) while an
// append is out waits for the reply, as it waited for the game's lock during a
// write in place: it never sees a step the store does not hold.
TEST_F(WriterGameTest, ReadersOutsideTheStrandWaitForTheAppendOut) {
  for (int i = 0; i < 5; ++i) {
    Answer();
    Settle();
  }
  store.Close();
  const int entered = store.entered();
  Answer();
  host.work.RunAll();
  ASSERT_TRUE(store.WaitEntered(entered + 1));
  std::atomic<bool> read{false};
  uint32_t info_step = 0, welcome_step = 0;
  auto spectator = std::make_shared<RecordingSpectator>();
  std::thread reader([&] {
    v1::GameInfo info;
    seats->game->Info(&info);
    info_step = info.step();
    seats->game->AddSpectator(false, spectator);
    welcome_step = spectator->updates.at(0)->welcome().step();
    read = true;
  });
  // Not answered while the append is out (the reader would have read the step
  // the store does not hold yet).
  for (int i = 0; i < 50 && !read; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_FALSE(read) << "GetGame answered while the game's append was out";
  store.Open();
  Settle();
  reader.join();
  EXPECT_TRUE(read);
  EXPECT_EQ(info_step, Logged());
  EXPECT_EQ(welcome_step, Logged());
}

}  // namespace
}  // namespace metropolis::gamehost::testing
