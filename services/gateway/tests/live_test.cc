#include "services/gateway/live.h"

#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

#include <thread>

#include "services/gateway/json.h"
#include "services/gateway/tests/spectator_waits.h"

namespace metropolis::gateway {
namespace {

// Upstreams driven by the test: it sends the updates and the end itself.
struct FakeUpstreams {
  struct Watch {
    std::string game_id, host;
    std::shared_ptr<UpstreamSink> sink;
    bool cancelled = false;
  };
  std::vector<std::shared_ptr<Watch>> watches;

  UpstreamFactory Factory() {
    return [this](const std::string& game_id, const std::string& host, std::shared_ptr<UpstreamSink> sink) {
      auto w = std::make_shared<Watch>(Watch{game_id, host, std::move(sink)});
      watches.push_back(w);
      struct Handle : Upstream {
        std::shared_ptr<Watch> w;
        void Cancel() override { w->cancelled = true; }
      };
      auto h = std::make_unique<Handle>();
      h->w = w;
      return std::unique_ptr<Upstream>(std::move(h));
    };
  }
  // Ends every stream still running, as the real ones do after Cancel.
  void EndAll() {
    for (auto& w : watches) {
      if (w->sink) w->sink->OnEnd(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
      w->sink.reset();
    }
  }
};

v1::SpectateUpdate View(uint32_t step) {
  v1::SpectateUpdate u;
  u.mutable_view()->mutable_position()->set_action_count(step);
  return u;
}

v1::SpectateUpdate Events(uint32_t step) {
  v1::SpectateUpdate u;
  u.mutable_events()->set_step(step);
  u.mutable_events()->add_events()->set_type(v1::EVENT_BARBARIANS_ADVANCE);
  return u;
}

v1::SpectateUpdate Welcome() {
  v1::SpectateUpdate u;
  u.mutable_welcome()->set_game_id("g1");
  return u;
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A hub over upstreams the test drives; TearDown ends the upstreams still running.
class LiveHubTest : public ::testing::Test {
 protected:
  void TearDown() override { fake_.EndAll(); }

  // Subscribes a spectator of game g1 on host h1:1 (from the game's start or
  // from now) to `hub`, or fails the test.
  std::shared_ptr<Spectator> Watch(bool from_start = false, LiveHub* hub = nullptr) {
    std::shared_ptr<Spectator> s;
    ApiError e;
    EXPECT_TRUE((hub ? hub : &hub_)->Subscribe("g1", "h1:1", from_start, &s, &e)) << e.message;
    return s;
  }
  // The upstream of the first channel.
  UpstreamSink& Upstream() { return *fake_.watches.at(0)->sink; }
  // It ends with `status`, as the host's stream does.
  void EndUpstream(const grpc::Status& status) {
    Upstream().OnEnd(status);
    fake_.watches.at(0)->sink.reset();
  }

  FakeUpstreams fake_;
  LiveHub hub_{{}, fake_.Factory()};
};

TEST_F(LiveHubTest, OneUpstreamForManySpectatorsAndViewsMerge) {
  const auto a = Watch(), b = Watch();
  ASSERT_TRUE(a && b);
  ASSERT_EQ(fake_.watches.size(), 1u);  // one upstream for both
  EXPECT_EQ(fake_.watches[0]->host, "h1:1");
  EXPECT_EQ(hub_.spectators(), 2u);
  EXPECT_EQ(hub_.games(), 1u);

  auto& sink = Upstream();
  sink.OnUpdate(Welcome());
  sink.OnUpdate(View(0));
  sink.OnUpdate(Events(1));
  sink.OnUpdate(View(1));
  sink.OnUpdate(Events(2));
  sink.OnUpdate(View(2));
  bool done = false;
  const std::string text = TakeText(*a, &done);
  EXPECT_FALSE(done);
  // Every event in order, but only the newest view: the older ones came
  // before events and were never written.
  EXPECT_EQ(Count(text, "event: welcome"), 1);
  EXPECT_EQ(Count(text, "event: events"), 2);
  EXPECT_EQ(Count(text, "event: view"), 1);
  EXPECT_NE(text.find("id: 2\n"), std::string::npos);
  EXPECT_LT(text.find("event: events"), text.find("event: view"));
  EXPECT_EQ(TakeText(*a, &done), "");

  // A late spectator starts at the welcome and the current view...
  const auto c = Watch();
  ASSERT_TRUE(c);
  const std::string late = TakeText(*c, &done);
  EXPECT_EQ(Count(late, "event: welcome"), 1);
  EXPECT_EQ(Count(late, "event: events"), 0);
  EXPECT_EQ(Count(late, "event: view"), 1);
  // ... or, from the start, with every earlier event too.
  const auto d = Watch(/*from_start=*/true);
  ASSERT_TRUE(d);
  EXPECT_EQ(Count(TakeText(*d, &done), "event: events"), 2);

  v1::SpectateUpdate over;
  over.mutable_game_over()->mutable_result()->set_winner(1);
  sink.OnUpdate(over);
  EndUpstream(grpc::Status::OK);
  for (const auto& s : {a, b, c, d}) {
    const std::string end = TakeText(*s, &done);
    EXPECT_TRUE(done);
    EXPECT_EQ(Count(end, "event: game_over"), 1) << end;
  }
  EXPECT_EQ(hub_.games(), 0u);  // the channel went with its upstream
  for (const auto& s : {a, b, c, d}) hub_.Unsubscribe("g1", s);
  EXPECT_EQ(hub_.spectators(), 0u);
}

TEST_F(LiveHubTest, LastSpectatorLeavingCancelsTheUpstream) {
  const auto a = Watch(), b = Watch();
  ASSERT_TRUE(a && b);
  hub_.Unsubscribe("g1", a);
  EXPECT_FALSE(fake_.watches[0]->cancelled);
  hub_.Unsubscribe("g1", b);
  EXPECT_TRUE(fake_.watches[0]->cancelled);
  EXPECT_EQ(hub_.games(), 0u);
  // Watching again starts a new upstream, while the old one ends on its own.
  const auto c = Watch();
  ASSERT_TRUE(c);
  EXPECT_EQ(fake_.watches.size(), 2u);
  EndUpstream(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  EXPECT_EQ(hub_.games(), 1u);  // the new channel stays
  hub_.Unsubscribe("g1", c);
}

TEST_F(LiveHubTest, UpstreamFailureReachesSpectators) {
  const auto a = Watch();
  ASSERT_TRUE(a);
  EndUpstream(grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection refused"));
  bool done = false;
  const std::string text = TakeText(*a, &done);
  EXPECT_TRUE(done);
  EXPECT_NE(text.find("event: error"), std::string::npos);
  EXPECT_NE(text.find("\"grpc_status\":\"UNAVAILABLE\""), std::string::npos) << text;
  hub_.Unsubscribe("g1", a);
}

TEST_F(LiveHubTest, FromStartSaysWhenTheHostKeptNoEvents) {
  const auto a = Watch();
  ASSERT_TRUE(a);
  // A game already stored: the host sends its welcome at step 500, no events,
  // then the final view.
  v1::SpectateUpdate welcome = Welcome();
  welcome.mutable_welcome()->set_step(500);
  Upstream().OnUpdate(welcome);
  Upstream().OnUpdate(View(500));
  const auto b = Watch(/*from_start=*/true);
  ASSERT_TRUE(b);
  bool done = false;
  const std::string text = TakeText(*b, &done);
  EXPECT_EQ(Count(text, "event: notice"), 1) << text;
  EXPECT_EQ(Count(TakeText(*a, &done), "event: notice"), 0);
  hub_.Unsubscribe("g1", a);
  hub_.Unsubscribe("g1", b);
}

// Every seat's clock (gamehost.proto's Clocks) is the moment's: spectators who
// watch get each update's, but the welcome and the history kept for later
// spectators hold none; a late spectator gets the latest clocks as they stand
// when it comes, the running one counted down by the time since they came.
TEST_F(LiveHubTest, ALateSpectatorGetsTheClocksAsTheyStandNotAsTheyWere) {
  const auto a = Watch();
  ASSERT_TRUE(a);
  v1::SpectateUpdate welcome = Welcome();
  welcome.mutable_welcome()->mutable_clocks()->add_time_bank_ms_left(1);
  Upstream().OnUpdate(welcome);
  v1::SpectateUpdate events = Events(7);
  v1::Clocks* clocks = events.mutable_events()->mutable_clocks();
  for (uint32_t bank : {60000u, 50000u, 60000u}) clocks->add_time_bank_ms_left(bank);
  clocks->set_running(1);
  clocks->set_decision_ms_left(100);
  Upstream().OnUpdate(events);
  bool done = false;
  const std::string watching = TakeText(*a, &done);
  EXPECT_EQ(Count(watching, "\"clocks\""), 2) << "the watching spectator hears each update's clocks: " << watching;

  std::this_thread::sleep_for(
      std::chrono::milliseconds(150));  // the decision limit is spent, and 50 ms of the bank or more
  const auto b = Watch(/*from_start=*/true);
  ASSERT_TRUE(b);
  const std::string late = TakeText(*b, &done);
  EXPECT_EQ(Count(late, "\"clocks\""), 1) << "only the clocks of now, once: " << late;
  EXPECT_EQ(Count(late, "EVENT_BARBARIANS_ADVANCE"), 1) << late;
  const size_t at = late.find("\"clocks\"");
  ASSERT_NE(at, std::string::npos);
  const std::string line =
      late.substr(late.rfind("data: ", at) + 6, late.find('\n', at) - late.rfind("data: ", at) - 6);
  const Json now = Json::parse(line);
  EXPECT_EQ(now["clocks"]["running"], 1);
  EXPECT_EQ(now["clocks"]["decision_ms_left"], 0);
  const int bank = now["clocks"]["time_bank_ms_left"][1].get<int>();
  EXPECT_LE(bank, 50000 - 50) << line;
  EXPECT_GT(bank, 0) << line;
  EXPECT_EQ(now["clocks"]["time_bank_ms_left"][0], 60000) << "a clock not running stands still";
  hub_.Unsubscribe("g1", a);
  hub_.Unsubscribe("g1", b);
}

// The gauge of what the live games' histories hold: it follows every events
// text kept, and gives it all back when the history outgrows its bound or the
// game ends, so that a benchmark can tell the histories from a leak.
TEST_F(LiveHubTest, HistoryBytesCountTheKeptEventsUntilDroppedOrEnded) {
  size_t gauge = 0;                                          // as the gateway's gauge: the sum of the changes
  const size_t one = SpectateUpdateToSse(Events(1)).size();  // as long for every step of one digit
  LiveHub hub({.max_history_bytes = 3 * one}, fake_.Factory(), [&](ptrdiff_t change) { gauge += size_t(change); });
  const auto a = Watch(false, &hub);
  ASSERT_TRUE(a);
  Upstream().OnUpdate(Welcome());
  for (uint32_t step = 1; step <= 2; ++step) {
    Upstream().OnUpdate(Events(step));
    Upstream().OnUpdate(View(step));
  }
  EXPECT_EQ(hub.history_bytes(), 2 * one);
  EXPECT_EQ(gauge, hub.history_bytes());
  // A spectator from the start shares the kept texts.
  const auto b = Watch(/*from_start=*/true, &hub);
  ASSERT_TRUE(b);
  bool done = false;
  EXPECT_EQ(Count(TakeText(*b, &done), "event: events"), 2);

  // Past the bound the history is dropped, and the gauge with it.
  for (uint32_t step = 3; step <= 4; ++step) {
    Upstream().OnUpdate(Events(step));
    Upstream().OnUpdate(View(step));
  }
  EXPECT_EQ(hub.history_bytes(), 0u);
  EXPECT_EQ(gauge, 0u);
  const auto c = Watch(/*from_start=*/true, &hub);
  ASSERT_TRUE(c);
  const std::string late = TakeText(*c, &done);
  EXPECT_EQ(Count(late, "event: notice"), 1) << late;
  EXPECT_EQ(Count(late, "event: events"), 0) << late;
  for (const auto& s : {a, b, c}) hub.Unsubscribe("g1", s);
  EndUpstream(grpc::Status::OK);
}

// Ends the upstreams still running as it goes: declared after a hub, it goes
// first, so that a test an assertion ends early does not leave the hub's
// destructor waiting for them.
struct EndsUpstreams {
  FakeUpstreams* fake;
  ~EndsUpstreams() { fake->EndAll(); }
};

// The data of every "events" event in `text`, in order.
std::vector<Json> EventsData(const std::string& text) {
  std::vector<Json> out;
  const std::string head = "event: events\ndata: ";
  for (size_t at = text.find(head); at != std::string::npos; at = text.find(head, at + 1)) {
    const size_t start = at + head.size();
    out.push_back(Json::parse(text.substr(start, text.find('\n', start) - start)));
  }
  return out;
}

// The game's welcome, then ten steps of one event each, its seat the step's
// remainder by 4 to tell them apart, each followed by a view when `views`.
// Returns the bytes of the events messages as spectators were sent them.
size_t PlayTenSteps(UpstreamSink& upstream, bool views) {
  upstream.OnUpdate(Welcome());
  size_t sent_bytes = 0;
  for (uint32_t step = 1; step <= 10; ++step) {
    v1::SpectateUpdate update = Events(step);
    update.mutable_events()->mutable_events(0)->set_seat(int32_t(step % 4));
    sent_bytes += SpectateUpdateToSse(update).size();
    upstream.OnUpdate(update);
    if (views) upstream.OnUpdate(View(step));
  }
  return sent_bytes;
}

// A late spectator from the start gets the same events in the same order,
// in fewer messages: each block of them merged into one, as the host replays
// a game. The history holds less than the messages did, and one text a block.
TEST_F(LiveHubTest, HistoryMergesEachBlockOfEventsMessagesIntoOne) {
  size_t gauge = 0;
  LiveHub hub({.history_block = 4}, fake_.Factory(), [&](ptrdiff_t change) { gauge += size_t(change); });
  const EndsUpstreams ends{&fake_};
  const auto a = Watch(false, &hub);
  ASSERT_TRUE(a);
  const size_t sent_bytes = PlayTenSteps(Upstream(), /*views=*/true);
  EXPECT_LT(hub.history_bytes(), sent_bytes);
  EXPECT_EQ(gauge, hub.history_bytes());
  bool done = false;
  EXPECT_EQ(EventsData(TakeText(*a, &done)).size(), 10u);  // live, one message a step

  const auto b = Watch(/*from_start=*/true, &hub);
  ASSERT_TRUE(b);
  const std::vector<Json> messages = EventsData(TakeText(*b, &done));
  ASSERT_EQ(messages.size(), 4u);  // steps 1-4, 5-8, then 9 and 10 not merged yet
  const std::vector<uint32_t> steps = {4, 8, 9, 10};
  const std::vector<size_t> sizes = {4, 4, 1, 1};
  uint32_t step = 0;
  for (size_t i = 0; i < messages.size(); ++i) {
    EXPECT_EQ(messages[i]["step"], steps[i]) << messages[i];
    ASSERT_EQ(messages[i]["events"].size(), sizes[i]) << messages[i];
    for (const Json& event : messages[i]["events"]) {
      ++step;
      EXPECT_EQ(event["type"], "EVENT_BARBARIANS_ADVANCE");
      EXPECT_EQ(event["seat"], int(step % 4)) << "event " << step << " out of order";
    }
  }
  EXPECT_EQ(step, 10u);
  for (const auto& s : {a, b}) hub.Unsubscribe("g1", s);
  EXPECT_EQ(gauge, 0u);
  EndUpstream(grpc::Status::OK);
}

// With blocks of one every message is kept as it came: the control for the
// saving above.
TEST_F(LiveHubTest, HistoryBlocksOfOneKeepEveryMessage) {
  LiveHub hub({.history_block = 1}, fake_.Factory());
  const EndsUpstreams ends{&fake_};
  const auto a = Watch(false, &hub);
  ASSERT_TRUE(a);
  const size_t sent_bytes = PlayTenSteps(Upstream(), /*views=*/false);
  EXPECT_EQ(hub.history_bytes(), sent_bytes);
  const auto b = Watch(/*from_start=*/true, &hub);
  ASSERT_TRUE(b);
  bool done = false;
  EXPECT_EQ(EventsData(TakeText(*b, &done)).size(), 10u);
  for (const auto& s : {a, b}) hub.Unsubscribe("g1", s);
  EndUpstream(grpc::Status::OK);
}

TEST_F(LiveHubTest, HistoryBytesGoBackWhenTheLastSpectatorLeaves) {
  size_t gauge = 0;  // as the gateway's gauge: the sum of the changes
  LiveHub hub({}, fake_.Factory(), [&](ptrdiff_t change) { gauge += size_t(change); });
  const auto a = Watch(false, &hub);
  ASSERT_TRUE(a);
  Upstream().OnUpdate(Welcome());
  Upstream().OnUpdate(Events(1));
  Upstream().OnUpdate(View(1));
  EXPECT_GT(hub.history_bytes(), 0u);
  // At once, not when the cancelled upstream ends.
  hub.Unsubscribe("g1", a);
  EXPECT_EQ(hub.history_bytes(), 0u);
  EXPECT_EQ(gauge, 0u);
  Upstream().OnUpdate(Events(2));  // the upstream still running meanwhile keeps nothing
  EXPECT_EQ(hub.history_bytes(), 0u);
  EndUpstream(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
}

TEST_F(LiveHubTest, HistoryBytesGoBackWhenTheGameEnds) {
  size_t gauge = 0;  // as the gateway's gauge: the sum of the changes
  LiveHub hub({}, fake_.Factory(), [&](ptrdiff_t change) { gauge += size_t(change); });
  const auto a = Watch(false, &hub);
  ASSERT_TRUE(a);
  Upstream().OnUpdate(Welcome());
  for (uint32_t step = 1; step <= 9; ++step) {  // ids of one digit
    Upstream().OnUpdate(Events(step));
    Upstream().OnUpdate(View(step));
  }
  EXPECT_EQ(hub.history_bytes(), 9 * SpectateUpdateToSse(Events(1)).size());
  EXPECT_EQ(gauge, hub.history_bytes());
  v1::SpectateUpdate over;
  over.mutable_game_over()->mutable_result()->set_winner(1);
  Upstream().OnUpdate(over);
  EndUpstream(grpc::Status::OK);
  EXPECT_EQ(hub.history_bytes(), 0u);
  EXPECT_EQ(gauge, 0u);
  hub.Unsubscribe("g1", a);
}

TEST_F(LiveHubTest, LimitsRefuseWith503) {
  LiveHub hub({.max_spectators = 2, .max_games = 1}, fake_.Factory());
  const auto a = Watch(false, &hub);
  ASSERT_TRUE(a);
  std::shared_ptr<Spectator> refused;
  ApiError e;
  EXPECT_FALSE(hub.Subscribe("g2", "h1:1", false, &refused, &e));
  EXPECT_EQ(e.http, 503);
  EXPECT_NE(e.message.find("--max-live-games"), std::string::npos);
  const auto b = Watch(false, &hub);
  ASSERT_TRUE(b);
  EXPECT_FALSE(hub.Subscribe("g1", "h1:1", false, &refused, &e));
  EXPECT_EQ(e.status, "RESOURCE_EXHAUSTED");
  EXPECT_NE(e.message.find("--max-spectators"), std::string::npos);
  hub.Unsubscribe("g1", a);
  hub.Unsubscribe("g1", b);
  fake_.EndAll();
}

TEST(Spectator, TheLastViewComesBeforeTheEnd) {
  Spectator s(1000);
  s.PushOrdered("events ");
  s.PushView("view ");
  s.Close("game_over");
  bool done = false;
  EXPECT_EQ(TakeText(s, &done), "events view game_over");
  EXPECT_TRUE(done);
}

TEST(Spectator, TooFarBehindIsDropped) {
  Spectator s(100);
  s.PushOrdered(std::string(60, 'x'));
  EXPECT_FALSE(s.closed());
  s.PushOrdered(std::string(60, 'y'));
  EXPECT_TRUE(s.closed());
  bool done = false;
  const std::string text = TakeText(s, &done);
  EXPECT_TRUE(done);
  EXPECT_EQ(text.rfind("event: error", 0), 0u);
}

// What the server's event loop relies on: a push or the end from the upstream's
// thread wakes it (the waker), and it then finds them. How long a stream waits
// when nothing comes is SsePump's (tests/sse_pump_test.cc).
TEST(Spectator, PushesAndTheEndFromAnotherThreadWakeTheReader) {
  Spectator s(1000);
  WakeCounter wakes(s);
  bool done = false;
  EXPECT_EQ(TakeText(s, &done), "");
  EXPECT_FALSE(done);
  // The test waits as the event loop does, while another thread pushes.
  std::thread pusher([&] { s.PushView("v"); });
  bool woken = wakes.WaitFor(1);
  pusher.join();
  ASSERT_TRUE(woken);
  EXPECT_EQ(TakeText(s, &done), "v");
  EXPECT_FALSE(done);
  std::thread closer([&] { s.Close("end"); });
  woken = wakes.WaitFor(2);
  closer.join();
  ASSERT_TRUE(woken);
  EXPECT_EQ(TakeText(s, &done), "end");
  EXPECT_TRUE(done);
}

}  // namespace
}  // namespace metropolis::gateway
