// Computing games' analyses off the request path (docs/ANALYSIS.md, "The
// service"): a stored game with a person at the table is queued as it is
// stored; any game when someone asks (RequestAnalysis). Worker threads take
// jobs from a bounded queue (analysis_queue.h), stored games first, replay
// the game from the store, analyse it (analysis/analyse.h) and keep the result
// in the AnalysisStore. A full queue drops the job and counts it. A restarted
// worker looks for the recent games with identities that still lack an
// analysis, so a queue lost in a crash is rebuilt from the tables.
#pragma once

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "analysis/analyse.h"
#include "metropolis/v1/replays.pb.h"
#include "services/replays/analysis_queue.h"
#include "services/replays/analysis_store.h"
#include "services/replays/people.h"
#include "services/replays/replay_store.h"

namespace metropolis::replays {

class ReplaysMetrics;

// What the replays logic (replays.h) asks of the worker.
class AnalysisScheduler {
 public:
  virtual ~AnalysisScheduler() = default;
  // A game was stored for the first time.
  virtual void Stored(const v1::CompletedGameRecord& game) = 0;
  // Someone asks for the game's analysis.
  virtual AnalysisQueue::Offered Request(const std::string& game_id) = 0;
  // Queued or being analysed.
  virtual bool Pending(const std::string& game_id) const = 0;
};

struct AnalysisWorkerOptions {
  int threads = 1;
  size_t queue = 1000;  // jobs per line (stored, requested)
  analysis::AnalysisOptions analysis;
  // How far back a restarted worker looks for games it still owes.
  int64_t recover_window_ms = 7LL * 24 * 3600 * 1000;
  // Writes of a finished analysis tried this many times, a second apart and
  // more, before it is given up (the next restart's look-back finds it again).
  int put_attempts = 3;
  int64_t retry_ms = 1000;
};

class AnalysisWorker final : public AnalysisScheduler {
 public:
  // `metrics` may be null.
  AnalysisWorker(ReplayStore* games, AnalysisStore* analyses, People* people, ReplaysMetrics* metrics,
                 AnalysisWorkerOptions options);
  ~AnalysisWorker() override;

  // Starts the threads; the first one looks back for owed games before its
  // first job. Without Start, jobs wait in the queue (tests fill it so).
  void Start();
  // Stops taking jobs and waits for the ones in progress.
  void Stop();

  void Stored(const v1::CompletedGameRecord& game) override;
  AnalysisQueue::Offered Request(const std::string& game_id) override;
  bool Pending(const std::string& game_id) const override;

 private:
  AnalysisQueue::Offered Offer(AnalysisJob job);
  void Recover();
  void Run(bool recover_first);
  void Work(const AnalysisJob& job);
  void Guarded(const AnalysisJob& job);
  // Whether a person sat at the table; an identity the directory cannot place
  // counts as one (the analysis is then done rather than lost).
  bool AnyPerson(const AnalysisJob& job);
  bool Sleep(int64_t ms);

  ReplayStore* games_;
  AnalysisStore* analyses_;
  People* people_;
  ReplaysMetrics* metrics_;
  const AnalysisWorkerOptions options_;
  AnalysisQueue queue_;
  std::vector<std::thread> threads_;
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
};

}  // namespace metropolis::replays
