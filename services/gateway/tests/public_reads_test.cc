// The gateway's cache, coalescing and upstream quota of API reads
// (public_reads.h; docs/GATEWAY.md, "Budgets"), over a loader that counts the
// calls that would reach the services.
#include "services/gateway/public_reads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "lib/common/tests/fake_clock.h"

namespace metropolis::gateway {
namespace {

using Outcome = PublicReads::Outcome;

// Answers every GET with a body naming the call, and the route Api::Get would
// match: "/api/v1/tournaments" (cached by default) or "/api/v1/games/{}" (not).
struct CountingLoader {
  std::atomic<int> calls{0};
  int status = 200;
  HttpResponse operator()(std::string_view path, std::string_view, std::string* route) {
    const int n = ++calls;
    *route = path.substr(0, 14) == "/api/v1/games/" ? "/api/v1/games/{}" : std::string(path);
    HttpResponse r;
    r.status = status;
    r.body = "answer " + std::to_string(n);
    return r;
  }
};

PublicReads::Loader Calls(CountingLoader* loader) {
  return [loader](std::string_view p, std::string_view q, std::string* r) { return (*loader)(p, q, r); };
}

HttpResponse Read(PublicReads* reads, std::string_view path, Outcome* outcome, const std::string& client = "10.0.0.1",
                  std::string_view query = "") {
  std::string route;
  return reads->Get(path, query, client, &route, outcome);
}

TEST(PublicReads, ServesACachedRouteAgainForItsTtl) {
  services::testing::FakeClock clock(5000);
  CountingLoader loader;
  PublicReads reads({.cache_ms = 1000}, Calls(&loader), &clock);
  Outcome outcome;
  EXPECT_EQ(Read(&reads, "/api/v1/tournaments", &outcome).body, "answer 1");
  EXPECT_EQ(outcome, Outcome::kMiss);
  clock.Advance(999);
  EXPECT_EQ(Read(&reads, "/api/v1/tournaments", &outcome).body, "answer 1");
  EXPECT_EQ(outcome, Outcome::kHit);
  clock.Advance(1);
  EXPECT_EQ(Read(&reads, "/api/v1/tournaments", &outcome).body, "answer 2");
  EXPECT_EQ(outcome, Outcome::kMiss);
  EXPECT_EQ(loader.calls, 2);
}

TEST(PublicReads, NegativeControlWithoutTheCacheEveryReadCallsTheServices) {
  services::testing::FakeClock clock;
  CountingLoader loader;
  PublicReads reads({.cache_ms = 0}, Calls(&loader), &clock);
  Outcome outcome;
  for (int i = 0; i < 5; ++i) Read(&reads, "/api/v1/tournaments", &outcome);
  EXPECT_EQ(outcome, Outcome::kMiss);
  EXPECT_EQ(loader.calls, 5);
}

TEST(PublicReads, KeysTheQueryAndCachesOnlyTheListedRoutesAndOnlySuccesses) {
  services::testing::FakeClock clock;
  CountingLoader loader;
  PublicReads reads({.cache_ms = 1000}, Calls(&loader), &clock);
  Outcome outcome;
  Read(&reads, "/api/v1/tournaments", &outcome, "a", "page=1");
  Read(&reads, "/api/v1/tournaments", &outcome, "a", "page=2");
  EXPECT_EQ(outcome, Outcome::kMiss) << "another query is another answer";
  Read(&reads, "/api/v1/games/g1", &outcome);
  Read(&reads, "/api/v1/games/g1", &outcome);
  EXPECT_EQ(outcome, Outcome::kMiss) << "a stored game's page is not a cached route";
  loader.status = 503;
  Read(&reads, "/api/v1/live", &outcome);
  Read(&reads, "/api/v1/live", &outcome);
  EXPECT_EQ(outcome, Outcome::kMiss) << "a failure is asked again, not served for a second";
  EXPECT_EQ(loader.calls, 6);
  EXPECT_EQ(reads.entries(), 2u);
}

// A loader that holds every call until released, to have requests in flight.
struct HeldLoader {
  std::atomic<int> calls{0};
  std::promise<void> release;
  std::shared_future<void> released{release.get_future().share()};
  bool fail = false;
  HttpResponse operator()(std::string_view path, std::string_view, std::string* route) {
    const int n = ++calls;
    released.wait();
    if (fail) throw std::runtime_error("the loader failed");
    *route = std::string(path);
    HttpResponse r;
    r.body = "answer " + std::to_string(n);
    return r;
  }
};

// Five requests for one URL while the first is in flight, with `cache_ms`:
// the loader's calls, and every body.
int ConcurrentReads(int cache_ms, std::vector<std::string>* bodies, std::vector<Outcome>* outcomes) {
  HeldLoader loader;
  PublicReads reads({.cache_ms = cache_ms},
                    [&loader](std::string_view p, std::string_view q, std::string* r) { return loader(p, q, r); });
  bodies->assign(5, "");
  outcomes->assign(5, Outcome::kRefused);
  std::vector<std::thread> threads;
  auto read = [&](int i) { (*bodies)[i] = Read(&reads, "/api/v1/live", &(*outcomes)[i]).body; };
  threads.emplace_back(read, 0);
  while (loader.calls == 0) std::this_thread::yield();
  for (int i = 1; i < 5; ++i) threads.emplace_back(read, i);
  // Until the four others wait on the first (coalescing) or call too (no cache).
  while (reads.waiting() + loader.calls < 5) std::this_thread::yield();
  loader.release.set_value();
  for (auto& t : threads) t.join();
  return loader.calls;
}

TEST(PublicReads, CoalescesRequestsForAUrlInFlight) {
  std::vector<std::string> bodies;
  std::vector<Outcome> outcomes;
  EXPECT_EQ(ConcurrentReads(1000, &bodies, &outcomes), 1);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(bodies[i], "answer 1") << i;
    EXPECT_EQ(outcomes[i], i == 0 ? Outcome::kMiss : Outcome::kCoalesced) << i;
  }
}

TEST(PublicReads, NegativeControlWithoutCoalescingEachRequestCallsTheServices) {
  std::vector<std::string> bodies;
  std::vector<Outcome> outcomes;
  EXPECT_EQ(ConcurrentReads(0, &bodies, &outcomes), 5);
}

TEST(PublicReads, ALoaderThatThrowsReleasesItsWaitersWithA500AndIsAskedAgain) {
  services::testing::FakeClock clock;
  HeldLoader loader;
  loader.fail = true;
  PublicReads reads(
      {.cache_ms = 1000}, [&loader](std::string_view p, std::string_view q, std::string* r) { return loader(p, q, r); },
      &clock);
  std::atomic<bool> threw{false};
  std::thread leader([&] {
    Outcome outcome;
    try {
      Read(&reads, "/api/v1/live", &outcome);
    } catch (const std::runtime_error&) {
      threw = true;
    }
  });
  while (loader.calls == 0) std::this_thread::yield();
  HttpResponse waited;
  std::thread waiter([&] {
    Outcome outcome;
    waited = Read(&reads, "/api/v1/live", &outcome);
  });
  while (reads.waiting() == 0) std::this_thread::yield();
  loader.release.set_value();
  leader.join();
  waiter.join();
  EXPECT_TRUE(threw);
  EXPECT_EQ(waited.status, 500);
  EXPECT_EQ(reads.entries(), 0u);
  Outcome outcome;
  EXPECT_THROW(Read(&reads, "/api/v1/live", &outcome), std::runtime_error);
  EXPECT_EQ(loader.calls, 2);
}

TEST(PublicReads, AnAddressSpendsOnlyItsOwnUpstreamQuotaAndHitsAreFree) {
  services::testing::FakeClock clock;
  CountingLoader loader;
  PublicReads reads({.cache_ms = 1000, .upstream = {.per_second = 1, .burst = 2}}, Calls(&loader), &clock);
  Outcome outcome;
  Read(&reads, "/api/v1/games/a", &outcome, "10.0.0.1");
  Read(&reads, "/api/v1/tournaments", &outcome, "10.0.0.1");
  const HttpResponse refused = Read(&reads, "/api/v1/games/b", &outcome, "10.0.0.1");
  EXPECT_EQ(outcome, Outcome::kRefused);
  EXPECT_EQ(refused.status, 429);
  EXPECT_NE(refused.body.find("uncached API reads per second from one address"), std::string::npos) << refused.body;
  ASSERT_EQ(refused.headers.size(), 1u);
  EXPECT_EQ(refused.headers[0].first, "Retry-After");
  // The cache still answers it, and another address has its own quota.
  EXPECT_EQ(Read(&reads, "/api/v1/tournaments", &outcome, "10.0.0.1").status, 200);
  EXPECT_EQ(outcome, Outcome::kHit);
  EXPECT_EQ(Read(&reads, "/api/v1/games/b", &outcome, "10.0.0.2").status, 200);
  EXPECT_EQ(loader.calls, 3);
  clock.Advance(1000);
  EXPECT_EQ(Read(&reads, "/api/v1/games/b", &outcome, "10.0.0.1").status, 200);
}

TEST(PublicReads, NegativeControlWithoutAQuotaOneAddressCallsAsOftenAsItAsks) {
  services::testing::FakeClock clock;
  CountingLoader loader;
  PublicReads reads({.cache_ms = 1000}, Calls(&loader), &clock);
  Outcome outcome;
  for (int i = 0; i < 50; ++i) Read(&reads, "/api/v1/games/" + std::to_string(i), &outcome, "10.0.0.1");
  EXPECT_EQ(loader.calls, 50);
}

TEST(PublicReads, HoldsAtMostItsEntriesAndBytesEvictingTheOldest) {
  services::testing::FakeClock clock;
  CountingLoader loader;
  PublicReads reads({.cache_ms = 1000, .max_entries = 2}, Calls(&loader), &clock);
  Outcome outcome;
  for (const char* path : {"/api/v1/ladders", "/api/v1/live", "/api/v1/tournaments"}) Read(&reads, path, &outcome);
  EXPECT_EQ(reads.entries(), 2u);
  Read(&reads, "/api/v1/tournaments", &outcome);
  EXPECT_EQ(outcome, Outcome::kHit);
  Read(&reads, "/api/v1/ladders", &outcome);
  EXPECT_EQ(outcome, Outcome::kMiss) << "the oldest answer made room";

  // Bytes: keys and bodies together ("/api/v1/live?" and "answer N": 21 bytes).
  CountingLoader small;
  PublicReads bounded({.cache_ms = 1000, .max_bytes = 30}, Calls(&small), &clock);
  Read(&bounded, "/api/v1/live", &outcome);
  EXPECT_EQ(bounded.bytes(), 21u);
  Read(&bounded, "/api/v1/ladders", &outcome);
  EXPECT_EQ(bounded.entries(), 1u);
  EXPECT_LE(bounded.bytes(), 30u);
  // Expired entries go as new ones come.
  clock.Advance(1000);
  Read(&reads, "/api/v1/live", &outcome);
  EXPECT_EQ(reads.entries(), 1u);
}

}  // namespace
}  // namespace metropolis::gateway
