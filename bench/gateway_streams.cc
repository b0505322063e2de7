// gateway_streams: a load program for a running metropolis-gateway's live
// streams (GET /api/v1/live/{game}/events, server-sent events).
//
// It watches --watch-games games at once, --watchers-per-game streams each
// (or --streams in all), opened at --ramp-per-s; a game that ends is replaced
// by one not watched yet from --games or --games-file (bench/gamehost_load
// --games-file keeps such a file), and its watchers move to it. It measures,
// over --duration-s after the ramp and a warm-up:
//
//   * delivery latency of the ordered events ("events" and "game_over"; views
//     may be merged or replaced by design and are not timed). For each game
//     the program also watches the game host directly (GameHost.Spectate, the
//     upstream the gateway uses). An "events" message carries the game's step
//     after its events, in both forms: the latency of a step is the time the
//     gateway's stream delivered it minus the time the direct stream did. The
//     host merges the events of steps a slow stream has not taken yet: a
//     gateway step missing from the direct stream is matched to the direct
//     message that carried it (the first with a step at or after it).
//     Events the direct stream had before a gateway stream was opened came to
//     it as history and are not timed; a step the direct stream never had is
//     counted as not matched.
//   * streams opened, refused (by status), dropped by the gateway before their
//     game ended, and ended cleanly (game_over then the last chunk);
//   * its own CPU, and with --gateway-pid the gateway's CPU and resident memory
//     each second: CPU seconds per second and the RSS slope (least squares);
//     with --gateway-metrics also the live games' histories (the gateway's
//     metropolis_gateway_live_history_bytes), which grow with every game until
//     it ends, the RSS slope net of them, and the slope of its heap in use
//     (metropolis_process_heap_in_use_bytes): what a leak would grow.
//
// Threads: --threads epoll loops (non-blocking sockets, HTTP/1.1), each with
// its share of the games; gRPC's callback threads read the direct streams; the
// main thread samples and prints progress on stderr, and the result on stdout.
#include <absl/synchronization/mutex.h>
#include <arpa/inet.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "bench/live_reference.h"
#include "bench/load_stats.h"
#include "bench/sse_reader.h"
#include "lib/flags/flags.h"
#include "metropolis/v1/gamehost.grpc.pb.h"

namespace metropolis::load {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
// Streams still open this long after their game ended on the host are cut.
constexpr int64_t kEndGraceNs = 30 * kSecond;

struct Settings {
  std::string gateway = "127.0.0.1:8080";
  std::string host = "127.0.0.1:50051";
  std::string spectator_token;
  std::vector<std::string> games;  // --games
  std::string games_file;
  int64_t watch_games = 0;
  int64_t watchers_per_game = 50;
  int64_t streams = 0;  // instead of watchers_per_game
  double ramp_per_s = 200;
  int64_t duration_s = 60;
  int64_t warmup_s = 5;
  int64_t ramp_timeout_s = 300;
  int64_t progress_s = 5;
  int64_t threads = 1;
  int64_t gateway_pid = 0;
  std::string gateway_metrics;  // HOST:PORT of its metrics endpoint
};

// What every thread shares.
struct Shared : Tally {
  explicit Shared(const Settings& s) : settings(s) {}
  const Settings settings;
  std::atomic<int64_t> open_streams{0};
  std::atomic<bool> stopping{false};
  std::unique_ptr<SpectateStub> stub;

  std::mutex status_mutex;
  std::map<int, uint64_t> refused_by_status;

  // Games not watched yet, from the list or the file (the file's latest
  // contents: a game that left it has ended).
  std::mutex games_mutex;
  std::deque<std::string> fresh;
  std::unordered_set<std::string> taken;
  void OfferGames(const std::vector<std::string>& ids) {
    std::lock_guard lock(games_mutex);
    fresh.clear();
    for (const std::string& id : ids)
      if (!taken.count(id)) fresh.push_back(id);
  }
  std::string TakeGame() {
    std::lock_guard lock(games_mutex);
    if (fresh.empty()) return "";
    std::string id = std::move(fresh.front());
    fresh.pop_front();
    taken.insert(id);
    return id;
  }

  std::atomic<int> errors_logged{0};
  void LogError(const std::string& message) {
    if (errors_logged.fetch_add(1) < 20) std::cerr << "gateway_streams: " << message << "\n";
  }
};

// ---------------------------------------------------------------------------
// The gateway's streams, on epoll

struct Slot;

struct Stream {
  Slot* slot;
  std::shared_ptr<Reference> ref;
  int fd = -1;
  enum class State { kConnecting, kHead, kBody } state = State::kConnecting;
  std::string request;
  size_t written = 0;
  std::string head;  // the answer's head until it is whole
  std::unique_ptr<SseReader> reader;
  int64_t opened_ns = 0;
  bool saw_over = false;
};

// One watched game: its direct stream and its watchers.
struct Slot {
  int64_t want = 0;  // watchers
  std::shared_ptr<Reference> ref;
  int64_t started = 0;  // streams started for this game
  std::unordered_set<Stream*> streams;
  int64_t next_try_ns = 0;
};

class Worker {
 public:
  Worker(Shared* shared, const sockaddr_in& gateway, std::vector<int64_t> wants, double ramp_per_s);
  ~Worker();
  void Run();

 private:
  void Tick(int64_t now);
  void Open(Slot* slot);
  void OnReady(Stream* s, uint32_t events);
  void OnBytes(Stream* s, std::string_view bytes, int64_t now);
  // Ends a stream: its count is the caller's.
  void Close(Stream* s, Count why);

  Shared* const shared_;
  const sockaddr_in gateway_;
  const double ramp_per_s_;
  std::vector<std::unique_ptr<Slot>> slots_;
  int epoll_ = -1;
  double tokens_ = 1;
  int64_t refilled_ns_ = 0;
  std::vector<char> buffer_ = std::vector<char>(256 << 10);
};

Worker::Worker(Shared* shared, const sockaddr_in& gateway, std::vector<int64_t> wants, double ramp_per_s)
    : shared_(shared), gateway_(gateway), ramp_per_s_(ramp_per_s) {
  for (int64_t w : wants) {
    auto slot = std::make_unique<Slot>();
    slot->want = w;
    slots_.push_back(std::move(slot));
  }
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
}

Worker::~Worker() {
  if (epoll_ >= 0) ::close(epoll_);
}

void Worker::Run() {
  std::vector<epoll_event> events(1024);
  refilled_ns_ = NowNs();
  while (!shared_->stopping.load(std::memory_order_relaxed)) {
    const int n = epoll_wait(epoll_, events.data(), int(events.size()), 10);
    for (int i = 0; i < n; ++i) OnReady(static_cast<Stream*>(events[size_t(i)].data.ptr), events[size_t(i)].events);
    Tick(NowNs());
  }
  for (auto& slot : slots_) {
    while (!slot->streams.empty()) {
      Stream* s = *slot->streams.begin();
      Close(s, s->state == Stream::State::kBody ? kOpenAtStop : kNoAnswer);
    }
    if (slot->ref) slot->ref->Cancel();
  }
}

void Worker::Tick(int64_t now) {
  tokens_ = std::min(tokens_ + ramp_per_s_ * double(now - refilled_ns_) / 1e9, std::max(1.0, ramp_per_s_ / 10));
  refilled_ns_ = now;
  for (auto& owned : slots_) {
    Slot* slot = owned.get();
    if (!slot->ref) {
      if (now < slot->next_try_ns) continue;
      const std::string id = shared_->TakeGame();
      if (id.empty()) {
        slot->next_try_ns = now + 200'000'000;
        continue;
      }
      slot->ref = std::make_shared<Reference>(shared_, id);
      slot->started = 0;
      slot->ref->Start(shared_->stub.get(), shared_->settings.spectator_token);
      continue;
    }
    Reference& ref = *slot->ref;
    if (ref.ended()) {
      // The game ended on the host (or could not be watched): its watchers
      // end with it, and the slot takes the next game.
      if (!slot->streams.empty() && now - ref.ended_ns() > kEndGraceNs) {
        while (!slot->streams.empty()) Close(*slot->streams.begin(), kCut);
      }
      if (slot->streams.empty()) {
        ref.GiveUp();
        slot->ref.reset();
      }
      continue;
    }
    while (ref.live() && !ref.over() && slot->started < slot->want && tokens_ >= 1) {
      tokens_ -= 1;
      ++slot->started;
      Open(slot);
    }
  }
}

void Worker::Open(Slot* slot) {
  Counters<Count>& c = shared_->counters;
  c.Add(kAttempted);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    c.Add(kNoAnswer);
    shared_->LogError(std::string("socket: ") + std::strerror(errno));
    return;
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  auto* s = new Stream;
  s->slot = slot;
  s->ref = slot->ref;
  s->fd = fd;
  s->opened_ns = NowNs();
  char host[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &gateway_.sin_addr, host, sizeof host);
  s->request = "GET /api/v1/live/" + s->ref->game_id() +
               "/events HTTP/1.1\r\n"
               "Host: " +
               std::string(host) + ":" + std::to_string(ntohs(gateway_.sin_port)) +
               "\r\n"
               "Accept: text/event-stream\r\n"
               "Connection: close\r\n\r\n";
  slot->streams.insert(s);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&gateway_), sizeof gateway_) != 0 && errno != EINPROGRESS) {
    shared_->LogError(std::string("connect: ") + std::strerror(errno));
    Close(s, kNoAnswer);
    return;
  }
  epoll_event ev{};
  ev.events = EPOLLOUT | EPOLLIN | EPOLLRDHUP;
  ev.data.ptr = s;
  if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    shared_->LogError(std::string("epoll_ctl: ") + std::strerror(errno));
    Close(s, kNoAnswer);
  }
}

void Worker::OnReady(Stream* s, uint32_t events) {
  if (s->state == Stream::State::kConnecting && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
    int error = 0;
    socklen_t len = sizeof error;
    getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &error, &len);
    if (error != 0) {
      shared_->LogError(std::string("connect: ") + std::strerror(error));
      Close(s, kNoAnswer);
      return;
    }
    const ssize_t n = ::send(s->fd, s->request.data() + s->written, s->request.size() - s->written, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN) {
      Close(s, kNoAnswer);
      return;
    }
    if (n > 0) s->written += size_t(n);
    if (s->written < s->request.size()) return;
    s->state = Stream::State::kHead;
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.ptr = s;
    epoll_ctl(epoll_, EPOLL_CTL_MOD, s->fd, &ev);
    return;
  }
  if (!(events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP))) return;
  // One read per wake-up: level-triggered epoll comes back for the rest, and
  // every stream gets its turn.
  const ssize_t n = ::read(s->fd, buffer_.data(), buffer_.size());
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  const int64_t now = NowNs();
  if (n <= 0) {  // closed by the gateway, or reset
    if (s->state != Stream::State::kBody) {
      Close(s, kNoAnswer);
    } else {
      Close(s, s->saw_over ? kEndedCleanly : kDropped);
    }
    return;
  }
  shared_->counters.Add(kBytes, uint64_t(n));
  OnBytes(s, std::string_view(buffer_.data(), size_t(n)), now);
}

void Worker::OnBytes(Stream* s, std::string_view bytes, int64_t now) {
  Counters<Count>& c = shared_->counters;
  if (s->state == Stream::State::kHead) {
    s->head.append(bytes);
    HttpHead head;
    size_t head_bytes = 0;
    // The first read may bring the head and much of the body: only a head
    // still incomplete after 16 kB is malformed.
    if (!ParseHttpHead(s->head, &head, &head_bytes) || (head_bytes == 0 && s->head.size() > 16384)) {
      c.Add(kMalformed);
      shared_->LogError("not an HTTP answer: " + s->head.substr(0, 80));
      Close(s, kNoAnswer);
      return;
    }
    if (head_bytes == 0) return;
    if (head.status != 200) {
      {
        std::lock_guard lock(shared_->status_mutex);
        ++shared_->refused_by_status[head.status];
      }
      // The gateway's error body says why (what of it came with the head).
      shared_->LogError("stream of " + s->ref->game_id() + " refused with " + std::to_string(head.status) + ": " +
                        s->head.substr(head_bytes, 240));
      Close(s, kRefused);
      return;
    }
    c.Add(kOpened);
    shared_->open_streams.fetch_add(1, std::memory_order_relaxed);
    s->state = Stream::State::kBody;
    s->reader = std::make_unique<SseReader>(head.chunked);
    const std::string rest = s->head.substr(head_bytes);
    s->head.clear();
    s->head.shrink_to_fit();
    if (!rest.empty()) OnBytes(s, rest, now);
    return;
  }
  Reference& ref = *s->ref;
  const SseReader::Result r = s->reader->Feed(bytes, [&](std::string_view name, std::string_view data) {
    if (name == "events") {
      c.Add(kEvents);
      uint32_t step;
      if (TopLevelStep(data, &step)) {
        ref.GatewayEvents(step, now, s->opened_ns);
      } else {
        c.Add(kMalformed);
        shared_->LogError("an events message without its step: " + std::string(data.substr(0, 80)));
      }
    } else if (name == "view") {
      c.Add(kViews);
    } else if (name == "game_over") {
      s->saw_over = true;
      ref.GatewayOver(now, s->opened_ns);
    } else if (name == "error") {
      c.Add(kErrorEvents);
      shared_->LogError("an error event on " + ref.game_id() + ": " + std::string(data.substr(0, 200)));
    }
  });
  if (r == SseReader::Result::kError) {
    c.Add(kMalformed);
    shared_->LogError("a malformed stream: " + s->reader->error());
    Close(s, kDropped);
  } else if (r == SseReader::Result::kEnd) {
    Close(s, s->saw_over ? kEndedCleanly : kDropped);
  }
}

void Worker::Close(Stream* s, Count why) {
  shared_->counters.Add(why);
  if (s->state == Stream::State::kBody) shared_->open_streams.fetch_sub(1, std::memory_order_relaxed);
  ::close(s->fd);  // also leaves the epoll set
  s->slot->streams.erase(s);
  delete s;
}

// ---------------------------------------------------------------------------
// The run

bool ResolveAddress(const std::string& address, sockaddr_in* out, std::string* error,
                    const std::string& flag = "--gateway") {
  const size_t colon = address.rfind(':');
  int64_t port = 0;
  if (colon == std::string::npos || !cli::ParseInt(std::string_view(address).substr(colon + 1), 1, 65535, &port))
    return *error = flag + ": '" + address + "' is not HOST:PORT", false;
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(address.substr(0, colon).c_str(), nullptr, &hints, &found) != 0 || !found)
    return *error = flag + ": cannot resolve '" + address.substr(0, colon) + "' (IPv4)", false;
  *out = *reinterpret_cast<sockaddr_in*>(found->ai_addr);
  out->sin_port = htons(uint16_t(port));
  freeaddrinfo(found);
  return true;
}

// A Prometheus text endpoint's page (GET /metrics, blocking, one second at
// most); empty when it cannot be read.
std::string ScrapeMetrics(const sockaddr_in& at) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return {};
  timeval limit{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  std::string answer;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&at), sizeof at) == 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: metrics\r\n\r\n";
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size())) {
      char buffer[16384];
      for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) answer.append(buffer, size_t(n));
    }
  }
  ::close(fd);
  return answer;
}

// A gauge's value on such a page; -1 when it is not there.
double GaugeOn(const std::string& page, const std::string& name) {
  const std::string line = "\n" + name + " ";
  const size_t at = page.find(line);
  if (at == std::string::npos) return -1;
  return std::strtod(page.c_str() + at + line.size(), nullptr);
}

// What the gateway's metrics say of its memory each second.
struct MemorySample {
  double history_bytes = -1;  // the live games' histories, -1 unread
  double heap_bytes = -1;     // its heap in use (the C allocator's), -1 unread
};

std::vector<std::string> ReadGamesFile(const std::string& path) {
  std::vector<std::string> ids;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) ids.push_back(line);
  }
  return ids;
}

struct Sample {
  int64_t at_ns = 0;
  int64_t open = 0;  // streams
  CountValues counters{};
  Histogram::Snapshot delivery, game_over;
  ProcessSample gateway;
  MemorySample memory;
  double own_cpu_s = 0;
  MachineSample machine;
};

const std::string kHistoryGauge = "metropolis_gateway_live_history_bytes";
const std::string kHeapGauge = "metropolis_process_heap_in_use_bytes";

class Program {
 public:
  explicit Program(const Settings& s) : shared_(s) {}
  int Run();

 private:
  Sample TakeSample();
  void Progress(const char* phase, int64_t second, const Sample& now, const Sample& last);
  void Report(const Sample& start, const Sample& end, double ramp_s, const std::vector<ProcessSample>& samples,
              const std::vector<MemorySample>& memory, const std::vector<int64_t>& sample_ns);
  MemorySample SampleMemory() const;
  const Settings& settings() const { return shared_.settings; }

  Shared shared_;
  int64_t target_ = 0;
  sockaddr_in metrics_{};
};

Sample Program::TakeSample() {
  Sample s;
  s.at_ns = NowNs();
  s.open = shared_.open_streams.load();
  s.counters = shared_.counters.Take();
  s.delivery = shared_.delivery.Take();
  s.game_over = shared_.game_over.Take();
  if (settings().gateway_pid > 0) s.gateway = SampleProcess(settings().gateway_pid);
  s.memory = SampleMemory();
  s.own_cpu_s = OwnCpuSeconds();
  s.machine = SampleMachine();
  return s;
}

MemorySample Program::SampleMemory() const {
  if (settings().gateway_metrics.empty()) return {};
  const std::string page = ScrapeMetrics(metrics_);
  return {GaugeOn(page, kHistoryGauge), GaugeOn(page, kHeapGauge)};
}

void Program::Progress(const char* phase, int64_t second, const Sample& now, const Sample& last) {
  const double dt = std::max(1e-9, double(now.at_ns - last.at_ns) / 1e9);
  const Histogram::Snapshot d = Histogram::Difference(now.delivery, last.delivery);
  char line[320];
  std::snprintf(line, sizeof line,
                "[%-6s %4" PRId64 "s] streams open %6" PRId64 "/%" PRId64
                "  events/s %7.0f  p99 %7.1f ms"
                "  refused %" PRIu64 "  dropped %" PRIu64 "  client cpu %.2f%s",
                phase, second, shared_.open_streams.load(), target_,
                double(now.counters[kEvents] - last.counters[kEvents]) / dt, double(d.Quantile(0.99)) / 1e6,
                now.counters[kRefused], now.counters[kDropped], (now.own_cpu_s - last.own_cpu_s) / dt,
                now.gateway.ok ? ("  gateway rss " + std::to_string(now.gateway.rss_kb / 1024) + " MiB cpu " +
                                  Fixed((now.gateway.cpu_s - last.gateway.cpu_s) / dt, 2))
                                     .c_str()
                               : "");
  std::cerr << line << "\n";
}

int Program::Run() {
  const Settings& s = settings();
  sockaddr_in gateway{};
  std::string error;
  if (!ResolveAddress(s.gateway, &gateway, &error)) {
    std::cerr << "gateway_streams: " << error << "\n";
    return 2;
  }
  if (!s.gateway_metrics.empty()) {
    if (!ResolveAddress(s.gateway_metrics, &metrics_, &error, "--gateway-metrics")) {
      std::cerr << "gateway_streams: " << error << "\n";
      return 2;
    }
    const MemorySample memory = SampleMemory();
    if (memory.history_bytes < 0 || memory.heap_bytes < 0) {
      std::cerr << "gateway_streams: --gateway-metrics: no " << kHistoryGauge << " and " << kHeapGauge << " at http://"
                << s.gateway_metrics << "/metrics\n";
      return 2;
    }
  }
  if (s.gateway_pid > 0 && !SampleProcess(s.gateway_pid).ok) {
    std::cerr << "gateway_streams: cannot read /proc/" << s.gateway_pid << "/stat\n";
    return 2;
  }
  shared_.stub = std::make_unique<SpectateStub>(grpc::CreateChannel(s.host, grpc::InsecureChannelCredentials()));
  if (!s.games.empty()) shared_.OfferGames(s.games);
  auto reread = [&] {
    if (!s.games_file.empty()) shared_.OfferGames(ReadGamesFile(s.games_file));
  };
  reread();

  // Watchers per game, then the games dealt to the threads in turn.
  std::vector<std::vector<int64_t>> wants(size_t(s.threads));
  for (int64_t g = 0; g < s.watch_games; ++g) {
    const int64_t w =
        s.streams > 0 ? s.streams / s.watch_games + (g < s.streams % s.watch_games ? 1 : 0) : s.watchers_per_game;
    target_ += w;
    wants[size_t(g % s.threads)].push_back(w);
  }
  // Every stream is a socket.
  if (rlimit files; getrlimit(RLIMIT_NOFILE, &files) == 0) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
    if (int64_t(files.rlim_cur) < target_ + 256)
      std::cerr << "gateway_streams: only " << files.rlim_cur << " open files allowed (the hard limit)\n";
  }
  std::cerr << "gateway_streams: " << target_ << " streams to " << s.gateway << " over " << s.watch_games
            << " games, opened at " << s.ramp_per_s << "/s; reference: Spectate on " << s.host << "\n";
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  for (int64_t t = 0; t < s.threads; ++t)
    workers.push_back(std::make_unique<Worker>(&shared_, gateway, wants[size_t(t)], s.ramp_per_s / double(s.threads)));
  for (auto& w : workers) threads.emplace_back([&w] { w->Run(); });

  const int64_t t0 = NowNs();
  Sample last = TakeSample();
  auto tick = [&](const char* phase, int64_t from_ns, int64_t second) {
    std::this_thread::sleep_until(
        std::chrono::steady_clock::time_point(std::chrono::nanoseconds(from_ns + second * kSecond)));
    reread();
    if (second % s.progress_s == 0) {
      Sample now = TakeSample();
      Progress(phase, second, now, last);
      last = std::move(now);
    }
  };
  int64_t second = 0;
  while (shared_.open_streams.load() < target_ && NowNs() - t0 < s.ramp_timeout_s * kSecond) tick("ramp", t0, ++second);
  const double ramp_s = double(NowNs() - t0) / 1e9;
  if (shared_.open_streams.load() < target_)
    std::cerr << "gateway_streams: " << shared_.open_streams.load() << " of " << target_ << " streams open after "
              << s.ramp_timeout_s << " s; measuring anyway\n";
  const int64_t warm = NowNs();
  for (int64_t i = 1; i <= s.warmup_s; ++i) tick("warmup", warm, i);

  shared_.delivery.ResetMax();
  shared_.game_over.ResetMax();
  const Sample start = TakeSample();
  last = start;
  std::vector<ProcessSample> gateway_samples{start.gateway};
  std::vector<MemorySample> memory_samples{start.memory};
  std::vector<int64_t> sample_ns{start.at_ns};
  for (int64_t i = 1; i <= s.duration_s; ++i) {
    tick("run", start.at_ns, i);
    if (s.gateway_pid > 0) {
      gateway_samples.push_back(SampleProcess(s.gateway_pid));
      memory_samples.push_back(SampleMemory());
      sample_ns.push_back(NowNs());
    }
  }
  const Sample end = TakeSample();

  shared_.stopping = true;
  for (auto& t : threads) t.join();
  const int64_t drain_deadline = NowNs() + 10 * kSecond;
  while (shared_.direct_running.load() > 0 && NowNs() < drain_deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  Report(start, end, ramp_s, gateway_samples, memory_samples, sample_ns);
  if (shared_.direct_running.load() > 0) {
    std::cerr << "gateway_streams: direct streams still open 10 s after cancelling them; exiting\n";
    std::fflush(stdout);
    std::quick_exit(0);
  }
  return 0;
}

// Least squares slope of y over x.
double Slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = double(x.size());
  if (x.size() < 2) return 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double d = n * sxx - sx * sx;
  return d == 0 ? 0 : (n * sxy - sx * sy) / d;
}

std::string Millis(uint64_t ns) { return Fixed(double(ns) / 1e6, ns < 10'000'000 ? 2 : 1); }

void Program::Report(const Sample& start, const Sample& end, double ramp_s, const std::vector<ProcessSample>& samples,
                     const std::vector<MemorySample>& memory, const std::vector<int64_t>& sample_ns) {
  const Settings& s = settings();
  const double window_s = double(end.at_ns - start.at_ns) / 1e9;
  const CountValues w = Counters<Count>::Difference(end.counters, start.counters);  // the window's
  const CountValues all = shared_.counters.Take();                                  // the whole run's, after the stop
  const Histogram::Snapshot d = Histogram::Difference(end.delivery, start.delivery);
  const Histogram::Snapshot o = Histogram::Difference(end.game_over, start.game_over);
  const unsigned cores = std::thread::hardware_concurrency();
  const uint64_t machine_total = end.machine.total - start.machine.total;
  const double machine_busy = machine_total ? double(end.machine.busy - start.machine.busy) / double(machine_total) : 0;
  const double own_cpu = end.own_cpu_s - start.own_cpu_s;

  std::string statuses;
  {
    std::lock_guard lock(shared_.status_mutex);
    for (const auto& [status, n] : shared_.refused_by_status)
      statuses += (statuses.empty() ? " (" : ", ") + Thousands(n) + " × " + std::to_string(status);
    if (!statuses.empty()) statuses += ")";
  }

  std::cout << "\ngateway_streams: " << s.gateway << ", " << s.watch_games << " games watched at once, "
            << Thousands(uint64_t(target_)) << " streams, opened at " << Fixed(s.ramp_per_s, 0) << "/s ("
            << Fixed(ramp_s, 1) << " s), warm-up " << s.warmup_s << " s, window " << Fixed(window_s, 1) << " s, "
            << s.threads << " client thread(s)\n\n";
  std::cout << "| measure | value |\n|---|---|\n";
  auto row = [](const std::string& k, const std::string& v) { std::cout << "| " << k << " | " << v << " |\n"; };
  row("streams open at the window's end / wanted",
      Thousands(uint64_t(end.open)) + " / " + Thousands(uint64_t(target_)));
  row("streams (whole run): attempted / opened (200) / refused / no answer",
      Thousands(all[kAttempted]) + " / " + Thousands(all[kOpened]) + " / " + Thousands(all[kRefused]) + statuses +
          " / " + Thousands(all[kNoAnswer]));
  row("streams (whole run): ended cleanly with their game / dropped by the gateway / cut 30 s after the game / open "
      "at the stop",
      Thousands(all[kEndedCleanly]) + " / " + Thousands(all[kDropped]) + " / " + Thousands(all[kCut]) + " / " +
          Thousands(all[kOpenAtStop]));
  row("games watched (whole run; direct streams that failed)",
      Thousands(all[kGamesWatched]) + " (" + Thousands(all[kDirectFailed]) + ")");
  row("events messages delivered in the window (per second)",
      Thousands(w[kEvents]) + " (" + Fixed(double(w[kEvents]) / window_s, 0) + ")");
  row("**delivery p50 / p90 / p99 / max (ms)**", "**" + Millis(d.Quantile(0.5)) + " / " + Millis(d.Quantile(0.9)) +
                                                     " / " + Millis(d.Quantile(0.99)) + "** / " + Millis(d.max) + " (" +
                                                     Thousands(d.total) + " timed)");
  row("game over delivery p50 / p99 / max (ms)", o.total ? Millis(o.Quantile(0.5)) + " / " + Millis(o.Quantile(0.99)) +
                                                               " / " + Millis(o.max) + " (" + Thousands(o.total) + ")"
                                                         : "no game ended in the window");
  row("matched / of them against a merged direct message / gateway first (timed 0)",
      Thousands(w[kMatched]) + " / " + Thousands(w[kMatchedMerged]) + " / " + Thousands(w[kGatewayFirst]));
  row("not matched / history (before the stream opened, not timed)",
      Thousands(w[kUnmatched]) + " / " + Thousands(w[kHistory]));
  row("views delivered; body bytes read in the window", Thousands(w[kViews]) + "; " +
                                                            Fixed(double(w[kBytes]) / 1e6, 1) + " MB (" +
                                                            Fixed(double(w[kBytes]) / 1e6 / window_s, 2) + " MB/s)");
  if (w[kErrorEvents] || w[kMalformed])
    row("error events / unreadable answers", Thousands(w[kErrorEvents]) + " / " + Thousands(w[kMalformed]));
  if (s.gateway_pid > 0 && start.gateway.ok && end.gateway.ok) {
    // x in minutes, y in kB: the RSS, and where the metrics were read, the
    // histories, the RSS without them, and the heap in use.
    std::vector<double> x, y, mx, hy, net, heap;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (!samples[i].ok) continue;
      x.push_back(double(sample_ns[i] - start.at_ns) / 60e9);
      y.push_back(double(samples[i].rss_kb));
      if (memory[i].history_bytes < 0 || memory[i].heap_bytes < 0) continue;
      mx.push_back(x.back());
      hy.push_back(memory[i].history_bytes / 1024);
      net.push_back(y.back() - hy.back());
      heap.push_back(memory[i].heap_bytes / 1024);
    }
    const double gw_cpu = end.gateway.cpu_s - start.gateway.cpu_s;
    row("gateway CPU", Fixed(gw_cpu, 2) + " s = **" + Fixed(gw_cpu / window_s, 3) + " CPU s per s**; " +
                           Fixed(w[kEvents] ? gw_cpu * 1e6 / double(w[kEvents]) : 0, 1) +
                           " µs per events message delivered");
    row("gateway RSS window start / end (MiB)",
        Fixed(double(start.gateway.rss_kb) / 1024, 1) + " / " + Fixed(double(end.gateway.rss_kb) / 1024, 1));
    row("**gateway RSS slope** (least squares, " + std::to_string(x.size()) + " samples, 1 per s)",
        "**" + Fixed(Slope(x, y), 0) + " kB per minute**");
    if (start.memory.history_bytes >= 0 && end.memory.history_bytes >= 0) {
      const MemorySample &a = start.memory, &b = end.memory;
      row("live games' histories (" + kHistoryGauge + ") / heap in use (" + kHeapGauge + "), window start → end (MiB)",
          Fixed(a.history_bytes / 1048576, 1) + " → " + Fixed(b.history_bytes / 1048576, 1) + " / " +
              Fixed(a.heap_bytes / 1048576, 1) + " → " + Fixed(b.heap_bytes / 1048576, 1));
      row("slopes (" + std::to_string(mx.size()) +
              " samples): histories / **RSS net of the histories** / **heap in use**",
          Fixed(Slope(mx, hy), 0) + " / **" + Fixed(Slope(mx, net), 0) + "** / **" + Fixed(Slope(mx, heap), 0) +
              " kB per minute**");
    }
  }
  row("client CPU", Fixed(own_cpu, 2) + " s = " + Fixed(own_cpu / window_s, 3) + " CPU s per s");
  row("machine", std::to_string(cores) + " cores, " + Fixed(machine_busy * 100, 0) +
                     " % busy in the window (client, gateway, host, bots and services together); load average " +
                     LoadAverage());
}

int Main(int argc, char** argv) {
  cli::Flags flags("", "--gateway HOST:PORT (--games ID,... | --games-file FILE) --spectator-token T [flags]",
                   "Opens live streams (server-sent events) of games through a running metropolis-gateway and times\n"
                   "the delivery of every ordered event against the game host's own Spectate stream of the game.\n"
                   "A game that ends is replaced by one not watched yet from the list or the file. Progress goes\n"
                   "to stderr, the result to stdout.");
  flags.set_program("gateway_streams");
  auto add = [&](std::string name, std::string value, std::string help) {
    flags.Add({.name = std::move(name), .value_name = std::move(value), .help = std::move(help)});
  };
  add("gateway", "HOST:PORT", "the gateway's HTTP address (IPv4; default 127.0.0.1:8080)");
  add("games", "ID,...", "the games to watch");
  add("games-file", "FILE",
      "the games to watch, one id per line, read again every second (gamehost_load --games-file)");
  add("watch-games", "N", "games watched at once (default: as many as --games names; required with --games-file)");
  add("watchers-per-game", "N", "streams per game (default 50)");
  add("streams", "N", "streams in all, spread over the games (instead of --watchers-per-game)");
  add("ramp-per-s", "R", "streams opened per second at most (default 200)");
  add("duration-s", "N", "length of the measured window (default 60)");
  add("warmup-s", "N", "unmeasured seconds after the ramp (default 5)");
  add("ramp-timeout-s", "N", "start measuring after this long even if not every stream is open (default 300)");
  add("host", "HOST:PORT", "the game host, watched directly for the reference (default 127.0.0.1:50051)");
  add("spectator-token", "T", "the host's spectator token, for Spectate (required)");
  add("gateway-pid", "PID", "the gateway's process: its CPU and resident memory each second, the RSS slope");
  add("gateway-metrics", "HOST:PORT",
      "the gateway's metrics endpoint: with --gateway-pid, the live games' histories and its heap in use each second, "
      "and their slopes");
  add("threads", "N", "epoll threads of this program (default 1)");
  add("progress-s", "N", "a progress line on stderr this often (default 5)");

  std::string error;
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto fail = [&](const std::string& message) {
    std::cerr << "gateway_streams: " << message << "\n(see gateway_streams --help)\n";
    return 2;
  };
  if (!flags.Parse(args, &error)) return fail(error);
  if (flags.Help()) {
    std::string usage = flags.Usage();
    // The parser puts the empty subcommand's space in.
    if (const size_t at = usage.find("gateway_streams  "); at != std::string::npos) usage.erase(at + 15, 1);
    std::cout << usage;
    return 0;
  }
  Settings s;
  s.gateway = flags.Get("gateway", s.gateway);
  s.host = flags.Get("host", s.host);
  s.spectator_token = flags.Get("spectator-token");
  s.games_file = flags.Get("games-file");
  s.gateway_metrics = flags.Get("gateway-metrics");
  if (flags.Has("games")) {
    for (const std::string& id : cli::SplitCommas(flags.Get("games"))) {
      if (id.empty()) return fail("--games: an empty id in '" + flags.Get("games") + "'");
      s.games.push_back(id);
    }
  }
  auto int_flag = [&](const char* name, int64_t min, int64_t max, int64_t* out) {
    if (!flags.Has(name)) return true;
    return flags.GetInt(name, min, max, out, &error);
  };
  int64_t ramp = int64_t(s.ramp_per_s);
  bool ok = int_flag("watch-games", 1, 100'000, &s.watch_games) &&
            int_flag("watchers-per-game", 1, 100'000, &s.watchers_per_game) &&
            int_flag("streams", 1, 1'000'000, &s.streams) && int_flag("ramp-per-s", 1, 1'000'000, &ramp) &&
            int_flag("duration-s", 1, 86'400, &s.duration_s) && int_flag("warmup-s", 0, 3'600, &s.warmup_s) &&
            int_flag("ramp-timeout-s", 1, 86'400, &s.ramp_timeout_s) && int_flag("threads", 1, 64, &s.threads) &&
            int_flag("progress-s", 1, 3'600, &s.progress_s) &&
            int_flag("gateway-pid", 1, int64_t(1) << 32, &s.gateway_pid);
  if (!ok) return fail(error);
  s.ramp_per_s = double(ramp);
  if (s.spectator_token.empty()) return fail("--spectator-token is required (the reference watches the host directly)");
  if (s.games.empty() == s.games_file.empty()) return fail("give either --games or --games-file");
  if (flags.Has("streams") && flags.Has("watchers-per-game"))
    return fail("give --streams or --watchers-per-game, not both");
  if (!flags.Has("watch-games")) {
    if (!s.games_file.empty()) return fail("--watch-games is required with --games-file");
    s.watch_games = int64_t(s.games.size());
  }
  if (!s.games.empty() && s.watch_games > int64_t(s.games.size()))
    return fail("--watch-games " + std::to_string(s.watch_games) + " is more than the " +
                std::to_string(s.games.size()) + " games --games names");
  if (s.streams > 0 && s.streams < s.watch_games)
    return fail("--streams " + std::to_string(s.streams) + " is fewer than the " + std::to_string(s.watch_games) +
                " games watched");
  // Debian's gRPC and abseil are built without NDEBUG, which leaves abseil's
  // lock-order checks on (gamehost_load says what they cost).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  Program program(s);
  return program.Run();
}

}  // namespace
}  // namespace metropolis::load

int main(int argc, char** argv) { return metropolis::load::Main(argc, argv); }
