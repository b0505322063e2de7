// The pace of an event stream, apart from the server: what the event loop
// writes, when it waits and until when, and when the stream ends.
#include "services/gateway/sse_pump.h"

#include <gtest/gtest.h>

namespace metropolis::gateway {
namespace {

using std::chrono::milliseconds;
using Kind = SsePump::Step::Kind;

class SsePumpTest : public ::testing::Test {
 protected:
  std::shared_ptr<Spectator> events_ = std::make_shared<Spectator>(1 << 20);
  SsePump::Clock::time_point t0_ = SsePump::Clock::now();
};

TEST_F(SsePumpTest, StartsWithTheRetryHintThenWaitsForEvents) {
  SsePump pump(events_, milliseconds(100), milliseconds(15000));
  SsePump::Step first = pump.Next(t0_, false);
  EXPECT_EQ(first.kind, Kind::kWrite);
  EXPECT_EQ(first.Text(), "retry: 2000\n\n");
  // Nothing to write: wait for the heartbeat, or a push, which must wake it.
  SsePump::Step wait = pump.Next(t0_ + milliseconds(10), false);
  EXPECT_EQ(wait.kind, Kind::kWait);
  EXPECT_EQ(wait.until, t0_ + milliseconds(15000));
  EXPECT_FALSE(wait.interval);
}

TEST_F(SsePumpTest, ViewsThatComeWithinTheIntervalReplaceEachOther) {
  SsePump pump(events_, milliseconds(100), milliseconds(15000));
  pump.Next(t0_, false);
  // The first view goes at once; the interval runs from its write.
  events_->PushView("event: view\ndata: 1\n\n");
  EXPECT_EQ(pump.Next(t0_ + milliseconds(10), false).Text(), "event: view\ndata: 1\n\n");
  events_->PushView("event: view\ndata: 2\n\n");
  events_->PushView("event: view\ndata: 3\n\n");
  SsePump::Step wait = pump.Next(t0_ + milliseconds(50), false);
  EXPECT_EQ(wait.kind, Kind::kWait);
  EXPECT_EQ(wait.until, t0_ + milliseconds(110));
  EXPECT_TRUE(wait.interval);  // a view pushed need not wake it
  SsePump::Step step = pump.Next(t0_ + milliseconds(110), false);
  EXPECT_EQ(step.kind, Kind::kWrite);
  EXPECT_EQ(step.Text(), "event: view\ndata: 3\n\n");
}

// Events are never merged: within a view's interval they go at once (a live
// game's delivery time is theirs), and the view after them waits its turn.
TEST_F(SsePumpTest, EventsWithinTheIntervalGoAtOnceAndTheViewAfterThemWaits) {
  SsePump pump(events_, milliseconds(100), milliseconds(15000));
  pump.Next(t0_, false);
  events_->PushView("event: view\ndata: 1\n\n");
  pump.Next(t0_ + milliseconds(10), false);
  events_->PushOrdered("event: events\ndata: 2\n\n");
  events_->PushView("event: view\ndata: 2\n\n");
  SsePump::Step step = pump.Next(t0_ + milliseconds(20), false);
  EXPECT_EQ(step.kind, Kind::kWrite);
  EXPECT_EQ(step.Text(), "event: events\ndata: 2\n\n");
  SsePump::Step wait = pump.Next(t0_ + milliseconds(30), false);
  EXPECT_EQ(wait.kind, Kind::kWait);
  EXPECT_EQ(wait.until, t0_ + milliseconds(110));
  EXPECT_EQ(pump.Next(t0_ + milliseconds(110), false).Text(), "event: view\ndata: 2\n\n");
  // The end, within an interval, is written at once too, the last view first.
  events_->PushView("event: view\ndata: 3\n\n");
  events_->Close("event: game_over\ndata: {}\n\n");
  EXPECT_EQ(pump.Next(t0_ + milliseconds(120), false).Text(), "event: view\ndata: 3\n\nevent: game_over\ndata: {}\n\n");
  EXPECT_EQ(pump.Next(t0_ + milliseconds(130), false).kind, Kind::kEnd);
}

TEST_F(SsePumpTest, ASeatStreamWritesEveryEventAtOnce) {
  SsePump pump(events_, milliseconds(0), milliseconds(15000));
  pump.Next(t0_, false);
  events_->PushOrdered("event: decision\ndata: {}\n\n");
  SsePump::Step step = pump.Next(t0_, false);
  EXPECT_EQ(step.kind, Kind::kWrite);
  EXPECT_EQ(step.Text(), "event: decision\ndata: {}\n\n");
}

TEST_F(SsePumpTest, AnIdleStreamGetsAHeartbeat) {
  SsePump pump(events_, milliseconds(100), milliseconds(1000));
  pump.Next(t0_, false);
  EXPECT_EQ(pump.Next(t0_ + milliseconds(999), false).kind, Kind::kWait);
  SsePump::Step beat = pump.Next(t0_ + milliseconds(1000), false);
  EXPECT_EQ(beat.kind, Kind::kWrite);
  EXPECT_EQ(beat.Text(), ": keep-alive\n\n");
  // The next one a heartbeat later.
  SsePump::Step wait = pump.Next(t0_ + milliseconds(1200), false);
  EXPECT_EQ(wait.kind, Kind::kWait);
  EXPECT_EQ(wait.until, t0_ + milliseconds(2000));
}

TEST_F(SsePumpTest, AClosedStreamWritesItsLastWordsThenEnds) {
  SsePump pump(events_, milliseconds(0), milliseconds(15000));
  pump.Next(t0_, false);
  events_->Close("event: game_over\ndata: {}\n\n");
  SsePump::Step last = pump.Next(t0_, false);
  EXPECT_EQ(last.kind, Kind::kWrite);
  EXPECT_EQ(last.Text(), "event: game_over\ndata: {}\n\n");
  EXPECT_EQ(pump.Next(t0_, false).kind, Kind::kEnd);
  EXPECT_EQ(pump.Next(t0_, false).kind, Kind::kEnd);
}

TEST_F(SsePumpTest, AStoppingServerEndsTheStreamWithWhatIsPending) {
  SsePump pump(events_, milliseconds(0), milliseconds(15000));
  pump.Next(t0_, false);
  events_->PushOrdered("event: x\ndata: 1\n\n");
  EXPECT_EQ(pump.Next(t0_, true).kind, Kind::kEnd);
  EXPECT_EQ(pump.Next(t0_, false).kind, Kind::kEnd);
}

TEST(SpectatorWaker, RunsAfterEveryPushAndCloseUntilRemoved) {
  Spectator events(1 << 20);
  int wakes = 0, ordered_wakes = 0;
  events.SetWaker([&](bool ordered) {
    ++wakes;
    ordered_wakes += ordered;
  });
  events.PushOrdered("a");
  EXPECT_EQ(ordered_wakes, 1);
  events.PushView("b");
  EXPECT_EQ(wakes, 2);
  EXPECT_EQ(ordered_wakes, 1);  // a view: the stream may let it wait
  bool done = false;
  const std::vector<SseText> texts = events.TakeNow(&done);
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(*texts[0] + *texts[1], "ab");
  EXPECT_FALSE(done);
  EXPECT_TRUE(events.TakeNow(&done).empty());  // nothing, and no wait
  events.SetWaker(nullptr);
  events.Close("c");
  EXPECT_EQ(wakes, 2);
  const std::vector<SseText> last = events.TakeNow(&done);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(*last[0], "c");
  EXPECT_TRUE(done);
}

TEST(SpectatorTexts, TakeOrderedLeavesTheViewAfterThem) {
  Spectator events(1 << 20);
  events.PushOrdered("e1");
  events.PushView("v1");
  bool done = true;
  std::vector<SseText> texts = events.TakeOrdered(&done);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_EQ(*texts[0], "e1");
  EXPECT_FALSE(done);
  texts = events.TakeNow(&done);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_EQ(*texts[0], "v1");
}

TEST(SpectatorTexts, AreSharedNotCopied) {
  Spectator a(1 << 20), b(1 << 20);
  const SseText view = std::make_shared<const std::string>("event: view\ndata: {}\n\n");
  a.PushView(view);
  b.PushView(view);
  bool done = false;
  EXPECT_EQ(a.TakeNow(&done).at(0).get(), view.get());
  EXPECT_EQ(b.TakeNow(&done).at(0).get(), view.get());
}

TEST(SpectatorWaker, AnOverflowWakesWithTheErrorThatEndsTheStream) {
  Spectator events(16);
  int wakes = 0;
  events.SetWaker([&](bool) { ++wakes; });
  events.PushOrdered(std::string(32, 'x'));
  EXPECT_EQ(wakes, 1);
  bool done = false;
  const std::vector<SseText> texts = events.TakeNow(&done);
  ASSERT_EQ(texts.size(), 1u);
  const std::string& text = *texts[0];
  EXPECT_TRUE(done);
  EXPECT_NE(text.find("fell too far behind"), std::string::npos) << text;
}

SseText Text(std::string text) { return std::make_shared<const std::string>(std::move(text)); }

// A long history from the start goes out in pieces of at most 16 kB, whatever
// room the connection offers, and whole, in order, across the calls.
TEST(SseOutbox, WritesInPiecesOfAtMostSixteenKilobytes) {
  SseOutbox out;
  EXPECT_TRUE(out.empty());
  const std::string big(64 << 10, 'h'), small = "data: x\n\n";
  const SseText held = Text(big);  // shared, as a game's texts are by its watchers
  out.Set({Text("retry: 2000\n\n"), held, Text(small)});
  std::vector<char> buffer(128 << 10);
  std::string written;
  std::vector<size_t> pieces;
  while (!out.empty()) {
    const size_t n = out.Fill(buffer.data(), buffer.size());
    ASSERT_GT(n, 0u);
    pieces.push_back(n);
    written.append(buffer.data(), n);
  }
  EXPECT_EQ(written, "retry: 2000\n\n" + big + small);
  EXPECT_EQ(held.use_count(), 1) << "a written stream keeps no text while it waits";
  for (size_t n : pieces) EXPECT_LE(n, size_t(16 << 10));
  EXPECT_EQ(pieces.size(), 5u);  // 64 kB and 22 bytes: four full pieces and the rest
  EXPECT_EQ(out.Fill(buffer.data(), buffer.size()), 0u);
}

// Less room than a text: the text spans calls, and nothing beyond `max` is written.
TEST(SseOutbox, ATextSpansCallsWhenTheRoomIsSmall) {
  SseOutbox out;
  out.Set({Text("abcdef"), Text("gh")});
  char buffer[4];
  EXPECT_EQ(out.Fill(buffer, 4), 4u);
  EXPECT_EQ(std::string(buffer, 4), "abcd");
  EXPECT_EQ(out.Fill(buffer, 3), 3u);
  EXPECT_EQ(std::string(buffer, 3), "efg");
  EXPECT_FALSE(out.empty());
  EXPECT_EQ(out.Fill(buffer, 4), 1u);
  EXPECT_EQ(buffer[0], 'h');
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace metropolis::gateway
