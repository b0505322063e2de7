// The C++ bot kit: plays one seat of a game on a Metropolis game host
// (proto/metropolis/v1/gamehost.proto) and hands the bot the engine's own
// types, so a bot written against engine/view.h (like the built-in ones in
// bots/) plays over the network unchanged.
//
//   botkit::Client client;
//   grpc::Status status = client.Run(options, [&](const View& view, const botkit::DecisionInfo& info) {
//     return view.legal[0];
//   });
//
// What Run takes care of, so that a bot only decides:
//   * the Play stream: bearer token, hello, welcome (the configuration is
//     kept), events, decisions (the view decoded with its legal actions),
//     rejections (decide is asked again, told what was refused), game over;
//   * Redirect: the game runs on another host; Run follows, a bounded number
//     of times;
//   * a dropped stream: the host's fallback bot plays the seat meanwhile, and
//     reconnecting continues where the game stands, so Run reconnects with
//     exponential backoff, a bounded number of consecutive attempts.
// Run returns OK once the game is over (whatever its end reason); otherwise the
// gRPC status that ended it, with a message saying what was tried.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/event.h"
#include "engine/view.h"
#include "lib/protocol/seat_record.h"
#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::botkit {

struct Options {
  std::string host;  // HOST:PORT, plaintext gRPC
  // Other game hosts (Assignment.other_hosts). When the game's host cannot be
  // reached, reconnecting tries them in turn: the host that took the game over
  // from a dead one plays it, and any other sends the seat there.
  std::vector<std::string> other_hosts;
  std::string game_id;
  std::string token;  // the seat's token from CreateGame
  // Replace a stream that already plays the seat (PlayHello.take_over).
  bool take_over = false;
  // Ask for the readable text of legal actions and events (DecisionInfo::legal_text).
  bool want_text = false;
  // Ask for the events owed at a decision inside it (CAPABILITY_EVENTS_IN_DECISION):
  // one message per decision instead of two. The callbacks see the same events
  // in the same order either way.
  bool events_in_decision = true;
  // Ask for views as deltas against the last decision answered
  // (CAPABILITY_VIEW_DELTAS): about a sixth of the bytes, for more of the
  // host's CPU (docs/PERFORMANCE.md); the kit rebuilds each whole view before
  // the decider sees it. Off by default: whole views are the protocol's default.
  bool view_deltas = false;

  // Redirects followed in a row (without a welcome between) before giving up:
  // a host pointing at a host pointing back must not loop.
  int max_redirects = 3;
  // Consecutive failed attempts to reconnect after a stream that had been
  // welcomed drops. The first connection is not retried (a wrong address or
  // token should fail at once, not after a minute of backoff), except when its
  // host is unreachable and other_hosts are known: that host may have died with
  // the game, which another host then takes over. 20 attempts with the backoff
  // below are about 70 s: longer than a host restarted in place takes to come
  // back, or a dead host's lease to lapse, which the seat's game waits for.
  int max_reconnect_attempts = 20;
  int reconnect_initial_backoff_ms = 250;  // doubles per failed attempt
  int reconnect_max_backoff_ms = 4000;
  // After the game is over the host ends the stream; a host that does not is
  // hung up on after this long.
  int finish_grace_ms = 5000;

  // Testing aids for the host's tests (not for real bots):
  // once `disconnect_after` decisions are answered, drop the stream when the
  // next decision arrives (unanswered, so the fallback bot must play it), wait
  // `reconnect_delay_ms`, and reconnect. 0 = never.
  int disconnect_after = 0;
  int reconnect_delay_ms = 500;
  // Once `stall_after` decisions are answered, answer nothing more but keep
  // the stream open and read on to the game's end (deadlines run out). 0 = never.
  int stall_after = 0;
};

// What the bot knows about a decision besides its view.
struct DecisionInfo {
  uint32_t step = 0;  // the game's step; the answer is sent with it
  int seat = kNoSeat;
  const GameConfig* config = nullptr;   // the game's, from the welcome
  uint32_t decision_ms_left = 0;        // until the per-decision limit
  uint32_t time_bank_ms_left = 0;       // the bank left after that
  std::vector<std::string> legal_text;  // with Options::want_text: the text of each of view.legal
  // Earlier answers to this same decision the host refused, oldest first, and
  // the reason it gave for the last one. Answer with another action: the
  // client never sends a refused action twice for one decision (it then
  // leaves the decision to the host's fallback bot).
  std::vector<Action> rejected;
  std::string rejected_error;
  // The debug channel (docs/GAMEHOST.md, "Debug notes"): what the decider
  // writes here goes with its answer, for the bot's author alone to read after
  // the game. Empty for each decision; a note past 256 bytes is cut at a
  // character boundary (the host would refuse the answer).
  struct Note {
    std::string text;
    std::optional<double> evaluation;  // finite, in the bot's own units
  };
  Note* note = nullptr;
  // Set *resign to resign the seat instead of answering (PlayAnswer.resign):
  // the returned action is not sent, and the game ends at once for every
  // seat, stored as resigned with this seat last (docs/GAMEHOST.md,
  // "Resigning"). False for each decision.
  bool* resign = nullptr;
};

using DecisionFn = std::function<Action(const View& view, const DecisionInfo& info)>;

// Sets `answer`'s debug from `note` (nothing when it is empty): the text cut to
// the host's 256 bytes at a UTF-8 character boundary, the evaluation only when
// finite (the host refuses an answer with any other).
void AttachNote(const DecisionInfo::Note& note, v1::PlayAnswer* answer);

struct WelcomeInfo {
  std::string game_id;
  std::string host;  // the host that sent it (after redirects)
  int seat = kNoSeat;
  GameConfig config;
  uint32_t step = 0;                     // actions applied so far
  bool reconnected = false;              // a welcome after a dropped stream or a redirect
  const v1::Welcome* message = nullptr;  // players and deadlines
};

// Optional hooks; all are called on the thread that called Run.
struct Callbacks {
  std::function<void(const WelcomeInfo&)> on_welcome;
  // What happened, as the seat may see it; `step` is the game's step after them.
  std::function<void(uint32_t step, const std::vector<Event>& events)> on_events;
  std::function<void(const v1::GameResult& result)> on_game_over;
  // Progress worth a line in a log: connections, rejections, reconnects.
  std::function<void(std::string_view message)> on_log;
};

// Counts of one Run, for a summary.
struct RunStats {
  int seat = kNoSeat;
  uint32_t decisions_received = 0;
  uint32_t decisions_answered = 0;
  uint32_t rejections = 0;
  uint32_t reconnects = 0;  // streams opened again after a drop
  uint32_t redirects = 0;
  bool game_over = false;
  v1::GameResult result;  // when game_over
};

class Client {
 public:
  // Plays the seat until the game is over, the host refuses the seat, or the
  // reconnect budget runs out. `decide` is called for each decision with the
  // seat's view (view.legal holds the legal actions) and must return one of
  // them, or a trade offer or counter it builds.
  grpc::Status Run(const Options& options, DecisionFn decide, const Callbacks& callbacks = {});

  const RunStats& stats() const { return stats_; }
  // What the seat saw of the game (lib/protocol/seat_record.h), for the checker.
  protocol::SeatRecord record() const { return seat_log_.Record(options_.game_id, stats_.seat); }

 private:
  struct Stream;  // one Play stream's state (client.cc)
  // kLocalError: we hung up on a message we could not read (never retried);
  // kFailed: the stream failed or the host refused it (*status from gRPC).
  enum class StreamEnd { kGameOver, kRedirect, kDroppedByUs, kLocalError, kFailed };

  // The wait before the next attempt after `failed_attempts` failed ones.
  int Backoff(int failed_attempts) const;
  StreamEnd PlayOnce(const std::string& host, bool reconnecting, grpc::Status* status, std::string* redirect);
  // Handles one update; false ends the stream (game over, redirect, or a
  // protocol error in *status).
  bool Handle(Stream& s, const v1::PlayUpdate& update, grpc::Status* status, std::string* redirect);
  void HandleEvents(const v1::Events& events);
  bool HandleDecision(Stream& s, const v1::Decision& decision, grpc::Status* status);
  bool HandleRejected(Stream& s, const v1::Rejected& rejected);
  // Asks `decide_` for the pending decision and sends the answer, unless the
  // action was refused before for this decision.
  bool Answer(Stream& s);
  void Log(std::string_view message) const;

  Options options_;
  DecisionFn decide_;
  Callbacks callbacks_;
  RunStats stats_;
  protocol::SeatLog seat_log_;
  GameConfig config_;
  bool welcomed_ = false;         // some stream of this Run was welcomed
  bool stream_welcomed_ = false;  // the last stream that failed was welcomed first
  bool dropped_for_test_ = false;
};

// Whether a stream that ended with `code` after it had been welcomed is worth
// reconnecting: the connection or the host failed, not the request.
// `reconnecting`: ALREADY_EXISTS then means the host has not yet noticed that
// our previous stream is gone, which resolves itself.
bool RetryableAfterDrop(grpc::StatusCode code, bool reconnecting);

// "UNAVAILABLE", "NOT_FOUND", ...
std::string StatusCodeName(grpc::StatusCode code);

}  // namespace metropolis::botkit
