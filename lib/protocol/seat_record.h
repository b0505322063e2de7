// What one seat saw of a game, in a form every bot kit (C++, Python, Node.js)
// computes the same way and the game checker (tests/checker) recomputes from the
// stored game: the promise "every game is stored exactly as its players saw it"
// is then checked against the players, not against the host's own account.
//
// A seat sees a game in stream sessions: each starts with a Welcome at the game's
// step W (events before W are not sent again) and receives Events messages whose
// step rises to some E. The record keeps each session's [W, E] and a SHA-256 over
// every event received, in order, each as one canonical line
//
//   "<type> <seat> <other> <a> <b> <c> <action code>\n"
//
// (decimal; the code is 0 for an event without an action). The checker replays the
// stored game, masks each event for the seat as the host does, and hashes the
// events of steps W+1..E of each session: the two digests match only if the seat
// saw exactly the stored game. A step lower than one seen before (a game resumed
// behind what a seat saw) is counted in `backwards`.
//
// One record is one JSON line (docs/FAILURES.md, "The checker"):
//   {"game":"g1","seat":2,"segments":[[0,812],[815,1460]],"events_sha256":"9f..",
//    "last_step":1460,"backwards":0,"reason":"WON","winner":1,"vp":[7,13,9,6],"actions":1460}
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace metropolis::v1 {
class Event;
class Events;
class GameResult;
class PlayUpdate;
}  // namespace metropolis::v1

namespace metropolis::protocol {

struct SeatRecord {
  std::string game_id;
  int seat = -1;
  std::vector<std::pair<uint32_t, uint32_t>> segments;  // per session: welcome step, last events step
  std::string events_sha256;                            // hex
  uint32_t last_step = 0;                               // the highest step the seat was told of
  int backwards = 0;                                    // messages whose step was below last_step
  std::string reason;                                   // END_REASON_* without the prefix, e.g. "WON"
  int winner = -1;
  std::vector<int> vp;
  uint32_t actions = 0;

  friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

// The canonical line of one event, as hashed.
std::string CanonicalEventLine(int type, int seat, int other, int a, int b, int c, uint64_t code);
std::string CanonicalEventLine(const v1::Event& event);

// Incremental SHA-256 over canonical lines.
class EventDigest {
 public:
  EventDigest();
  ~EventDigest();
  EventDigest(EventDigest&&) noexcept;
  EventDigest& operator=(EventDigest&&) noexcept;
  void Add(const std::string& line);
  std::string HexDigest() const;  // of everything added so far; Add may go on

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Fed by a seat's client with what its Play stream delivers.
class SeatLog {
 public:
  void OnWelcome(uint32_t step);
  void OnEvents(const v1::Events& events);
  void OnStep(uint32_t step);  // a decision's or any other message's step
  void OnGameOver(const v1::GameResult& result);
  SeatRecord Record(const std::string& game_id, int seat) const;
  // The highest step told of so far, for the next hello's last_step_seen
  // (nothing before the first message).
  bool seen_any() const { return seen_any_; }
  uint32_t last_step() const { return last_step_; }

 private:
  void See(uint32_t step);

  EventDigest digest_;
  std::vector<std::pair<uint32_t, uint32_t>> segments_;
  uint32_t last_step_ = 0;
  bool seen_any_ = false;
  int backwards_ = 0;
  std::string reason_;
  int winner_ = -1;
  std::vector<int> vp_;
  uint32_t actions_ = 0;
};

// The step a Play update tells of: a welcome's, events' or decision's; 0 for others.
uint32_t StepOf(const v1::PlayUpdate& update);

std::string SeatRecordToJson(const SeatRecord& record);
// Refuses anything but a complete record, with *error naming the field.
bool SeatRecordFromJson(const std::string& line, SeatRecord* out, std::string* error);

}  // namespace metropolis::protocol
