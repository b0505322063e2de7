// Games' analyses in the replays service (docs/ANALYSIS.md, "The service"),
// over in-memory stores: the bounded queue serves stored games before
// requests and drops what does not fit, counting it; the worker analyses
// games with a person as they are stored, others on request, retries a write
// that fails, and finds again after a restart the games it still owes; the
// calls answer the hidden, unknown and malformed as the other reads do.
// The negative control "analysis_bound" (lib/common/negative_control.h) is
// shown failing by AnalysisQueueTest.AFullLineRefusesAndAGameIsHeldOnce and
// AnalysisWorkerTest.AFullQueueDropsCountsAndRefusesARequest: with
// METROPOLIS_REMOVE_PROTECTION=analysis_bound the lines grow past their bound.
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <memory>

#include "services/replays/analysis_worker.h"
#include "services/replays/metrics.h"
#include "services/replays/replays.h"
#include "services/replays/tests/fake_analysis_store.h"
#include "services/replays/tests/fake_replay_store.h"
#include "services/replays/tests/fake_reveal_store.h"
#include "services/replays/tests/games.h"

namespace metropolis::replays {
namespace {

using testing::PlayGame;

// ---- the queue -----------------------------------------------------------------------------

AnalysisJob Job(const std::string& id, AnalysisLine line) { return {id, line, {}, {}}; }

TEST(AnalysisQueueTest, StoredGamesComeBeforeRequests) {
  AnalysisQueue queue(10);
  ASSERT_EQ(queue.Offer(Job("r1", AnalysisLine::kRequested)), AnalysisQueue::Offered::kQueued);
  ASSERT_EQ(queue.Offer(Job("s1", AnalysisLine::kStored)), AnalysisQueue::Offered::kQueued);
  ASSERT_EQ(queue.Offer(Job("s2", AnalysisLine::kStored)), AnalysisQueue::Offered::kQueued);
  AnalysisJob job;
  std::vector<std::string> order;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(queue.Take(&job));
    order.push_back(job.game_id);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"s1", "s2", "r1"}));
}

TEST(AnalysisQueueTest, AFullLineRefusesAndAGameIsHeldOnce) {
  AnalysisQueue queue(2);
  EXPECT_EQ(queue.Offer(Job("a", AnalysisLine::kStored)), AnalysisQueue::Offered::kQueued);
  EXPECT_EQ(queue.Offer(Job("a", AnalysisLine::kRequested)), AnalysisQueue::Offered::kAlreadyQueued);
  EXPECT_EQ(queue.Offer(Job("b", AnalysisLine::kStored)), AnalysisQueue::Offered::kQueued);
  EXPECT_EQ(queue.Offer(Job("c", AnalysisLine::kStored)), AnalysisQueue::Offered::kFull);
  EXPECT_FALSE(queue.Holds("c"));
  EXPECT_EQ(queue.waiting(AnalysisLine::kStored), 2u);
  // The other line has its own bound.
  EXPECT_EQ(queue.Offer(Job("c", AnalysisLine::kRequested)), AnalysisQueue::Offered::kQueued);
  AnalysisJob job;
  ASSERT_TRUE(queue.Take(&job));
  EXPECT_EQ(job.game_id, "a");
  EXPECT_TRUE(queue.Holds("a"));  // being worked on: not offered twice
  EXPECT_EQ(queue.Offer(Job("a", AnalysisLine::kRequested)), AnalysisQueue::Offered::kAlreadyQueued);
  // Held from the stored line and asked for meanwhile: done again as requested.
  EXPECT_TRUE(queue.Finish("a"));
  EXPECT_TRUE(queue.Holds("a"));
  EXPECT_FALSE(queue.Finish("a"));
  EXPECT_FALSE(queue.Holds("a"));
  EXPECT_EQ(queue.Offer(Job("a", AnalysisLine::kRequested)), AnalysisQueue::Offered::kQueued);
}

TEST(AnalysisQueueTest, StopWakesAWaitingTakeAndClosesTheQueue) {
  AnalysisQueue queue(2);
  bool taken = true;
  std::thread waiter([&] {
    AnalysisJob job;
    taken = queue.Take(&job);
  });
  // Take waits before Stop: a Stop first would make Take return at once and
  // test nothing of the wake-up.
  while (queue.takers() == 0) std::this_thread::yield();
  queue.Stop();
  waiter.join();
  EXPECT_FALSE(taken);
  EXPECT_EQ(queue.Offer(Job("late", AnalysisLine::kRequested)), AnalysisQueue::Offered::kClosed);
}

// ---- the worker ----------------------------------------------------------------------------

constexpr int64_t kPerson = 101, kBot = 202;

// A random game whose seat 0 is played over the network by `identity`.
v1::CompletedGameRecord GameOf(uint64_t seed, const std::string& id, int64_t identity) {
  v1::CompletedGameRecord g = PlayGame(seed, id);
  v1::SeatRecord* seat = g.mutable_seats(0);
  seat->set_identity_id(identity);
  seat->set_name(identity == kPerson ? "ana" : "botty");
  seat->set_kind(v1::SEAT_KIND_NETWORK);
  for (int i = 1; i < g.seats_size(); ++i) g.mutable_seats(i)->set_kind(v1::SEAT_KIND_BUILT_IN);
  return g;
}

double Metric(prometheus::Registry* registry, const std::string& name, const std::string& label) {
  for (const prometheus::MetricFamily& f : registry->Collect()) {
    if (f.name != name) continue;
    for (const prometheus::ClientMetric& m : f.metric)
      for (const prometheus::ClientMetric::Label& l : m.label)
        if (l.value == label) return f.type == prometheus::MetricType::Counter ? m.counter.value : m.gauge.value;
  }
  return 0;
}

class AnalysisWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override { people_.people = {kPerson}; }

  // A worker over the fakes, and the logic calling it; started unless not.
  void Make(size_t queue = 100, bool start = true) {
    AnalysisWorkerOptions options;
    options.queue = queue;
    options.analysis.positions = 5;
    options.analysis.search_iterations = 10;
    options.retry_ms = 1;
    worker_ = std::make_unique<AnalysisWorker>(&games_, &analyses_, &people_, &metrics_, options);
    replays_ = std::make_unique<Replays>(&games_, &reveals_, &analyses_, worker_.get());
    if (start) worker_->Start();
  }
  void Store(const v1::CompletedGameRecord& g) {
    v1::StoreGameResponse response;
    ASSERT_TRUE(replays_->Store(g, &response).ok());
  }
  v1::GameAnalysis Analysis(const std::string& id) {
    v1::GameAnalysis out;
    EXPECT_TRUE(replays_->Analysis(id, &out).ok());
    return out;
  }
  // Waits until the worker is done with the game (analysed or not).
  void Settle(const std::string& id) {
    for (int i = 0; i < 120'000 && worker_->Pending(id); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_FALSE(worker_->Pending(id));
  }

  prometheus::Registry registry_;
  ReplaysMetrics metrics_{&registry_};
  testing::FakeReplayStore games_;
  testing::FakeRevealStore reveals_;
  testing::FakeAnalysisStore analyses_{&games_};
  testing::FakePeople people_;
  std::unique_ptr<AnalysisWorker> worker_;
  std::unique_ptr<Replays> replays_;
};

TEST_F(AnalysisWorkerTest, AGameWithAPersonIsAnalysedAsItIsStored) {
  Make();
  Store(GameOf(3, "g-person", kPerson));
  ASSERT_TRUE(analyses_.WaitFor("g-person"));
  Settle("g-person");  // counted once the job is done, after the write
  const v1::GameAnalysis a = Analysis("g-person");
  EXPECT_EQ(a.state(), v1::ANALYSIS_READY);
  EXPECT_EQ(a.method_version(), analysis::kAnalysisMethodVersion);
  EXPECT_TRUE(a.analysis_json().starts_with("{\"luck\":{")) << a.analysis_json().substr(0, 80);
  EXPECT_NE(a.analysis_json().find("\"graph\":["), std::string::npos);
  EXPECT_GT(a.cpu_seconds(), 0);
  EXPECT_EQ(Metric(&registry_, "metropolis_replays_analyses_total", "analysed"), 1);
  // The export carries it too.
  v1::ExportGameResponse exported;
  ASSERT_TRUE(replays_->Export("g-person", &exported).ok());
  EXPECT_EQ(exported.analysis_json(), a.analysis_json());
}

TEST_F(AnalysisWorkerTest, AGameOfBotsWaitsForARequest) {
  Make();
  Store(GameOf(5, "g-bots", kBot));
  Settle("g-bots");
  EXPECT_EQ(Metric(&registry_, "metropolis_replays_analyses_total", "bots_only"), 1);
  EXPECT_EQ(analyses_.skipped("g-bots"), "no_person");  // not queued again at a start
  EXPECT_EQ(Analysis("g-bots").state(), v1::ANALYSIS_NOT_ANALYSED);
  v1::GameAnalysis requested;
  ASSERT_TRUE(replays_->RequestAnalysis("g-bots", &requested).ok());
  EXPECT_TRUE(requested.state() == v1::ANALYSIS_QUEUED || requested.state() == v1::ANALYSIS_READY);
  ASSERT_TRUE(analyses_.WaitFor("g-bots"));
  EXPECT_EQ(Analysis("g-bots").state(), v1::ANALYSIS_READY);
  // Asking again changes nothing: the first analysis stays.
  ASSERT_TRUE(replays_->RequestAnalysis("g-bots", &requested).ok());
  EXPECT_EQ(requested.state(), v1::ANALYSIS_READY);
  EXPECT_EQ(analyses_.puts(), 1);
}

TEST_F(AnalysisWorkerTest, PeoplesGamesComeBeforeRequests) {
  Make(100, /*start=*/false);
  Replays storing_only(&games_, &reveals_);  // stored earlier, not queued
  v1::StoreGameResponse response;
  ASSERT_TRUE(storing_only.Store(GameOf(7, "g-bots", kBot), &response).ok());
  v1::GameAnalysis requested;
  ASSERT_TRUE(replays_->RequestAnalysis("g-bots", &requested).ok());
  EXPECT_EQ(requested.state(), v1::ANALYSIS_QUEUED);
  EXPECT_EQ(Analysis("g-bots").state(), v1::ANALYSIS_QUEUED);
  Store(GameOf(8, "g-person", kPerson));
  worker_->Start();
  ASSERT_TRUE(analyses_.WaitFor("g-bots"));
  EXPECT_EQ(analyses_.order(), (std::vector<std::string>{"g-person", "g-bots"}));
}

// A request for a game still queued as stored counts: the game is analysed
// even when nobody at its table is a person.
TEST_F(AnalysisWorkerTest, ARequestForAGameQueuedAsStoredIsKept) {
  Make(100, /*start=*/false);
  Store(GameOf(17, "g-bots", kBot));
  v1::GameAnalysis requested;
  ASSERT_TRUE(replays_->RequestAnalysis("g-bots", &requested).ok());
  EXPECT_EQ(requested.state(), v1::ANALYSIS_QUEUED);
  worker_->Start();
  ASSERT_TRUE(analyses_.WaitFor("g-bots"));
}

TEST_F(AnalysisWorkerTest, AFullQueueDropsCountsAndRefusesARequest) {
  Make(1, /*start=*/false);
  Store(GameOf(9, "g-1", kPerson));
  Store(GameOf(10, "g-2", kPerson));  // the stored line holds one: dropped
  EXPECT_FALSE(worker_->Pending("g-2"));
  EXPECT_EQ(analyses_.skipped("g-2"), "dropped");
  EXPECT_EQ(Analysis("g-2").state(), v1::ANALYSIS_NOT_ANALYSED);  // a request may ask
  EXPECT_EQ(Analysis("g-1").state(), v1::ANALYSIS_QUEUED);
  EXPECT_EQ(Metric(&registry_, "metropolis_replays_analysis_dropped_total", "stored"), 1);
  EXPECT_EQ(Metric(&registry_, "metropolis_replays_analysis_waiting", "stored"), 1);
  Store(GameOf(11, "g-3", kBot));
  Store(GameOf(12, "g-4", kBot));
  v1::GameAnalysis out;
  ASSERT_TRUE(replays_->RequestAnalysis("g-3", &out).ok());
  const grpc::Status full = replays_->RequestAnalysis("g-4", &out);
  EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << full.error_message();
  EXPECT_FALSE(worker_->Pending("g-4"));
  EXPECT_EQ(Metric(&registry_, "metropolis_replays_analysis_dropped_total", "requested"), 1);
  // What was dropped can be asked for once there is room.
  worker_->Start();
  ASSERT_TRUE(analyses_.WaitFor("g-3"));
  ASSERT_TRUE(replays_->RequestAnalysis("g-2", &out).ok());
  ASSERT_TRUE(analyses_.WaitFor("g-2"));
}

TEST_F(AnalysisWorkerTest, AWriteThatFailsIsRetried) {
  analyses_.put_failures = 2;
  Make();
  Store(GameOf(13, "g-retry", kPerson));
  ASSERT_TRUE(analyses_.WaitFor("g-retry"));
  EXPECT_EQ(analyses_.puts(), 3);
}

TEST_F(AnalysisWorkerTest, WithAccountsDownAPersonsGameIsAnalysedAnyway) {
  people_.down = true;
  Make();
  Store(GameOf(14, "g-down", kPerson));
  ASSERT_TRUE(analyses_.WaitFor("g-down"));
}

TEST_F(AnalysisWorkerTest, ARestartedWorkerAnalysesTheGamesItStillOwes) {
  // Stored while no worker ran (a crash lost the queue): the store says what is owed.
  Replays without(&games_, &reveals_);
  v1::StoreGameResponse response;
  ASSERT_TRUE(without.Store(GameOf(15, "g-owed", kPerson), &response).ok());
  analyses_.AddOwed({"g-owed", {kPerson}, {"ana"}});
  Make();
  ASSERT_TRUE(analyses_.WaitFor("g-owed"));
}

// ---- the calls -----------------------------------------------------------------------------

TEST_F(AnalysisWorkerTest, HiddenUnknownAndMalformedGamesAreRefusedAsEveryRead) {
  Make(100, /*start=*/false);
  v1::CompletedGameRecord hidden = GameOf(16, "g-hidden", kPerson);
  hidden.set_tournament("t-1");
  Store(hidden);
  v1::GameAnalysis out;
  EXPECT_EQ(replays_->Analysis("g-hidden", &out).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(replays_->RequestAnalysis("g-hidden", &out).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(replays_->Analysis("g-nothing", &out).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(replays_->RequestAnalysis("g-nothing", &out).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_FALSE(worker_->Pending("g-nothing"));
  EXPECT_EQ(replays_->Analysis("not an id!", &out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  Replays without(&games_, &reveals_);
  EXPECT_EQ(without.Analysis("g-hidden", &out).error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

// Another replica holds the job (or a restart will): a game with a person at
// the table and neither an analysis nor a skip reads as queued everywhere.
TEST_F(AnalysisWorkerTest, AGameOwedElsewhereReadsAsQueued) {
  Make(100, /*start=*/false);
  Replays other_replica(&games_, &reveals_);  // stored there, queued there
  v1::StoreGameResponse response;
  ASSERT_TRUE(other_replica.Store(GameOf(18, "g-elsewhere", kPerson), &response).ok());
  EXPECT_FALSE(worker_->Pending("g-elsewhere"));
  EXPECT_EQ(Analysis("g-elsewhere").state(), v1::ANALYSIS_QUEUED);
  ASSERT_TRUE(other_replica.Store(GameOf(19, "g-built-in", 0), &response).ok());
  EXPECT_EQ(Analysis("g-built-in").state(), v1::ANALYSIS_NOT_ANALYSED);
}

// Once stopped, nothing more is queued: a request is told to ask again rather
// than told "queued" for work that would never run.
TEST_F(AnalysisWorkerTest, AfterStopARequestIsUnavailable) {
  Make();
  Store(GameOf(20, "g-late", kBot));
  Settle("g-late");
  worker_->Stop();
  v1::GameAnalysis out;
  EXPECT_EQ(replays_->RequestAnalysis("g-late", &out).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_FALSE(worker_->Pending("g-late"));
}

TEST_F(AnalysisWorkerTest, ALuckSummaryNeedsAnIdentity) {
  Make(100, /*start=*/false);
  analyses_.luck = {3, 1.5, 1.0, 0.25, 2.0, 2.5};
  v1::LuckSummary out;
  EXPECT_EQ(replays_->LuckSummary(0, &out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_TRUE(replays_->LuckSummary(kPerson, &out).ok());
  EXPECT_EQ(out.identity_id(), kPerson);
  EXPECT_EQ(out.games(), 3u);
  EXPECT_EQ(out.luck_cards(), 1.5);
  EXPECT_EQ(out.adjusted_place(), 2.5);
}

}  // namespace
}  // namespace metropolis::replays
