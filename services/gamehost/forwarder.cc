#include "services/gamehost/forwarder.h"

#include <fcntl.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lib/common/credentials.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/protocol/convert.h"

namespace metropolis::gamehost {

static_assert(int(EndReason::kWon) == v1::END_REASON_WON && int(EndReason::kLengthCap) == v1::END_REASON_LENGTH_CAP &&
                  int(EndReason::kAborted) == v1::END_REASON_ABORTED,
              "gamehost::EndReason numbers its values as v1::EndReason does");
namespace fs = std::filesystem;
namespace {

// Write, fsync, rename, fsync the folder: the file is there whole or not at all.
bool WriteDurably(const std::string& dir, const std::string& name, const std::string& data, std::string* error) {
  const std::string path = dir + "/" + name, tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "write " + path + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd < 0 || ::fsync(dfd) != 0) {
    *error = "fsync " + dir + ": " + std::strerror(errno);
    if (dfd >= 0) ::close(dfd);
    return false;
  }
  ::close(dfd);
  return true;
}

}  // namespace

void CompletedGameToProto(const CompletedGame& g, v1::CompletedGameRecord* out) {
  out->set_game_id(g.game_id);
  out->set_ladder(g.ladder);
  out->set_season(g.season);
  out->set_tournament(g.tournament);
  protocol::ConfigToProto(g.record.config, out->mutable_config());
  for (size_t i = 0; i < g.record.players.size(); ++i) {
    v1::SeatRecord* s = out->add_seats();
    s->set_seat(uint32_t(i));
    s->set_name(g.record.players[i]);
    if (i < g.fallback_decisions.size()) s->set_fallback_decisions(g.fallback_decisions[i]);
    if (i < g.identity_ids.size()) s->set_identity_id(g.identity_ids[i]);
    if (i < g.forfeited.size()) s->set_forfeited(g.forfeited[i]);
  }
  v1::GameResult* r = out->mutable_result();
  r->set_reason(v1::EndReason(int(g.reason)));
  r->set_winner(g.record.winner.value_or(kNoSeat));
  for (int v : g.vp) r->add_vp(uint32_t(v));
  r->set_actions(uint32_t(g.record.actions.size()));
  out->mutable_actions()->Reserve(int(g.record.actions.size()));
  for (const Action& a : g.record.actions) out->add_actions(Encode(a));
  out->set_created_unix_ms(g.created_unix_ms);
  out->set_finished_unix_ms(g.finished_unix_ms);
  out->set_chance_seed(g.record.seed.value_or(0));
}

ReplayForwarder::ReplayForwarder(ForwarderOptions options) : options_(std::move(options)) {
  stub_ = v1::Replays::NewStub(services::Dial(options_.replays_address));
  if (!options_.ratings_address.empty()) {
    ratings_ = v1::Ratings::NewStub(services::Dial(options_.ratings_address));
  }
}

ReplayForwarder::~ReplayForwarder() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool ReplayForwarder::Start(std::string* error) {
  std::error_code ec;
  fs::create_directories(options_.dir, ec);
  if (ec) {
    *error = "outbox " + options_.dir + ": " + ec.message();
    return false;
  }
  thread_ = std::thread([this] { Loop(); });
  return true;
}

bool ReplayForwarder::Store(const CompletedGame& game, std::string* error) {
  v1::CompletedGameRecord record;
  CompletedGameToProto(game, &record);
  std::string bytes;
  record.SerializeToString(&bytes);
  if (!WriteDurably(options_.dir, game.game_id + ".pb", bytes, error)) return false;
  {
    std::lock_guard lock(mutex_);
    wake_ = true;
    if (!game.request_id.empty()) request_ids_[game.game_id] = game.request_id;
  }
  if (options_.metrics) options_.metrics->OutboxBacklog(pending());
  cv_.notify_all();
  return true;
}

size_t ReplayForwarder::pending() const {
  std::error_code ec;
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(options_.dir, ec)) n += e.path().extension() == ".pb";
  return n;
}

uint64_t ReplayForwarder::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

bool ReplayForwarder::WaitDelivered(int64_t timeout_ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (pending() > 0) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

bool ReplayForwarder::DeliverOne(const std::string& path, bool* permanent_failure) {
  *permanent_failure = false;
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  v1::StoreGameRequest request;
  if (!request.mutable_game()->ParseFromString(bytes.str())) {
    *permanent_failure = true;
    services::LogError("outbox file does not parse", {{"file", path}});
    return false;
  }
  const std::string& game_id = request.game().game_id();
  std::string request_id;
  {
    std::lock_guard lock(mutex_);
    // The same id on every retry of the game's delivery.
    request_id = request_ids_.try_emplace(game_id, services::NewRequestId()).first->second;
  }
  services::LogContext log_context(request_id, game_id);
  const auto deadline = [this] {
    return std::chrono::system_clock::now() + std::chrono::milliseconds(options_.call_timeout_ms);
  };
  grpc::Status status;
  const char* to = "replays";
  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + options_.token);
    context.set_deadline(deadline());
    services::PropagateRequestId(&context);
    v1::StoreGameResponse response;
    status = stub_->StoreGame(&context, request, &response);
  }
  if (status.ok() && ratings_) {
    to = "ratings";
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + options_.ratings_token);
    context.set_deadline(deadline());
    services::PropagateRequestId(&context);
    v1::RateGameRequest rate;
    rate.set_game_id(request.game().game_id());
    v1::RateGameResponse response;
    status = ratings_->RateGame(&context, rate, &response);
    if (status.ok() && !response.rated() && !response.already_rated()) {
      services::LogInfo("game not rated", {{"game", rate.game_id()}, {"reason", response.not_rated_reason()}});
    }
  }
  if (status.ok()) {
    services::LogInfo("game delivered", {{"to", ratings_ ? "replays,ratings" : "replays"}});
    std::lock_guard lock(mutex_);
    request_ids_.erase(game_id);
    return true;
  }
  if (options_.metrics) options_.metrics->DeliveryFailed(to, services::StatusCodeName(status.error_code()));
  // The service judged the game itself: retrying cannot help.
  const auto code = status.error_code();
  *permanent_failure = code == grpc::StatusCode::INVALID_ARGUMENT || code == grpc::StatusCode::ALREADY_EXISTS;
  (*permanent_failure ? services::LogError : services::LogWarning)("delivering a completed game failed",
                                                                   {{"game", request.game().game_id()},
                                                                    {"to", to},
                                                                    {"code", services::StatusCodeName(code)},
                                                                    {"error", status.error_message()}});
  return false;
}

void ReplayForwarder::Loop() {
  int64_t backoff = options_.retry_ms;
  for (;;) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(options_.dir, ec))
      if (e.path().extension() == ".pb") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    size_t backlog = files.size();
    // Those set aside (below), also from before a restart: until an operator has
    // looked at them they are games played and never stored.
    size_t refused = 0;
    for (const auto& e : fs::directory_iterator(options_.dir + "/refused", ec))
      if (e.path().extension() == ".pb") ++refused;
    if (options_.metrics) {
      options_.metrics->OutboxBacklog(backlog);
      options_.metrics->OutboxRefused(refused);
    }
    bool failed = false;
    for (const std::string& path : files) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
      }
      bool permanent = false;
      const bool delivered = DeliverOne(path, &permanent);
      if (delivered || permanent) {
        --backlog;
        if (options_.metrics) options_.metrics->OutboxBacklog(backlog);
      }
      if (delivered) {
        fs::remove(path, ec);
        if (options_.on_delivered) options_.on_delivered(fs::path(path).stem().string());
        std::lock_guard lock(mutex_);
        ++delivered_;
        continue;
      }
      if (permanent) {
        // Kept aside for an operator, never dropped.
        fs::create_directories(options_.dir + "/refused", ec);
        fs::rename(path, options_.dir + "/refused/" + fs::path(path).filename().string(), ec);
        if (options_.metrics) options_.metrics->OutboxRefused(++refused);
        continue;
      }
      failed = true;
      break;
    }
    std::unique_lock lock(mutex_);
    if (stopping_) return;
    if (failed) {
      cv_.wait_for(lock, std::chrono::milliseconds(backoff), [this] { return stopping_; });
      backoff = std::min(backoff * 2, options_.max_retry_ms);
    } else {
      backoff = options_.retry_ms;
      cv_.wait_for(lock, std::chrono::seconds(5), [this] { return stopping_ || wake_; });
      wake_ = false;
    }
  }
}

}  // namespace metropolis::gamehost
