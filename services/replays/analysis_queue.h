// The analysis worker's queue: two bounded lines, one for games just stored
// (analysed if a person sat at the table) and one for games someone asked for;
// the stored line is always served first, so that people's games come before
// requests for bot games. A full line refuses the offer (the caller counts the
// drop): the analysis of a game is derived and can always be asked for again,
// so dropping work protects the service instead of queueing without bound.
// A game is in the queue at most once, from its offer until Finish; a request
// for a game held from the stored line is remembered (Finish).
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace metropolis::replays {

enum class AnalysisLine { kStored = 0, kRequested = 1 };

struct AnalysisJob {
  std::string game_id;
  AnalysisLine line = AnalysisLine::kStored;
  // kStored: the identities at the table and their names (the worker asks
  // which are people); empty for a request.
  std::vector<int64_t> identity_ids;
  std::vector<std::string> names;
};

class AnalysisQueue {
 public:
  // kClosed: stopped, nothing is queued any more.
  enum class Offered { kQueued, kAlreadyQueued, kFull, kClosed };

  explicit AnalysisQueue(size_t capacity_per_line) : capacity_(capacity_per_line) {}

  Offered Offer(AnalysisJob job);
  // Waits for a job, stored ones first; false once stopped.
  bool Take(AnalysisJob* out);
  // The game's job is done (or given up): it may be offered again. Unless
  // someone asked for the game while it was held as a stored game (which the
  // worker may have left alone as a game of bots): then the game stays held,
  // the request is taken, and true says to do the job again as requested.
  bool Finish(const std::string& game_id);
  // Offered and not finished: waiting or being worked on.
  bool Holds(const std::string& game_id) const;
  size_t waiting(AnalysisLine line) const;
  // Threads waiting in Take (tests).
  int takers() const;
  // Wakes every Take, which then return false; later offers are kClosed.
  void Stop();

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<AnalysisJob> lines_[2];
  // The games offered and not finished, and whether a request came for one
  // held from the stored line.
  std::map<std::string, bool> held_;
  bool stopped_ = false;
  int takers_ = 0;
};

}  // namespace metropolis::replays
