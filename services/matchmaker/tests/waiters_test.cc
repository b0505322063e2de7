// The waiting streams' tickets, read together (waiters.h) over the ticket
// store's fake: one call a beat for every stream, their heartbeats, a seat
// heard as soon as it is assigned, a lost notice made up for by the next beat.
// The same calls against Redis are in ticket_store_redis_test.cc.
#include "services/matchmaker/waiters.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <thread>

#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tests/fake_creator.h"
#include "services/matchmaker/tests/fake_ticket_store.h"
#include "services/matchmaker/tests/ticket_store_contract.h"

namespace metropolis::matchmaker {
namespace {

using testing::FakeCreator;
using testing::FakeTicketStore;

// A bound on waiting for what must come; reaching it fails the test.
constexpr std::chrono::seconds kLimit{10};

// Readings of `watch` until one satisfies `done` (false when kLimit passed).
bool ReadUntil(TicketWaiters::Watch& watch, const std::function<bool(const TicketReading&)>& done, TicketReading* out) {
  const auto until = std::chrono::steady_clock::now() + kLimit;
  while (std::chrono::steady_clock::now() < until) {
    if (watch.Next(std::chrono::milliseconds(100), out) && done(*out)) return true;
  }
  return false;
}

// Until the waiters listen to the store's notices (false when kLimit passed).
bool WaitListening(const TicketWaiters& waiters) {
  const auto until = std::chrono::steady_clock::now() + kLimit;
  while (!waiters.listening() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return waiters.listening();
}

TEST(WaitersTest, ManyWaitingStreamsAreReadAndHeartbeatTogether) {
  FakeTicketStore tickets;
  std::vector<std::string> ids;
  for (int i = 1; i <= 200; ++i) ids.push_back(testing::Queue(tickets, i, 25, 0));
  tickets.clock_ms = 10'000;  // every ticket's heartbeat is 10 s old
  TicketWaiters waiters(&tickets, {.beat_ms = 20});
  std::vector<std::unique_ptr<TicketWaiters::Watch>> watches;
  for (const std::string& id : ids) watches.push_back(waiters.Add(id));
  EXPECT_EQ(waiters.watched(), 200u);
  // Three readings each, taken a round at a time: the first may come from the
  // read each new watch asks for, the later ones from the beats.
  std::set<int64_t> positions;
  for (int round = 0; round < 3; ++round) {
    for (auto& watch : watches) {
      TicketReading r;
      ASSERT_TRUE(ReadUntil(
          *watch, [](const TicketReading&) { return true; }, &r));
      ASSERT_TRUE(r.status.ok()) << r.status.error_message();
      ASSERT_TRUE(r.found);
      EXPECT_EQ(r.info.state, "queued");
      EXPECT_EQ(r.info.queue_size, 200);
      if (round == 2) positions.insert(r.info.position);
    }
  }
  EXPECT_EQ(positions.size(), 200u) << "each stream reads its own ticket's place";
  EXPECT_EQ(tickets.poll_calls.load(), 0) << "no stream polls its own ticket";
  // Once every stream is in, each call reads all their tickets: the beats.
  const std::vector<size_t> sizes = tickets.PollManySizes();
  const auto first_beat = std::find(sizes.begin(), sizes.end(), 200u);
  ASSERT_NE(first_beat, sizes.end());
  EXPECT_GE(sizes.end() - first_beat, 2);
  for (auto it = first_beat; it != sizes.end(); ++it) EXPECT_EQ(*it, 200u);
  // The reads were the streams' heartbeats: the table is fresh enough to claim.
  bool claimed = false, stale = true;
  ASSERT_TRUE(tickets.Claim("open", {{ids[0], ids[1], ids[2], ids[3]}, 0}, "t1", 10'000, 2000, &claimed, &stale).ok());
  EXPECT_TRUE(claimed);
  EXPECT_FALSE(stale);
  watches.clear();
  EXPECT_EQ(waiters.watched(), 0u);
}

// Assigned, a ticket is read at once: its stream does not wait for the beat
// (an hour here). Negative control: with WaitersOptions::wake off the seat is
// never heard within the limit, and the test fails.
TEST(WaitersTest, AnAssignedTicketIsReadAtOnceNotAtTheNextBeat) {
  FakeTicketStore tickets;
  FakeCreator creator;
  const std::vector<std::string> ids = testing::FourQueued(tickets);
  TicketWaiters waiters(&tickets, {.beat_ms = 3'600'000});
  const auto watch = waiters.Add(ids[2]);
  TicketReading r;
  ASSERT_TRUE(ReadUntil(
      *watch, [](const TicketReading& r) { return r.found; }, &r));
  EXPECT_EQ(r.info.state, "queued");
  // A notice written before the waiters listen would be missed (the beat would
  // tell, an hour later): the round waits for them.
  ASSERT_TRUE(WaitListening(waiters));
  LadderConfig ladder;
  ladder.id = "open";
  ladder.options = DefaultOptions(Ruleset::kCitiesAndKnights);
  Matchmaker matchmaker(&tickets, &creator, {});
  ASSERT_EQ(matchmaker.RunRound({ladder}, 2000).placed, 1);
  ASSERT_TRUE(ReadUntil(
      *watch, [](const TicketReading& r) { return r.info.state != "queued"; }, &r));
  EXPECT_EQ(r.info.state, "assigned");
  ASSERT_EQ(creator.games.size(), 1u);
  EXPECT_EQ(r.info.game_id, creator.games[0].game_id());
  EXPECT_FALSE(r.info.seat_token.empty());
}

// A notice lost (a Redis failover) costs a beat, not the seat.
TEST(WaitersTest, ALostNoticeIsMadeUpForByTheNextBeat) {
  FakeTicketStore tickets;
  FakeCreator creator;
  tickets.notify_assigned = false;
  const std::vector<std::string> ids = testing::FourQueued(tickets);
  TicketWaiters waiters(&tickets, {.beat_ms = 50});
  const auto watch = waiters.Add(ids[0]);
  LadderConfig ladder;
  ladder.id = "open";
  ladder.options = DefaultOptions(Ruleset::kCitiesAndKnights);
  Matchmaker matchmaker(&tickets, &creator, {});
  ASSERT_EQ(matchmaker.RunRound({ladder}, 2000).placed, 1);
  TicketReading r;
  ASSERT_TRUE(ReadUntil(
      *watch, [](const TicketReading& r) { return r.info.state == "assigned"; }, &r));
}

// Two streams on one ticket (a client that queued again from elsewhere) both
// hear it; the ticket stays watched until the last of them leaves.
TEST(WaitersTest, TwoStreamsOnOneTicketBothHearIt) {
  FakeTicketStore tickets;
  const std::string id = testing::Queue(tickets, 1, 25, 0);
  TicketWaiters waiters(&tickets, {.beat_ms = 20});
  auto first = waiters.Add(id);
  auto second = waiters.Add(id);
  EXPECT_EQ(waiters.watched(), 1u);
  TicketReading r;
  ASSERT_TRUE(ReadUntil(
      *first, [](const TicketReading& r) { return r.found; }, &r));
  ASSERT_TRUE(ReadUntil(
      *second, [](const TicketReading& r) { return r.found; }, &r));
  first.reset();
  EXPECT_EQ(waiters.watched(), 1u);
  ASSERT_TRUE(ReadUntil(
      *second, [](const TicketReading& r) { return r.found; }, &r));
  second.reset();
  EXPECT_EQ(waiters.watched(), 0u);
}

// A store that does not answer ends the waits with its status (the stream
// passes it on: the client queues again and resumes its ticket).
TEST(WaitersTest, AStoreThatDoesNotAnswerEndsTheWaitWithItsStatus) {
  FakeTicketStore tickets;
  const std::string id = testing::Queue(tickets, 1, 25, 0);
  tickets.unavailable = true;
  TicketWaiters waiters(&tickets, {.beat_ms = 20});
  const auto watch = waiters.Add(id);
  TicketReading r;
  ASSERT_TRUE(ReadUntil(
      *watch, [](const TicketReading&) { return true; }, &r));
  EXPECT_EQ(r.status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_FALSE(r.found);
}

}  // namespace
}  // namespace metropolis::matchmaker
