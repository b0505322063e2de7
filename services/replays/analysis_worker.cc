#include "services/replays/analysis_worker.h"

#include <chrono>

#include "lib/common/log.h"
#include "services/replays/metrics.h"
#include "services/replays/record.h"

namespace metropolis::replays {
namespace {

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* LineName(AnalysisLine line) { return line == AnalysisLine::kStored ? "stored" : "requested"; }

}  // namespace

AnalysisWorker::AnalysisWorker(ReplayStore* games, AnalysisStore* analyses, People* people, ReplaysMetrics* metrics,
                               AnalysisWorkerOptions options)
    : games_(games),
      analyses_(analyses),
      people_(people),
      metrics_(metrics),
      options_(std::move(options)),
      queue_(options_.queue) {}

AnalysisWorker::~AnalysisWorker() { Stop(); }

void AnalysisWorker::Start() {
  for (int t = 0; t < options_.threads; ++t) threads_.emplace_back([this, t] { Run(t == 0); });
}

void AnalysisWorker::Stop() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  queue_.Stop();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

AnalysisQueue::Offered AnalysisWorker::Offer(AnalysisJob job) {
  const AnalysisLine line = job.line;
  const AnalysisQueue::Offered offered = queue_.Offer(std::move(job));
  if (metrics_) {
    if (offered == AnalysisQueue::Offered::kFull) metrics_->AnalysisDropped(LineName(line));
    metrics_->AnalysisWaiting(LineName(line), queue_.waiting(line));
  }
  return offered;
}

void AnalysisWorker::Stored(const v1::CompletedGameRecord& game) {
  AnalysisJob job{game.game_id(), AnalysisLine::kStored, {}, {}};
  for (const v1::SeatRecord& seat : game.seats()) {
    if (seat.identity_id() == 0 || seat.kind() == v1::SEAT_KIND_BUILT_IN) continue;  // the host's bots
    job.identity_ids.push_back(seat.identity_id());
    job.names.push_back(seat.name());
  }
  if (job.identity_ids.empty()) return;  // nobody with an account: bots, or anonymous seats
  if (Offer(std::move(job)) != AnalysisQueue::Offered::kFull) return;  // closed: the next start finds it
  services::LogWarning("analysis queue full: a stored game is not analysed", {{"game", game.game_id()}});
  // Said, so that reads answer "not analysed" (a request may still ask) and a
  // starting worker does not queue it again.
  if (grpc::Status s = analyses_->Skip(game.game_id(), "dropped"); !s.ok())
    services::LogWarning("analysis: cannot record a dropped game",
                         {{"game", game.game_id()}, {"error", s.error_message()}});
}

AnalysisQueue::Offered AnalysisWorker::Request(const std::string& game_id) {
  return Offer({game_id, AnalysisLine::kRequested, {}, {}});
}

bool AnalysisWorker::Pending(const std::string& game_id) const { return queue_.Holds(game_id); }

bool AnalysisWorker::Sleep(int64_t ms) {
  std::unique_lock lock(stop_mutex_);
  return !stop_cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stopping_; });
}

void AnalysisWorker::Recover() {
  std::vector<Unanalysed> owed;
  if (grpc::Status s = analyses_->Missing(NowUnixMs() - options_.recover_window_ms, int(options_.queue), &owed);
      !s.ok()) {
    services::LogWarning("analysis: cannot look for games without analysis", {{"error", s.error_message()}});
    return;
  }
  int queued = 0;
  for (Unanalysed& game : owed) {
    const AnalysisQueue::Offered offered =
        Offer({std::move(game.game_id), AnalysisLine::kStored, std::move(game.identity_ids), std::move(game.names)});
    if (offered == AnalysisQueue::Offered::kFull) break;
    queued += offered == AnalysisQueue::Offered::kQueued;
  }
  if (queued > 0)
    services::LogInfo("analysis: games without analysis queued again", {{"games", std::to_string(queued)}});
}

void AnalysisWorker::Run(bool recover_first) {
  if (recover_first) Recover();
  AnalysisJob job;
  while (queue_.Take(&job)) {
    if (metrics_) metrics_->AnalysisWaiting(LineName(job.line), queue_.waiting(job.line));
    Guarded(job);
    // Asked for while it was held as a stored game: a game of bots is analysed now.
    while (queue_.Finish(job.game_id)) {
      job.line = AnalysisLine::kRequested;
      Guarded(job);
    }
  }
}

// A job that throws (out of memory, a bug) fails alone: the worker, and the
// service around it, go on.
void AnalysisWorker::Guarded(const AnalysisJob& job) {
  try {
    Work(job);
  } catch (const std::exception& e) {
    if (metrics_) metrics_->AnalysisDone("failed", 0);
    services::LogError("analysis failed", {{"game", job.game_id}, {"error", e.what()}});
  }
}

bool AnalysisWorker::AnyPerson(const AnalysisJob& job) {
  for (size_t i = 0; i < job.identity_ids.size(); ++i) {
    bool person = false;
    const grpc::Status s = people_->IsPerson(job.identity_ids[i], job.names[i], &person);
    if (!s.ok()) {
      services::LogWarning("analysis: cannot tell whether a seat is a person; analysing the game",
                           {{"game", job.game_id}, {"name", job.names[i]}, {"error", s.error_message()}});
      return true;
    }
    if (person) return true;
  }
  return false;
}

void AnalysisWorker::Work(const AnalysisJob& job) {
  const std::string& id = job.game_id;
  auto fail = [&](const std::string& what, const grpc::Status& s) {
    if (metrics_) metrics_->AnalysisDone("failed", 0);
    services::LogWarning("analysis failed", {{"game", id}, {"step", what}, {"error", s.error_message()}});
  };
  StoredAnalysis existing;
  bool found = false;
  if (grpc::Status s = analyses_->Get(id, &existing, &found); !s.ok()) return fail("read", s);
  if (found) return;  // analysed already (a request, or a look-back after a restart)
  if (job.line == AnalysisLine::kStored && !AnyPerson(job)) {
    if (metrics_) metrics_->AnalysisDone("bots_only", 0);
    // Left for a request; not queued again by a starting worker.
    if (grpc::Status s = analyses_->Skip(id, "no_person"); !s.ok()) return fail("skip", s);
    return;
  }
  v1::CompletedGameRecord stored;
  if (grpc::Status s = games_->Load(id, &stored); !s.ok()) return fail("load", s);
  GameRecord record;
  if (grpc::Status s = CheckRecord(stored, &record.config, &record.actions); !s.ok()) return fail("replay", s);
  analysis::GameAnalysis result;
  std::string error;
  if (!analysis::AnalyseGame(record, options_.analysis, &result, &error))
    return fail("analyse", {grpc::StatusCode::INTERNAL, error});
  const StoredAnalysis row{analysis::AnalysisToJson(result), analysis::kAnalysisMethodVersion, result.cpu_seconds, 0};
  grpc::Status put;
  for (int attempt = 1; attempt <= options_.put_attempts; ++attempt) {
    put = analyses_->Put(id, row);
    if (put.ok() || put.error_code() != grpc::StatusCode::UNAVAILABLE) break;
    if (attempt < options_.put_attempts && !Sleep(options_.retry_ms * attempt)) break;
  }
  if (!put.ok()) return fail("store", put);
  if (metrics_) metrics_->AnalysisDone("analysed", result.cpu_seconds);
  services::LogInfo("game analysed", {{"game", id},
                                      {"line", LineName(job.line)},
                                      {"cpu_seconds", std::to_string(result.cpu_seconds)},
                                      {"marks", std::to_string(result.marks.size())}});
}

}  // namespace metropolis::replays
