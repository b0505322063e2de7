// gateway_streams' reference: a game watched directly on the host
// (GameHost.Spectate, the gateway's own upstream), against which every
// delivery through the gateway is timed (bench/gateway_streams.cc says how).
#pragma once

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bench/gamehost_load_wire.h"
#include "bench/load_stats.h"
#include "metropolis/v1/gamehost.grpc.pb.h"

namespace metropolis::load {

// What gateway_streams counts: its streams, and the deliveries matched here.
enum Count {
  kAttempted,      // connections started
  kOpened,         // answered 200
  kRefused,        // answered another status
  kNoAnswer,       // failed or closed before an answer's head
  kEndedCleanly,   // game_over, then the stream's end
  kDropped,        // ended by the gateway before the game's end
  kCut,            // still open kEndGraceNs after the game ended on the host
  kOpenAtStop,     // open when the program stopped
  kMalformed,      // an answer this program could not read
  kErrorEvents,    // "error" events
  kEvents,         // "events" messages delivered
  kViews,          // "view" messages delivered
  kBytes,          // body bytes read
  kMatched,        // delivery timed
  kMatchedMerged,  // ... against a direct message that merged several steps
  kGatewayFirst,   // ... where the gateway's copy came first (timed as 0)
  kHistory,        // the direct stream had it before the gateway stream was opened: not timed
  kUnmatched,      // never on the direct stream
  kGamesWatched,   // direct streams that got their welcome
  kDirectFailed,   // direct streams that ended without one
  kNumCounts
};
using CountValues = Counters<Count>::Snapshot;

// What the streams and the references count, from any thread.
struct Tally {
  Counters<Count> counters;
  Histogram delivery;  // events messages
  Histogram game_over;
  std::atomic<int64_t> direct_running{0};  // direct streams not done yet
};

class Reference;
using SpectateStub = grpc::TemplatedGenericStub<v1::SpectateRequest, grpc::ByteBuffer>;

// The direct stream (a bidi call on the wire of the server-streaming method:
// the generic stub has no other streaming form). Deletes itself in OnDone.
class DirectStream final : public grpc::ClientBidiReactor<v1::SpectateRequest, grpc::ByteBuffer> {
 public:
  explicit DirectStream(std::shared_ptr<Reference> ref) : ref_(std::move(ref)) {}
  void Start(SpectateStub* stub, const std::string& game_id, const std::string& token);
  void Cancel() { context_.TryCancel(); }
  void OnReadDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  std::shared_ptr<Reference> ref_;
  grpc::ClientContext context_;
  v1::SpectateRequest request_;
  grpc::ByteBuffer update_;
};

// A game watched directly on the host: when each step arrived, and the
// gateway's deliveries that came before theirs.
class Reference : public std::enable_shared_from_this<Reference> {
 public:
  Reference(Tally* tally, std::string game_id) : tally_(tally), game_id_(std::move(game_id)) {}
  void Start(SpectateStub* stub, const std::string& token);
  void Cancel();

  const std::string& game_id() const { return game_id_; }
  bool live() const { return live_.load(std::memory_order_acquire); }    // the welcome came
  bool over() const { return over_.load(std::memory_order_acquire); }    // game_over came
  bool ended() const { return ended_.load(std::memory_order_acquire); }  // the stream is done
  int64_t ended_ns() const { return ended_ns_.load(std::memory_order_acquire); }

  // From a gateway stream opened at `opened_ns`.
  void GatewayEvents(uint32_t step, int64_t at_ns, int64_t opened_ns);
  void GatewayOver(int64_t at_ns, int64_t opened_ns);
  // What is still waiting for the direct stream will not be matched.
  void GiveUp();

  // From the direct stream.
  void DirectUpdate(const SpectateSummary& s, int64_t at_ns);
  void DirectDone();
  void Malformed();

 private:
  struct Pending {
    uint32_t step;
    bool over;
    int64_t at_ns, opened_ns;
  };
  void TimeLocked(const Pending& p, int64_t direct_ns, bool exact);

  Tally* const tally_;
  const std::string game_id_;
  std::atomic<bool> live_{false}, over_{false}, ended_{false};
  std::atomic<int64_t> ended_ns_{0};
  std::mutex mutex_;
  DirectStream* direct_ = nullptr;  // until its OnDone
  uint32_t welcome_step_ = 0;
  std::map<uint32_t, int64_t> arrivals_;  // step -> when the direct stream had it
  int64_t over_ns_ = 0;
  std::vector<Pending> pending_;  // gateway deliveries the direct stream has not had yet
};

}  // namespace metropolis::load
