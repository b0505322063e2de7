// The ticket store's contract (ticket_store.h), written once and held against
// both implementations: over the fake in matchmaker_test.cc (matchmaker_unit_tests)
// and over Redis's scripts in ticket_store_redis_test.cc (matchmaker_tests), so
// that the rounds' hermetic tests run over a store that behaves as the real one.
// Each instantiates TicketStoreContract with its own fixture, which has a
// `tickets_` (a pointer-like to the store, with the caller's clock) ready after
// SetUp, a `Create(identity, rating, now)` that queues a ticket on "open"
// (testing::Queue), and UnreachableTickets(): a store that cannot be reached.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker::testing {

// A ticket on ladder "open" for `identity`, named p<identity>: its id.
inline std::string Queue(TicketStore& tickets, int64_t identity, double rating, int64_t now) {
  std::string id, existing;
  bool created = false;
  const grpc::Status s =
      tickets.Create("open", identity, "p" + std::to_string(identity), rating, now, &id, &existing, &created);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(created) << "p" << identity << " has ticket " << existing << " already";
  return id;
}

// A host with room, and players 1 to 4 queued at 1000 (rating 25): one table.
inline std::vector<std::string> FourQueued(TicketStore& tickets) {
  EXPECT_TRUE(tickets.HostHeartbeat({"h1:1", 10, 0, 1000}).ok());
  std::vector<std::string> ids;
  for (int i = 1; i <= 4; ++i) ids.push_back(Queue(tickets, i, 25, 1000));
  return ids;
}

// The store's answers to the calls the tests make most, which they expect to be
// OK: whether Poll found the ticket (recording its heartbeat when queued), and
// the size of a ladder's queue.
inline bool Polled(TicketStore& tickets, const std::string& id, int64_t now, TicketInfo* out) {
  bool found = false;
  const grpc::Status s = tickets.Poll(id, now, out, &found);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return found;
}
inline int64_t QueueSize(TicketStore& tickets, const std::string& ladder) {
  int64_t size = -1;
  const grpc::Status s = tickets.QueueSize(ladder, &size);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return size;
}

}  // namespace metropolis::matchmaker::testing

namespace metropolis::matchmaker {

template <typename Fixture>
class TicketStoreContract : public Fixture {};

TYPED_TEST_SUITE_P(TicketStoreContract);

TYPED_TEST_P(TicketStoreContract, AnIdentityHoldsOneActiveTicket) {
  auto& tickets = *this->tickets_;
  const std::string first = this->Create(7, 25, 1000);
  std::string id, existing, active, state;
  bool created = true, cancelled = false;
  ASSERT_TRUE(tickets.Create("other-ladder", 7, "p7", 25, 1001, &id, &existing, &created).ok());
  EXPECT_FALSE(created);
  EXPECT_EQ(existing, first);
  ASSERT_TRUE(tickets.ActiveTicket(7, &active).ok());
  EXPECT_EQ(active, first);
  ASSERT_TRUE(tickets.Cancel(first, &state, &cancelled).ok());
  EXPECT_TRUE(cancelled);
  EXPECT_EQ(state, "cancelled");
  ASSERT_TRUE(tickets.Cancel(first, &state, &cancelled).ok());
  EXPECT_FALSE(cancelled);
  EXPECT_EQ(state, "cancelled");
  EXPECT_EQ(testing::QueueSize(tickets, "open"), 0);
  ASSERT_TRUE(tickets.ActiveTicket(7, &active).ok());
  EXPECT_TRUE(active.empty());
  ASSERT_TRUE(tickets.Create("open", 7, "p7", 25, 1002, &id, &existing, &created).ok());
  EXPECT_TRUE(created);
}

TYPED_TEST_P(TicketStoreContract, TicketsWithoutHeartbeatsExpire) {
  auto& tickets = *this->tickets_;
  const std::string a = this->Create(1, 25, 1000), b = this->Create(2, 25, 1001);
  TicketInfo info;
  ASSERT_TRUE(testing::Polled(tickets, a, 9000, &info));  // a's heartbeat
  EXPECT_EQ(info.state, "queued");
  EXPECT_EQ(info.position, 0);
  EXPECT_EQ(info.queue_size, 2);
  int expired = 0;
  ASSERT_TRUE(tickets.ExpireStale("open", 5000, 0, &expired).ok());
  EXPECT_EQ(expired, 1);
  ASSERT_TRUE(testing::Polled(tickets, b, 9001, &info));
  EXPECT_EQ(info.state, "expired");
  EXPECT_EQ(testing::QueueSize(tickets, "open"), 1);
  std::string active = "?";
  ASSERT_TRUE(tickets.ActiveTicket(2, &active).ok());
  EXPECT_TRUE(active.empty());
}

// A host that stopped announcing leaves the registry for good once it has been
// silent long enough: not listed, not picked; one that beats again comes back.
TYPED_TEST_P(TicketStoreContract, SilentHostsAreForgotten) {
  auto& tickets = *this->tickets_;
  ASSERT_TRUE(tickets.HostHeartbeat({"old:1", 10, 0, 1000}).ok());
  ASSERT_TRUE(tickets.HostHeartbeat({"new:1", 10, 0, 50'000}).ok());
  std::vector<std::string> forgotten = {"?"};
  ASSERT_TRUE(tickets.ForgetHosts(60'000, 60'000, &forgotten).ok());
  EXPECT_TRUE(forgotten.empty()) << "old:1 was heard 59 s ago";
  ASSERT_TRUE(tickets.ForgetHosts(61'001, 60'000, &forgotten).ok());
  EXPECT_EQ(forgotten, std::vector<std::string>{"old:1"});
  std::vector<HostInfo> hosts;
  ASSERT_TRUE(tickets.Hosts(&hosts).ok());
  ASSERT_EQ(hosts.size(), 1u);
  EXPECT_EQ(hosts[0].address, "new:1");
  EXPECT_EQ(hosts[0].capacity, 10);
  // Forgotten whole: its old capacity and live count do not come back with it.
  ASSERT_TRUE(tickets.HostHeartbeat({"old:1", 3, 1, 62'000}).ok());
  ASSERT_TRUE(tickets.Hosts(&hosts).ok());
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[1].address, "old:1");
  EXPECT_EQ(hosts[1].capacity, 3);
  EXPECT_EQ(hosts[1].live, 1);
}

// A host is picked only with room for all the places asked (a duplicate set's
// rotations, played on one host), and all of them are reserved at once.
TYPED_TEST_P(TicketStoreContract, APickReservesAllThePlacesItAsksFor) {
  auto& tickets = *this->tickets_;
  ASSERT_TRUE(tickets.HostHeartbeat({"small:1", 5, 3, 1000}).ok());  // room for 2
  ASSERT_TRUE(tickets.HostHeartbeat({"big:1", 10, 5, 1000}).ok());   // room for 5
  std::string host;
  bool picked = false;
  ASSERT_TRUE(tickets.PickHost(1000, 15'000, 6, &host, &picked).ok());
  EXPECT_FALSE(picked) << "no host has room for 6";
  ASSERT_TRUE(tickets.PickHost(1000, 15'000, 4, &host, &picked).ok());
  ASSERT_TRUE(picked);
  EXPECT_EQ(host, "big:1");
  ASSERT_TRUE(tickets.PickHost(1000, 15'000, 2, &host, &picked).ok());
  ASSERT_TRUE(picked);
  EXPECT_EQ(host, "small:1") << "big:1 has room for one now";
  std::vector<HostInfo> hosts;
  ASSERT_TRUE(tickets.Hosts(&hosts).ok());
  for (const HostInfo& h : hosts) EXPECT_EQ(h.live, h.address == "big:1" ? 9 : 5) << h.address << ": places reserved";
  ASSERT_TRUE(tickets.PickHost(1000, 15'000, 1, &host, &picked).ok());
  EXPECT_TRUE(picked) << "big:1 had one place left";
  EXPECT_EQ(host, "big:1");
}

// The replicas that share the ladders: those heard within the time to live,
// by name; one that left, or that has been silent ten times that long, is gone.
TYPED_TEST_P(TicketStoreContract, LiveReplicasAreThoseHeardLately) {
  auto& tickets = *this->tickets_;
  std::vector<std::string> live;
  ASSERT_TRUE(tickets.ReplicaHeartbeat("r2", 1000, 3000, &live).ok());
  EXPECT_EQ(live, std::vector<std::string>{"r2"});
  ASSERT_TRUE(tickets.ReplicaHeartbeat("r1", 2000, 3000, &live).ok());
  EXPECT_EQ(live, (std::vector<std::string>{"r1", "r2"}));
  ASSERT_TRUE(tickets.ReplicaHeartbeat("r3", 2500, 3000, &live).ok());
  EXPECT_EQ(live, (std::vector<std::string>{"r1", "r2", "r3"}));
  ASSERT_TRUE(tickets.ReplicaHeartbeat("r1", 4001, 3000, &live).ok());
  EXPECT_EQ(live, (std::vector<std::string>{"r1", "r3"})) << "r2 was heard 3,001 ms ago";
  ASSERT_TRUE(tickets.ReplicaLeave("r3").ok());
  ASSERT_TRUE(tickets.ReplicaHeartbeat("r1", 4100, 3000, &live).ok());
  EXPECT_EQ(live, std::vector<std::string>{"r1"});
  // r2 comes back after a pause shorter than ten times the time to live.
  ASSERT_TRUE(tickets.ReplicaHeartbeat("r2", 5000, 3000, &live).ok());
  EXPECT_EQ(live, (std::vector<std::string>{"r1", "r2"}));
}

TYPED_TEST_P(TicketStoreContract, AClaimTakesAllOfATableOrNothing) {
  auto& tickets = *this->tickets_;
  const std::string a = this->Create(1, 25, 0), b = this->Create(2, 25, 0), c = this->Create(3, 25, 0),
                    d = this->Create(4, 25, 0);
  std::string state;
  bool cancelled = false, claimed = true;
  ASSERT_TRUE(tickets.Cancel(d, &state, &cancelled).ok() && cancelled);
  ASSERT_TRUE(tickets.Claim("open", {{a, b, c, d}, 0}, "t1", 10, 0, &claimed).ok());
  EXPECT_FALSE(claimed);
  EXPECT_EQ(testing::QueueSize(tickets, "open"), 3);  // nothing moved
  ASSERT_TRUE(tickets.Claim("open", {{a, b, c}, 1}, "t2", 10, 0, &claimed).ok() && claimed);
  ASSERT_TRUE(tickets.Claim("open", {{a, b, c}, 1}, "t3", 10, 0, &claimed).ok());
  EXPECT_FALSE(claimed);  // a second replica loses
  EXPECT_EQ(testing::QueueSize(tickets, "open"), 0);
  ASSERT_TRUE(tickets.Cancel(a, &state, &cancelled).ok());
  EXPECT_FALSE(cancelled);
  EXPECT_EQ(state, "matched");
  // Not placed in time: back in the queue, first in line as before.
  int released = 0;
  ASSERT_TRUE(tickets.ReleaseStuck("open", 11, 0, &released).ok());
  EXPECT_EQ(released, 3);
  std::vector<Ticket> queue;
  ASSERT_TRUE(tickets.Queue("open", &queue).ok());
  ASSERT_EQ(queue.size(), 3u);
  EXPECT_EQ(queue[0].enqueued_ms, 0);
}

// A store that cannot be reached answers every call with UNAVAILABLE, the status
// a caller retries, in the words the Matchmaker service passes on ("ticket store
// unavailable: ..."): not OK, no exception, and no flag set.
TYPED_TEST_P(TicketStoreContract, EveryCallToAnUnreachableStoreAnswersUnavailable) {
  std::unique_ptr<TicketStore> tickets = this->UnreachableTickets();
  int64_t now = 0, size = 0;
  int count = 0;
  std::string id, existing, state, host;
  TicketInfo info;
  std::vector<Ticket> queue;
  std::vector<HostInfo> hosts;
  std::vector<std::string> forgotten;
  std::vector<TicketInfo> infos;
  std::string cursor;
  // Set, to see that every call clears the flags it answers with.
  bool created = true, found = true, cancelled = true, claimed = true, stale = true, spent = true, picked = true;
  const Seating seat{"ticket-1", 7, {"game-1", "h1:1", "token", 0, ""}};
  const std::vector<std::pair<std::string, grpc::Status>> answers = {
      {"Now", tickets->Now(&now)},
      {"Create", tickets->Create("open", 7, "p7", 25, 1000, &id, &existing, &created)},
      {"Poll", tickets->Poll("ticket-1", 1000, &info, &found)},
      {"PollMany", tickets->PollMany({"ticket-1"}, 1000, &infos)},
      {"AwaitAssigned", tickets->AwaitAssigned(10, &cursor, &forgotten)},
      {"Cancel", tickets->Cancel("ticket-1", &state, &cancelled)},
      {"ActiveTicket", tickets->ActiveTicket(7, &id)},
      {"Queue", tickets->Queue("open", &queue)},
      {"QueueSize", tickets->QueueSize("open", &size)},
      {"ExpireStale", tickets->ExpireStale("open", 1000, 0, &count)},
      {"Claim", tickets->Claim("open", {{"ticket-1"}, 3}, "t1", 1000, 2000, &claimed, &stale)},
      {"Assign", tickets->Assign("open", "t1", {seat}, &count)},
      {"Delivered", tickets->Delivered("ticket-1", 7)},
      {"Spend", tickets->Spend("ticket-1", 7, "game-1", &spent)},
      {"Release", tickets->Release("open", "t1", {"ticket-1"}, &count)},
      {"ReleaseStuck", tickets->ReleaseStuck("open", 1000, 0, &count)},
      {"HostHeartbeat", tickets->HostHeartbeat({"h1:1", 10, 0, 1000})},
      {"PickHost", tickets->PickHost(1000, 15'000, 1, &host, &picked)},
      {"MarkHostDown", tickets->MarkHostDown("h1:1")},
      {"Hosts", tickets->Hosts(&hosts)},
      {"ForgetHosts", tickets->ForgetHosts(1000, 60'000, &forgotten)},
      {"ReplicaHeartbeat", tickets->ReplicaHeartbeat("r1", 1000, 3000, &forgotten)},
      {"ReplicaLeave", tickets->ReplicaLeave("r1")}};
  for (const auto& [call, s] : answers) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << call << ": " << s.error_message();
    EXPECT_TRUE(s.error_message().starts_with("ticket store unavailable: ")) << call << ": " << s.error_message();
  }
  for (const auto& [flag, set] : {std::pair{"created", created},
                                  {"found", found},
                                  {"cancelled", cancelled},
                                  {"claimed", claimed},
                                  {"stale", stale},
                                  {"spent", spent},
                                  {"picked", picked}})
    EXPECT_FALSE(set) << flag;
}

REGISTER_TYPED_TEST_SUITE_P(TicketStoreContract, AnIdentityHoldsOneActiveTicket, TicketsWithoutHeartbeatsExpire,
                            SilentHostsAreForgotten, APickReservesAllThePlacesItAsksFor,
                            LiveReplicasAreThoseHeardLately, AClaimTakesAllOfATableOrNothing,
                            EveryCallToAnUnreachableStoreAnswersUnavailable);

}  // namespace metropolis::matchmaker
