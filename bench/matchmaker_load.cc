// matchmaker_load: the matchmaker's load program (bench/matchmaker_load.sh starts
// a Redis that persists as in a deployment). It measures the matchmaker's logic
// against that real Redis — RedisTicketStore and Matchmaker (services/matchmaker) —
// with a fake GameCreator that creates every game at once: the game hosts are
// not what is measured, nor the gRPC front (the streams phase measures the
// Enqueue streams' reads of their tickets, not gRPC), nor the ratings look-up.
//
//   create  N tickets created by C client threads (a Redis connection each),
//           random ratings (normal around 25, sd 5), distinct identities:
//           creations per second and their latency;
//   drain   a queue of Q tickets filled first, then R replicas run rounds until
//           they form no more tables: tables formed per second, round times;
//   steady  tickets arriving at a rate for D seconds while R replicas run
//           rounds: tables placed per second, and each ticket's time to match
//           (its creation to its game's creation; its assignment is written
//           in the next round trip);
//   wait    for each queue size S: S tickets that no table can take (ratings
//           60 apart) wait in the queue while tickets arrive beside them at a
//           rate: the arrivals' time to match, and how long a round takes when
//           it reads S tickets.
//   streams (only when asked) N waiting Enqueue streams' tickets: polled one
//           by one every 200 ms as the service did, then read together every
//           500 ms by TicketWaiters as it does now: Redis's CPU either way,
//           and the latency of the beat's one call.
//
// Replicas share the ladders out as the service's do (--ladders, --share).
// Every phase checks that no ticket was seated twice (and that no ticket of the
// wait phase's standing queue was seated at all), and that at most 1 % of the
// tickets that can match were never seated: exit 1 otherwise.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "bench/load_stats.h"
#include "engine/json_text.h"
#include "lib/common/log.h"
#include "lib/flags/flags.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/redis_ticket_store.h"
#include "services/matchmaker/waiters.h"

namespace metropolis::load {
namespace {

using matchmaker::GameCreator;
using matchmaker::LadderConfig;
using matchmaker::Matchmaker;
using matchmaker::MatchmakerOptions;
using matchmaker::RedisTicketStore;
using matchmaker::RoundStats;

struct Settings {
  std::string redis;
  std::vector<std::string> phases = {"create", "drain", "steady", "wait"};
  int64_t tickets = 50'000, clients = 8;
  int64_t replicas = 2, round_ms = 100, hosts = 4;
  // Ladders the tickets are spread over (identity mod ladders); whether the
  // replicas share them out (MatchmakerOptions::replica) or all run every ladder.
  int64_t ladders = 1;
  bool share = true;
  int64_t queue = 40'000;
  int64_t rate = 6'000, seconds = 10;
  std::vector<int64_t> queue_sizes = {100, 1'000, 10'000};
  int64_t wait_rate = 1'000;
  int64_t streams = 10'000;  // streams: waiting Enqueue streams
  bool json = false;
};

struct Row {
  std::string phase;
  int64_t count = 0;
  std::string unit;  // what count counts
  double seconds = 0;
  std::string latency_of;  // what the quantiles time
  Histogram::Snapshot latency;
  std::string note;
};

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Problems that make the run fail: Redis errors, a ticket seated twice.
std::atomic<int64_t> g_failures{0};

void Fail(const std::string& message) {
  g_failures.fetch_add(1);
  std::fprintf(stderr, "matchmaker_load: %s\n", message.c_str());
}

// Prints `line()` on stderr every 2 s until destroyed.
class Progress {
 public:
  explicit Progress(std::function<std::string()> line)
      : line_(std::move(line)), thread_([this] {
          std::unique_lock lock(mutex_);
          while (!cv_.wait_for(lock, std::chrono::seconds(2), [&] { return done_; }))
            std::fprintf(stderr, "  %s\n", line_().c_str());
        }) {}
  ~Progress() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::function<std::string()> line_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: it uses the members above
};

// Redis's own CPU seconds (INFO cpu), to say how busy the server was.
double RedisCpuSeconds(const std::string& address) {
  storage::RedisConnection c(address, 5000);
  const storage::RedisReply info = c.Run({"INFO", "cpu"});
  double total = 0;
  std::istringstream lines(info.str);
  for (std::string line; std::getline(lines, line);) {
    for (const char* key : {"used_cpu_sys:", "used_cpu_user:"}) {
      if (line.rfind(key, 0) == 0) total += std::strtod(line.c_str() + std::strlen(key), nullptr);
    }
  }
  return total;
}

std::string RedisConfig(const std::string& address, const std::string& name) {
  storage::RedisConnection c(address, 5000);
  const storage::RedisReply r = c.Run({"CONFIG", "GET", name});
  return r.elements.size() == 2 ? r.elements[1].str : "?";
}

// Removes a phase's keys (not timed).
void DeleteKeys(const std::string& address, const std::string& prefix) {
  storage::RedisConnection c(address, 30'000);
  std::string cursor = "0";
  do {
    const storage::RedisReply r = c.Run({"SCAN", cursor, "MATCH", prefix + ":*", "COUNT", "2000"});
    if (r.elements.size() != 2) return;
    cursor = r.elements[0].str;
    storage::RedisCommand unlink = {"UNLINK"};
    for (const storage::RedisReply& key : r.elements[1].elements) unlink.push_back(key.str);
    if (unlink.size() > 1) c.Run(unlink);
  } while (cursor != "0");
}

// Creates every game at once and records who sat where and when.
class FakeCreator final : public GameCreator {
 public:
  explicit FakeCreator(int64_t identities) : seated_(size_t(identities) + 1), matched_ns_(size_t(identities) + 1) {}

  grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                      v1::CreateGameResponse* response) override {
    const int64_t now = NowNs();
    response->set_game_id(request.game_id());
    response->set_host(host);
    for (const v1::SeatSpec& seat : request.seats()) {
      if (seat.built_in()) {
        response->add_seat_tokens("");
        continue;
      }
      response->add_seat_tokens("tok-" + request.game_id() + "-" + std::to_string(seat.identity_id()));
      const int64_t id = seat.identity_id();
      if (id <= 0 || id >= int64_t(seated_.size())) {
        Fail("a game seated unknown identity " + std::to_string(id));
        continue;
      }
      if (seated_[size_t(id)].fetch_add(1) > 0) Fail("identity " + std::to_string(id) + " was seated twice");
      matched_ns_[size_t(id)].store(now);
    }
    games_.fetch_add(1);
    last_game_ns_.store(now);
    return grpc::Status::OK;
  }

  int64_t games() const { return games_.load(); }
  int64_t last_game_ns() const { return last_game_ns_.load(); }
  int seated(int64_t id) const { return seated_[size_t(id)].load(); }
  int64_t matched_ns(int64_t id) const { return matched_ns_[size_t(id)].load(); }

 private:
  std::vector<std::atomic<int>> seated_;
  std::vector<std::atomic<int64_t>> matched_ns_;
  std::atomic<int64_t> games_{0}, last_game_ns_{0};
};

// One phase's keys, ladders, hosts and records.
struct Fixture {
  Fixture(const Settings& s, const std::string& phase, int64_t identities)
      : settings(s),
        prefix("mmload" + std::to_string(std::random_device{}() % 1'000'000) + "-" + phase),
        created_ns(size_t(identities) + 1),
        creator(identities) {
    for (int64_t l = 0; l < s.ladders; ++l) {
      LadderConfig ladder;
      ladder.id = s.ladders == 1 ? "bench" : "bench-" + std::to_string(l);
      ladder.season = 1;
      ladder.options = DefaultOptions(Ruleset::kCitiesAndKnights);
      // ladder.rules: the defaults (tables of 4, a window of 3 μ points widening by 0.5 a second).
      ladders.push_back(std::move(ladder));
    }
    storage::RedisPool pool(s.redis, 1);
    RedisTicketStore store(&pool, prefix);
    for (int64_t h = 0; h < s.hosts; ++h)
      if (grpc::Status st =
              store.HostHeartbeat({"bench-host-" + std::to_string(h) + ":1", int64_t(1) << 40, 0, NowMs()});
          !st.ok())
        Fail("HostHeartbeat: " + st.error_message());
  }
  ~Fixture() { DeleteKeys(settings.redis, prefix); }

  int64_t QueueSize() {
    storage::RedisPool pool(settings.redis, 1);
    int64_t total = 0;
    for (const LadderConfig& ladder : ladders) {
      int64_t size = 0;
      if (grpc::Status s = RedisTicketStore(&pool, prefix).QueueSize(ladder.id, &size); !s.ok())
        Fail("QueueSize: " + s.error_message());
      total += size;
    }
    return total;
  }

  const Settings& settings;
  const std::string prefix;
  // An identity's ladder.
  const LadderConfig& LadderOf(int64_t identity) const { return ladders[size_t(identity) % ladders.size()]; }

  std::vector<LadderConfig> ladders;
  std::vector<std::atomic<int64_t>> created_ns;
  FakeCreator creator;
};

// Creates tickets for identities [first, first + count) from s.clients threads,
// at `rate` per second (0: as fast as they can); each thread has its own
// connection. Times every creation.
struct Created {
  int64_t tickets = 0;
  double seconds = 0;
  Histogram::Snapshot latency;
};

Created CreateTickets(Fixture& f, int64_t first, int64_t count, double rate,
                      const std::function<double(int64_t identity, std::mt19937_64& rng)>& rating,
                      const std::string& label) {
  Histogram latency;
  std::atomic<int64_t> next{0}, done{0};
  const int64_t start = NowNs();
  Progress progress(
      [&] { return label + ": " + std::to_string(done.load()) + " / " + std::to_string(count) + " tickets"; });
  std::vector<std::thread> threads;
  for (int64_t t = 0; t < f.settings.clients; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(uint64_t(t) * 7919 + uint64_t(first));
      storage::RedisPool pool(f.settings.redis, 1);
      RedisTicketStore store(&pool, f.prefix);
      for (int64_t i; (i = next.fetch_add(1)) < count;) {
        if (rate > 0) {
          const int64_t at = start + int64_t(double(i) * 1e9 / rate);
          std::this_thread::sleep_until(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(at)));
        }
        const int64_t identity = first + i;
        const double r = rating(identity, rng);
        std::string id, existing;
        bool created = false;
        const int64_t t0 = NowNs();
        f.created_ns[size_t(identity)].store(t0);
        if (grpc::Status s = store.Create(f.LadderOf(identity).id, identity, "p" + std::to_string(identity), r, NowMs(),
                                          &id, &existing, &created);
            !s.ok())
          Fail("Create: " + s.error_message());
        if (!created) Fail("identity " + std::to_string(identity) + " already had ticket " + existing);
        latency.Record(NowNs() - t0);
        done.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  Created c;
  c.tickets = count;
  c.seconds = double(NowNs() - start) / 1e9;
  c.latency = latency.Take();
  return c;
}

double Normal25(int64_t, std::mt19937_64& rng) { return std::normal_distribution<double>(25.0, 5.0)(rng); }

// R matchmaker replicas running rounds, each with its own connection, until
// stopped; `round_ms` between a replica's rounds as in the service.
class Replicas {
 public:
  explicit Replicas(Fixture& f) : f_(f), idle_since_ns_(size_t(f.settings.replicas)) {
    start_ns_ = NowNs();
    for (int64_t r = 0; r < f.settings.replicas; ++r) threads_.emplace_back([this, r] { Loop(size_t(r)); });
  }
  ~Replicas() { Stop(); }

  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

  // True when every replica has run a whole round that formed no table and
  // lost no claim, begun after the last game and after `after_ns`.
  bool Idle(int64_t after_ns) const {
    const int64_t last = std::max(after_ns, f_.creator.last_game_ns());
    for (const auto& since : idle_since_ns_)
      if (since.load() == 0 || since.load() <= last) return false;
    return true;
  }

  int64_t start_ns() const { return start_ns_; }
  Histogram& rounds() { return rounds_; }
  int64_t round_count() const { return round_count_.load(); }
  int64_t lost_races() const { return lost_races_.load(); }

 private:
  void Loop(size_t r) {
    storage::RedisPool pool(f_.settings.redis, 1);
    RedisTicketStore store(&pool, f_.prefix);
    MatchmakerOptions options;
    // The bench sends no heartbeats and runs longer than the defaults' lives:
    // nothing expires, but the expiry scan still runs every round.
    options.ticket_ttl_ms = 3'600'000;
    options.host_ttl_ms = 3'600'000;
    // Nor does a claim look for a recent heartbeat; the hosts are still asked
    // which seats the players hold (the fake answers none), once per round.
    options.claim_fresh_ms = 0;
    if (f_.settings.share) options.replica = "bench-replica-" + std::to_string(r);
    Matchmaker m(&store, &f_.creator, options);
    const std::vector<LadderConfig>& ladders = f_.ladders;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
      }
      const int64_t t0 = NowNs();
      if (const RoundStats s = m.RunRound(ladders, NowMs()); !s.error.ok()) {
        Fail("RunRound: " + s.error.error_message());
      } else {
        lost_races_.fetch_add(s.lost_races);
        if (s.failed) Fail("a round failed to place " + std::to_string(s.failed) + " tables");
        idle_since_ns_[r].store(s.tables == 0 && s.lost_races == 0 ? t0 : 0);
      }
      rounds_.Record(NowNs() - t0);
      round_count_.fetch_add(1);
      std::unique_lock lock(mutex_);
      cv_.wait_for(lock, std::chrono::milliseconds(f_.settings.round_ms), [&] { return stopping_; });
    }
  }

  Fixture& f_;
  std::vector<std::atomic<int64_t>> idle_since_ns_;
  int64_t start_ns_ = 0;
  Histogram rounds_;
  std::atomic<int64_t> round_count_{0}, lost_races_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Waits until the replicas are idle (or `limit_s` passed).
void WaitIdle(Replicas& replicas, double limit_s) {
  const int64_t now = NowNs(), until = now + int64_t(limit_s * 1e9);
  while (!replicas.Idle(now) && NowNs() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// Time to match of identities [first, first + count) that were seated.
Histogram::Snapshot TimeToMatch(Fixture& f, int64_t first, int64_t count, int64_t* seated) {
  Histogram h;
  *seated = 0;
  for (int64_t id = first; id < first + count; ++id) {
    if (f.creator.seated(id) == 0) continue;
    ++*seated;
    h.Record(f.creator.matched_ns(id) - f.created_ns[size_t(id)].load());
  }
  return h.Take();
}

// Matchable tickets left unseated at the end: the few at the ratings' far ends
// wait for their windows to widen; many mean that the rounds failed.
void CheckLeft(const std::string& phase, int64_t left, int64_t total) {
  if (left > std::max<int64_t>(16, total / 100))
    Fail(phase + ": " + std::to_string(left) + " of " + std::to_string(total) + " tickets were never seated");
}

// From the replicas' start to the last game (to now if there was none).
double PlacingSeconds(const Fixture& f, Replicas& replicas) {
  const int64_t end = f.creator.games() ? f.creator.last_game_ns() : NowNs();
  return double(end - replicas.start_ns()) / 1e9;
}

// CPU of Redis and of this program over a phase, in cores.
class CpuMeter {
 public:
  explicit CpuMeter(const std::string& redis)
      : redis_(redis), start_ns_(NowNs()), redis0_(RedisCpuSeconds(redis)), own0_(OwnCpuSeconds()) {}
  std::string Note() const {
    const double wall = double(NowNs() - start_ns_) / 1e9;
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "CPU: redis %.2f, load program %.2f cores",
                  (RedisCpuSeconds(redis_) - redis0_) / wall, (OwnCpuSeconds() - own0_) / wall);
    return buffer;
  }

 private:
  std::string redis_;
  int64_t start_ns_;
  double redis0_, own0_;
};

std::string Format(const char* format, auto... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

Row PhaseCreate(const Settings& s) {
  std::fprintf(stderr, "create: %lld tickets from %lld clients...\n", (long long)s.tickets, (long long)s.clients);
  Fixture f(s, "create", s.tickets);
  CpuMeter cpu(s.redis);
  const Created c = CreateTickets(f, 1, s.tickets, 0, Normal25, "create");
  Row row{"create", c.tickets, "tickets", c.seconds, "Create", c.latency, ""};
  row.note = std::to_string(s.clients) + " clients; " + cpu.Note();
  if (f.QueueSize() != s.tickets) Fail("create: the queue holds " + std::to_string(f.QueueSize()) + " tickets");
  return row;
}

// "2 replicas sharing 8 ladders", for the rows' notes.
std::string ReplicasText(const Settings& s) {
  return Format("%lld replicas %s %lld ladder%s", (long long)s.replicas,
                s.replicas == 1 ? "running" : (s.share ? "sharing" : "each running every one of"), (long long)s.ladders,
                s.ladders == 1 ? "" : "s");
}

Row PhaseDrain(const Settings& s) {
  std::fprintf(stderr, "drain: filling a queue of %lld tickets...\n", (long long)s.queue);
  Fixture f(s, "drain", s.queue);
  CreateTickets(f, 1, s.queue, 0, Normal25, "drain fill");
  std::fprintf(stderr, "drain: %lld replicas run rounds...\n", (long long)s.replicas);
  CpuMeter cpu(s.redis);
  Replicas replicas(f);
  {
    Progress progress([&] { return "drain: " + std::to_string(f.creator.games()) + " tables"; });
    WaitIdle(replicas, 600);
  }
  replicas.Stop();
  int64_t seated = 0;
  TimeToMatch(f, 1, s.queue, &seated);
  CheckLeft("drain", s.queue - seated, s.queue);
  Row row{"drain", f.creator.games(), "tables", PlacingSeconds(f, replicas), "round", replicas.rounds().Take(), ""};
  row.note = Format(
                 "queue of %lld, %s: %lld rounds, %lld claims lost to the other replicas, %lld tickets "
                 "left for wider windows; ",
                 (long long)s.queue, ReplicasText(s).c_str(), (long long)replicas.round_count(),
                 (long long)replicas.lost_races(), (long long)(s.queue - seated)) +
             cpu.Note();
  return row;
}

Row PhaseSteady(const Settings& s) {
  const int64_t n = s.rate * s.seconds;
  std::fprintf(stderr, "steady: %lld tickets a second for %lld s, %lld replicas...\n", (long long)s.rate,
               (long long)s.seconds, (long long)s.replicas);
  Fixture f(s, "steady", n);
  CpuMeter cpu(s.redis);
  Replicas replicas(f);
  Created c;
  {
    Progress progress([&] { return "steady: " + std::to_string(f.creator.games()) + " tables"; });
    c = CreateTickets(f, 1, n, double(s.rate), Normal25, "steady arrivals");
    WaitIdle(replicas, 30);
  }
  replicas.Stop();
  int64_t seated = 0;
  const Histogram::Snapshot match = TimeToMatch(f, 1, n, &seated);
  CheckLeft("steady", n - seated, n);
  const Histogram::Snapshot rounds = replicas.rounds().Take();
  Row row{"steady", f.creator.games(), "tables", PlacingSeconds(f, replicas), "match", match, ""};
  row.note = Format(
                 "%.0f arrivals/s achieved, %s, round p50 %.1f ms p99 %.1f ms, %lld claims lost, %lld "
                 "tickets left for wider windows; ",
                 double(n) / c.seconds, ReplicasText(s).c_str(), double(rounds.Quantile(0.5)) / 1e6,
                 double(rounds.Quantile(0.99)) / 1e6, (long long)replicas.lost_races(), (long long)(n - seated)) +
             cpu.Note();
  return row;
}

std::vector<Row> PhaseWait(const Settings& s) {
  std::vector<Row> rows;
  for (const int64_t size : s.queue_sizes) {
    const int64_t arrivals = s.wait_rate * s.seconds;
    std::fprintf(stderr, "wait: a queue of %lld tickets, %lld arriving a second for %lld s...\n", (long long)size,
                 (long long)s.wait_rate, (long long)s.seconds);
    Fixture f(s, "wait" + std::to_string(size), size + arrivals);
    // Ratings 60 apart from 1000 up: wider than any window, so they never form a table.
    CreateTickets(
        f, 1, size, 0, [](int64_t id, std::mt19937_64&) { return 1000.0 + 60.0 * double(id); }, "standing queue");
    CpuMeter cpu(s.redis);
    Replicas replicas(f);
    {
      Progress progress([&] { return "wait: " + std::to_string(f.creator.games()) + " tables"; });
      CreateTickets(f, size + 1, arrivals, double(s.wait_rate), Normal25, "arrivals");
      WaitIdle(replicas, 30);
    }
    replicas.Stop();
    for (int64_t id = 1; id <= size; ++id)
      if (f.creator.seated(id)) Fail("a standing ticket was seated (identity " + std::to_string(id) + ")");
    int64_t seated = 0;
    const Histogram::Snapshot match = TimeToMatch(f, size + 1, arrivals, &seated);
    CheckLeft("wait", arrivals - seated, arrivals);
    const double seconds = PlacingSeconds(f, replicas);
    const std::string label = "wait " + std::to_string(size);
    rows.push_back({label, f.creator.games(), "tables", seconds, "match", match,
                    Format("queue of %lld + arrivals, %lld tickets left for wider windows; ", (long long)size,
                           (long long)(arrivals - seated)) +
                        cpu.Note()});
    rows.push_back(
        {label, replicas.round_count(), "rounds", seconds, "round", replicas.rounds().Take(),
         Format("%lld replicas, %lld ms between a replica's rounds", (long long)s.replicas, (long long)s.round_ms)});
  }
  return rows;
}

void Print(const std::vector<Row>& rows, const Settings& s, const std::string& appendonly,
           const std::string& appendfsync, const std::string& load_before) {
  const std::string load_after = LoadAverage();
  if (s.json) {
    std::cout << "{\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf(
          "%s{\"phase\":\"%s\",\"count\":%lld,\"unit\":\"%s\",\"seconds\":%.3f,\"per_s\":%.1f,\"latency_of\":\"%s\","
          "\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,\"note\":%s}",
          i ? "," : "", r.phase.c_str(), (long long)r.count, r.unit.c_str(), r.seconds, double(r.count) / r.seconds,
          r.latency_of.c_str(), double(r.latency.Quantile(0.5)) / 1e6, double(r.latency.Quantile(0.99)) / 1e6,
          double(r.latency.max) / 1e6, JsonString(r.note).c_str());
    }
    std::printf("],\"appendonly\":\"%s\",\"appendfsync\":\"%s\",\"load_before\":\"%s\",\"load_after\":\"%s\"}\n",
                appendonly.c_str(), appendfsync.c_str(), load_before.c_str(), load_after.c_str());
    return;
  }
  std::printf("%-11s %8s %-8s %8s %11s %-7s %9s %9s %9s  %s\n", "phase", "count", "of", "seconds", "per second",
              "timing", "p50 ms", "p99 ms", "max ms", "");
  for (const Row& r : rows) {
    std::printf("%-11s %8lld %-8s %8.2f %11.1f %-7s %9.3f %9.3f %9.3f  %s\n", r.phase.c_str(), (long long)r.count,
                r.unit.c_str(), r.seconds, double(r.count) / r.seconds, r.latency_of.c_str(),
                double(r.latency.Quantile(0.5)) / 1e6, double(r.latency.Quantile(0.99)) / 1e6,
                double(r.latency.max) / 1e6, r.note.c_str());
  }
  std::printf("redis appendonly %s, appendfsync %s; load average %s before, %s after\n", appendonly.c_str(),
              appendfsync.c_str(), load_before.c_str(), load_after.c_str());
}

// N waiting Enqueue streams, two ways, `seconds` each: as the service did
// before (each stream polls its ticket every 200 ms: HGET and a script, from
// `clients` threads standing in for the stream threads), and as it does now
// (TicketWaiters: one PollMany of every ticket each 500 ms). Then PollMany's
// own latency over all N, the call a beat makes.
std::vector<Row> PhaseStreams(const Settings& s) {
  const int64_t n = s.streams;
  std::fprintf(stderr, "streams: %lld waiting tickets...\n", (long long)n);
  Fixture f(s, "streams", n);
  CreateTickets(f, 1, n, 0, Normal25, "streams fill");  // no replica runs: nobody is seated
  std::vector<std::string> ids;
  {
    storage::RedisPool pool(s.redis, 1);
    RedisTicketStore store(&pool, f.prefix);
    for (const LadderConfig& ladder : f.ladders) {
      std::vector<matchmaker::Ticket> queue;
      if (grpc::Status st = store.Queue(ladder.id, &queue); !st.ok()) Fail("Queue: " + st.error_message());
      for (const auto& t : queue) ids.push_back(t.id);
    }
  }
  if (int64_t(ids.size()) != n)
    Fail("streams: " + std::to_string(ids.size()) + " tickets queued, not " + std::to_string(n));
  std::vector<Row> rows;

  // Before: every stream polls its own ticket every 200 ms.
  {
    std::fprintf(stderr, "streams: each polling its ticket every 200 ms for %lld s...\n", (long long)s.seconds);
    Histogram latency;
    std::atomic<int64_t> polls{0};
    std::atomic<bool> stop{false};
    CpuMeter cpu(s.redis);
    const int64_t start = NowNs();
    std::vector<std::thread> threads;
    for (int64_t t = 0; t < s.clients; ++t) {
      threads.emplace_back([&, t] {
        storage::RedisPool pool(s.redis, 1);
        RedisTicketStore store(&pool, f.prefix);
        for (int64_t round = 0; !stop.load(); ++round) {
          const int64_t due = start + round * 200'000'000;
          std::this_thread::sleep_until(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due)));
          for (size_t i = size_t(t); i < ids.size() && !stop.load(); i += size_t(s.clients)) {
            matchmaker::TicketInfo info;
            int64_t now = 0;
            bool found = false;
            const int64_t t0 = NowNs();
            if (grpc::Status st = store.Now(&now); st.ok()) st = store.Poll(ids[i], now, &info, &found);
            latency.Record(NowNs() - t0);
            polls.fetch_add(1);
          }
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::seconds(s.seconds));
    stop = true;
    for (auto& t : threads) t.join();
    const double seconds = double(NowNs() - start) / 1e9;
    rows.push_back({"streams polling", polls.load(), "polls", seconds, "Poll", latency.Take(),
                    Format("%lld streams want %lld polls a second; %lld threads; ", (long long)n, (long long)(n * 5),
                           (long long)s.clients) +
                        cpu.Note()});
  }

  // Now: the waiters read every ticket at once each beat.
  {
    std::fprintf(stderr, "streams: read together every 500 ms for %lld s...\n", (long long)s.seconds);
    storage::RedisPool pool(s.redis, 2);
    RedisTicketStore store(&pool, f.prefix);
    CpuMeter cpu(s.redis);
    const int64_t start = NowNs();
    int64_t readings = 0;
    {
      matchmaker::TicketWaiters waiters(&store, {.beat_ms = 500});
      std::vector<std::unique_ptr<matchmaker::TicketWaiters::Watch>> watches;
      for (const std::string& id : ids) watches.push_back(waiters.Add(id));
      // One stream's readings, as its handler would take them.
      const auto until = NowNs() + s.seconds * 1'000'000'000;
      while (NowNs() < until) {
        matchmaker::TicketReading r;
        if (watches.back()->Next(std::chrono::milliseconds(100), &r)) {
          if (!r.status.ok()) Fail("waiters: " + r.status.error_message());
          ++readings;
        }
      }
    }
    const double seconds = double(NowNs() - start) / 1e9;
    rows.push_back(
        {"streams together", readings, "readings", seconds, "", Histogram().Take(),
         Format("%lld streams; one stream's readings (a beat each 500 ms, and the first at once); ", (long long)n) +
             cpu.Note()});
  }

  // The call each beat makes, timed alone.
  {
    storage::RedisPool pool(s.redis, 1);
    RedisTicketStore store(&pool, f.prefix);
    Histogram latency;
    const int64_t start = NowNs();
    for (int i = 0; i < 20; ++i) {
      std::vector<matchmaker::TicketInfo> out;
      int64_t now = 0;
      const int64_t t0 = NowNs();
      if (grpc::Status st = store.Now(&now); !st.ok() || !(st = store.PollMany(ids, now, &out)).ok())
        Fail("PollMany: " + st.error_message());
      latency.Record(NowNs() - t0);
    }
    rows.push_back({"streams beat", 20, "PollMany", double(NowNs() - start) / 1e9, "PollMany", latency.Take(),
                    Format("every one of %lld tickets read and heartbeat in one call (%lld scripts pipelined)",
                           (long long)n, (long long)((n + 255) / 256))});
  }
  return rows;
}

bool Wants(const Settings& s, const char* phase) { return std::count(s.phases.begin(), s.phases.end(), phase) > 0; }

int Run(const Settings& s) {
  services::SetLogLevel(services::LogLevel::kWarning);  // no line per game
  const std::string appendonly = RedisConfig(s.redis, "appendonly"), appendfsync = RedisConfig(s.redis, "appendfsync");
  if (appendonly != "yes")
    std::fprintf(stderr, "matchmaker_load: Redis at %s does not persist (appendonly %s): not as deployed\n",
                 s.redis.c_str(), appendonly.c_str());
  const std::string load_before = LoadAverage();
  std::vector<Row> rows;
  if (Wants(s, "create")) rows.push_back(PhaseCreate(s));
  if (Wants(s, "drain")) rows.push_back(PhaseDrain(s));
  if (Wants(s, "steady")) rows.push_back(PhaseSteady(s));
  if (Wants(s, "wait"))
    for (Row& r : PhaseWait(s)) rows.push_back(std::move(r));
  if (Wants(s, "streams"))
    for (Row& r : PhaseStreams(s)) rows.push_back(std::move(r));
  Print(rows, s, appendonly, appendfsync, load_before);
  if (g_failures.load()) {
    std::fprintf(stderr, "matchmaker_load: %lld failures (see above)\n", (long long)g_failures.load());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace metropolis::load

int main(int argc, char** argv) {
  using metropolis::load::Settings;
  metropolis::cli::Flags flags(
      "", "[flags]",
      "Load on the matchmaker's logic (RedisTicketStore and Matchmaker) over a real Redis, with "
      "a fake game host that creates every game at once. bench/matchmaker_load.sh starts a "
      "Redis that persists as in a deployment.");
  flags.set_program("matchmaker_load");
  auto add = [&](std::string name, std::string value, std::string help) {
    flags.Add({.name = std::move(name), .value_name = std::move(value), .help = std::move(help)});
  };
  add("redis", "HOST:PORT", "the Redis (required)");
  add("phases", "LIST", "create,drain,steady,wait,streams (default all but streams)");
  add("tickets", "N", "create: tickets created (default 50000)");
  add("clients", "N", "threads creating tickets, a Redis connection each (default 8)");
  add("replicas", "N", "matchmaker replicas running rounds at once, a connection each (default 2)");
  add("round-ms", "N", "time between a replica's rounds, as the service's --round-ms (default 100)");
  add("hosts", "N", "game hosts registered, all with room (default 4)");
  add("ladders", "N", "ladders the tickets are spread over, by identity (default 1)");
  add("share", "0|1",
      "1: the replicas share the ladders out, as the service's do; 0: each runs every ladder (default 1)");
  add("queue", "N", "drain: tickets in the queue before the replicas start (default 40000)");
  add("rate", "N", "steady: tickets arriving a second (default 6000)");
  add("seconds", "N", "steady and wait: how long tickets arrive (default 10)");
  add("queue-sizes", "LIST", "wait: tickets waiting in the queue (default 100,1000,10000)");
  add("wait-rate", "N", "wait: tickets arriving a second beside them (default 1000)");
  add("streams", "N", "streams: waiting Enqueue streams, polled one by one and then read together (default 10000)");
  add("json", "", "one JSON line instead of the table");
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  if (!flags.Parse(args, &error)) {
    std::cerr << "matchmaker_load: " << error << "\n";
    return 2;
  }
  if (flags.Help()) {
    std::cout << flags.Usage();
    return 0;
  }
  Settings s;
  s.redis = flags.Get("redis");
  s.json = flags.Has("json");
  if (flags.Has("phases")) s.phases = metropolis::cli::SplitCommas(flags.Get("phases"));
  for (const auto& p : s.phases) {
    if (p != "create" && p != "drain" && p != "steady" && p != "wait" && p != "streams") {
      std::cerr << "matchmaker_load: --phases: '" << p << "' is not create, drain, steady, wait or streams\n";
      return 2;
    }
  }
  if (flags.Has("queue-sizes")) {
    s.queue_sizes.clear();
    for (const std::string& v : metropolis::cli::SplitCommas(flags.Get("queue-sizes"))) {
      int64_t size = 0;
      if (!metropolis::cli::ParseInt(v, 0, 10'000'000, &size)) {
        std::cerr << "matchmaker_load: --queue-sizes: '" << v << "' is not a size from 0 to 10000000\n";
        return 2;
      }
      s.queue_sizes.push_back(size);
    }
  }
  auto get = [&](const char* name, int64_t min, int64_t max, int64_t* out) {
    return !flags.Has(name) || flags.GetInt(name, min, max, out, &error);
  };
  if (!get("tickets", 1, 100'000'000, &s.tickets) || !get("clients", 1, 1024, &s.clients) ||
      !get("replicas", 1, 64, &s.replicas) || !get("round-ms", 0, 60'000, &s.round_ms) ||
      !get("hosts", 1, 10'000, &s.hosts) || !get("queue", 1, 100'000'000, &s.queue) ||
      !get("rate", 1, 10'000'000, &s.rate) || !get("seconds", 1, 3600, &s.seconds) ||
      !get("wait-rate", 1, 10'000'000, &s.wait_rate) || !get("ladders", 1, 10'000, &s.ladders) ||
      !get("streams", 1, 10'000'000, &s.streams)) {
    std::cerr << "matchmaker_load: " << error << "\n";
    return 2;
  }
  if (flags.Has("share")) {
    const std::string v = flags.Get("share");
    if (v != "0" && v != "1") {
      std::cerr << "matchmaker_load: --share: '" << v << "' is not 0 or 1\n";
      return 2;
    }
    s.share = v == "1";
  }
  if (s.redis.empty()) {
    std::cerr << "matchmaker_load: --redis is required\n";
    return 2;
  }
  try {
    return metropolis::load::Run(s);
  } catch (const std::exception& e) {
    std::cerr << "matchmaker_load: " << e.what() << "\n";
    return 1;
  }
}
