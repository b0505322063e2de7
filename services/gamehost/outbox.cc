#include "services/gamehost/outbox.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/negative_control.h"
#include "lib/common/request_id.h"

namespace metropolis::gamehost {

namespace fs = std::filesystem;
namespace {

// Write, fsync, rename, fsync the folder: the file is there whole or not at all.
bool WriteDurably(const std::string& dir, const std::string& name, const std::string& data, std::string* error) {
  const std::string path = dir + "/" + name, tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = "open " + tmp + ": " + std::strerror(errno);
    return false;
  }
  size_t done = 0;
  bool ok = true;
  while (ok && done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += size_t(n);
  }
  ok = ok && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "write " + path + ": " + std::strerror(ok ? errno : saved);
    ::unlink(tmp.c_str());
    return false;
  }
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0 || ::fsync(dfd) != 0) {
    *error = "fsync " + dir + ": " + std::strerror(errno);
    if (dfd >= 0) ::close(dfd);
    return false;
  }
  ::close(dfd);
  return true;
}

// The files of `dir` ending in `extension`, by name or oldest first.
std::vector<fs::path> FilesIn(const std::string& dir, const std::string& extension, bool oldest_first = false) {
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == extension)
      found.emplace_back(oldest_first ? e.last_write_time(ec) : fs::file_time_type{}, e.path());
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace

Outbox::Outbox(OutboxOptions options) : options_(std::move(options)) {}

Outbox::~Outbox() { Stop(); }

void Outbox::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool Outbox::Start(std::string* error) {
  if (!options_.results && options_.archive_dir.empty()) {
    *error = "the outbox needs a results service or an archive to store games in";
    return false;
  }
  std::error_code ec;
  for (const std::string& dir : {options_.dir, options_.dir + "/refused", options_.archive_dir}) {
    if (dir.empty()) continue;
    fs::create_directories(dir, ec);
    if (ec) {
      *error = "completed-game folder " + dir + ": " + ec.message();
      return false;
    }
  }
  for (const fs::path& tmp : FilesIn(options_.dir, ".tmp")) fs::remove(tmp, ec);  // half-written by a crash
  {
    std::lock_guard lock(mutex_);
    const Time now = std::chrono::steady_clock::now();
    for (const fs::path& file : FilesIn(options_.dir, ".pb")) Schedule(file.stem().string(), now);
  }
  if (!options_.archive_dir.empty())
    for (const fs::path& file : FilesIn(options_.archive_dir, ".json", /*oldest_first=*/true))
      archived_.push_back(file.string());
  CountRefused();
  thread_ = std::thread([this] { Loop(); });
  return true;
}

void Outbox::Put(CompletedGame game, std::function<void()> stored) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      incoming_.push_back({std::move(game), std::move(stored)});
      cv_.notify_all();
      return;
    }
  }
  // Stopped (or never started): kept here, as nobody else will keep it. Its
  // callback is not run: the caller may hold the game's lock (a game finishing
  // during shutdown), and the host is going; the next run delivers the file.
  Keep(game);
  services::LogWarning("a game finished while the outbox was stopping: kept, its seats not told",
                       {{"game", game.game_id}});
}

void Outbox::WaitStored() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return incoming_.empty() && keeping_ == 0; });
}

size_t Outbox::pending() const {
  std::lock_guard lock(mutex_);
  return waiting_.size() + incoming_.size() + size_t(keeping_);
}

uint64_t Outbox::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

bool Outbox::WaitDelivered(int64_t timeout_ms) {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                      [this] { return waiting_.empty() && incoming_.empty() && keeping_ == 0; });
}

void Outbox::Schedule(const std::string& game_id, Time at) {
  auto [it, added] = waiting_.try_emplace(game_id, at, 0);
  if (!added) {
    due_.erase({it->second.first, game_id});
    it->second.first = at;
  }
  due_.emplace(at, game_id);
  if (options_.metrics) options_.metrics->OutboxBacklog(waiting_.size());
}

// New games first (their seats wait for them), then whichever delivery is due;
// under a steady stream of new games, one due delivery after every few.
void Outbox::Loop() {
  std::unique_lock lock(mutex_);
  int kept_in_a_row = 0;
  for (;;) {
    const Time now = std::chrono::steady_clock::now();
    const bool delivery_due = !due_.empty() && due_.begin()->first <= now;
    if (!incoming_.empty() && !(delivery_due && kept_in_a_row >= 8)) {
      ++kept_in_a_row;
      Incoming in = std::move(incoming_.front());
      incoming_.pop_front();
      ++keeping_;
      lock.unlock();
      Keep(in.game);
      if (in.stored) in.stored();
      lock.lock();
      --keeping_;
      cv_.notify_all();
      continue;
    }
    kept_in_a_row = 0;
    if (stopping_ && incoming_.empty()) return;
    if (delivery_due && !stopping_) {
      const std::string id = due_.begin()->second;
      lock.unlock();
      Deliver(id);
      lock.lock();
      cv_.notify_all();
      continue;
    }
    const Time until = due_.empty() ? now + std::chrono::seconds(5) : due_.begin()->first;
    cv_.wait_until(lock, until, [this] { return stopping_ || !incoming_.empty(); });
  }
}

void Outbox::Keep(const CompletedGame& game) {
  services::LogContext log_context(game.request_id, game.game_id);
  std::string bytes, name, dir;
  if (options_.results) {
    v1::CompletedGameRecord record;
    CompletedGameToProto(game, &record);
    record.SerializeToString(&bytes);
    dir = options_.dir;
    name = game.game_id + ".pb";
  } else {
    bytes = CompletedGameToJson(game);
    dir = options_.archive_dir;
    name = game.game_id + ".json";
  }
  // A game is never dropped: a disk that fails is retried until it works, and
  // the seats hear the game is over only then.
  int64_t backoff = options_.retry_ms;
  std::string error;
  while (!WriteDurably(dir, name, bytes, &error)) {
    services::LogError("keeping a completed game failed; retrying",
                       {{"game", game.game_id}, {"error", error}, {"retry_ms", std::to_string(backoff)}});
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff));
    backoff = std::min(backoff * 2, options_.max_retry_ms);
  }
  services::LogInfo("game kept", {{"game", game.game_id},
                                  {"winner", std::to_string(game.record.winner.value_or(-1))},
                                  {"actions", std::to_string(game.record.actions.size())}});
  if (!options_.results) return;
  Archive(game);
  std::lock_guard lock(mutex_);
  if (!game.request_id.empty()) request_ids_[game.game_id] = game.request_id;
  Schedule(game.game_id, std::chrono::steady_clock::now());
}

// A copy for people and tools, beside the delivery: losing it loses nothing.
void Outbox::Archive(const CompletedGame& game) {
  if (options_.archive_dir.empty() || options_.archive_keep == 0) return;
  std::string error;
  if (!WriteDurably(options_.archive_dir, game.game_id + ".json", CompletedGameToJson(game), &error)) {
    services::LogWarning("archiving a completed game failed", {{"game", game.game_id}, {"error", error}});
    return;
  }
  archived_.push_back(options_.archive_dir + "/" + game.game_id + ".json");
  std::error_code ec;
  while (archived_.size() > options_.archive_keep) {
    fs::remove(archived_.front(), ec);
    archived_.pop_front();
  }
}

void Outbox::CountRefused() {
  if (options_.metrics) options_.metrics->OutboxRefused(FilesIn(options_.dir + "/refused", ".pb").size());
}

void Outbox::Deliver(const std::string& game_id) {
  const std::string path = options_.dir + "/" + game_id + ".pb";
  std::string request_id;
  {
    std::lock_guard lock(mutex_);
    // The same id on every retry of the game's delivery.
    request_id = request_ids_.try_emplace(game_id, services::NewRequestId()).first->second;
  }
  services::LogContext log_context(request_id, game_id);
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  v1::CompletedGameRecord record;
  grpc::Status status;
  std::string to = "outbox";
  if (!in || !record.ParseFromString(bytes.str())) {
    status = {grpc::StatusCode::INVALID_ARGUMENT, "the outbox file " + path + " does not parse"};
  } else {
    status = options_.results->StoreThenRate(record, request_id, &to);
  }
  std::error_code ec;
  // The negative control "deliver_until_acknowledged": a game whose delivery
  // failed is dropped as if delivered, so a PostgreSQL (or replays) outage loses
  // the games that end during it (tests/faults/postgres_kill_test.sh).
  if (!status.ok() && !RefusedForGood(status) && services::ProtectionRemoved("deliver_until_acknowledged")) {
    services::LogWarning("NEGATIVE CONTROL: a game whose delivery failed is dropped",
                         {{"game", game_id}, {"code", services::StatusCodeName(status.error_code())}});
    if (options_.metrics) options_.metrics->DeliveryFailed(to, services::StatusCodeName(status.error_code()));
    status = grpc::Status::OK;
  }
  if (status.ok()) {
    fs::remove(path, ec);
    services::LogInfo("game delivered", {{"game", game_id}});
    if (options_.on_delivered) options_.on_delivered(game_id);
  } else if (RefusedForGood(status)) {
    // Kept aside for an operator, never dropped; the alert says so.
    fs::rename(path, options_.dir + "/refused/" + game_id + ".pb", ec);
    services::LogError("a completed game was refused for good; set aside in outbox/refused/",
                       {{"game", game_id},
                        {"to", to},
                        {"code", services::StatusCodeName(status.error_code())},
                        {"error", status.error_message()}});
    CountRefused();
  }
  if (!status.ok() && options_.metrics)
    options_.metrics->DeliveryFailed(to, services::StatusCodeName(status.error_code()));
  int64_t backoff = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = waiting_.find(game_id);
    if (it == waiting_.end()) return;
    due_.erase({it->second.first, game_id});
    if (status.ok() || RefusedForGood(status)) {
      waiting_.erase(it);
      request_ids_.erase(game_id);
      if (status.ok()) ++delivered_;
      if (options_.metrics) options_.metrics->OutboxBacklog(waiting_.size());
      return;
    }
    // This game alone waits: the others go on being delivered meanwhile.
    const int failures = ++it->second.second;
    backoff = std::min(options_.max_retry_ms, options_.retry_ms << std::min(failures - 1, 20));
    it->second.first = std::chrono::steady_clock::now() + std::chrono::milliseconds(backoff);
    due_.emplace(it->second.first, game_id);
  }
  // Logged outside the lock: Put and the host's readers never wait on the log.
  services::LogWarning("delivering a completed game failed", {{"game", game_id},
                                                              {"to", to},
                                                              {"code", services::StatusCodeName(status.error_code())},
                                                              {"error", status.error_message()},
                                                              {"retry_ms", std::to_string(backoff)}});
}

}  // namespace metropolis::gamehost
