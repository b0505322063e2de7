// The public reads of /api/v1, between the HTTP server and the API: the budget
// that keeps one client's flood from reaching the services (docs/GATEWAY.md,
// "Budgets").
//
// Every answer of the API is the same for every caller (no identity goes into
// it), so the answers of the routes everyone polls (ladders, leaderboards, live
// games, tournaments) are served again for a second, and requests for the same
// URL that arrive while one is being answered wait for that answer instead of
// each calling the services (coalescing). What still reaches the services is
// counted per client address against a quota of its own, below the address's
// request limit: a client cannot spend on the services what the cache saves.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/common/clock.h"
#include "lib/common/rate_limit.h"
#include "services/gateway/api.h"

namespace metropolis::gateway {

struct PublicReadsOptions {
  // How long an answer of a cached route is served again. 0: nothing is cached
  // and nothing coalesced (every request calls the services).
  int cache_ms = 1000;
  size_t max_entries = 10'000;   // answers held at once
  size_t max_bytes = 64u << 20;  // their bodies and keys together
  // Requests per client address that reach the services (cache misses); off:
  // no quota.
  services::RateLimit upstream{};
  // Route patterns (Api::Get's *route) whose 200 answers are cached.
  std::vector<std::string> cached_routes = {
      "/api/v1/ladders",     "/api/v1/ladders/{}/leaderboard", "/api/v1/live",
      "/api/v1/tournaments", "/api/v1/tournaments/{}",         "/api/v1/tournaments/{}/games",
  };
};

class PublicReads {
 public:
  // Answers a GET: Api::Get's contract (path, raw query, *route).
  using Loader = std::function<HttpResponse(std::string_view path, std::string_view raw_query, std::string* route)>;

  // How a request was answered, for metrics.
  enum class Outcome {
    kHit,        // a cached answer
    kCoalesced,  // the answer of a request for the same URL in flight
    kMiss,       // the services were called
    kRefused,    // 429: the address's upstream quota is spent
  };
  static const char* OutcomeName(Outcome outcome);

  PublicReads(PublicReadsOptions options, Loader loader, const services::Clock* clock = nullptr);
  ~PublicReads();

  // The answer to GET `path`?`raw_query` from `client` (its address). Thread-safe.
  // If the loader throws, the requests waiting on it get a 500 and the exception
  // goes on to the caller.
  HttpResponse Get(std::string_view path, std::string_view raw_query, const std::string& client, std::string* route,
                   Outcome* outcome);

  size_t entries() const;
  size_t bytes() const;
  // Requests waiting for the answer of one in flight.
  size_t waiting() const;

 private:
  struct Entry {
    HttpResponse response;
    std::string route;
    services::Millis expires = 0;
  };
  struct Flight;

  bool Cached(const std::string& route) const;
  // A fresh cached answer, or the one of a request in flight for `key`
  // (waited for on *lock); false when this request must call the services.
  bool Share(const std::string& key, std::unique_lock<std::mutex>* lock, HttpResponse* response, std::string* route,
             Outcome* outcome);
  // Ends the flight of `key` with its answer: wakes its waiters, and caches it
  // when it may be.
  void Land(const std::string& key, const HttpResponse& response, const std::string& route);
  // Holds `response` for `key` until cache_ms from now, evicting the expired and,
  // beyond the bounds, the oldest entries. With mutex_ held.
  void Store(const std::string& key, const HttpResponse& response, const std::string& route);
  void EvictFront();

  const PublicReadsOptions options_;
  const Loader loader_;
  const services::Clock* const clock_;
  services::RateLimiter upstream_;

  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  // Keys in the order they were stored, so in the order they expire (every
  // entry lives cache_ms): (expiry, key).
  std::deque<std::pair<services::Millis, std::string>> order_;
  size_t bytes_ = 0;
  std::unordered_map<std::string, std::shared_ptr<Flight>> flights_;
  size_t waiting_ = 0;
};

}  // namespace metropolis::gateway
