#include "services/gateway/public_reads.h"

#include <algorithm>
#include <utility>

namespace metropolis::gateway {

// One request to the services, which those for the same URL wait on.
struct PublicReads::Flight {
  std::condition_variable done_cv;
  bool done = false;
  HttpResponse response;
  std::string route;
};

const char* PublicReads::OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kHit:
      return "hit";
    case Outcome::kCoalesced:
      return "coalesced";
    case Outcome::kMiss:
      return "miss";
    case Outcome::kRefused:
      return "refused";
  }
  return "unknown";
}

PublicReads::PublicReads(PublicReadsOptions options, Loader loader, const services::Clock* clock)
    : options_(std::move(options)),
      loader_(std::move(loader)),
      clock_(services::ClockOrSystem(clock)),
      upstream_(options_.upstream, services::RateLimiter::kDefaultMaxKeys, clock_) {}

PublicReads::~PublicReads() = default;

bool PublicReads::Cached(const std::string& route) const {
  return std::find(options_.cached_routes.begin(), options_.cached_routes.end(), route) != options_.cached_routes.end();
}

HttpResponse PublicReads::Get(std::string_view path, std::string_view raw_query, const std::string& client,
                              std::string* route, Outcome* outcome) {
  const bool sharing = options_.cache_ms > 0;
  std::string key(path);
  key.append("?").append(raw_query);
  HttpResponse shared;
  if (sharing) {
    std::unique_lock lock(mutex_);
    if (Share(key, &lock, &shared, route, outcome)) return shared;
  }
  // This request calls the services: the address's quota first, so a refused
  // request neither calls them nor makes others wait.
  if (const int64_t retry_ms = upstream_.Take(client); retry_ms > 0) {
    *route = "upstream_limited";
    *outcome = Outcome::kRefused;
    HttpResponse refused = ErrorResponse(
        MakeError(429, "RESOURCE_EXHAUSTED",
                  "rate limit: " + std::to_string(int64_t(options_.upstream.per_second)) +
                      " uncached API reads per second from one address (answers served again from the cache do not "
                      "count); retry in " +
                      std::to_string(retry_ms) + " ms"));
    refused.headers.push_back({"Retry-After", std::to_string((retry_ms + 999) / 1000)});
    return refused;
  }
  *outcome = Outcome::kMiss;
  if (!sharing) return loader_(path, raw_query, route);
  {
    std::unique_lock lock(mutex_);
    // Another request may have come first while the quota was checked.
    if (Share(key, &lock, &shared, route, outcome)) return shared;
    flights_.emplace(key, std::make_shared<Flight>());
  }
  // Ends the flight however the loader ends: waiters must never wait forever.
  std::string loaded_route = "unmatched";
  HttpResponse response;
  try {
    response = loader_(path, raw_query, &loaded_route);
  } catch (...) {
    Land(key, ErrorResponse(MakeError(500, "INTERNAL", "the gateway failed on this request")), loaded_route);
    throw;
  }
  Land(key, response, loaded_route);
  *route = loaded_route;
  return response;
}

void PublicReads::Land(const std::string& key, const HttpResponse& response, const std::string& route) {
  std::lock_guard lock(mutex_);
  auto it = flights_.find(key);
  const std::shared_ptr<Flight> flight = it->second;
  flights_.erase(it);
  flight->response = response;
  flight->route = route;
  flight->done = true;
  flight->done_cv.notify_all();
  // Only answers that hold for everyone a second later: a failure is asked again.
  if (response.status == 200 && Cached(route)) Store(key, response, route);
}

bool PublicReads::Share(const std::string& key, std::unique_lock<std::mutex>* lock, HttpResponse* response,
                        std::string* route, Outcome* outcome) {
  if (auto it = entries_.find(key); it != entries_.end() && it->second.expires > clock_->Now()) {
    *response = it->second.response;
    *route = it->second.route;
    *outcome = Outcome::kHit;
    return true;
  }
  auto it = flights_.find(key);
  if (it == flights_.end()) return false;
  // Held here: the leader erases it from flights_ when it is done.
  const std::shared_ptr<Flight> leader = it->second;
  ++waiting_;
  leader->done_cv.wait(*lock, [&] { return leader->done; });
  --waiting_;
  *response = leader->response;
  *route = leader->route;
  *outcome = Outcome::kCoalesced;
  return true;
}

void PublicReads::Store(const std::string& key, const HttpResponse& response, const std::string& route) {
  const size_t size = key.size() + response.body.size();
  if (size > options_.max_bytes || options_.max_entries == 0) return;
  const services::Millis now = clock_->Now();
  while (!order_.empty() && order_.front().first <= now) EvictFront();
  if (auto it = entries_.find(key); it != entries_.end()) {
    // Expired but not yet evicted (its order_ record is further on): replaced.
    bytes_ -= key.size() + it->second.response.body.size();
    entries_.erase(it);
  }
  while (!order_.empty() && (entries_.size() >= options_.max_entries || bytes_ + size > options_.max_bytes))
    EvictFront();
  const services::Millis expires = now + options_.cache_ms;
  entries_[key] = Entry{response, route, expires};
  bytes_ += size;
  order_.emplace_back(expires, key);
}

void PublicReads::EvictFront() {
  auto [expires, key] = std::move(order_.front());
  order_.pop_front();
  // A key stored again has a later record in order_: only its own record removes it.
  if (auto it = entries_.find(key); it != entries_.end() && it->second.expires == expires) {
    bytes_ -= key.size() + it->second.response.body.size();
    entries_.erase(it);
  }
}

size_t PublicReads::entries() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

size_t PublicReads::waiting() const {
  std::lock_guard lock(mutex_);
  return waiting_;
}

size_t PublicReads::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

}  // namespace metropolis::gateway
