// The ticket store's contract (ticket_store.h), written once and held against
// both implementations: over the fake in matchmaker_test.cc (matchmaker_unit_tests)
// and over Redis's scripts in ticket_store_redis_test.cc (matchmaker_tests), so
// that the rounds' hermetic tests run over a store that behaves as the real one.
// Each instantiates TicketStoreContract with its own fixture, which has a
// `tickets_` (a pointer-like to the store, with the caller's clock) ready after
// SetUp and a `Create(identity, rating, now)` that queues a ticket on "open"
// (testing::Queue).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker::testing {

// A ticket on ladder "open" for `identity`, named p<identity>: its id.
inline std::string Queue(TicketStore& tickets, int64_t identity, double rating, int64_t now) {
  std::string id, existing;
  EXPECT_TRUE(tickets.Create("open", identity, "p" + std::to_string(identity), rating, now, &id, &existing));
  return id;
}

// A host with room, and players 1 to 4 queued at 1000 (rating 25): one table.
inline std::vector<std::string> FourQueued(TicketStore& tickets) {
  tickets.HostHeartbeat({"h1:1", 10, 0, 1000});
  std::vector<std::string> ids;
  for (int i = 1; i <= 4; ++i) ids.push_back(Queue(tickets, i, 25, 1000));
  return ids;
}

}  // namespace metropolis::matchmaker::testing

namespace metropolis::matchmaker {

template <typename Fixture>
class TicketStoreContract : public Fixture {};

TYPED_TEST_SUITE_P(TicketStoreContract);

TYPED_TEST_P(TicketStoreContract, AnIdentityHoldsOneActiveTicket) {
  auto& tickets = *this->tickets_;
  const std::string first = this->Create(7, 25, 1000);
  std::string id, existing;
  EXPECT_FALSE(tickets.Create("other-ladder", 7, "p7", 25, 1001, &id, &existing));
  EXPECT_EQ(existing, first);
  EXPECT_EQ(tickets.ActiveTicket(7), first);
  std::string state;
  ASSERT_TRUE(tickets.Cancel(first, &state));
  EXPECT_EQ(state, "cancelled");
  EXPECT_FALSE(tickets.Cancel(first, &state));
  EXPECT_EQ(state, "cancelled");
  EXPECT_EQ(tickets.QueueSize("open"), 0);
  EXPECT_TRUE(tickets.ActiveTicket(7).empty());
  EXPECT_TRUE(tickets.Create("open", 7, "p7", 25, 1002, &id, &existing));
}

TYPED_TEST_P(TicketStoreContract, TicketsWithoutHeartbeatsExpire) {
  auto& tickets = *this->tickets_;
  const std::string a = this->Create(1, 25, 1000), b = this->Create(2, 25, 1001);
  TicketInfo info;
  ASSERT_TRUE(tickets.Poll(a, 9000, &info));  // a's heartbeat
  EXPECT_EQ(info.state, "queued");
  EXPECT_EQ(info.position, 0);
  EXPECT_EQ(info.queue_size, 2);
  EXPECT_EQ(tickets.ExpireStale("open", 5000, 0), 1);
  ASSERT_TRUE(tickets.Poll(b, 9001, &info));
  EXPECT_EQ(info.state, "expired");
  EXPECT_EQ(tickets.QueueSize("open"), 1);
  EXPECT_TRUE(tickets.ActiveTicket(2).empty());
}

TYPED_TEST_P(TicketStoreContract, AClaimTakesAllOfATableOrNothing) {
  auto& tickets = *this->tickets_;
  const std::string a = this->Create(1, 25, 0), b = this->Create(2, 25, 0), c = this->Create(3, 25, 0),
                    d = this->Create(4, 25, 0);
  std::string state;
  ASSERT_TRUE(tickets.Cancel(d, &state));
  EXPECT_FALSE(tickets.Claim("open", {{a, b, c, d}, 0}, "t1", 10));
  EXPECT_EQ(tickets.QueueSize("open"), 3);  // nothing moved
  ASSERT_TRUE(tickets.Claim("open", {{a, b, c}, 1}, "t2", 10));
  EXPECT_FALSE(tickets.Claim("open", {{a, b, c}, 1}, "t3", 10));  // a second replica loses
  EXPECT_EQ(tickets.QueueSize("open"), 0);
  EXPECT_FALSE(tickets.Cancel(a, &state));
  EXPECT_EQ(state, "matched");
  // Not placed in time: back in the queue, first in line as before.
  EXPECT_EQ(tickets.ReleaseStuck("open", 11, 0), 3);
  const auto queue = tickets.Queue("open");
  ASSERT_EQ(queue.size(), 3u);
  EXPECT_EQ(queue[0].enqueued_ms, 0);
}

REGISTER_TYPED_TEST_SUITE_P(TicketStoreContract, AnIdentityHoldsOneActiveTicket, TicketsWithoutHeartbeatsExpire,
                            AClaimTakesAllOfATableOrNothing);

}  // namespace metropolis::matchmaker
